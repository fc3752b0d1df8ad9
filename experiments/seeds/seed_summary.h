// What every summary over training seeds (`posbias seeds`) shares. Reading result files that
// may hold anything: each field is checked where it enters, and a bad one is a one-line
// std::runtime_error "'FILE': ..." naming the file and the field. A statistic over seeds: each
// seed's value beside the mean and its 95% Student-t interval (stats/seed_interval.h), as JSON
// (seed_statistic_fields) and as a figure series with a band.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/core/csv_table.h"
#include "posbias/core/field_table.h"
#include "posbias/core/plot.h"
#include "posbias/stats/seed_interval.h"

namespace posbias {

// The largest result file a summary reads, and its name in the error message.
inline constexpr std::uintmax_t kMaxSeedFileBytes = std::uintmax_t{512} << 20;
inline constexpr const char* kMaxSeedFileName = "512 MiB";
// Training seeds a summary takes.
inline constexpr std::size_t kMaxSeeds = 1024;

[[noreturn]] void result_error(const std::string& source, const std::string& what);
// `read(in)`, a field table's strict reader (or a check of what it read), with its
// std::invalid_argument (the field named) as result_error's one line naming the file.
template <class Read, class In>
auto read_result_table(Read read, const In& in, const std::string& source) {
  try {
    return read(in);
  } catch (const std::invalid_argument& e) {
    result_error(source, e.what());
  }
}
// The text as JSON ("'source': is not valid JSON" otherwise).
nlohmann::json parse_result_json(const std::string& text, const std::string& source);
// The file, read within kMaxSeedFileBytes, as JSON.
nlohmann::json read_result_json(const std::string& path);

// j[key]: "'source': has no "parent.key" (is it a `posbias <kind>` result?)" when j is not an
// object or has no such key. `parent` names where j sits in the file ("" at the top).
const nlohmann::json& result_field(const nlohmann::json& j, const std::string& key,
                                   const std::string& source, const char* kind,
                                   const std::string& parent = "");
std::int64_t bounded_integer(const nlohmann::json& j, const std::string& source,
                             const std::string& name, std::int64_t low, std::int64_t high);
// A string of 1..max_size bytes.
std::string result_string(const nlohmann::json& j, const std::string& source,
                          const std::string& name, std::size_t max_size = 256);

// std::invalid_argument "'FILE' is given twice; each seed once" when a file repeats.
void require_distinct_files(const std::vector<std::string>& files);

// The training run a result file measured, as far as the file says: the run's configuration
// (train.json's "config") when the file holds it (summary.json's "config", or a result's
// "train_config"), and the run folder it names ("run", or heads' "source"."run"), whose
// train.json gives the configuration when the file has none.
struct RunConfig {
  std::string file;  // the result file
  std::string run;   // the run folder the file names; empty when none
  std::string from;  // where `fields` were read (the file, or RUN/train.json); empty: unknown
  std::map<std::string, std::string> fields;  // config field → its JSON text, "seed" left out
  std::optional<std::int64_t> seed;           // config.seed
};
// What the result file's JSON says (reads no other file).
RunConfig run_config(const nlohmann::json& result, const std::string& source);

// Files given one per training seed must be seeds of one configuration: by_option[k][s] is
// option k's file for the s-th seed (options in the same seed order). A file that holds no
// configuration gets its run's train.json's. Throws std::runtime_error (one line) naming two
// files and the first field in which their runs differ (any field but the seed), two seed
// places that hold one seed, or one seed place whose files are of different seeds. Files
// whose configuration is nowhere to be found (the run folder they name is not here, or files
// of an earlier build) cannot be checked: returns how many, and the first in `example`.
std::size_t require_one_configuration(std::vector<std::vector<RunConfig>> by_option,
                                      std::string* example = nullptr);
// One line on stderr when `unchecked` files could not be checked (nothing when 0).
void note_unchecked_configurations(std::size_t unchecked, std::size_t files,
                                   const std::string& example);

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
// The axes of every accuracy-against-input-length figure: log-scale length, accuracy 0..1.
Panel accuracy_length_panel(const std::string& title);
// "mean [low, high]" with `decimals` decimals; the mean alone without an interval (one seed).
std::string format_interval(const SeedInterval& interval, int decimals = 3);
// A CSV cell: the value with 6 significant digits, empty when it is not finite.
std::string csv_cell(double x);
// An interval's CSV columns: its numbers from seed_interval_fields (the mean, named `mean` here,
// low and high; csv_cell), its count of seeds left to each file's own column.
std::vector<CsvColumn<SeedInterval>> interval_columns(const std::string& mean = "mean");

}  // namespace posbias
