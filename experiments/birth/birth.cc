#include "experiments/birth/birth.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "experiments/birth/birth_summary.h"
#include "experiments/birth/seed_journal.h"
#include "experiments/birth/seed_journal_key.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/csv_table.h"
#include "posbias/core/enum_names.h"
#include "posbias/core/flag_rows.h"
#include "posbias/core/json_read.h"
#include "posbias/core/json_result.h"
#include "posbias/core/machine_record.h"
#include "posbias/core/memory.h"
#include "posbias/core/plot.h"
#include "posbias/core/position_base.h"
#include "posbias/core/process_env.h"
#include "posbias/core/progress.h"
#include "posbias/hf/hf_config.h"
#include "posbias/hf/text_file.h"
#include "posbias/hf/token_file.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/hf_weights.h"
#include "posbias/model/memory_plan.h"
#include "posbias/runfiles/checkpoint_selection_codec.h"
#include "posbias/theory/fit_figure.h"
#include "posbias/theory/operator.h"
#include "posbias/theory/profile_columns.h"
#include "posbias/theory/quadrature_row.h"
#include "posbias/theory/rollout.h"
#include "posbias/theory/shares_summary.h"
#include "posbias/train/checkpoint.h"

namespace posbias {
namespace {

// Past 2^20 tokens even one probe's cotangent of a small model outgrows a workstation; below,
// the memory plan decides.
constexpr std::int64_t kMaxLength = std::int64_t{1} << 20;
// The rollout keeps every layer's [q, q] attention (float64) over the seeds.
constexpr double kMaxRolloutBytes = 1024.0 * 1024 * 1024;

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// The seed mean with its seeds (none for a single seed: no bootstrap), as the fits take it.
MeasuredProfile measured_profile(const BirthResult& r) {
  return {r.profile,
          r.profile_seeds.size() > 1 ? r.profile_seeds : std::vector<std::vector<double>>{}};
}

// Seed mean of each layer's relative per-position gains (BranchStrength::key_gain or
// ::stay_gain), positions 1..q.
std::vector<std::vector<double>> seed_mean_gain(
    const std::vector<BranchStrength>& seeds, std::size_t q,
    std::vector<std::vector<double>> BranchStrength::*gain) {
  std::vector<std::vector<double>> mean((seeds.front().*gain).size(), std::vector<double>(q, 0.0));
  for (const auto& s : seeds)
    for (std::size_t l = 0; l < mean.size(); ++l)
      for (std::size_t j = 0; j < q; ++j)
        mean[l][j] += (s.*gain)[l][j] / static_cast<double>(seeds.size());
  return mean;
}

// What the no-fit predictions read from the forward passes of a set of seeds.
struct Evidence {
  std::vector<BranchStrength> strengths;       // per seed
  std::vector<std::vector<double>> attention;  // per layer, [q, q] seed mean; empty = not kept
};

Evidence evidence_of(const std::vector<BranchStrength>& strengths, std::size_t first,
                     std::size_t step, const std::vector<torch::Tensor>& attention_sum) {
  Evidence ev;
  for (std::size_t s = first; s < strengths.size(); s += step) ev.strengths.push_back(strengths[s]);
  for (const auto& sum : attention_sum) {
    const auto mean = (sum / static_cast<double>(ev.strengths.size())).contiguous();
    ev.attention.emplace_back(mean.data_ptr<double>(), mean.data_ptr<double>() + mean.numel());
  }
  return ev;
}

// model "theory": Π_l over the operator op (dense when key gains enter); "rollout": over the
// measured attention. Positions 1..q, unit sum, not yet scored.
NoFitPrediction predict(const Evidence& ev, std::int64_t layers, std::size_t q,
                        const std::string& model, AlphaEstimator e, PathSum paths,
                        const AttentionOperator& op) {
  NoFitPrediction p;
  p.model = model;
  p.estimator = e;
  p.paths = paths;
  p.op = model == "theory" ? op.describe() : "measured";
  p.alpha = seed_mean_alpha(ev.strengths, e);
  if (model == "theory" && e == AlphaEstimator::kPositions && paths == PathSum::kQuadrature &&
      op.is_cesaro()) {  // the query's row only, at any length (quadrature_row.h)
    QuadratureRowSpec qs;
    qs.query = static_cast<std::int64_t>(q);
    qs.alpha = p.alpha;
    qs.key_scale = seed_mean_gain(ev.strengths, q, &BranchStrength::key_gain);
    qs.stay_scale = seed_mean_gain(ev.strengths, q, &BranchStrength::stay_gain);
    std::vector<double> row = quadrature_row(qs);
    for (double& v : row) v = std::max(v, 1e-300);
    p.profile = unit_sum(row);
    return p;
  }
  if (model == "theory" && e != AlphaEstimator::kPositions) {
    InfluenceSpec is;
    is.length = static_cast<std::int64_t>(q);
    is.layers = layers;
    is.alpha = p.alpha;
    is.op = op;
    is.paths = paths;
    p.profile = unit_sum(from_log10_row(log10_row(influence_row(is))));
    return p;
  }
  RolloutSpec rs;
  rs.length = static_cast<std::int64_t>(q);
  if (model == "theory") {  // the operator as a dense matrix
    std::vector<double> dense(q * q, 0.0);
    for (std::size_t i = 1; i <= q; ++i) {
      const std::vector<double> row = op.dense_row(static_cast<std::int64_t>(i));
      std::copy(row.begin(), row.end(), dense.begin() + static_cast<std::ptrdiff_t>((i - 1) * q));
    }
    rs.attention.assign(static_cast<std::size_t>(layers), dense);
  } else {
    rs.attention = ev.attention;
  }
  rs.alpha = p.alpha;
  rs.paths = paths;
  if (e == AlphaEstimator::kPositions) {
    rs.key_scale = seed_mean_gain(ev.strengths, q, &BranchStrength::key_gain);
    rs.stay_scale = seed_mean_gain(ev.strengths, q, &BranchStrength::stay_gain);
  }
  std::vector<double> row = rollout_row(rs);
  for (double& v : row) v = std::max(v, 1e-300);
  p.profile = unit_sum(row);
  return p;
}

// The no-fit predictions (every estimator and path sum; the headline follows --alpha-estimator
// and --paths), the plain causal operator as a control for windowed and ALiBi runs, and the
// held-out model comparison, whose no-fit predictions read only the fitting half's seeds.
void predict_without_fitting(BirthResult& r, const std::vector<torch::Tensor>& attention_sum,
                             const std::vector<torch::Tensor>& attention_even) {
  const MeasuredProfile mp = measured_profile(r);
  const std::size_t q = r.profile.size();
  const Evidence all = evidence_of(r.strength_seeds, 0, 1, attention_sum);
  // Position gains go through H dense q×q layers: O(H·q²) memory, O(H·q³) quadrature time.
  const auto dense_limit = static_cast<std::size_t>(kMaxQuadratureRolloutLength);
  if (all.attention.empty() && r.rollout_skipped.empty()) r.rollout_skipped = "no attention kept";
  if (!all.attention.empty() && q > kMaxQuadratureRolloutLength &&
      r.fit_spec.paths == PathSum::kQuadrature) {
    r.rollout_skipped =
        "a quadrature rollout is limited to q <= " + std::to_string(kMaxQuadratureRolloutLength);
  }
  // The position gains' quadrature row with the Cesàro operator is computed at any length
  // (quadrature_row.h); every other combination with position gains is dense, so past the dense
  // limit it is left out and, as the headline, falls back to the per-layer jacobian α̂.
  const bool row_only = r.fit_spec.op.is_cesaro();
  auto positions_fit = [&](PathSum paths) {
    return q <= dense_limit || (row_only && paths == PathSum::kQuadrature);
  };
  const AlphaEstimator headline_estimator =
      r.options.alpha_estimator == AlphaEstimator::kPositions && !positions_fit(r.fit_spec.paths)
          ? AlphaEstimator::kJacobian
          : r.options.alpha_estimator;
  auto scored = [&](NoFitPrediction p) {
    p.score = compare_shape(mp, p.profile, r.options.bootstrap, r.options.seed);
    return p;
  };
  for (AlphaEstimator e :
       {AlphaEstimator::kJacobian, AlphaEstimator::kForward, AlphaEstimator::kPositions}) {
    for (PathSum paths : {PathSum::kLinear, PathSum::kQuadrature}) {
      if (e == AlphaEstimator::kPositions && !positions_fit(paths)) continue;
      const bool headline = e == headline_estimator && paths == r.fit_spec.paths;
      const std::int64_t layers = r.config.layers;
      NoFitPrediction t = scored(predict(all, layers, q, "theory", e, paths, r.fit_spec.op));
      if (headline) r.nofit = t;
      r.variants.push_back(std::move(t));
      if (!all.attention.empty() && (paths == PathSum::kLinear || q <= dense_limit)) {
        NoFitPrediction ro = scored(predict(all, layers, q, "rollout", e, paths, {}));
        if (headline) r.rollout = ro;
        r.variants.push_back(std::move(ro));
      }
    }
  }
  if (!r.fit_spec.op.is_cesaro()) {
    r.causal_control = scored(
        predict(all, r.config.layers, q, "theory", r.nofit->estimator, r.fit_spec.paths, {}));
  }
  if (r.profile_seeds.size() >= 2) {
    const Evidence even = evidence_of(r.strength_seeds, 0, 2, attention_even);
    ComparisonInput in;
    in.seeds = r.profile_seeds;
    in.theory = r.fit_spec;
    in.nofit = predict(even, r.config.layers, q, "theory", r.nofit->estimator, r.fit_spec.paths,
                       r.fit_spec.op)
                   .profile;
    if (r.rollout) {
      in.rollout =
          predict(even, r.config.layers, q, "rollout", r.rollout->estimator, r.fit_spec.paths, {})
              .profile;
    }
    r.comparison = compare_models(in);
  }
}

// p_1 over the minimum among positions 1..q-1 (the query left out); NaN when q < 2.
double first_over_min(const std::vector<double>& profile) {
  if (profile.size() < 2) return std::nan("");
  return profile.front() / *std::min_element(profile.begin(), profile.end() - 1);
}

}  // namespace

std::vector<double> seed_mean_alpha(const std::vector<BranchStrength>& seeds, AlphaEstimator e) {
  std::vector<double> mean(seeds.front().of(e).size(), 0.0);
  for (const auto& s : seeds)
    for (std::size_t l = 0; l < mean.size(); ++l)
      mean[l] += s.of(e)[l] / static_cast<double>(seeds.size());
  return mean;
}

namespace {

// --arch: a preset, or a family, which builds its reference preset (family_default). A name that
// is neither gets one line listing both kinds.
ModelConfig arch_config(const std::string& arch) {
  const std::vector<std::string> presets = model_preset_names();
  if (std::find(presets.begin(), presets.end(), arch) != presets.end()) return model_preset(arch);
  for (const FamilyTraits& t : kFamilies)
    if (t.name == arch) return family_default(t.family);
  const std::vector<std::string_view> preset_names(presets.begin(), presets.end());
  std::vector<std::string_view> families, names = preset_names;
  for (const FamilyTraits& t : kFamilies) {
    families.push_back(t.name);
    if (std::find(names.begin(), names.end(), t.name) == names.end()) names.push_back(t.name);
  }
  throw std::invalid_argument("unknown --arch '" + arch.substr(0, 40) +
                              "' (a preset: " + name_list(preset_names) +
                              "; or a family, which builds its preset: " + name_list(families) +
                              ")" + did_you_mean(names, arch));
}

}  // namespace

ModelConfig birth_model_config(const BirthOptions& o) {
  ModelConfig c;
  if (!o.config.empty()) {
    c = model_config_from_hf(read_hf_config(o.config));
  } else {
    c = arch_config(o.arch);
  }
  auto override_if = [](std::int64_t value, std::int64_t& field, const char* name) {
    if (value < 0)
      throw std::invalid_argument(std::string("--") + name + " must be >= 1, got " +
                                  std::to_string(value));
    if (value > 0) field = value;
  };
  override_if(o.layers, c.layers, "layers");
  const std::int64_t preset_d = c.d_model, preset_mlp = c.mlp;
  override_if(o.d_model, c.d_model, "d-model");
  override_if(o.heads, c.heads, "heads");
  // A new head count keeps the preset's KV heads only if they still divide it.
  if (o.heads > 0 && o.kv_heads == 0 && c.heads % c.kv_heads != 0) c.kv_heads = c.heads;
  override_if(o.kv_heads, c.kv_heads, "kv-heads");
  // HF's n_inner = null means 4·d: a d override rescales the preset's MLP unless --mlp is given.
  if (o.d_model > 0 && o.mlp == 0) {
    c.mlp = c.gated_mlp() ? (preset_mlp * c.d_model / preset_d + 7) / 8 * 8 : 4 * c.d_model;
  }
  override_if(o.mlp, c.mlp, "mlp");
  override_if(o.rotary_dim, c.rotary_dim, "rotary-dim");
  if (o.pos) c.pos = *o.pos;
  if (o.window < 0)
    throw std::invalid_argument("--window must be >= 1 keys, got " + std::to_string(o.window));
  if (o.window > 0) c.window = o.window;
  if (!(std::isfinite(o.attn_init_scale) && o.attn_init_scale > 0 && o.attn_init_scale <= 1000))
    throw std::invalid_argument("--attn-init-scale must be in (0, 1000], got " +
                                fmt::format("{}", o.attn_init_scale));
  c.attn_init_scale = o.attn_init_scale;
  if (o.null_sink) c.null_sink = *o.null_sink;
  if (o.rotary_dim == 0 && c.rotary_dim > c.head_dim()) c.rotary_dim = 0;
  c.dropout = 0.0;  // measurements run in eval mode
  if (o.length < 2 || o.length > kMaxLength) {
    throw std::invalid_argument("--length must be in 2.." + std::to_string(kMaxLength) + ", got " +
                                std::to_string(o.length));
  }
  if (c.learned_positions()) c.max_positions = std::max(c.max_positions, o.length);
  c.residual_init_scaling = o.init == BirthInit::kHf;
  c.validate();
  return c;
}

namespace {

CheckpointInputFiles input_files(const BirthOptions& o) { return {o.tokens, o.text, o.tokenizer}; }

// The options' own checks, before any model is built.
void check_birth_options(const BirthOptions& o, const TrainedInput* trained) {
  if (o.seeds < 1 || o.seeds > 10000)
    throw std::invalid_argument("--seeds must be in 1..10000, got " + std::to_string(o.seeds));
  if (o.weights.empty() != o.config.empty())
    throw std::invalid_argument("--config and --weights go together");
  if (!o.weights.empty() && o.init != BirthInit::kHf)
    throw std::invalid_argument("--init applies to models at init, not to --weights");
  if (!o.weights.empty() && o.attn_init_scale != 1.0)
    throw std::invalid_argument("--attn-init-scale applies to models at init, not to --weights");
  if (!o.weights.empty() && o.null_sink)
    throw std::invalid_argument(
        "--null-sink applies to models at init; a checkpoint's config.json says whether it has "
        "one (null_sink)");
  if (trained && (!o.weights.empty() || !o.tokens.empty() || !o.text.empty()))
    throw std::invalid_argument(
        "--run measures the run's checkpoints: no --config, --weights, --tokens or --text");
  input_files(o).validate();
  if (!o.text.empty() && o.weights.empty())
    throw std::invalid_argument("--text measures a checkpoint: give --config and --weights");
}

// What every seed's measurement runs with, decided before the first one.
struct BirthPlan {
  JacobianSpec js;
  std::int64_t cotangents = 1;  // per seed: d (exact), the probes (Hutchinson) or 1
  std::int64_t query = 0;       // the query's key number q (1..L; position q − 1)
  bool checkpoint = false;      // trained weights (--weights or --run): no init per seed
  bool need_tokens = false;     // the model embeds token ids
  bool keep_attention = false;  // the measured attention is kept for the rollout
};

// The model's config, the fit's spec and the memory plan in r; refuses what cannot be measured
// (a window that leaves positions without influence, a plan over the memory budget).
BirthPlan plan_birth(const BirthOptions& o, const TrainedInput* trained, BirthResult& r) {
  BirthPlan plan;
  plan.js.method = o.method;
  plan.js.probes = o.probes;
  plan.js.target = o.target;
  r.options = o;
  r.config = birth_model_config(o);  // checks --length first
  if (trained) {
    r.config = trained->config;
    if (r.config.position_limit() && o.length > *r.config.position_limit()) {
      throw std::invalid_argument("--length " + std::to_string(o.length) +
                                  " exceeds the run's learned positions (" +
                                  std::to_string(r.config.max_positions) + ")");
    }
  }
  plan.query = query_key(o.query, o.length, "--query");  // keys 1..q (positions 0..q − 1)
  plan.js.query = plan.query;
  r.fit_spec.layers = r.config.layers;
  r.fit_spec.op.alibi_slopes = r.config.alibi_slopes();
  r.fit_spec.op.window = r.config.window;
  // At init every head's sink logit is the configured b (a trained run's have moved from it).
  if (r.config.null_sink) r.fit_spec.op.null_sink_weight = null_sink_weight(*r.config.null_sink);
  if (r.config.window > 0) {  // keys beyond H·(W-1) of the query have exactly zero influence
    const std::int64_t reach = r.config.layers * (r.config.window - 1);
    if (reach < plan.query - 1) {
      throw std::invalid_argument(
          "--window " + std::to_string(r.config.window) + " with " +
          std::to_string(r.config.layers) + " layers reaches " + std::to_string(reach) +
          " keys back from the query, so positions 0.." + std::to_string(plan.query - 2 - reach) +
          " have no influence at all; use a larger --window, more --layers or --length <= " +
          std::to_string(reach + 1));
    }
  }
  r.fit_spec.bootstrap = o.bootstrap;
  r.fit_spec.seed = o.seed;
  r.fit_spec.paths = o.paths;
  r.fit_spec.validate();  // before the measurement
  plan.checkpoint = !o.weights.empty() || trained;
  if (o.target != InfluenceTarget::kHidden && !plan.checkpoint && o.input != BirthInput::kTokens &&
      o.tokens.empty()) {
    throw std::invalid_argument("--target " + to_string(o.target) +
                                " reads the LM head: measure token ids (--input tokens, --tokens, "
                                "--weights or --run)");
  }
  plan.need_tokens = plan.checkpoint || o.input == BirthInput::kTokens || !o.tokens.empty();
  // The weights, one sequence's forward cache and the cotangents in flight.
  plan.cotangents = o.method == JacobianMethod::kExact        ? r.config.d_model
                    : o.method == JacobianMethod::kHutchinson ? o.probes
                                                              : 1;
  const double budget = memory_budget_bytes(o.memory_budget_gb);
  r.plan = plan_jacobian(r.config, o.length, plan.cotangents, at::get_num_threads(),
                         plan.need_tokens, budget, o.attention);
  require_memory(
      r.plan.bytes,
      "birth at --length " + std::to_string(o.length) + " (" + to_string(r.plan.pass.attention) +
          " attention" +
          (!r.plan.pass.checkpoint ? ")"
           : r.plan.in_flight < plan.cotangents
               ? ", activation checkpointing, " + std::to_string(r.plan.in_flight) +
                     (r.plan.in_flight == 1 ? " cotangent" : " cotangents") + " per pass)"
               : ", activation checkpointing)"),
      o.method == JacobianMethod::kExact ? "use --method hutchinson, a smaller --length or --layers"
                                         : "use fewer --probes, a smaller --length or --layers",
      o.memory_budget_gb);
  if (r.fit_spec.op.is_cesaro()) {  // the position gains' quadrature row, after the measurement
    require_memory(quadrature_row_bytes(plan.query, static_cast<std::size_t>(r.config.layers)),
                   "the no-fit prediction at --length " + std::to_string(o.length),
                   "use a smaller --length", o.memory_budget_gb);
  }
  plan.js.checkpoint = r.plan.pass.checkpoint;
  // A checkpointed plan runs close to its budget: large blocks from their own mmaps again, so
  // that the peak RSS is what is live (posbias's allocator otherwise serves everything from a
  // never-trimmed heap, whose holes took a 24-layer 16k run from the 7.46 GB planned to 12.2 GB).
  if (plan.js.checkpoint) configure_allocator_for_budget();
  if (plan.js.checkpoint && r.plan.in_flight < plan.cotangents)
    plan.js.max_chunk = r.plan.in_flight;
  if (budget > 0) plan.js.memory_budget_gb = budget / 1e9;  // the chunks share what the plan had
  const double attention_bytes =
      2 * 8.0 * static_cast<double>(r.config.layers) * static_cast<double>(plan.query * plan.query);
  plan.keep_attention =
      attention_bytes <= kMaxRolloutBytes && r.plan.pass.attention == AttentionPath::kDense;
  if (r.plan.pass.attention != AttentionPath::kDense) {
    r.rollout_skipped = "blockwise attention keeps no attention matrix";
  } else if (!plan.keep_attention) {
    r.rollout_skipped = "the measured attention of " + std::to_string(r.config.layers) +
                        " layers over " + std::to_string(plan.query) + " keys would take " +
                        format_bytes(attention_bytes) + " (limit " +
                        format_bytes(kMaxRolloutBytes) + ")";
  }
  return plan;
}

// The memory plan in one line (birth prints it on stderr before it measures): the attention
// path, checkpointing with its cotangents per pass and passes, the bytes planned and the budget.
std::string plan_line(const JacobianPlan& p, std::int64_t cotangents, double budget_gb) {
  std::string text = to_string(p.pass.attention) + " attention, ";
  if (p.pass.checkpoint) {
    const std::int64_t per_pass = p.in_flight > 0 ? std::min(p.in_flight, cotangents) : cotangents;
    const std::int64_t passes = (cotangents + per_pass - 1) / per_pass;
    text += fmt::format("activation checkpointing, {} cotangent{} per pass, {} pass{}", per_pass,
                        per_pass == 1 ? "" : "s", passes, passes == 1 ? "" : "es");
  } else {
    text += "no activation checkpointing";
  }
  text += fmt::format(", {:.2f} GB planned", p.bytes / 1e9);
  if (budget_gb > 0) {
    text += fmt::format(" (--memory-budget {:g} GB, {:.2f} GB resident before it)", budget_gb,
                        static_cast<double>(resident_bytes()) / 1e9);
  }
  return text;
}

// The model to measure: the run's, a checkpoint's (--weights) or one to initialise per seed.
Transformer birth_model(const BirthOptions& o, const TrainedInput* trained, const BirthPlan& plan,
                        const BirthResult& r) {
  Transformer model = trained ? trained->model : Transformer(r.config, plan.need_tokens);
  model->eval();
  model->set_attention(r.plan.pass.attention);
  if (!o.weights.empty()) load_model_weights(model, o.weights);
  return model;
}

// The token rows measured (--tokens, --text or the run's), checked for the loss target's next
// id (and --text's for --length).
std::vector<std::vector<std::int64_t>> birth_token_rows(const BirthOptions& o,
                                                        const TrainedInput* trained,
                                                        const BirthPlan& plan,
                                                        const BirthResult& r) {
  std::vector<std::vector<std::int64_t>> rows;
  if (!input_files(o).empty())
    rows = input_files(o).read(o.config, r.config.vocab, r.config.max_positions);
  if (trained) rows = trained->rows;
  for (std::size_t i = 0; i < rows.size() && !o.text.empty(); ++i) {
    if (static_cast<std::int64_t>(rows[i].size()) < o.length) {
      throw std::invalid_argument(
          "--length " + std::to_string(o.length) + ": input " + std::to_string(i + 1) + " of " +
          o.text + " is " + std::to_string(rows[i].size()) +
          " tokens; give a smaller --length (without it, the shortest input's length)");
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto n = static_cast<std::int64_t>(rows[i].size());
    if (n < plan.query) {  // the query is position plan.query − 1 of every row
      throw std::invalid_argument("token row " + std::to_string(i + 1) + " holds " +
                                  std::to_string(n) + " ids; the query at position " +
                                  std::to_string(plan.query - 1) + " needs " +
                                  std::to_string(plan.query) + " (give a smaller --length)");
    }
    if (o.target == InfluenceTarget::kLoss && n <= plan.query) {  // the id after the query
      throw std::invalid_argument(
          "--target loss needs the token after the query: token rows of at least " +
          std::to_string(plan.query + 1) + " ids");
    }
  }
  return rows;
}

// Profiles measured before: by a killed run (the journal), stored (a result re-scored) or,
// sharded, by the other ranks (gather).
class KnownProfiles {
 public:
  KnownProfiles(const BirthOptions& o, const TrainedInput* trained, ProcessGroup* group,
                const std::vector<std::vector<double>>* stored, int samples, const BirthResult& r)
      : group_(group) {
    if (o.resume && (trained || o.json.empty())) {
      throw std::invalid_argument(trained ? "--resume applies to birth without --run"
                                          : "--resume needs --json (the finished seeds are kept "
                                            "beside it)");
    }
    // Data-parallel ranks: rank 0 keeps the journal.
    if (!o.json.empty() && !trained && (!group || group->rank() == 0) && !writes_through(o.json))
      journal_.emplace(o.json, to_json(seed_journal_key(o, r.config)), o.resume);
    if (journal_) known_ = journal_->done();
    if (stored) {  // a stored result re-scored: every seed's forward pass only
      if (static_cast<int>(stored->size()) != samples || group || journal_)
        throw std::invalid_argument("a re-scored result needs one stored profile per seed");
      for (int s = 0; s < samples; ++s) known_[s] = (*stored)[static_cast<std::size_t>(s)];
    }
    if (group) gather(known_);  // the journal's seeds, on every rank
  }

  const std::vector<double>* find(int s) const {
    const auto k = known_.find(s);
    return k == known_.end() ? nullptr : &k->second;
  }
  int count() const { return static_cast<int>(known_.size()); }
  SeedJournal* journal() { return journal_ ? &*journal_ : nullptr; }

  // Every rank's profiles (sharded runs), the journal completed with the other ranks' seeds.
  void gather(const std::map<int, std::vector<double>>& mine) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [s, profile] : mine) j[std::to_string(s)] = profile;
    for (const std::string& text : group_->all_gather(j.dump())) {
      const nlohmann::json theirs = parse_json(text, "a rank's profiles");
      for (const auto& [s, profile] : theirs.items())
        known_.emplace(std::stoi(s), profile.get<std::vector<double>>());
    }
  }
  void complete_journal() {
    if (!journal_) return;
    for (const auto& [s, profile] : known_)
      if (journal_->done().count(s) == 0) journal_->record(s, profile);
  }

 private:
  ProcessGroup* group_;
  std::optional<SeedJournal> journal_;
  std::map<int, std::vector<double>> known_;
};

// One seed at a time: its profile (measured, or known and only the forward pass run), branch
// strengths, attention entropy and attention, appended to the result and the accumulators.
class SeedMeasurement {
 public:
  SeedMeasurement(const BirthOptions& o, BirthPlan plan, Transformer model,
                  std::vector<std::vector<std::int64_t>> rows, Progress& progress,
                  SeedJournal* journal, BirthResult& r)
      : o_(o),
        plan_(std::move(plan)),
        model_(std::move(model)),
        rows_(std::move(rows)),
        progress_(progress),
        journal_(journal),
        r_(r) {
    // Each block's attention entropy and branch strength, read while the backward holds the
    // block's cache (a checkpointed block is then recomputed once, not three times); blocks
    // the backward did not visit are read from the cache afterwards.
    plan_.js.on_block = [this](std::size_t l, const BlockCache& block) {
      if (!read_[l]) read_block(l, block, cache_.pos);
      // A plan close to its budget: the next block starts from the pages this one still uses.
      if (plan_.js.checkpoint) release_free_heap();
      progress_.update(++units_);
    };
  }
  SeedMeasurement(const SeedMeasurement&) = delete;
  SeedMeasurement& operator=(const SeedMeasurement&) = delete;

  void measure(int s, const std::vector<double>* known);
  // Units of progress done; at least `floor` (a seed taken whole from the known profiles).
  void advance_to(std::int64_t floor) {
    units_ = std::max(units_, floor);
    progress_.update(units_);
  }
  // The accumulators emptied (the sharded pass measured this rank's seeds only).
  void clear() {
    r_.profile_seeds.clear();
    r_.strength_seeds.clear();
    entropies_.clear();
    attention_sum_.clear();
    attention_even_.clear();
  }
  // The forward cache freed once every seed is measured.
  void release() {
    cache_ = ForwardCache();
    if (plan_.js.checkpoint) release_free_heap();
  }
  double entropy_ratio() const {
    double e = 0;
    for (double v : entropies_) e += v / static_cast<double>(entropies_.size());
    return entropies_.empty() ? std::nan("") : e;
  }
  // [q, q] per layer, summed over all seeds and over the even ones (the comparison's fit half)
  const std::vector<torch::Tensor>& attention_sum() const { return attention_sum_; }
  const std::vector<torch::Tensor>& attention_even() const { return attention_even_; }

 private:
  torch::Tensor input(int s, const at::Generator& gen);
  void read_block(std::size_t l, const BlockCache& block, const PositionContext& pos) {
    entropy_sums_[l] = attention_entropy_ratio_sum(block, pos);
    read_branch_strength(*model_->layers[l], block, l, seed_, strength_, o_.stay_probes);
    read_[l] = true;
  }
  void add_attention(int s, std::int64_t q);

  const BirthOptions& o_;
  BirthPlan plan_;
  Transformer model_;
  std::vector<std::vector<std::int64_t>> rows_;
  Progress& progress_;
  SeedJournal* journal_;
  BirthResult& r_;
  std::int64_t units_ = 0;
  std::uint64_t seed_ = 0;
  ForwardCache cache_;
  std::vector<EntropyRatioSum> entropy_sums_;
  std::vector<bool> read_;
  BranchStrength strength_;
  std::vector<double> entropies_;
  std::vector<torch::Tensor> attention_sum_, attention_even_;
};

// Seed s's input: its token row, random token ids or Gaussian embeddings.
torch::Tensor SeedMeasurement::input(int s, const at::Generator& gen) {
  torch::NoGradGuard no_grad;
  const bool needs_next = o_.target == InfluenceTarget::kLoss;
  if (!rows_.empty()) {
    const auto& row = rows_[static_cast<std::size_t>(s)];
    auto ids = torch::tensor(row);
    if (ids.size(0) > o_.length) ids = ids.slice(0, 0, o_.length);
    if (needs_next) plan_.js.next_token = row[static_cast<std::size_t>(plan_.query)];
    return model_->embed(ids.unsqueeze(0));
  }
  if (plan_.need_tokens) {
    auto x = model_->embed(at::randint(r_.config.vocab, {1, o_.length}, gen));
    if (needs_next)
      plan_.js.next_token = at::randint(r_.config.vocab, {1}, gen).item<std::int64_t>();
    return x;
  }
  return at::normal(0.0, r_.config.init_std, {1, o_.length, r_.config.d_model}, gen);
}

void SeedMeasurement::add_attention(int s, std::int64_t q) {
  const auto layers = mean_attention(cache_);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    const auto a = layers[l].slice(0, 0, q).slice(1, 0, q);
    if (attention_sum_.size() <= l) {
      attention_sum_.push_back(a.clone());
      attention_even_.push_back(a.clone());
    } else {
      attention_sum_[l] += a;
      if (s % 2 == 0) attention_even_[l] += a;
    }
  }
}

void SeedMeasurement::measure(int s, const std::vector<double>* known) {
  seed_ = o_.seed + static_cast<std::uint64_t>(s);
  if (!plan_.checkpoint) model_->init_weights(seed_);
  auto gen = at::detail::createCPUGenerator(seed_ + 0x9e3779b9ULL);
  const torch::Tensor x = input(s, gen);
  plan_.js.probe_seed = seed_;
  cache_ = ForwardCache();
  if (plan_.js.checkpoint) release_free_heap();
  entropy_sums_.assign(model_->layers.size(), {});
  read_.assign(model_->layers.size(), false);
  strength_ = BranchStrength();
  torch::Tensor p;
  if (known != nullptr) {
    // measured before the run was killed: the forward pass (strengths, attention) only
    torch::NoGradGuard no_grad;
    cache_.checkpoint = plan_.js.checkpoint;
    model_->forward_embeddings(x, &cache_);
    p = torch::tensor(*known, torch::kFloat64);
  } else {
    p = jacobian_profile(model_, x, plan_.js, &cache_);
  }
  const std::int64_t q = plan_.query;
  if (cache_.blocks.empty()) {  // the autograd loop keeps no cache
    torch::NoGradGuard no_grad;
    model_->forward_embeddings(x, &cache_);
  }
  for (std::size_t l = 0; l < read_.size(); ++l)
    if (!read_[l]) read_block(l, cache_.block(l), cache_.pos);
  if (plan_.js.method != JacobianMethod::kAutogradLoop) {
    EntropyRatioSum sum;  // in layer order, whatever order the blocks were read in
    for (const auto& b : entropy_sums_) sum.add(b);
    entropies_.push_back(sum.ratio());
  }
  r_.strength_seeds.push_back(std::move(strength_));
  if (plan_.keep_attention) add_attention(s, q);
  const auto acc = p.accessor<double, 1>();
  std::vector<double> row(static_cast<std::size_t>(q));
  for (std::int64_t j = 0; j < q; ++j) row[j] = acc[j];
  if (journal_ && known == nullptr) {
    const auto full = p.contiguous();
    journal_->record(s, {full.data_ptr<double>(), full.data_ptr<double>() + full.numel()});
  }
  r_.profile_seeds.push_back(std::move(row));
}

// The seed mean, the fits against both path sums and the no-fit predictions.
void aggregate_birth(BirthResult& r, const SeedMeasurement& seeds) {
  r.profile.assign(r.profile_seeds[0].size(), 0.0);
  for (const auto& row : r.profile_seeds) {
    for (std::size_t j = 0; j < row.size(); ++j)
      r.profile[j] += row[j] / static_cast<double>(r.profile_seeds.size());
  }
  r.entropy_ratio = seeds.entropy_ratio();
  const MeasuredProfile mp = measured_profile(r);
  r.fit = fit_profile(mp, r.fit_spec);
  r.other_spec = r.fit_spec;
  r.other_spec.paths =
      r.options.paths == PathSum::kLinear ? PathSum::kQuadrature : PathSum::kLinear;
  r.other_spec.bootstrap = 0;
  r.other_fit = fit_profile(mp, r.other_spec);
  predict_without_fitting(r, seeds.attention_sum(), seeds.attention_even());
}

}  // namespace

BirthOptions resolve_text_length(BirthOptions o) {
  if (o.text.empty() || o.length != 0 || o.config.empty()) return o;
  const ModelConfig c = model_config_from_hf(read_hf_config(o.config));
  std::size_t shortest = std::numeric_limits<std::size_t>::max();
  for (const auto& row : input_files(o).read(o.config, c.vocab, c.max_positions))
    shortest = std::min(shortest, row.size());
  o.length = static_cast<std::int64_t>(shortest) - (o.target == InfluenceTarget::kLoss ? 1 : 0);
  return o;
}

BirthResult measure_birth(const BirthOptions& given, const TrainedInput* trained,
                          ProcessGroup* group,
                          const std::vector<std::vector<double>>* stored_profiles) {
  check_birth_options(given, trained);
  const BirthOptions o = resolve_text_length(given);
  BirthResult r;
  const BirthPlan plan = plan_birth(o, trained, r);
  // Said once the inputs are read and checked (an input's error stays the only line).
  const std::string plan_text = plan_line(r.plan, plan.cotangents, o.memory_budget_gb);
  Transformer model = birth_model(o, trained, plan, r);
  auto rows = birth_token_rows(o, trained, plan, r);
  const int samples = rows.empty() ? o.seeds : static_cast<int>(rows.size());
  KnownProfiles known(o, trained, group, stored_profiles, samples, r);
  if (trained == nullptr && (group == nullptr || group->rank() == 0))
    std::fprintf(stderr, "birth: plan: %s\n", plan_text.c_str());

  const auto start = std::chrono::steady_clock::now();
  // Units of work: one per block of each seed's backward (a long seed reports its layers), of
  // each pass when a checkpointed plan runs its cotangents in several.
  const std::int64_t passes =
      plan.js.max_chunk > 0 ? (plan.cotangents + plan.js.max_chunk - 1) / plan.js.max_chunk : 1;
  const std::int64_t blocks = r.config.layers * passes;
  Progress progress("birth (" + std::to_string(samples) + " seeds × " +
                        std::to_string(r.config.layers) + " layers" +
                        (passes > 1 ? " × " + std::to_string(passes) + " passes)" : ")"),
                    samples * blocks, known.count() * blocks);
  SeedMeasurement seeds(o, plan, std::move(model), std::move(rows), progress, known.journal(), r);
  if (group) {
    // Sharded: each rank measures the profiles of its seeds (s mod world size = rank), and
    // every rank gathers them all. The loop below then takes every seed's profile from there,
    // as a resumed run takes journaled ones, so the result is the one-process result.
    std::map<int, std::vector<double>> mine;
    for (int s = group->rank(); s < samples; s += group->size()) {
      if (known.find(s) != nullptr) continue;
      seeds.measure(s, nullptr);  // its blocks advance the progress
      mine[s] = r.profile_seeds.back();
    }
    seeds.clear();
    known.gather(mine);
    known.complete_journal();
  }
  for (int s = 0; s < samples; ++s) {
    seeds.measure(s, known.find(s));
    seeds.advance_to(static_cast<std::int64_t>(s + 1) * blocks);
  }
  progress.finish();
  seeds.release();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  aggregate_birth(r, seeds);
  r.peak_rss_mb = peak_rss_mb();
  return r;
}

namespace {

PathSumFitRecord path_sum_fit_record(const FitResult& f) {
  return {f.alpha, f.log10_gain, f.spearman, f.log_r2, f.w1, f.theory_log10};
}

std::optional<std::vector<double>> interval_record(const Interval& i) {
  if (!std::isfinite(i.low)) return std::nullopt;
  return std::vector<double>{i.low, i.high};
}

// The prediction's score against the measured profile.
ShapeScoreRecord shape_score_record(const NoFitPrediction& p, const std::vector<double>& measured) {
  const ShapeMetrics& m = p.score.at_mean;
  ShapeScoreRecord s;
  s.model = p.model;
  s.estimator = p.estimator;
  s.paths = p.paths;
  s.op = p.op;
  s.median_abs_log10_error = m.median_abs_log10_error;
  s.median_abs_log10_error_ci = interval_record(p.score.median_abs_log10_error);
  // no percentile interval: a resampled max can exclude the max itself
  s.max_abs_log10_error = m.max_abs_log10_error;
  s.w1 = m.w1;
  s.w1_ci = interval_record(p.score.w1);
  s.argmin_measured = m.argmin_measured;
  s.argmin_measured_ci = interval_record(p.score.argmin_measured);
  s.argmin_predicted = m.argmin_predicted;
  s.recency_ratio = {m.recency_measured, interval_record(p.score.recency_measured),
                     m.recency_predicted};
  s.primacy_ratio = {m.primacy_measured, interval_record(p.score.primacy_measured),
                     m.primacy_predicted};
  s.first_min_ratio = RatioRecord{first_over_min(measured), first_over_min(p.profile)};
  return s;
}

BirthMeasurementRecord measurement_record(const BirthResult& r) {
  const BirthOptions& o = r.options;
  BirthMeasurementRecord m;
  m.method = o.method;
  m.probes = o.probes;
  m.stay_probes = o.stay_probes;
  m.length = o.length;
  m.query = query_key(o.query, o.length, "--query") - 1;
  m.seeds = static_cast<std::int64_t>(r.profile_seeds.size());
  m.input = input_files(o).empty() ? to_string(o.input) : input_files(o).describe();
  m.window = r.config.window;
  m.attn_init_scale = o.attn_init_scale;
  m.init = o.weights.empty() && o.run.empty() ? to_string(o.init) : "checkpoint";
  m.seed = o.seed;
  m.target = o.target;
  m.attention = r.plan.pass.attention;
  m.activation_checkpointing = r.plan.pass.checkpoint;
  m.planned_bytes = r.plan.bytes;
  m.cotangents_per_pass =
      r.plan.pass.checkpoint ? std::optional<std::int64_t>(r.plan.in_flight) : std::nullopt;
  m.weights = !o.run.empty() ? "run " + o.run : o.weights.empty() ? "init" : o.weights;
  return m;
}

}  // namespace

BirthRecord birth_record(const BirthResult& r) {
  BirthRecord b;
  static_cast<FitRecord&>(b) = fit_record(r.fit, r.fit_spec);
  b.seeds = static_cast<std::int64_t>(r.profile_seeds.size());  // the fit counts resampled ones
  b.config = hf_config_from_model(r.config);
  b.measurement = measurement_record(r);
  b.path_sums = {{to_string(r.fit_spec.paths), path_sum_fit_record(r.fit)},
                 {to_string(r.other_spec.paths), path_sum_fit_record(r.other_fit)}};
  auto prediction =
      [&](const std::optional<NoFitPrediction>& p) -> std::optional<PredictionRecord> {
    if (!p) return std::nullopt;
    return PredictionRecord{shape_score_record(*p, r.profile), p->alpha, p->profile};
  };
  b.nofit = prediction(r.nofit);
  b.rollout = prediction(r.rollout);
  if (!r.rollout_skipped.empty()) b.rollout_skipped = r.rollout_skipped;
  for (const auto& v : r.variants) b.nofit_variants.push_back(shape_score_record(v, r.profile));
  if (r.causal_control) b.operator_control = shape_score_record(*r.causal_control, r.profile);
  for (AlphaEstimator e : {AlphaEstimator::kJacobian, AlphaEstimator::kForward}) {
    std::vector<std::vector<double>>& seeds = b.alpha_seeds[to_string(e)];
    for (const auto& s : r.strength_seeds) seeds.push_back(s.of(e));
  }
  for (const ModelScore& m : r.comparison) {
    b.comparison.push_back({m.model, m.free_params, m.heldout.median_abs_log10_error,
                            m.heldout.max_abs_log10_error, m.heldout.w1, m.heldout.argmin_measured,
                            m.heldout.argmin_predicted, m.fit});
  }
  b.profile = r.profile;
  b.profile_seeds = r.profile_seeds;
  const SharesOverSeeds shares = shares_over_seeds(r.profile_seeds);  // the U by its parts
  b.shares = shares_record(shares);
  b.u_test = u_test_record(shares.u);
  b.attention_entropy_ratio = r.entropy_ratio;
  b.seconds = r.seconds;
  b.peak_rss_mb = r.peak_rss_mb;
  b.machine = machine_record();
  return b;
}

nlohmann::json to_json(const BirthResult& r) { return to_json(birth_record(r)); }

std::string birth_csv(const BirthResult& r) {
  using J = std::size_t;  // a position
  const auto number = [](double v) { return csv_general(v, 10); };
  std::vector<CsvColumn<J>> columns = {
      {profile_csv::kPosition, [](const J& j) { return std::to_string(j); }},
      {profile_csv::kInfluence, [&r, number](const J& j) { return number(r.profile[j]); }}};
  for (std::size_t s = 0; s < r.profile_seeds.size(); ++s)
    columns.push_back({profile_csv::seed_column(s),
                       [&r, number, s](const J& j) { return number(r.profile_seeds[s][j]); }});
  return csv_text(columns, csv_indices(r.profile.size()));
}

Figure birth_figure(const BirthResult& r, const std::string& title) {
  return birth_figure(birth_record(r), r.causal_control ? &r.causal_control->profile : nullptr,
                      title);
}

Figure birth_figure(const BirthRecord& b, const std::vector<double>* control,
                    const std::string& title) {
  FitResult fit;  // what fit_figure reads of the fit
  fit.alpha = b.alpha, fit.spearman = b.spearman, fit.log_r2 = b.log_r2;
  fit.seeds = static_cast<int>(b.seeds);
  fit.theory_log10 = b.theory_log10;
  fit.paths = b.theory.paths;
  const MeasuredProfile mp{
      b.profile, b.profile_seeds.size() > 1 ? b.profile_seeds : std::vector<std::vector<double>>{}};
  Figure fig = fit_figure(mp, fit, title);
  const std::vector<std::size_t> shown = thin_indices(b.profile.size());
  for (const auto& [paths, other] : b.path_sums) {  // the other path sum, fitted too
    if (paths == to_string(b.theory.paths)) continue;
    Series s;
    s.title = fmt::format("theory, {} paths, α = {:.3f} (log R² {:.3f})", paths, other.alpha,
                          other.log_r2);
    s.style = "lines dt 2";
    for (std::size_t i : shown) {
      s.x.push_back(static_cast<double>(i));
      s.y.push_back(other.theory_log10[i]);
    }
    fig.panels.front().series.push_back(s);
  }
  // The no-fit predictions at the measured profile's total: nothing fitted to it.
  double total = 0;
  for (double v : b.profile) total += v;
  struct Drawn {
    const ShapeScoreRecord* score;
    const std::vector<double>* profile;
    bool control;
  };
  std::vector<Drawn> drawn;
  if (b.nofit) drawn.push_back({&*b.nofit, &b.nofit->profile, false});
  if (b.rollout) drawn.push_back({&*b.rollout, &b.rollout->profile, false});
  if (b.operator_control && control) drawn.push_back({&*b.operator_control, control, true});
  for (const Drawn& d : drawn) {
    Series s;
    const double error = d.score->median_abs_log10_error;
    s.title = d.control
                  ? fmt::format("plain causal theory (control): median |log10 error| {:.3f}", error)
                  : fmt::format("{} with measured α̂ ({}, {} paths): median |log10 error| {:.3f}",
                                d.score->model == "theory" ? "no-fit theory" : "rollout",
                                to_string(d.score->estimator), to_string(d.score->paths), error);
    s.style = d.control ? "lines dt 4" : d.score->model == "theory" ? "lines" : "lines dt 3";
    s.line_width = d.score->model == "theory" ? 3 : 2;
    for (std::size_t i : shown) {
      s.x.push_back(static_cast<double>(i));
      s.y.push_back(std::log10((*d.profile)[i] * total));
    }
    fig.panels.front().series.push_back(s);
  }
  return fig;
}

std::string birth_figure_title(const ModelConfig& c, std::int64_t length) {
  return to_string(c.family) + " (" + to_string(c.pos) + "), " + std::to_string(c.layers) +
         " layers, d = " + std::to_string(c.d_model) + ", L = " + std::to_string(length) +
         (c.null_sink ? fmt::format(", null sink b = {}", *c.null_sink) : "") +
         ": influence at init vs theory";
}

void run_birth(const BirthOptions& given) {
  const BirthOptions o = resolve_text_length(given);
  std::unique_ptr<ProcessGroup> group;
  if (o.ranks) {
    group =
        std::make_unique<ProcessGroup>(*o.ranks, std::chrono::seconds(o.rank_timeout),
                                       to_json(seed_journal_key(o, birth_model_config(o))).dump());
  }
  const BirthResult r = measure_birth(o, nullptr, group.get());
  if (group && group->rank() != 0) {  // rank 0 writes
    group->barrier();
    return;
  }
  const BirthRecord record = birth_record(r);
  // Without --json: the JSON for a pipe or a file, a summary on a terminal.
  write_json_result(o.json, to_json(record).dump(2) + "\n", [&] { return birth_summary(record); });
  if (!o.json.empty() && !writes_through(o.json)) SeedJournal::discard(o.json);
  if (!o.csv.empty()) write_file_atomic(o.csv, birth_csv(r));
  if (!o.plot.empty())
    render_figure(birth_figure(r, birth_figure_title(r.config, o.length)), o.plot);
  std::fprintf(
      stderr,
      "birth: no-fit median |log10 error| %.3f (rollout %s), fitted α = %.3f (log R² "
      "%.4f, %s paths), %.1f s, peak RSS %.0f MB\n",
      r.nofit->score.at_mean.median_abs_log10_error,
      r.rollout ? fmt::format("{:.3f}", r.rollout->score.at_mean.median_abs_log10_error).c_str()
                : "skipped",
      r.fit.alpha, r.fit.log_r2, to_string(r.fit_spec.paths).c_str(), r.seconds, r.peak_rss_mb);
  std::fprintf(stderr, "birth: U test %s\n",
               u_test_text(shares_over_seeds(r.profile_seeds).u).c_str());
  if (group) group->barrier();  // rank 0's rendezvous stays up until every rank is done
}

const std::vector<FieldRow<BirthOptions>>& birth_option_fields() {
  using O = BirthOptions;
  static const std::vector<FieldRow<O>> rows = {
      named_field<CheckpointSelectionNames>("checkpoints", &O::checkpoints,
                                            "with --run: " + checkpoint_selection_choices(),
                                            checkpoint_selection_type()),
      field("resume", &O::resume,
            "continue a killed run with the same options: seeds kept in JSON.seeds.json are not "
            "measured again"),
      integer_field("rank_timeout", &O::rank_timeout,
                    "data-parallel ranks (posbias launch, torchrun): the seeds are split over the "
                    "ranks and gathered; seconds a rank waits for the others",
                    1),
  };
  return rows;
}

const std::vector<FieldRow<BirthModeFlags>>& birth_mode_flag_fields() {
  using F = BirthModeFlags;
  static const std::vector<FieldRow<F>> rows = {
      field("target", &F::target,
            "what the influence is measured on: hidden (the final hidden state at the query, the "
            "theory's; the default), loss (the next-token loss at the query) or prob (the top-1 "
            "probability at the query); loss and prob need token inputs; answer (the loss of a "
            "retrieval answer: a kv value's tokens, a passkey's digits) with --inputs kv or "
            "passkey"),
      field("inputs", &F::inputs,
            "with --run: text (held-out text of a text run), kv (kv inputs with the most pairs "
            "that fit -L) or passkey (a passkey run's needles in its held-out text); kv and "
            "passkey: eval's inputs, --seeds per depth of --depths, -L defaulting to the run's "
            "length, target answer"),
      field("depths", &F::depths,
            "with --inputs kv or passkey: depths of the queried pair or needle in percent "
            "(comma list)",
            "INT"),
  };
  return rows;
}

}  // namespace posbias
