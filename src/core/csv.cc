#include "posbias/core/csv.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "posbias/core/bounded_read.h"

namespace posbias {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    std::string cell =
        line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\r' || cell.back() == '\t'))
      cell.pop_back();
    std::size_t lead = 0;
    while (lead < cell.size() && (cell[lead] == ' ' || cell[lead] == '\t')) ++lead;
    out.push_back(cell.substr(lead));
    if (out.size() > kMaxCsvColumns) throw std::runtime_error("too many columns");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

int CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

CsvTable parse_numeric_csv(const std::string& text, const std::string& name) {
  CsvTable table;
  std::istringstream in(text);
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line == "\r" || line[0] == '#') continue;
    std::vector<std::string> cells;
    try {
      cells = split(line);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(name + ":" + std::to_string(line_no) + ": " + e.what());
    }
    if (table.header.empty()) {
      table.header = std::move(cells);
      continue;
    }
    if (cells.size() != table.header.size()) {
      throw std::runtime_error(name + ":" + std::to_string(line_no) + ": expected " +
                               std::to_string(table.header.size()) + " columns, got " +
                               std::to_string(cells.size()));
    }
    std::vector<double> row(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string& cell = cells[c];
      const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), row[c]);
      if (ec != std::errc() || ptr != cell.data() + cell.size() || !std::isfinite(row[c])) {
        throw std::runtime_error(name + ":" + std::to_string(line_no) + ": column '" +
                                 table.header[c] + "' is not a finite number: '" +
                                 cell.substr(0, 40) + "'");
      }
    }
    table.rows.push_back(std::move(row));
  }
  if (table.header.empty()) throw std::runtime_error(name + ": empty CSV (no header line)");
  return table;
}

std::string csv_quoted(const std::string& field) {
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

CsvTable read_numeric_csv(const std::filesystem::path& path) {
  return parse_numeric_csv(read_bounded_file(path, kMaxCsvBytes, "1 GiB CSV"), path.string());
}

}  // namespace posbias
