// Result files given one per training seed (`posbias seeds`, the report sections that summarize
// over seeds): each file once, and the training runs they measured seeds of one configuration,
// as far as the files (or their runs' train.json) say.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace posbias {

// Training seeds a summary takes.
inline constexpr std::size_t kMaxSeeds = 1024;

// std::invalid_argument "'FILE' is given twice; each seed once" when a file repeats.
void require_distinct_files(const std::vector<std::string>& files);

struct TrainConfig;

// The training run a result file measured, as far as the file says: the run's configuration
// when the file holds it (summary.json's, which kv and passkey eval results copy), and the run
// folder it names, whose train.json gives the configuration when the file has none. Both come
// from the result's own record, read strictly by its field table (a mistyped or unknown field
// is refused naming it); a run's train.json is read as a RunHeader (run_header.h).
struct RunConfig {
  std::string file;  // the result file
  std::string run;   // the run folder the file names; empty when none
  std::string from;  // where `fields` were read (the file, or RUN/train.json); empty: unknown
  // Each config field → its JSON text as train.json writes the record, the seed written as 0.
  std::map<std::string, std::string> fields;
  std::optional<std::int64_t> seed;  // config.seed; none when the configuration is unknown
};
// What the record of result file `source` says (reads no other file): `run`, the run folder it
// names (empty, or past 4096 bytes: none), and `config`, the configuration it holds (nullptr:
// none). std::runtime_error "'FILE': ..." for a seed out of range.
RunConfig run_config(const std::string& source, const std::string& run,
                     const TrainConfig* config = nullptr);

// Files given one per training seed must be seeds of one configuration: by_option[k][s] is
// option k's file for the s-th seed (options in the same seed order). A file that holds no
// configuration gets its run's train.json's. Throws std::runtime_error (one line) naming two
// files and the first field in which their runs differ (any field but the seed; a field one
// run's record writes only when set, such as a remedy's, is "unset" in the other), two seed
// places that hold one seed, one seed place whose files are of different seeds, or a run's
// train.json the strict reader refuses ("'RUN/train.json': train.json field 'config': ..."). Files
// whose configuration is nowhere to be found (the run folder they name is not here, or files
// of an earlier build) cannot be checked: returns how many, and the first in `example`.
std::size_t require_one_configuration(std::vector<std::vector<RunConfig>> by_option,
                                      std::string* example = nullptr);
// One line on stderr when `unchecked` files could not be checked (nothing when 0).
void note_unchecked_configurations(std::size_t unchecked, std::size_t files,
                                   const std::string& example);

}  // namespace posbias
