#include "posbias/stats/seed_interval_record.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace posbias {

const std::vector<FieldRow<SeedInterval>>& seed_interval_fields() {
  using I = SeedInterval;
  static const std::vector<FieldRow<I>> rows = {
      required(field<I, double, NanAsNull>("mean", &I::mean, "the mean over the seeds")),
      field<I, double, NanAsNull>("low", &I::low, "the 95% Student-t interval's low end"),
      field<I, double, NanAsNull>("high", &I::high, "the 95% Student-t interval's high end"),
      field("n", &I::n, "the seeds with a value"),
  };
  return rows;
}

namespace {

// A whole number, or null for a value there is none of.
struct WholeOrNull {
  static constexpr const char* type = "INT";
  static nlohmann::json write(double v) {
    return std::isfinite(v) ? nlohmann::json(static_cast<std::int64_t>(v)) : nullptr;
  }
  static double read(const nlohmann::json& j, const std::string& what) {
    if (j.is_null()) return NAN;
    return static_cast<double>(FieldCodec<std::int64_t>::read(j, what));
  }
};

// The interval's rows and each seed's value, written by `Value`.
template <class Value>
std::vector<FieldRow<SeedStatistic>> statistic_rows() {
  using S = SeedStatistic;
  std::vector<FieldRow<S>> r = member_fields(&S::interval, seed_interval_fields());
  r.push_back(field<S, std::vector<double>, ListCodec<double, Value>>(
      "values", &S::values, "each seed's value (null: the seed has none)"));
  return r;
}

}  // namespace

const std::vector<FieldRow<SeedStatistic>>& seed_statistic_fields() {
  static const std::vector<FieldRow<SeedStatistic>> rows = statistic_rows<NanAsNull>();
  return rows;
}

const std::vector<FieldRow<SeedStatistic>>& whole_statistic_fields() {
  static const std::vector<FieldRow<SeedStatistic>> rows = statistic_rows<WholeOrNull>();
  return rows;
}

nlohmann::json to_json(const SeedInterval& i) { return fields_to_json(seed_interval_fields(), i); }

nlohmann::json to_json(const SeedStatistic& s) {
  return fields_to_json(seed_statistic_fields(), s);
}

Series band_series(const std::string& title, const std::vector<double>& x,
                   const std::vector<SeedInterval>& y) {
  Series s;
  s.title = title;
  s.style = "linespoints";
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(y[i].mean)) continue;
    s.x.push_back(x[i]);
    s.y.push_back(y[i].mean);
    s.y_low.push_back(std::isfinite(y[i].low) ? y[i].low : y[i].mean);
    s.y_high.push_back(std::isfinite(y[i].high) ? y[i].high : y[i].mean);
  }
  return s;
}

std::string format_interval(const SeedInterval& i, int decimals) {
  if (!std::isfinite(i.low) || !std::isfinite(i.high))
    return fmt::format("{:.{}f}", i.mean, decimals);
  return fmt::format("{:.{}f} [{:.{}f}, {:.{}f}]", i.mean, decimals, i.low, decimals, i.high,
                     decimals);
}

std::string csv_cell(double x) { return csv_general(x, 6); }

std::vector<CsvColumn<SeedInterval>> interval_columns(const std::string& mean) {
  std::vector<FieldRow<SeedInterval>> numbers;  // the count, an integer, is not one
  for (const FieldRow<SeedInterval>& row : seed_interval_fields())
    if (row.type == FieldCodec<double>::type) numbers.push_back(row);
  std::vector<CsvColumn<SeedInterval>> out = csv_field_columns(numbers, &csv_cell);
  out.front().name = mean;
  return out;
}

}  // namespace posbias
