#include "experiments/birth/birth_rescore.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "experiments/birth/birth_run.h"
#include "experiments/birth/birth_summary.h"
#include "posbias/arch/attention_path.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"
#include "posbias/core/json_result.h"
#include "posbias/core/plot.h"
#include "posbias/core/required_fields.h"
#include "posbias/hf/hf_config.h"
#include "posbias/train/answer_influence.h"
#include "posbias/train/answer_influence_record.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxResultBytes = std::uintmax_t{1} << 30;

// The preset (or family) and overrides whose birth_model_config equals the stored config.
void rebuild_architecture(BirthOptions& o, const HfConfig& stored_config, const std::string& file) {
  const ModelConfig c = model_config_from_hf(stored_config);
  const nlohmann::json want = to_json(hf_config_from_model(c));
  o.layers = c.layers, o.d_model = c.d_model, o.heads = c.heads, o.kv_heads = c.kv_heads;
  o.mlp = c.mlp, o.window = c.window, o.pos = c.pos, o.null_sink = c.null_sink;
  std::vector<std::string> names = model_preset_names();
  names.push_back(to_string(c.family));
  for (const std::string& name : names) {
    for (std::int64_t rotary : {std::int64_t{0}, c.rotary_dim}) {
      o.arch = name;
      o.rotary_dim = rotary;
      try {
        if (to_json(hf_config_from_model(birth_model_config(o))) == want) return;
      } catch (const std::invalid_argument&) {  // a preset the overrides do not fit
      }
    }
  }
  throw std::invalid_argument(file +
                              ": no preset with birth's overrides rebuilds its config; "
                              "re-measure it with posbias birth");
}

nlohmann::json read_result(const std::string& file) {
  return parse_json(read_bounded_file(file, kMaxResultBytes, "1 GiB result"), file);
}

StoredBirth stored_birth(const nlohmann::json& j, const std::string& file) {
  StoredBirth s;
  try {
    s.record = birth_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file + ": " + e.what() + " (is it a birth --json result?)");
  }
  const BirthMeasurementRecord& m = s.record.measurement;
  if (m.weights != "init")
    throw std::invalid_argument(file +
                                " measured a checkpoint; only results at init are "
                                "re-scored (re-run birth --config --weights)");
  if (m.input != "gaussian" && m.input != "tokens")
    throw std::invalid_argument(file + " read a token file (" + m.input +
                                "); only results at init are re-scored");
  if (!s.record.nofit)
    throw std::invalid_argument(file +
                                " holds no no-fit prediction (nofit is null); re-measure it");
  BirthOptions& o = s.options;
  o.input = parse_birth_input(m.input);
  o.init = parse_birth_init(m.init);
  o.method = m.method;
  o.probes = m.probes;
  o.length = m.length;
  o.query = m.query == o.length - 1 ? std::nullopt : std::optional<std::int64_t>(m.query);
  o.attn_init_scale = m.attn_init_scale;
  o.stay_probes = static_cast<int>(m.stay_probes.value_or(kStayProbes));
  o.seed = m.seed;
  // Results from before these fields existed measured the hidden state, densely.
  o.target = m.target.value_or(InfluenceTarget::kHidden);
  o.attention = m.attention.value_or(AttentionPath::kDense);
  o.paths = s.record.nofit->paths;
  s.profiles = s.record.profile_seeds;
  if (s.profiles.empty())
    throw std::invalid_argument(file + " holds no profile_seeds; re-measure it");
  o.seeds = static_cast<int>(s.profiles.size());
  rebuild_architecture(o, s.record.config, file);
  return s;
}

// A `birth --run` result (it has checkpoints): nothing can be re-scored without the run's
// checkpoints, so its figures are drawn again from the file, which stays as it is.
void redraw_birth_run(const nlohmann::json& j, const BirthRescoreOptions& ro) {
  const std::string what = ro.file + " is a birth --run result: --rescore redraws its figures";
  if (!ro.json.empty() || !ro.csv.empty() || ro.stay_probes)
    throw std::invalid_argument(what + " (--plot STEM) and writes no data; drop " +
                                (!ro.json.empty()  ? "--json"
                                 : !ro.csv.empty() ? "--csv"
                                                   : "--stay-probes"));
  if (ro.plot.empty()) throw std::invalid_argument(what + ": give --plot STEM");
  BirthRunRecord record;
  try {
    record = birth_run_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(ro.file + ": " + e.what());
  }
  render_birth_run_figures(record, ro.plot);
  std::fprintf(stderr, "birth --rescore: %zu checkpoints of %s redrawn as %s_*\n",
               record.checkpoints.size(), ro.file.c_str(), ro.plot.c_str());
}

}  // namespace

BirthFile birth_file_kind(const nlohmann::json& j) {
  if (holds_required_fields(answer_influence_record_fields(), j))
    return BirthFile::kAnswerInfluence;
  if (holds_required_fields(birth_run_record_fields(), j)) return BirthFile::kBirthRun;
  return BirthFile::kBirth;
}

StoredBirth read_stored_birth(const std::string& file) {
  return stored_birth(read_result(file), file);
}

BirthResult rescore_birth(const StoredBirth& stored, double memory_budget_gb) {
  BirthOptions o = stored.options;
  o.memory_budget_gb = memory_budget_gb;
  return measure_birth(o, nullptr, nullptr, &stored.profiles);
}

void run_birth_rescore(const BirthRescoreOptions& ro) {
  const nlohmann::json file = read_result(ro.file);
  if (birth_file_kind(file) != BirthFile::kBirth) return redraw_birth_run(file, ro);
  StoredBirth stored = stored_birth(file, ro.file);
  if (ro.stay_probes) stored.options.stay_probes = *ro.stay_probes;
  const auto start = std::chrono::steady_clock::now();
  const BirthResult r = rescore_birth(stored, ro.memory_budget_gb);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BirthRecord b = birth_record(r);
  // The measurement's time, memory and machine are the file's; the re-score's are its own.
  b.rescore = BirthRescoreRecord{ro.file, seconds, r.peak_rss_mb, b.machine};
  b.seconds = stored.record.seconds;
  b.peak_rss_mb = stored.record.peak_rss_mb;
  b.machine = stored.record.machine;
  const nlohmann::json j = to_json(b);
  write_json_result(ro.json, j.dump(2) + "\n", [&] { return birth_summary(b); });
  if (!ro.csv.empty()) write_file_atomic(ro.csv, birth_csv(r));
  if (!ro.plot.empty())
    render_figure(birth_figure(r, birth_figure_title(r.config, r.options.length)), ro.plot);
  std::fprintf(stderr, "birth --rescore: no-fit (%s) median |log10 error| %.3f, %.1f s\n",
               to_string(r.nofit->estimator).c_str(), r.nofit->score.at_mean.median_abs_log10_error,
               seconds);
}

void redraw_birth(const std::string& file, const std::string& plot) {
  const nlohmann::json j = read_result(file);
  const BirthFile kind = birth_file_kind(j);
  if (kind == BirthFile::kAnswerInfluence) {
    AnswerInfluenceRecord record;
    try {
      record = answer_influence_record_from_json(j);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(file + ": " + e.what());
    }
    return render_answer_influence_figure(record, plot);
  }
  if (kind == BirthFile::kBirthRun) {
    BirthRescoreOptions ro;
    ro.file = file, ro.plot = plot;
    return redraw_birth_run(j, ro);
  }
  BirthRecord record;
  try {
    record = birth_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(file + ": " + e.what() + " (is it a birth --json result?)");
  }
  if (record.operator_control)
    throw std::invalid_argument(file +
                                " keeps no profile of its plain causal control (window, ALiBi "
                                "or null sink): birth --rescore draws its figure");
  const ModelConfig config = model_config_from_hf(record.config);
  render_figure(
      birth_figure(record, nullptr, birth_figure_title(config, record.measurement.length)), plot);
}

}  // namespace posbias
