#include "posbias/runfiles/seed_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/runfiles/train_config.h"

namespace posbias {

void require_distinct_files(const std::vector<std::string>& files) {
  std::set<std::filesystem::path> seen;
  for (const auto& f : files)
    if (!seen.insert(std::filesystem::weakly_canonical(f)).second)
      throw std::invalid_argument("'" + f + "' is given twice; each seed once");
}

namespace {

// The largest train.json a configuration is read from.
constexpr std::uintmax_t kMaxRunHeaderBytes = std::uintmax_t{16} << 20;

// A JSON value in a one-line message: as JSON (control characters escaped), at most 40 bytes.
std::string short_json(const std::string& dumped) {
  return dumped.size() <= 40 ? dumped : dumped.substr(0, 37) + "...";
}

// A field's JSON text, "unset" for a field the record writes only when set (a remedy's).
std::string field_text(const RunConfig& r, const std::string& key) {
  const auto it = r.fields.find(key);
  return it == r.fields.end() ? "unset" : it->second;
}

// The run's configuration as its record: every field as train.json writes it, the seed set to 0
// in `fields` (runs differ in it) and kept in `seed`.
void set_config(TrainConfig config, const std::string& source, RunConfig& r) {
  r.seed = bounded_integer(config.seed, source, "config.seed", 0,
                           std::numeric_limits<std::int64_t>::max());
  config.seed = 0;
  const nlohmann::json written = train_config_to_json(config);
  r.fields.clear();
  for (const auto& [key, value] : written.items()) r.fields[key] = value.dump();
  r.from = source;
}

// The configuration of a file that holds none, from its run's train.json when that is here
// (read strictly: a damaged one is refused naming the field).
void load_run_config(RunConfig& r) {
  if (!r.from.empty() || r.run.empty()) return;
  const std::filesystem::path header = std::filesystem::path(r.run) / "train.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(header, ec)) return;
  const std::string source = header.string();
  const nlohmann::json j =
      parse_result_json(read_bounded_file(source, kMaxRunHeaderBytes, "16 MiB"), source);
  set_config(read_result_table(run_header_from_json, j, source).config, source, r);
}

}  // namespace

RunConfig run_config(const std::string& source, const std::string& run, const TrainConfig* config) {
  RunConfig r;
  r.file = source;
  if (config) set_config(*config, source, r);
  if (run.size() <= 4096) r.run = run;
  return r;
}

std::size_t require_one_configuration(std::vector<std::vector<RunConfig>> by_option,
                                      std::string* example) {
  std::size_t places = 0;
  std::vector<const RunConfig*> unknown;
  const RunConfig* reference = nullptr;
  for (auto& option : by_option) {
    places = std::max(places, option.size());
    for (RunConfig& r : option) {
      load_run_config(r);
      if (r.from.empty()) {
        unknown.push_back(&r);
        continue;
      }
      if (!reference) {
        reference = &r;
        continue;
      }
      std::set<std::string> keys;  // every field either run has: one set only in one differs
      for (const RunConfig* c : {static_cast<const RunConfig*>(&r), reference})
        for (const auto& field : c->fields) keys.insert(field.first);
      for (const std::string& key : keys) {
        const std::string value = field_text(r, key), other = field_text(*reference, key);
        if (value == other) continue;
        // Where the configurations were read, when not from the files themselves.
        const std::string from =
            r.from == r.file && reference->from == reference->file
                ? std::string()
                : fmt::format(" (read from '{}' and '{}')", r.from, reference->from);
        throw std::runtime_error(fmt::format(
            "'{}' and '{}' are not seeds of one configuration: their runs' {} is {} and {}{}; "
            "give runs that differ only in the seed",
            r.file, reference->file, key, short_json(value), short_json(other), from));
      }
    }
  }
  // Each seed place: the seed its files name, and no seed in two places.
  std::vector<const RunConfig*> at(places, nullptr);
  for (const auto& option : by_option) {
    for (std::size_t s = 0; s < option.size(); ++s) {
      const RunConfig& r = option[s];
      if (!r.seed) continue;
      if (at[s] && *at[s]->seed != *r.seed)
        throw std::runtime_error(fmt::format(
            "'{}' is a run of seed {} but '{}', given in the same place, of seed {}: give each "
            "option's files in the same seed order",
            r.file, *r.seed, at[s]->file, *at[s]->seed));
      if (!at[s]) at[s] = &r;
    }
  }
  std::map<std::int64_t, const RunConfig*> seen;
  for (const RunConfig* r : at) {
    if (!r) continue;
    const auto [it, fresh] = seen.emplace(*r->seed, r);
    if (!fresh)
      throw std::runtime_error(fmt::format(
          "'{}' and '{}' are both runs of training seed {}: give each training seed once", r->file,
          it->second->file, *r->seed));
  }
  if (example && !unknown.empty()) *example = unknown.front()->file;
  return unknown.size();
}

void note_unchecked_configurations(std::size_t unchecked, std::size_t files,
                                   const std::string& example) {
  if (unchecked == 0) return;
  std::fprintf(stderr,
               "posbias seeds: %zu of %zu files do not say which configuration they measured "
               "(their run's train.json is not here; e.g. '%s'): those were not checked to be "
               "seeds of one configuration\n",
               unchecked, files, example.c_str());
}

}  // namespace posbias
