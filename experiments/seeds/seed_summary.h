// What every summary over training seeds (`posbias seeds`) shares. Reading result files that
// may hold anything: each field is checked where it enters, and a bad one is a one-line
// std::runtime_error "'FILE': ..." naming the file and the field. A statistic over seeds: each
// seed's value beside the mean and its 95% Student-t interval (theory/seed_interval.h), as JSON
// {"mean", "low", "high", "n", "values"} (null for a value a seed does not have) and as a
// figure series with a band.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/theory/seed_interval.h"

namespace posbias {

// The largest result file a summary reads, and its name in the error message.
inline constexpr std::uintmax_t kMaxSeedFileBytes = std::uintmax_t{512} << 20;
inline constexpr const char* kMaxSeedFileName = "512 MiB";
// Training seeds a summary takes.
inline constexpr std::size_t kMaxSeeds = 1024;

[[noreturn]] void result_error(const std::string& source, const std::string& what);
// The text as JSON ("'source': is not valid JSON" otherwise).
nlohmann::json parse_result_json(const std::string& text, const std::string& source);
// The file, read within kMaxSeedFileBytes, as JSON.
nlohmann::json read_result_json(const std::string& path);

// j[key]: "'source': has no "parent.key" (is it a `posbias <kind>` result?)" when j is not an
// object or has no such key. `parent` names where j sits in the file ("" at the top).
const nlohmann::json& result_field(const nlohmann::json& j, const std::string& key,
                                   const std::string& source, const char* kind,
                                   const std::string& parent = "");
double finite_number(const nlohmann::json& j, const std::string& source, const std::string& name);
// j[key] as a number, NaN for null or a missing key.
double optional_number(const nlohmann::json& j, const char* key, const std::string& source,
                       const std::string& name);
std::int64_t bounded_integer(const nlohmann::json& j, const std::string& source,
                             const std::string& name, std::int64_t low, std::int64_t high);
// An array of exactly `size` finite numbers (each > 0 when `positive`).
std::vector<double> number_row(const nlohmann::json& j, const std::string& source,
                               const std::string& name, std::size_t size, bool positive);
// A string of 1..max_size bytes.
std::string result_string(const nlohmann::json& j, const std::string& source,
                          const std::string& name, std::size_t max_size = 256);

// std::invalid_argument "'FILE' is given twice; each seed once" when a file repeats.
void require_distinct_files(const std::vector<std::string>& files);

struct SeedStatistic {
  std::vector<double> values;  // one per seed (NaN where a seed has none)
  SeedInterval interval;       // over the finite values
};
SeedStatistic seed_statistic(std::vector<double> values);

nlohmann::json to_json(const SeedInterval& interval);
nlohmann::json to_json(const SeedStatistic& statistic);

// The means against x with their 95% band (a bound that is not finite falls back to the mean);
// points whose mean is not finite are left out.
Series band_series(const std::string& title, const std::vector<double>& x,
                   const std::vector<SeedInterval>& y);
// The axes of every accuracy-against-input-length figure: log-scale length, accuracy 0..1.
Panel accuracy_length_panel(const std::string& title, const std::string& key);
// "mean [low, high]" with `decimals` decimals; the mean alone without an interval (one seed).
std::string format_interval(const SeedInterval& interval, int decimals = 3);
// A CSV cell: the value with 6 significant digits, empty when it is not finite.
std::string csv_cell(double x);
// The interval as three CSV cells: "mean,low,high".
std::string csv_interval(const SeedInterval& interval);

}  // namespace posbias
