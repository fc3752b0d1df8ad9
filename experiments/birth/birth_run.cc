#include "experiments/birth/birth_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "posbias/core/atomic_file.h"
#include "posbias/core/json_result.h"
#include "posbias/core/parse.h"
#include "posbias/core/plot.h"
#include "posbias/core/position_base.h"
#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/stats/bootstrap.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/vocab.h"
#include "posbias/theory/profile_summary.h"
#include "posbias/theory/shares_summary.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_run.h"
#include "posbias/train/trainer.h"

namespace posbias {

ProfileSummary profile_shape(const std::vector<double>& profile) {
  std::vector<ExtReal> row;
  row.reserve(profile.size());
  for (double v : profile) row.emplace_back(v);
  return summarize_profile(row);
}

namespace {

// Held-out text windows of the run's corpus, `seeds` of them spread over the held-out split,
// each L + 1 tokens.
std::vector<std::vector<std::int64_t>> text_rows(const TrainConfig& c, const BirthOptions& o,
                                                 const RunHeader& header) {
  const TextRunData data =
      prepare_text_run(c, o.run, /*fresh=*/false, header.corpus_fingerprint.value_or(""));
  const std::vector<std::int64_t> windows = consecutive_windows(data.streams.heldout, o.length, 0);
  const std::int64_t n = static_cast<std::int64_t>(windows.size()) / (o.length + 1);
  if (o.seeds < 1 || o.seeds > n) {
    throw std::invalid_argument("--seeds must be in 1.." + std::to_string(n) +
                                " (held-out windows of length " + std::to_string(o.length) + ")");
  }
  std::vector<std::vector<std::int64_t>> rows;
  for (int s = 0; s < o.seeds; ++s) {
    const std::int64_t w = s * n / o.seeds;
    rows.emplace_back(windows.begin() + w * (o.length + 1),
                      windows.begin() + (w + 1) * (o.length + 1));
  }
  return rows;
}

// A hop run's held-out examples at L tokens, as `posbias eval` draws them (its hops in turn,
// seed 1): each the input's L tokens and its answer (the next token the loss target reads).
constexpr int kMaxHopSequences = 4096;
std::vector<std::vector<std::int64_t>> hop_rows(const TrainConfig& c, const BirthOptions& o) {
  if (o.seeds < 1 || o.seeds > kMaxHopSequences)
    throw std::invalid_argument("--seeds must be in 1.." + std::to_string(kMaxHopSequences) +
                                " (examples of the run's task)");
  const int length = static_cast<int>(o.length);
  for (int h : c.hops) validate_spec(c.task, h, length, Variant::kStandard);
  validate_model_length(c.task, length);
  const auto hops = static_cast<std::int64_t>(c.hops.size());
  const std::vector<Example> examples =
      make_dataset(per_hop_spec(c.task, c.hops, length, (o.seeds + hops - 1) / hops, 1));
  const Vocabulary& vocab = Vocabulary::of(c.task);
  std::vector<std::vector<std::int64_t>> rows;
  for (int s = 0; s < o.seeds; ++s) {
    const Example& e = examples[static_cast<std::size_t>(s)];
    rows.push_back(vocab.encode(e.tokens));
    rows.back().push_back(vocab.id(e.answer));
  }
  return rows;
}

}  // namespace

BirthRunResult measure_birth_run(const BirthOptions& given) {
  if (!given.config.empty() || !given.weights.empty() || !given.tokens.empty() ||
      !given.text.empty())
    throw std::invalid_argument(
        "--run measures the run's checkpoints: no --config, --weights, --tokens or --text");
  if (given.layers || given.d_model || given.heads || given.kv_heads || given.mlp ||
      given.rotary_dim || given.pos || given.window || given.attn_init_scale != 1.0 ||
      given.null_sink || given.init != BirthInit::kHf) {
    throw std::invalid_argument(
        "--run measures the run's own model: no --layers, --d-model, --heads, --kv-heads, "
        "--mlp, --rotary-dim, --pos, --window, --attn-init-scale, --null-sink or --init");
  }
  const RunHeader header = read_run_header(given.run);
  const TrainConfig& c = header.config;
  if (c.task != Task::kText && !is_hop_task(c.task)) {
    throw std::invalid_argument(
        "birth --run needs a text or hop run (`posbias train --task text|number|letter`), or "
        "--inputs kv for a kv run; '" +
        given.run + "' is a " + std::string(task_name(c.task)) + " run");
  }
  BirthOptions o = given;
  if (o.length == 0) o.length = c.length;  // the run's own length unless --length is given
  const std::vector<RunCheckpoint> selected = select_checkpoints(o.run, o.checkpoints);
  TrainedInput in;
  in.config = c.model_config();
  in.config.dropout = 0.0;
  in.rows = c.task == Task::kText ? text_rows(c, o, header) : hop_rows(c, o);
  const std::vector<MetricsRow> rows = read_metrics(std::filesystem::path(o.run) / "metrics.jsonl");
  BirthRunResult result;
  result.options = o;
  for (const auto& [step, path] : selected) {
    std::fprintf(stderr, "birth --run: checkpoint at step %lld\n", static_cast<long long>(step));
    LoadedModel loaded = load_trained_model(o.run, path);
    in.model = loaded.model;
    BirthCheckpoint cp{step, path.string(), measure_birth(o, &in), {}, {}, {}, {}, {}, {}};
    const BirthResult& b = cp.result;
    // α̂ per layer (jacobian estimator: ḡ/(1+ḡ), so within [0, 1)).
    cp.alpha = seed_mean_alpha(b.strength_seeds, AlphaEstimator::kJacobian);
    if (c.length <= kMaxGradientProfileLength)
      cp.predicted_gradient = gradient_profile(c.length, cp.alpha, b.fit_spec.op);
    for (const MetricsRow& row : rows) {
      if (row.step != step || !row.grad_per_position) continue;
      const auto it = row.grad_per_position->find("embed");
      if (it != row.grad_per_position->end()) cp.gradient = it->second;
    }
    bool positive = !cp.gradient.empty() && !cp.predicted_gradient.column_sum.empty();
    for (double v : cp.gradient) positive = positive && v > 0 && std::isfinite(v);
    if (positive && cp.gradient.size() == cp.predicted_gradient.column_sum.size()) {
      const MeasuredProfile measured{cp.gradient, {}};
      cp.column_sum_score = compare_shape(measured, cp.predicted_gradient.column_sum, 0, 0);
      cp.root_sum_square_score =
          compare_shape(measured, cp.predicted_gradient.root_sum_square, 0, 0);
      cp.flat_score = compare_shape(measured, std::vector<double>(cp.gradient.size(), 1.0), 0, 0);
    }
    result.checkpoints.push_back(std::move(cp));
  }
  return result;
}

BirthRunRecord birth_run_record(const BirthRunResult& r) {
  const BirthOptions& o = r.options;
  BirthRunRecord out;
  out.run = o.run;
  out.target = o.target;
  out.method = o.method;
  out.length = o.length;
  out.position_base = kPositionBase;
  out.query = query_key(o.query, o.length, "--query") - 1;
  out.sequences = o.seeds;
  for (const BirthCheckpoint& cp : r.checkpoints) {
    const BirthResult& b = cp.result;
    BirthRunCheckpointRecord& rec = out.checkpoints.emplace_back();
    const std::size_t q = b.profile.size();
    rec.profile_low.resize(q);
    rec.profile_high.resize(q);
    for (std::size_t i = 0; i < q; ++i) {
      std::vector<double> column;
      for (const auto& row : b.profile_seeds) column.push_back(row[i]);
      const Interval band = percentile_interval(column);
      rec.profile_low[i] = band.low, rec.profile_high[i] = band.high;
    }
    const ProfileSummary shape = profile_shape(b.profile);
    const double ends =
        std::log10((std::pow(10.0, shape.log10_first) + std::pow(10.0, shape.log10_last)) / 2);
    rec.step = cp.step;
    rec.checkpoint = cp.path;
    rec.profile = b.profile;
    rec.alpha = cp.alpha;
    rec.fit = {b.fit.alpha, b.fit.log_r2};
    rec.log10_middle_to_ends = shape.log10_middle_to_ends;
    rec.argmin = shape.dead_zone_position;
    rec.log10_dead_zone_depth = shape.log10_dead_zone - ends;
    rec.attention_entropy_ratio = b.entropy_ratio;
    if (!cp.predicted_gradient.column_sum.empty()) {
      auto error = [](const std::optional<ShapeComparison>& s) {
        return s ? s->at_mean.median_abs_log10_error : NAN;
      };
      GradientRecord& g = rec.gradient.emplace();
      if (!cp.gradient.empty()) g.measured = cp.gradient;
      g.column_sum = cp.predicted_gradient.column_sum;
      g.root_sum_square = cp.predicted_gradient.root_sum_square;
      g.median_abs_log10_error = {error(cp.column_sum_score), error(cp.root_sum_square_score),
                                  error(cp.flat_score)};
    }
    const SharesOverSeeds shares = shares_over_seeds(b.profile_seeds);  // over the sequences
    rec.shares = shares_record(shares);
    rec.u_test = u_test_record(shares.u);
    if (b.nofit) {
      rec.nofit = NofitRecord{b.nofit->estimator, b.nofit->score.at_mean.median_abs_log10_error,
                              b.nofit->score.at_mean.max_abs_log10_error, b.nofit->profile};
    }
  }
  if (r.checkpoints.size() >= 2) {  // the same sequences at every checkpoint: paired
    const BirthCheckpoint& first = r.checkpoints.front();
    const BirthCheckpoint& last = r.checkpoints.back();
    out.shares_change = share_change_record(shares_over_seeds(first.result.profile_seeds),
                                            shares_over_seeds(last.result.profile_seeds));
    out.shares_change->from_step = first.step;
    out.shares_change->to_step = last.step;
  }
  return out;
}

namespace {

// The gradient per position at the first checkpoint whose logged gradient was scored, against
// the two predictions (none when no checkpoint has one).
void render_gradient_figure(const BirthRunRecord& r, const std::string& stem) {
  for (const BirthRunCheckpointRecord& rec : r.checkpoints) {
    if (!rec.gradient || !rec.gradient->measured ||
        !std::isfinite(rec.gradient->median_abs_log10_error.column_sum))
      continue;
    const GradientRecord& g = *rec.gradient;
    Panel p;
    p.title = "gradient reaching each position at step " + std::to_string(rec.step) +
              " against the theory (unit sum)";
    p.xlabel = "position";
    p.ylabel = "share of the gradient norm";
    p.log10_y = true;
    auto curve = [&](const std::string& title, const std::vector<double>& v, int width) {
      Series s;
      s.title = title;
      s.line_width = width;
      const auto logs = unit_sum_log10(v);
      for (std::size_t i = 0; i < logs.size(); ++i) {
        if (!std::isfinite(logs[i])) continue;
        s.x.push_back(static_cast<double>(i));
        s.y.push_back(logs[i]);
      }
      p.series.push_back(std::move(s));
    };
    curve("measured ‖∂ℓ/∂x_j‖ (embeddings)", *g.measured, 3);
    curve(fmt::format("column sums Σ_i M_ij (median |log10 error| {:.3f})",
                      g.median_abs_log10_error.column_sum),
          g.column_sum, 2);
    curve(fmt::format("root sum of squares (median |log10 error| {:.3f})",
                      g.median_abs_log10_error.root_sum_square),
          g.root_sum_square, 2);
    Figure f;
    f.panels = {p};
    render_figure(f, stem + "_gradient");
    return;
  }
}

}  // namespace

void render_birth_run_figures(const BirthRunRecord& r, const std::string& stem) {
  Panel profiles;
  profiles.title = "influence through training (" + to_string(r.target) + " target, " +
                   std::to_string(r.sequences) + " held-out sequences of " +
                   std::to_string(r.length) + " tokens)";
  profiles.xlabel = "position";
  profiles.ylabel = "share of the influence";
  profiles.log10_y = true;
  profiles.order_label = "training step";
  for (const BirthRunCheckpointRecord& rec : r.checkpoints) {
    Series s;
    s.title = "step " + std::to_string(rec.step);
    s.order = static_cast<double>(rec.step);
    s.line_width = 1;
    const auto v = unit_sum_log10(rec.profile);
    for (std::size_t i : thin_indices(v.size())) {
      if (!std::isfinite(v[i])) continue;
      s.x.push_back(static_cast<double>(i));
      s.y.push_back(v[i]);
    }
    profiles.series.push_back(std::move(s));
  }
  Figure fp;
  fp.panels = {profiles};
  render_figure(fp, stem + "_profiles");

  Panel shape;
  shape.title = "middle and minimum against the ends (position 0, query) by step";
  shape.xlabel = "training step + 1";
  shape.log_x = true;
  shape.ylabel = "log10 ratio";
  Series middle, depth;
  middle.title = "middle / mean of the ends";
  depth.title = "dead zone (argmin) / mean of the ends";
  middle.style = depth.style = "linespoints";
  for (const BirthRunCheckpointRecord& rec : r.checkpoints) {
    const double x = static_cast<double>(rec.step + 1);
    middle.x.push_back(x), middle.y.push_back(rec.log10_middle_to_ends);
    depth.x.push_back(x), depth.y.push_back(rec.log10_dead_zone_depth);
  }
  shape.series = {middle, depth};
  Figure fs;
  fs.panels = {shape};
  render_figure(fs, stem + "_shape");
  render_gradient_figure(r, stem);
}

BirthRunResult run_birth_run(const BirthOptions& o) {
  BirthRunResult r = measure_birth_run(o);
  const BirthRunRecord record = birth_run_record(r);
  // Without --json on a terminal: how to get the JSON, not the JSON (core/json_result.h).
  write_json_result(o.json, to_json(record).dump(2) + "\n", [] { return std::string(); });
  if (!o.plot.empty()) {
    render_birth_run_figures(record, o.plot);
    std::vector<std::int64_t> steps;
    std::vector<SharesOverSeeds> shares;
    for (const BirthCheckpoint& cp : r.checkpoints) {
      steps.push_back(cp.step);
      shares.push_back(shares_over_seeds(cp.result.profile_seeds));
    }
    render_figure(shares_figure(steps, shares, fmt::format("{} held-out sequences", o.seeds)),
                  o.plot + "_shares");
  }
  std::fprintf(stderr, "birth --run: %zu checkpoints of %s measured\n", r.checkpoints.size(),
               o.run.c_str());
  return r;
}

}  // namespace posbias
