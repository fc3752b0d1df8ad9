#include "experiments/retrieval/retrieval_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "experiments/retrieval/colocation.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/kv_seeds.h"
#include "experiments/retrieval/retrieval_flags.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/train_flags.h"
#include "posbias/stats/seed_interval.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/answer_influence.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// One configuration over its seeds: what the table row and the figures are made from.
struct ConfigurationResult {
  KvSeedsResult seeds;
  ColocationResult colocation;
};

// "retrieval: [3/8] qwen2, rope, seed 1 (62 s elapsed, about 104 s left)" on stderr: one line per
// trained seed, the ETA from the pace so far.
class StageClock {
 public:
  explicit StageClock(int total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  void begin(const std::string& what) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const std::string eta =
        done_ == 0 ? std::string("ETA after the first run")
                   : fmt::format("about {:.0f} s left", elapsed / done_ * (total_ - done_));
    std::fprintf(stderr, "retrieval: [%d/%d] %s (%.0f s elapsed, %s)\n", done_ + 1, total_,
                 what.c_str(), elapsed, eta.c_str());
    ++done_;
  }

 private:
  int total_, done_ = 0;
  std::chrono::steady_clock::time_point start_;
};

std::string depth_list(const std::vector<double>& depths) {
  std::string out;
  for (double d : depths) out += (out.empty() ? "" : ",") + depth_key(d);
  return out;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
  return out;
}

// A 95% t band clipped to [0, 1]: accuracies and shares cannot leave it, and 2 seeds' bands do.
Series clipped_band(const std::string& title, const std::vector<double>& x,
                    const std::vector<SeedInterval>& y) {
  Series s = band_series(title, x, y);
  for (auto* v : {&s.y_low, &s.y_high})
    for (double& b : *v) b = std::clamp(b, 0.0, 1.0);
  s.style = "linespoints";
  return s;
}

Panel depth_panel(const std::string& title, const std::string& ylabel) {
  Panel p;
  p.title = plain_text(title);
  p.xlabel = "depth of the queried pair (%)";
  p.ylabel = ylabel;
  p.ymin = 0;
  p.ymax = 1.02;
  return p;
}

// Mean exact match against depth over seeds, one panel per length, with the t band.
void render_accuracy_by_depth(const RetrievalRun& run, const KvSeedsResult& r,
                              const std::string& stem) {
  Figure f;
  for (std::size_t l = 0; l < r.lengths.size(); ++l) {
    Panel p = depth_panel(fmt::format("{}, L = {}", run.name, r.lengths[l]), "exact match");
    std::vector<SeedInterval> y;
    for (const SeedStatistic& c : r.cells[l]) y.push_back(c.interval);
    p.series = {clipped_band(fmt::format("mean of {} seeds, t 95%", r.files.size()), r.depths, y)};
    f.panels.push_back(std::move(p));
  }
  f.width = 400 * static_cast<int>(std::max<std::size_t>(1, r.lengths.size()));
  f.height = 400;
  render_figure(f, stem);
}

// Accuracy and the queried pair's share of the influence against depth at L, seed means with
// their t bands, in one panel (both are fractions).
void render_colocation(const RetrievalRun& run, const ColocationResult& c,
                       const std::string& stem) {
  std::vector<double> depths(c.depths.begin(), c.depths.end());
  auto over_seeds = [&](const std::vector<std::vector<double>>& rows) {
    std::vector<SeedInterval> out;
    for (std::size_t b = 0; b < depths.size(); ++b) {
      std::vector<double> column;
      for (const auto& row : rows) column.push_back(row[b]);
      out.push_back(seed_interval(column));
    }
    return out;
  };
  Panel p = depth_panel(fmt::format("{}, L = {}: {}", run.name, c.length, c.verdict),
                        "exact match / share of the influence");
  p.series = {clipped_band("exact match", depths, over_seeds(c.accuracy)),
              clipped_band("influence share of the queried pair", depths, over_seeds(c.influence))};
  Figure f;
  f.panels = {p};
  f.width = 640;
  f.height = 420;
  render_figure(f, stem);
}

// What one seed's run is evaluated with, by depth × length (without the run and the outputs):
// what measure_seed runs and the commands by hand give.
KvEvalOptions eval_options(const RetrievalPreset& p) {
  KvEvalOptions e;
  e.depths = p.depths;
  e.count = p.eval_count;
  return e;
}

// Co-location's own eval (with colocation_depths): at the training length L alone.
KvEvalOptions pairs_eval_options(const RetrievalPreset& p, std::int64_t length) {
  KvEvalOptions e;
  e.depths = p.colocation_depths;
  e.lengths = {length};
  e.count = p.colocation_count;
  return e;
}

// The answer's influence at the last checkpoint, on the depths co-location compares and eval's
// examples (its seed).
AnswerInfluenceOptions influence_options(const RetrievalPreset& p) {
  const std::vector<double>& depths = p.colocation_depths.empty() ? p.depths : p.colocation_depths;
  AnswerInfluenceOptions i;
  i.inputs = AnswerInputs::kKv;
  i.checkpoints = CheckpointSelection::last();
  i.depths.clear();
  for (double d : depths) i.depths.push_back(static_cast<int>(std::lround(d)));
  i.per_depth = p.influence_per_depth;
  i.seed = eval_options(p).seed;
  return i;
}

struct SeedFiles {
  std::string eval;        // by depth × length
  std::string colocation;  // the eval co-location reads (`eval` itself, or one at L alone)
  std::string influence;
};

// Trains (or resumes) one seed, evaluates it by depth × length and measures its influence at the
// last checkpoint.
SeedFiles measure_seed(const std::filesystem::path& folder, const RetrievalPreset& preset,
                       const RetrievalRun& run, int seed) {
  TrainOptions t;
  t.config = run.config;
  t.config.seed = static_cast<std::uint64_t>(seed);
  t.run_dir = folder / fmt::format("seed{}", seed);
  t.resume = std::filesystem::exists(t.run_dir / "train.json");
  run_training(t);

  KvEvalOptions e = eval_options(preset);
  e.run = t.run_dir.string();
  e.json = (folder / fmt::format("seed{}-eval.json", seed)).string();
  e.csv = (folder / fmt::format("seed{}-eval.csv", seed)).string();
  run_kv_eval(e);
  const std::string eval_json = e.json;

  // Co-location on its own depths: a second eval at L alone, whose first examples are the
  // influence inputs.
  if (!preset.colocation_depths.empty()) {
    e = pairs_eval_options(preset, t.config.length);
    e.run = t.run_dir.string();
    e.json = (folder / fmt::format("seed{}-eval-pairs.json", seed)).string();
    run_kv_eval(e);
  }
  AnswerInfluenceOptions i = influence_options(preset);
  i.run = t.run_dir.string();
  i.json = (folder / fmt::format("seed{}-influence.json", seed)).string();
  i.csv = (folder / fmt::format("seed{}-influence.csv", seed)).string();
  run_answer_influence(i);
  return {eval_json, e.json, i.json};
}

ConfigurationResult measure_configuration(const std::filesystem::path& folder,
                                          const RetrievalPreset& preset, const RetrievalRun& run,
                                          StageClock& clock) {
  ensure_directory(folder);
  KvSeedsOptions s;
  ColocationOptions c;
  for (int seed = 0; seed < preset.seeds; ++seed) {
    clock.begin(fmt::format("{}, seed {}", run.name, seed));
    const SeedFiles f = measure_seed(folder, preset, run, seed);
    s.eval.push_back(f.eval);
    c.accuracy.push_back(f.colocation);
    c.influence.push_back(f.influence);
  }
  s.json = (folder / "seeds.json").string();
  s.csv = (folder / "seeds.csv").string();
  s.plot = (folder / "seeds").string();
  c.json = (folder / "colocation.json").string();
  ConfigurationResult r{run_kv_seeds(s), run_colocation(c)};
  render_accuracy_by_depth(run, r.seeds, (folder / "accuracy_by_depth").string());
  render_colocation(run, r.colocation, (folder / "colocation_by_depth").string());
  return r;
}

std::string effective_length_text(const KvSeedsResult& r) {
  auto text = [](const std::optional<int>& l) { return l ? std::to_string(*l) : "none"; };
  std::vector<std::string> each;
  for (const auto& l : r.effective_lengths) each.push_back(text(l));
  return fmt::format("{} ({})", text(r.effective_length_median), join(each, ", "));
}

std::string rho_text(const ColocationResult& c) {
  const SeedInterval& i = c.rho_interval;
  if (i.n == 0) return "undefined (flat in every seed)";
  return format_interval(i, 2) +
         fmt::format(" (n = {}{})", i.n, c.rho_interval_cut ? "; interval cut to [−1, 1]" : "");
}

std::vector<std::string> table_row(const RetrievalRun& run, const ConfigurationResult& r) {
  std::vector<std::string> means;
  for (std::size_t l = 0; l < r.seeds.lengths.size(); ++l) {
    means.push_back(fmt::format("{}: {}", r.seeds.lengths[l],
                                format_interval(r.seeds.mean_accuracy[l].interval, 2)));
  }
  const UOverSeeds& u = r.seeds.u_pooled;
  const ColocationResult& c = r.colocation;
  std::vector<std::string> minima;
  for (int d : c.accuracy_minimum) minima.push_back(std::to_string(d));
  return {run.name,
          join(means, "; "),
          effective_length_text(r.seeds),
          u.verdict,
          format_interval(u.middle_minus_start.interval, 2),
          format_interval(u.middle_minus_end.interval, 2),
          fmt::format("{} (accuracy minimum at depth {}, influence minimum at {})", c.verdict,
                      join(minima, ", "), c.influence_minimum),
          rho_text(c)};
}

// The shell lines that make the same files by hand (runs under runs/, one folder per
// configuration).
std::string commands_by_hand(const RetrievalPreset& p) {
  const bool pairs = !p.colocation_depths.empty();
  std::string seeds, folders, evals, accuracy, influences;
  for (int s = 0; s < p.seeds; ++s) seeds += (s ? " " : "") + std::to_string(s);
  for (const auto& r : p.runs) folders += (folders.empty() ? "" : " ") + r.folder;
  for (int s = 0; s < p.seeds; ++s) {
    evals += fmt::format("{}runs/$c/seed{}-eval.json", s ? " " : "", s);
    accuracy += fmt::format("{}runs/$c/seed{}-eval{}.json", s ? "," : "", s, pairs ? "-pairs" : "");
    influences += fmt::format("{}runs/$c/seed{}-influence.json", s ? "," : "", s);
  }
  std::string out = fmt::format("for s in {}; do\n", seeds);
  for (const auto& r : p.runs) {
    out += fmt::format("  posbias train {} --seed $s --out runs/{}/seed$s\n", train_flags(r.config),
                       r.folder);
  }
  out += fmt::format("done\nfor c in {}; do\n  for s in {}; do\n", folders, seeds);
  out += fmt::format(
      "    posbias eval --run runs/$c/seed$s {} "
      "--json runs/$c/seed$s-eval.json --csv runs/$c/seed$s-eval.csv\n",
      depth_eval_flags(eval_options(p)));
  if (pairs) {
    out += fmt::format(
        "    posbias eval --run runs/$c/seed$s {} --json runs/$c/seed$s-eval-pairs.json\n",
        depth_eval_flags(pairs_eval_options(p, p.runs.front().config.length)));
  }
  out += fmt::format(
      "    posbias birth --run runs/$c/seed$s {} --json runs/$c/seed$s-influence.json\n  done\n",
      answer_influence_flags(influence_options(p)));
  out += fmt::format("  posbias seeds --eval {} --json runs/$c/seeds.json --plot runs/$c/seeds\n",
                     evals);
  out += fmt::format(
      "  posbias birth --colocate {} --accuracy {} "
      "--json runs/$c/colocation.json --plot runs/$c/colocation\ndone",
      influences, accuracy);
  return out;
}

// The rules of the table's verdicts, written before its numbers.
std::string rules_paragraph() {
  return fmt::format(
      "The rules, fixed before any number. "
      "Effective length is RULER's: the longest length whose depth-averaged accuracy, and every "
      "shorter one's, is at least {:g}; the table gives the lower median over seeds and each "
      "seed's in brackets. "
      "The U verdict takes each seed's middle − start and middle − end accuracy (middle depths "
      "30-70, start 0-10, end 90-100, examples pooled over lengths) and says U only when both "
      "Student-t 95% intervals over seeds lie below 0. "
      "Co-location compares the seed means per depth at L: same bin when the depth with the "
      "lowest share of influence on the queried pair is among the depths tied at the lowest "
      "accuracy; Spearman's ρ between accuracy and that share is taken per seed, its mean and t "
      "interval over the seeds where it is defined.",
      kRulerThreshold);
}

std::vector<std::string> section_paragraphs(const RetrievalPreset& p) {
  const TrainConfig& c = p.runs.front().config;
  std::vector<std::string> names;
  for (const auto& r : p.runs) names.push_back(r.name);
  const std::string scale =
      p.name == RetrievalPreset::full().name
          ? "This report ran the full preset (reproduce --full): " + p.describe() + "."
          : "This report ran the " + p.name + " preset (" + p.describe() +
                ") to stay fast; `posbias reproduce --full` runs the full preset (" +
                RetrievalPreset::full().describe() + ").";
  const std::string colocation =
      p.colocation_depths.empty()
          ? fmt::format("the first {} examples of each of those cells at L", p.influence_per_depth)
          : fmt::format(
                "the first {} examples of a second eval at L on the depths {} ({} examples "
                "each), which co-location reads",
                p.influence_per_depth, depth_list(p.colocation_depths), p.colocation_count);
  std::vector<std::string> out = {
      fmt::format(
          "Lost in the middle, measured where the influence is. "
          "Each configuration ({}) is trained from scratch on key-value retrieval (`posbias "
          "train --task kv`: n pairs of a 3-letter key and a 3-digit value, then a query naming "
          "one key; answer-only loss; the queried pair drawn uniformly over depths unless the "
          "configuration says `ends`), seeds 0..{}, seed k of every configuration drawing the "
          "same data.",
          join(names, "; "), p.seeds - 1),
      fmt::format(
          "Each seed is evaluated by the queried pair's depth (percent of the pairs' span: {}) "
          "and the context length (the training length L = {}, 2L and 4L; with learned positions "
          "only those its table holds), {} examples per cell with the most pairs that fit, exact "
          "match of all 3 value tokens. "
          "The influence of every position on the answer's loss is measured at the last "
          "checkpoint on eval's own inputs: {}.",
          depth_list(p.depths), c.length, p.eval_count, colocation),
      rules_paragraph(), scale};
  for (const auto& r : p.runs) {
    const TrainConfig& w = r.config;
    if (w.window == 0) continue;
    // Through `layers` layers a W-token window reaches layers·(W − 1) positions back from the
    // last query token (position L, 1-based); pair i's key starts at L − 6n − 4 + 6i + 1.
    const std::int64_t reach = w.layers * (w.window - 1);
    std::vector<std::string> readable;
    for (int k : {1, 2, 4}) {
      const int len = k * w.length, n = kv_pairs(len);
      int count = 0;
      for (int i = 0; i < n; ++i)
        count += len - kKvPairTokens * n - kKvQueryTokens + kKvPairTokens * i + 1 >= len - reach;
      readable.push_back(fmt::format("{} of {} at L = {}", count, n, len));
    }
    out.push_back(fmt::format(
        "The control with an answer known in advance: {}. Through {} layers a {}-token window "
        "reaches {} positions back from the last query token, so the answer can read the whole "
        "key of only the pairs nearest the query ({}): "
        "at every other depth its accuracy must stay near 0, and so must the influence on the "
        "queried pair.",
        r.name, w.layers, w.window, reach, join(readable, ", ")));
  }
  const int df = p.seeds - 1;
  const double t = t_quantile_975(df);
  out.push_back(fmt::format(
      "What this preset can and cannot show: {} seeds give t intervals with {} degree{} of "
      "freedom (t = {:.1f}; the bands in the figures are clipped to [0, 1], the table's are "
      "not), and at L = {} the {} depths fall on {} pairs, so depths that share a pair differ "
      "only by sampling{}. {}",
      p.seeds, df, df == 1 ? "" : "s", t, c.length, p.depths.size(), kv_pairs(c.length),
      p.colocation_depths.empty() ? " and the co-location rule compares them"
                                  : " (co-location reads one depth per pair)",
      p.name == RetrievalPreset::full().name
          ? "A verdict here holds for these small models at this length."
          : "These are tiny models: the verdicts show what the bench computes, not a finding "
            "about lost in the middle; that needs the full preset."));
  return out;
}

}  // namespace

ReportSection retrieval_report_section(const std::filesystem::path& dir,
                                       const RetrievalPreset& preset) {
  if (preset.runs.empty() || preset.seeds < 2)
    throw std::invalid_argument("a retrieval preset needs a configuration and at least 2 seeds");
  ReportSection sec;
  sec.id = "retrieval";
  sec.title = "Retrieval: accuracy by depth and length beside the influence";
  sec.paragraphs = section_paragraphs(preset);
  StageClock clock(static_cast<int>(preset.runs.size()) * preset.seeds);
  ReportTable table;
  table.caption = fmt::format(
      "Per configuration, over {} seeds: depth-averaged accuracy per length (mean [95% t]), "
      "effective length, the U verdict with its differences, and co-location at L.",
      preset.seeds);
  table.header = {"configuration",
                  "depth-averaged accuracy by length",
                  "effective length: median (per seed)",
                  "U verdict",
                  "middle − start",
                  "middle − end",
                  "co-location",
                  "Spearman ρ"};
  const auto start = std::chrono::steady_clock::now();
  for (const RetrievalRun& run : preset.runs) {
    const std::string rel = "retrieval/" + run.folder;
    const ConfigurationResult r = measure_configuration(dir / rel, preset, run, clock);
    table.rows.push_back(table_row(run, r));
    sec.figures.push_back(
        {rel + "/seeds_heatmap", run.name + ": mean exact match over seeds by depth and length."});
    sec.figures.push_back({rel + "/accuracy_by_depth",
                           run.name + ": mean exact match against depth, one panel per length."});
    sec.figures.push_back({rel + "/colocation_by_depth",
                           run.name + ": exact match and the share of the answer's influence on "
                                      "the queried pair against depth at the training length, "
                                      "the co-location verdict in the title."});
    sec.data.push_back({rel + "/seeds.json", run.name + ": accuracy by depth × length over seeds"});
    sec.data.push_back({rel + "/colocation.json", run.name + ": co-location over seeds"});
  }
  sec.tables.push_back(std::move(table));
  sec.numbers.push_back(
      {"wall time (training, evaluation and influence)",
       fmt::format(
           "{:.0f} s",
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())});
  sec.code.push_back(commands_by_hand(preset));
  return sec;
}

}  // namespace posbias
