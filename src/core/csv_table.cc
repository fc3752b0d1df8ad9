#include "posbias/core/csv_table.h"

#include <cmath>
#include <cstdio>
#include <numeric>

#include "posbias/core/csv.h"

namespace posbias {

std::string csv_general(double v, int digits) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string csv_shortest_json(double v) {
  return std::isfinite(v) ? nlohmann::json(v).dump() : std::string();
}

std::vector<std::size_t> csv_indices(std::size_t n) {
  std::vector<std::size_t> out(n);
  std::iota(out.begin(), out.end(), std::size_t{0});
  return out;
}

std::string csv_json_cell(const nlohmann::json& value, const CsvNumber& number) {
  if (value.is_string()) return csv_quoted(value.get<std::string>());
  if (value.is_null()) return "";
  if (value.is_number_float()) return number(value.get<double>());
  return value.dump();
}

}  // namespace posbias
