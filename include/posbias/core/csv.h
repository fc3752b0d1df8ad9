// A small, bounds-checked CSV reader for untrusted profile files: comma-separated, one
// header line, no quoting. Limits on file size, line length and columns keep hostile input
// from allocating wildly. Errors name the file, line and column.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace posbias {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;  // every cell parsed as a finite double
  // Index of a column by name, or -1.
  int column(const std::string& name) const;
};

constexpr std::size_t kMaxCsvBytes = std::size_t{1} << 30;
constexpr std::size_t kMaxCsvColumns = 4096;

CsvTable read_numeric_csv(const std::filesystem::path& path);
CsvTable parse_numeric_csv(const std::string& text, const std::string& name);

// A text field for a CSV we write: in double quotes, inner quotes doubled (RFC 4180), so a
// comma, quote or newline in it cannot shift the columns.
std::string csv_quoted(const std::string& field);

}  // namespace posbias
