// A seed interval and a statistic over seeds (seed_interval.h) as result files, CSV tables, text
// and figures show them: one field table each for the JSON (a statistic's each seed's value
// beside the interval), the interval's CSV columns from the same table, "mean [low, high]" for
// text, and a series with a band for a figure.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/csv_table.h"
#include "posbias/core/field_table.h"
#include "posbias/core/plot.h"
#include "posbias/stats/seed_interval.h"

namespace posbias {

// An interval's and a statistic's JSON (a statistic's each seed's value beside the interval):
// one table each.
const std::vector<FieldRow<SeedInterval>>& seed_interval_fields();
const std::vector<FieldRow<SeedStatistic>>& seed_statistic_fields();
template <>
struct FieldCodec<SeedInterval> : TableCodec<SeedInterval, &seed_interval_fields> {};
template <>
struct FieldCodec<SeedStatistic> : TableCodec<SeedStatistic, &seed_statistic_fields> {};
nlohmann::json to_json(const SeedInterval& interval);
nlohmann::json to_json(const SeedStatistic& statistic);
// A statistic of whole numbers (steps, head counts): seed_statistic_fields with each seed's
// value written as an integer (null where a seed has none), and read back only as one.
const std::vector<FieldRow<SeedStatistic>>& whole_statistic_fields();
using WholeStatisticCodec = TableCodec<SeedStatistic, &whole_statistic_fields>;
// A statistic per length, hop or head, keyed by its name ("17", "all", "L0.h0").
using StatisticMap = std::map<std::string, SeedStatistic>;
using WholeStatisticMapCodec = MapCodec<SeedStatistic, WholeStatisticCodec>;

// The means against x with their 95% band (a bound that is not finite falls back to the mean);
// points whose mean is not finite are left out.
Series band_series(const std::string& title, const std::vector<double>& x,
                   const std::vector<SeedInterval>& y);
// "mean [low, high]" with `decimals` decimals; the mean alone without an interval (one seed).
std::string format_interval(const SeedInterval& interval, int decimals = 3);
// A CSV cell: the value with 6 significant digits, empty when it is not finite.
std::string csv_cell(double x);
// An interval's CSV columns: its numbers from seed_interval_fields (the mean, named `mean` here,
// low and high; csv_cell), its count of seeds left to each file's own column.
std::vector<CsvColumn<SeedInterval>> interval_columns(const std::string& mean = "mean");

}  // namespace posbias
