#include "experiments/seeds/seed_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"

namespace posbias {

void result_error(const std::string& source, const std::string& what) {
  throw std::runtime_error("'" + source + "': " + what);
}

nlohmann::json parse_result_json(const std::string& text, const std::string& source) {
  try {
    return parse_json(text, source);
  } catch (const nlohmann::json::exception&) {
    result_error(source, "is not valid JSON");
  }
}

nlohmann::json read_result_json(const std::string& path) {
  return parse_result_json(read_bounded_file(path, kMaxSeedFileBytes, kMaxSeedFileName), path);
}

const nlohmann::json& result_field(const nlohmann::json& j, const std::string& key,
                                   const std::string& source, const char* kind,
                                   const std::string& parent) {
  if (!j.is_object() || !j.contains(key)) {
    result_error(source, "has no \"" + (parent.empty() ? key : parent + "." + key) +
                             "\" (is it a `posbias " + kind + "` result?)");
  }
  return j.at(key);
}

std::int64_t bounded_integer(const nlohmann::json& j, const std::string& source,
                             const std::string& name, std::int64_t low, std::int64_t high) {
  if (!j.is_number_integer() || j.get<std::int64_t>() < low || j.get<std::int64_t>() > high)
    result_error(source, fmt::format("{} must be an integer in {}..{}", name, low, high));
  return j.get<std::int64_t>();
}

std::string result_string(const nlohmann::json& j, const std::string& source,
                          const std::string& name, std::size_t max_size) {
  if (!j.is_string() || j.get_ref<const std::string&>().empty() ||
      j.get_ref<const std::string&>().size() > max_size)
    result_error(source, fmt::format("{} must be a string of 1..{} bytes", name, max_size));
  return j.get<std::string>();
}

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

void read_config(const nlohmann::json& config, const std::string& source, RunConfig& r) {
  if (!config.is_object()) result_error(source, "the run's config must be a JSON object");
  r.fields.clear();
  for (const auto& [key, value] : config.items())
    if (key != "seed") r.fields[key] = value.dump();
  r.seed.reset();
  if (config.contains("seed"))
    r.seed = bounded_integer(config.at("seed"), source, "config.seed", 0,
                             std::numeric_limits<std::int64_t>::max());
  r.from = source;
}

// The configuration of a file that holds none, from its run's train.json when that is here.
void load_run_config(RunConfig& r) {
  if (!r.from.empty() || r.run.empty()) return;
  const std::filesystem::path header = std::filesystem::path(r.run) / "train.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(header, ec)) return;
  const std::string source = header.string();
  const nlohmann::json j =
      parse_result_json(read_bounded_file(source, kMaxRunHeaderBytes, "16 MiB"), source);
  read_config(result_field(j, "config", source, "train"), source, r);
}

}  // namespace

RunConfig run_config(const nlohmann::json& j, const std::string& source) {
  RunConfig r;
  r.file = source;
  if (!j.is_object()) return r;
  if (j.contains("train_config")) {
    read_config(j.at("train_config"), source, r);
  } else if (j.contains("config") && j.at("config").is_object() &&
             j.at("config").contains("seed")) {
    read_config(j.at("config"), source, r);  // summary.json
  }
  const nlohmann::json* run = nullptr;
  if (j.contains("run")) run = &j.at("run");
  if (j.contains("source") && j.at("source").is_object() && j.at("source").contains("run"))
    run = &j.at("source").at("run");
  if (run && run->is_string() && !run->get_ref<const std::string&>().empty() &&
      run->get_ref<const std::string&>().size() <= 4096)
    r.run = run->get<std::string>();
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
      for (const auto& [key, value] : r.fields) {
        const auto it = reference->fields.find(key);
        if (it == reference->fields.end() || it->second == value) continue;
        // Where the configurations were read, when not from the files themselves.
        const std::string from =
            r.from == r.file && reference->from == reference->file
                ? std::string()
                : fmt::format(" (read from '{}' and '{}')", r.from, reference->from);
        throw std::runtime_error(fmt::format(
            "'{}' and '{}' are not seeds of one configuration: their runs' {} is {} and {}{}; "
            "give runs that differ only in the seed",
            r.file, reference->file, key, short_json(value), short_json(it->second), from));
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

Panel accuracy_length_panel(const std::string& title) {
  Panel p;
  p.title = title;
  p.xlabel = "input length (tokens, log scale)";
  p.ylabel = "accuracy";
  p.log_x = true;
  p.ymin = 0;
  p.ymax = 1.02;
  return p;
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
