#include "experiments/birth/birth.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "experiments/birth/seed_journal.h"
#include "experiments/seeds/shares_json.h"
#include "experiments/theory/fit_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/json_read.h"
#include "posbias/core/machine.h"
#include "posbias/core/memory.h"
#include "posbias/core/plot.h"
#include "posbias/core/process_env.h"
#include "posbias/core/progress.h"
#include "posbias/hf/hf_config.h"
#include "posbias/hf/token_file.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/hf_weights.h"
#include "posbias/model/memory_plan.h"
#include "posbias/theory/operator.h"
#include "posbias/theory/quadrature_row.h"
#include "posbias/theory/rollout.h"
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

// What a seed's profile depends on: the model and the measurement, not the seed count, the
// attention path (equal to rounding) or what is done with the profiles afterwards.
nlohmann::json journal_key(const BirthOptions& o, const ModelConfig& config) {
  return {{"config", to_json(hf_config_from_model(config))},
          {"attn_scale", o.attn_scale},
          {"init", to_string(o.init)},
          {"method", to_string(o.method)},
          {"probes", o.probes},
          {"length", o.length},
          {"query", o.query},
          {"input", to_string(o.input)},
          {"seed", o.seed},
          {"target", to_string(o.target)},
          {"weights", o.weights},
          {"tokens", o.tokens}};
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

BirthInput parse_birth_input(const std::string& name) {
  if (name == "gaussian") return BirthInput::kGaussian;
  if (name == "tokens") return BirthInput::kTokens;
  throw std::invalid_argument("--input must be gaussian or tokens, got '" + name + "'");
}

std::string to_string(BirthInput input) {
  return input == BirthInput::kTokens ? "tokens" : "gaussian";
}

BirthInit parse_birth_init(const std::string& name) {
  if (name == "hf") return BirthInit::kHf;
  if (name == "unscaled") return BirthInit::kUnscaled;
  throw std::invalid_argument("--init must be hf or unscaled, got '" + name + "'");
}

std::string to_string(BirthInit init) { return init == BirthInit::kHf ? "hf" : "unscaled"; }

ModelConfig birth_model_config(const BirthOptions& o) {
  ModelConfig c;
  if (!o.config.empty()) {
    c = model_config_from_hf(read_hf_config(o.config));
  } else {
    bool preset = false;
    for (const auto& name : model_preset_names()) preset = preset || name == o.arch;
    c = preset ? model_preset(o.arch) : family_default(parse_family(o.arch));
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
    c.mlp = c.family == Family::kQwen2 ? (preset_mlp * c.d_model / preset_d + 7) / 8 * 8
                                       : 4 * c.d_model;
  }
  override_if(o.mlp, c.mlp, "mlp");
  override_if(o.rotary_dim, c.rotary_dim, "rotary-dim");
  if (o.pos) c.pos = *o.pos;
  if (o.window < 0)
    throw std::invalid_argument("--window must be >= 1 keys, got " + std::to_string(o.window));
  if (o.window > 0) c.window = o.window;
  if (!(std::isfinite(o.attn_scale) && o.attn_scale > 0 && o.attn_scale <= 1000))
    throw std::invalid_argument("--attn-scale must be in (0, 1000], got " +
                                fmt::format("{}", o.attn_scale));
  c.attn_init_scale = o.attn_scale;
  if (o.rotary_dim == 0 && c.rotary_dim > c.head_dim()) c.rotary_dim = 0;
  c.dropout = 0.0;  // measurements run in eval mode
  if (o.length < 2 || o.length > kMaxLength) {
    throw std::invalid_argument("--length must be in 2.." + std::to_string(kMaxLength) + ", got " +
                                std::to_string(o.length));
  }
  if (c.pos == PosEncoding::kLearned) c.max_positions = std::max(c.max_positions, o.length);
  c.residual_init_scaling = o.init == BirthInit::kHf;
  c.validate();
  return c;
}

BirthResult measure_birth(const BirthOptions& o, const TrainedInput* trained, ProcessGroup* group,
                          const std::vector<std::vector<double>>* stored_profiles) {
  if (o.seeds < 1 || o.seeds > 10000)
    throw std::invalid_argument("--seeds must be in 1..10000, got " + std::to_string(o.seeds));
  if (o.weights.empty() != o.config.empty())
    throw std::invalid_argument("--config and --weights go together");
  if (!o.weights.empty() && o.init != BirthInit::kHf)
    throw std::invalid_argument("--init applies to models at init, not to --weights");
  if (!o.weights.empty() && o.attn_scale != 1.0)
    throw std::invalid_argument("--attn-scale applies to models at init, not to --weights");
  if (trained && (!o.weights.empty() || !o.tokens.empty()))
    throw std::invalid_argument(
        "--run measures the run's checkpoints: no --config, --weights or --tokens");
  JacobianSpec js;
  js.method = o.method;
  js.probes = o.probes;
  js.query = o.query;
  js.target = o.target;
  BirthResult r;
  r.options = o;
  r.config = birth_model_config(o);  // checks --length first
  if (trained) {
    r.config = trained->config;
    if (r.config.pos == PosEncoding::kLearned && o.length > r.config.max_positions) {
      throw std::invalid_argument("--length " + std::to_string(o.length) +
                                  " exceeds the run's learned positions (" +
                                  std::to_string(r.config.max_positions) + ")");
    }
  }
  if (o.query < 0 || o.query > o.length) {
    throw std::invalid_argument("--query must be in 1..L = " + std::to_string(o.length) +
                                " (0 = last)");
  }
  r.fit_spec.layers = r.config.layers;
  if (r.config.pos == PosEncoding::kAlibi)
    r.fit_spec.op.alibi_slopes = alibi_standard_slopes(static_cast<int>(r.config.heads));
  r.fit_spec.op.window = r.config.window;
  const std::int64_t q_rows = o.query == 0 ? o.length : o.query;  // positions 1..q measured
  if (r.config.window > 0) {  // keys beyond H·(W-1) of the query have exactly zero influence
    const std::int64_t reach = r.config.layers * (r.config.window - 1);
    if (reach < q_rows - 1) {
      throw std::invalid_argument(
          "--window " + std::to_string(r.config.window) + " with " +
          std::to_string(r.config.layers) + " layers reaches " + std::to_string(reach) +
          " keys back from the query, so positions 1.." + std::to_string(q_rows - 1 - reach) +
          " have no influence at all; use a larger --window, more --layers or --length <= " +
          std::to_string(reach + 1));
    }
  }
  r.fit_spec.bootstrap = o.bootstrap;
  r.fit_spec.seed = o.seed;
  r.fit_spec.paths = o.paths;
  r.fit_spec.validate();  // before the measurement
  const bool checkpoint = !o.weights.empty() || trained;
  if (o.target != InfluenceTarget::kHidden && !checkpoint && o.input != BirthInput::kTokens &&
      o.tokens.empty()) {
    throw std::invalid_argument("--target " + to_string(o.target) +
                                " reads the LM head: measure token ids (--input tokens, --tokens, "
                                "--weights or --run)");
  }
  const bool need_tokens = checkpoint || o.input == BirthInput::kTokens || !o.tokens.empty();
  // The weights, one sequence's forward cache and the cotangents in flight.
  const std::int64_t cotangents = o.method == JacobianMethod::kExact        ? r.config.d_model
                                  : o.method == JacobianMethod::kHutchinson ? o.probes
                                                                            : 1;
  const double budget = memory_budget_bytes(o.memory_budget_gb);
  r.plan = plan_jacobian(r.config, o.length, cotangents, at::get_num_threads(), need_tokens, budget,
                         o.attention);
  require_memory(
      r.plan.bytes,
      "birth at --length " + std::to_string(o.length) + " (" + to_string(r.plan.pass.attention) +
          " attention" +
          (!r.plan.pass.checkpoint ? ")"
           : r.plan.in_flight < cotangents
               ? ", activation checkpointing, " + std::to_string(r.plan.in_flight) +
                     (r.plan.in_flight == 1 ? " cotangent" : " cotangents") + " per pass)"
               : ", activation checkpointing)"),
      o.method == JacobianMethod::kExact ? "use --method hutchinson, a smaller --length or --layers"
                                         : "use fewer --probes, a smaller --length or --layers",
      o.memory_budget_gb);
  if (r.fit_spec.op.is_cesaro()) {  // the position gains' quadrature row, after the measurement
    require_memory(quadrature_row_bytes(q_rows, static_cast<std::size_t>(r.config.layers)),
                   "the no-fit prediction at --length " + std::to_string(o.length),
                   "use a smaller --length", o.memory_budget_gb);
  }
  js.checkpoint = r.plan.pass.checkpoint;
  if (js.checkpoint) configure_allocator_for_budget();
  if (js.checkpoint && r.plan.in_flight < cotangents) js.max_chunk = r.plan.in_flight;
  if (budget > 0) js.memory_budget_gb = budget / 1e9;  // the chunks share what the plan had
  const double attention_bytes =
      2 * 8.0 * static_cast<double>(r.config.layers) * static_cast<double>(q_rows * q_rows);
  const bool keep_attention =
      attention_bytes <= kMaxRolloutBytes && r.plan.pass.attention == AttentionPath::kDense;
  if (r.plan.pass.attention != AttentionPath::kDense) {
    r.rollout_skipped = "blockwise attention keeps no attention matrix";
  } else if (!keep_attention) {
    r.rollout_skipped = "the measured attention of " + std::to_string(r.config.layers) +
                        " layers at q = " + std::to_string(q_rows) + " would take " +
                        format_bytes(attention_bytes) + " (limit " +
                        format_bytes(kMaxRolloutBytes) + ")";
  }
  Transformer model = trained ? trained->model : Transformer(r.config, need_tokens);
  model->eval();
  model->set_attention(r.plan.pass.attention);
  std::vector<std::vector<std::int64_t>> token_rows;
  if (!o.weights.empty()) load_hf_weights(model, open_model_weights(o.weights));
  if (!o.tokens.empty()) token_rows = read_token_file(o.tokens, r.config.vocab);
  if (trained) token_rows = trained->rows;
  // The loss target reads the id after the query: token rows need L + 1 ids.
  const bool needs_next = o.target == InfluenceTarget::kLoss;
  const std::int64_t q_index = o.query == 0 ? o.length : o.query;  // 1-based
  for (const auto& row : token_rows) {
    if (needs_next && static_cast<std::int64_t>(row.size()) <= q_index) {
      throw std::invalid_argument(
          "--target loss needs the token after the query: token rows of at least " +
          std::to_string(q_index + 1) + " ids");
    }
  }
  const int samples = token_rows.empty() ? o.seeds : static_cast<int>(token_rows.size());
  std::optional<SeedJournal> journal;
  if (o.resume && (trained || o.json.empty())) {
    throw std::invalid_argument(trained ? "--resume applies to birth without --run"
                                        : "--resume needs --json (the finished seeds are kept "
                                          "beside it)");
  }
  // Data-parallel ranks (the torchrun variables): rank 0 keeps the journal.
  if (!o.json.empty() && !trained && (!group || group->rank() == 0) && !writes_through(o.json))
    journal.emplace(o.json, journal_key(o, r.config), o.resume);
  // Profiles measured before: by a killed run (the journal) or, sharded, by the other ranks.
  std::map<int, std::vector<double>> known;
  if (journal) known = journal->done();
  if (stored_profiles) {  // a stored result re-scored: every seed's forward pass only
    if (static_cast<int>(stored_profiles->size()) != samples || group || journal)
      throw std::invalid_argument("a re-scored result needs one stored profile per seed");
    for (int s = 0; s < samples; ++s) known[s] = (*stored_profiles)[static_cast<std::size_t>(s)];
  }
  auto gather = [&](const std::map<int, std::vector<double>>& mine) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [s, profile] : mine) j[std::to_string(s)] = profile;
    for (const std::string& text : group->all_gather(j.dump())) {
      const nlohmann::json theirs = parse_json(text, "a rank's profiles");
      for (const auto& [s, profile] : theirs.items())
        known.emplace(std::stoi(s), profile.get<std::vector<double>>());
    }
  };
  if (group) gather(known);  // the journal's seeds, on every rank
  const int journaled = static_cast<int>(known.size());

  const auto start = std::chrono::steady_clock::now();
  // Units of work: one per block of each seed's backward (a long seed reports its layers), of
  // each pass when a checkpointed plan runs its cotangents in several.
  const std::int64_t passes = js.max_chunk > 0 ? (cotangents + js.max_chunk - 1) / js.max_chunk : 1;
  const std::int64_t blocks = r.config.layers * passes;
  Progress progress("birth (" + std::to_string(samples) + " seeds × " +
                        std::to_string(r.config.layers) + " layers" +
                        (passes > 1 ? " × " + std::to_string(passes) + " passes)" : ")"),
                    samples * blocks, journaled * blocks);
  std::int64_t units = 0;
  // Each block's attention entropy and branch strength, read while the backward holds the
  // block's cache (a checkpointed block is then recomputed once, not three times); blocks the
  // backward did not visit are read from the cache afterwards.
  std::vector<EntropyRatioSum> entropy_sums;
  std::vector<bool> read;
  BranchStrength strength;
  std::uint64_t seed = 0;
  auto read_block = [&](std::size_t l, const BlockCache& block, const PositionContext& pos) {
    entropy_sums[l] = attention_entropy_ratio_sum(block, pos);
    read_branch_strength(*model->layers[l], block, l, seed, strength);
    read[l] = true;
  };
  ForwardCache cache;
  js.on_block = [&](std::size_t l, const BlockCache& block) {
    if (!read[l]) read_block(l, block, cache.pos);
    // A plan close to its budget: the next block starts from the pages this one still uses.
    if (js.checkpoint) release_free_heap();
    progress.update(++units);
  };
  std::vector<double> entropies;
  // [q, q] per layer, summed over all seeds and over the even ones (the comparison's fit half)
  std::vector<torch::Tensor> attention_sum, attention_even;
  // One seed: its profile (measured, or `finished` and only the forward pass run), branch
  // strengths, attention entropy and attention, appended to the accumulators.
  auto measure_seed = [&](int s, const std::vector<double>* finished) {
    seed = o.seed + static_cast<std::uint64_t>(s);
    if (!checkpoint) model->init_weights(seed);
    auto gen = at::detail::createCPUGenerator(seed + 0x9e3779b9ULL);
    torch::Tensor x;
    {
      torch::NoGradGuard no_grad;
      if (!token_rows.empty()) {
        const auto& row = token_rows[static_cast<std::size_t>(s)];
        auto ids = torch::tensor(row);
        if (ids.size(0) > o.length) ids = ids.slice(0, 0, o.length);
        if (needs_next) js.next_token = row[static_cast<std::size_t>(q_index)];
        x = model->embed(ids.unsqueeze(0));
      } else if (need_tokens) {
        x = model->embed(at::randint(r.config.vocab, {1, o.length}, gen));
        if (needs_next) js.next_token = at::randint(r.config.vocab, {1}, gen).item<std::int64_t>();
      } else {
        x = at::normal(0.0, r.config.init_std, {1, o.length, r.config.d_model}, gen);
      }
    }
    js.probe_seed = seed;
    cache = ForwardCache();
    if (js.checkpoint) release_free_heap();
    entropy_sums.assign(model->layers.size(), {});
    read.assign(model->layers.size(), false);
    strength = BranchStrength();
    torch::Tensor p;
    if (finished != nullptr) {
      // measured before the run was killed: the forward pass (strengths, attention) only
      torch::NoGradGuard no_grad;
      cache.checkpoint = js.checkpoint;
      model->forward_embeddings(x, &cache);
      p = torch::tensor(*finished, torch::kFloat64);
    } else {
      p = jacobian_profile(model, x, js, &cache);
    }
    const std::int64_t q = o.query == 0 ? x.size(1) : o.query;
    if (cache.blocks.empty()) {  // the autograd loop keeps no cache
      torch::NoGradGuard no_grad;
      model->forward_embeddings(x, &cache);
    }
    for (std::size_t l = 0; l < read.size(); ++l)
      if (!read[l]) read_block(l, cache.block(l), cache.pos);
    if (js.method != JacobianMethod::kAutogradLoop) {
      EntropyRatioSum sum;  // in layer order, whatever order the blocks were read in
      for (const auto& b : entropy_sums) sum.add(b);
      entropies.push_back(sum.ratio());
    }
    r.strength_seeds.push_back(std::move(strength));
    if (keep_attention) {
      const auto layers = mean_attention(cache);
      for (std::size_t l = 0; l < layers.size(); ++l) {
        const auto a = layers[l].slice(0, 0, q).slice(1, 0, q);
        if (attention_sum.size() <= l) {
          attention_sum.push_back(a.clone());
          attention_even.push_back(a.clone());
        } else {
          attention_sum[l] += a;
          if (s % 2 == 0) attention_even[l] += a;
        }
      }
    }
    const auto acc = p.accessor<double, 1>();
    std::vector<double> row(static_cast<std::size_t>(q));
    for (std::int64_t j = 0; j < q; ++j) row[j] = acc[j];
    if (!r.profile_seeds.empty() && row.size() != r.profile_seeds[0].size()) {
      throw std::runtime_error(
          "token sequences must all have the same length (or be cut with --length)");
    }
    if (journal && finished == nullptr) {
      const auto full = p.contiguous();
      journal->record(s, {full.data_ptr<double>(), full.data_ptr<double>() + full.numel()});
    }
    r.profile_seeds.push_back(std::move(row));
  };
  if (group) {
    // Sharded: each rank measures the profiles of its seeds (s mod world size = rank), and
    // every rank gathers them all. The loop below then takes every seed's profile from there,
    // as a resumed run takes journaled ones, so the result is the one-process result.
    std::map<int, std::vector<double>> mine;
    for (int s = group->rank(); s < samples; s += group->size()) {
      if (known.count(s) != 0) continue;
      measure_seed(s, nullptr);  // its blocks advance the progress
      mine[s] = r.profile_seeds.back();
    }
    r.profile_seeds.clear();
    r.strength_seeds.clear();
    entropies.clear();
    attention_sum.clear();
    attention_even.clear();
    gather(mine);
    if (journal) {
      for (const auto& [s, profile] : known)
        if (journal->done().count(s) == 0) journal->record(s, profile);
    }
  }
  for (int s = 0; s < samples; ++s) {
    const auto k = known.find(s);
    measure_seed(s, k == known.end() ? nullptr : &k->second);
    units = std::max(units, static_cast<std::int64_t>(s + 1) * blocks);
    progress.update(units);
  }
  progress.finish();
  cache = ForwardCache();
  if (js.checkpoint) release_free_heap();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.profile.assign(r.profile_seeds[0].size(), 0.0);
  for (const auto& row : r.profile_seeds) {
    for (std::size_t j = 0; j < row.size(); ++j)
      r.profile[j] += row[j] / static_cast<double>(r.profile_seeds.size());
  }
  double e = 0;
  for (double v : entropies) e += v / static_cast<double>(entropies.size());
  r.entropy_ratio = entropies.empty() ? std::nan("") : e;

  const MeasuredProfile mp = measured_profile(r);
  r.fit = fit_profile(mp, r.fit_spec);
  r.other_spec = r.fit_spec;
  r.other_spec.paths = o.paths == PathSum::kLinear ? PathSum::kQuadrature : PathSum::kLinear;
  r.other_spec.bootstrap = 0;
  r.other_fit = fit_profile(mp, r.other_spec);
  predict_without_fitting(r, attention_sum, attention_even);
  r.peak_rss_mb = peak_rss_mb();
  return r;
}

nlohmann::json to_json(const BirthResult& r) {
  const BirthOptions& o = r.options;
  nlohmann::json j = fit_json(r.fit, r.fit_spec);
  j["seeds"] = r.profile_seeds.size();  // profiles averaged (the fit counts only resampled ones)
  j["config"] = to_json(hf_config_from_model(r.config));
  j["measurement"] = {
      {"method", to_string(o.method)},
      {"probes", o.probes},
      {"length", o.length},
      {"query", o.query == 0 ? o.length : o.query},
      {"seeds", r.profile_seeds.size()},
      {"input", o.tokens.empty() ? to_string(o.input) : "tokens:" + o.tokens},
      {"window", r.config.window},
      {"attn_scale", o.attn_scale},
      {"init", o.weights.empty() && o.run.empty() ? to_string(o.init) : "checkpoint"},
      {"seed", o.seed},
      {"target", to_string(o.target)},
      {"attention", to_string(r.plan.pass.attention)},
      {"activation_checkpointing", r.plan.pass.checkpoint},
      {"planned_bytes", r.plan.bytes},
      {"cotangents_per_pass",
       r.plan.pass.checkpoint ? nlohmann::json(r.plan.in_flight) : nlohmann::json()},
      {"weights", !o.run.empty()      ? "run " + o.run
                  : o.weights.empty() ? "init"
                                      : o.weights}};
  auto summary = [](const FitResult& f) {
    return nlohmann::json{{"alpha", f.alpha},
                          {"log10_gain", f.log10_gain},
                          {"spearman", f.spearman},
                          {"log_r2", f.log_r2},
                          {"w1", f.w1},
                          {"theory_log10", f.theory_log10}};
  };
  j["path_sums"] = {{to_string(r.fit_spec.paths), summary(r.fit)},
                    {to_string(r.other_spec.paths), summary(r.other_fit)}};
  auto interval = [](const Interval& i) {
    return std::isfinite(i.low) ? nlohmann::json::array({i.low, i.high}) : nlohmann::json();
  };
  auto scores = [&](const NoFitPrediction& p) {
    const ShapeMetrics& m = p.score.at_mean;
    return nlohmann::json{
        {"model", p.model},
        {"estimator", to_string(p.estimator)},
        {"paths", to_string(p.paths)},
        {"operator", p.op},
        {"median_abs_log10_error", m.median_abs_log10_error},
        {"median_abs_log10_error_ci", interval(p.score.median_abs_log10_error)},
        // no percentile interval: a resampled max can exclude the max itself
        {"max_abs_log10_error", m.max_abs_log10_error},
        {"w1", m.w1},
        {"w1_ci", interval(p.score.w1)},
        {"argmin_measured", m.argmin_measured},
        {"argmin_measured_ci", interval(p.score.argmin_measured)},
        {"argmin_predicted", m.argmin_predicted},
        {"recency_ratio",
         {{"measured", m.recency_measured},
          {"measured_ci", interval(p.score.recency_measured)},
          {"predicted", m.recency_predicted}}},
        {"primacy_ratio",
         {{"measured", m.primacy_measured},
          {"measured_ci", interval(p.score.primacy_measured)},
          {"predicted", m.primacy_predicted}}},
        {"first_min_ratio",
         {{"measured", first_over_min(r.profile)}, {"predicted", first_over_min(p.profile)}}}};
  };
  auto prediction = [&](const std::optional<NoFitPrediction>& p) {
    if (!p) return nlohmann::json();
    nlohmann::json out = scores(*p);
    out["alpha"] = p->alpha;
    out["profile"] = p->profile;
    return out;
  };
  j["nofit"] = prediction(r.nofit);
  j["rollout"] = prediction(r.rollout);
  if (!r.rollout_skipped.empty()) j["rollout_skipped"] = r.rollout_skipped;
  j["nofit_variants"] = nlohmann::json::array();
  for (const auto& v : r.variants) j["nofit_variants"].push_back(scores(v));
  j["operator_control"] = r.causal_control ? scores(*r.causal_control) : nlohmann::json();
  nlohmann::json alpha_seeds = nlohmann::json::object();
  for (AlphaEstimator e : {AlphaEstimator::kJacobian, AlphaEstimator::kForward}) {
    alpha_seeds[to_string(e)] = nlohmann::json::array();
    for (const auto& s : r.strength_seeds) alpha_seeds[to_string(e)].push_back(s.of(e));
  }
  j["alpha_seeds"] = alpha_seeds;
  j["comparison"] = nlohmann::json::array();
  for (const ModelScore& m : r.comparison) {
    j["comparison"].push_back({{"model", m.model},
                               {"free_params", m.free_params},
                               {"heldout_median_abs_log10_error", m.heldout.median_abs_log10_error},
                               {"heldout_max_abs_log10_error", m.heldout.max_abs_log10_error},
                               {"heldout_w1", m.heldout.w1},
                               {"heldout_argmin", m.heldout.argmin_measured},
                               {"argmin_predicted", m.heldout.argmin_predicted},
                               {"parameters", m.fit}});
  }
  j["profile"] = r.profile;
  j["profile_seeds"] = r.profile_seeds;
  add_shares_json(j, shares_over_seeds(r.profile_seeds));  // the U by its parts
  j["attention_entropy_ratio"] =
      std::isfinite(r.entropy_ratio) ? nlohmann::json(r.entropy_ratio) : nlohmann::json();
  j["seconds"] = r.seconds;
  j["peak_rss_mb"] = r.peak_rss_mb;
  j["machine"] = machine_info();
  return j;
}

std::string birth_csv(const BirthResult& r) {
  std::string out = "position,influence";
  for (std::size_t s = 0; s < r.profile_seeds.size(); ++s) out += ",seed" + std::to_string(s);
  out += "\n";
  char buf[32];
  for (std::size_t j = 0; j < r.profile.size(); ++j) {
    out += std::to_string(j + 1);
    std::snprintf(buf, sizeof buf, ",%.10g", r.profile[j]);
    out += buf;
    for (const auto& row : r.profile_seeds) {
      std::snprintf(buf, sizeof buf, ",%.10g", row[j]);
      out += buf;
    }
    out += "\n";
  }
  return out;
}

Figure birth_figure(const BirthResult& r, const std::string& title) {
  const MeasuredProfile mp = measured_profile(r);
  Figure fig = fit_figure(mp, r.fit, title);
  Series other;  // the other path sum, fitted too
  other.title = fmt::format("theory, {} paths, α = {:.3f} (log R² {:.3f})",
                            to_string(r.other_spec.paths), r.other_fit.alpha, r.other_fit.log_r2);
  other.style = "lines dt 2";
  for (std::size_t i : thin_indices(r.profile.size())) {
    other.x.push_back(static_cast<double>(i + 1));
    other.y.push_back(r.other_fit.theory_log10[i]);
  }
  fig.panels.front().series.push_back(other);
  // The no-fit predictions at the measured profile's total: nothing fitted to it.
  double total = 0;
  for (double v : r.profile) total += v;
  for (const auto* p : {&r.nofit, &r.rollout}) {
    if (!*p) continue;
    Series s;
    s.title = fmt::format("{} with measured α̂ ({}, {} paths): median |log10 error| {:.3f}",
                          (*p)->model == "theory" ? "no-fit theory" : "rollout",
                          to_string((*p)->estimator), to_string((*p)->paths),
                          (*p)->score.at_mean.median_abs_log10_error);
    s.style = (*p)->model == "theory" ? "lines" : "lines dt 3";
    s.line_width = (*p)->model == "theory" ? 3 : 2;
    for (std::size_t i : thin_indices(r.profile.size())) {
      s.x.push_back(static_cast<double>(i + 1));
      s.y.push_back(std::log10((*p)->profile[i] * total));
    }
    fig.panels.front().series.push_back(s);
  }
  leave_room_at_top(fig.panels.front(), 0.4);  // five legend lines
  return fig;
}

void run_birth(const BirthOptions& o) {
  std::unique_ptr<ProcessGroup> group;
  if (const std::optional<RankEnv> env = rank_env_from_environment()) {
    group = std::make_unique<ProcessGroup>(*env, std::chrono::seconds(o.rank_timeout),
                                           journal_key(o, birth_model_config(o)).dump());
  }
  const BirthResult r = measure_birth(o, nullptr, group.get());
  if (group && group->rank() != 0) {  // rank 0 writes
    group->barrier();
    return;
  }
  const std::string text = to_json(r).dump(2) + "\n";
  write_output(o.json, text);
  if (!o.json.empty() && !writes_through(o.json)) SeedJournal::discard(o.json);
  if (!o.csv.empty()) write_file_atomic(o.csv, birth_csv(r));
  if (!o.plot.empty()) {
    const std::string title = to_string(r.config.family) + " (" + to_string(r.config.pos) + "), " +
                              std::to_string(r.config.layers) +
                              " layers, d = " + std::to_string(r.config.d_model) +
                              ", L = " + std::to_string(o.length) + ": influence at init vs theory";
    render_figure(birth_figure(r, title), o.plot);
  }
  std::fprintf(stderr,
               "birth: no-fit median |log10 error| %.3f (rollout %s), fitted α = %.3f (log R² "
               "%.4f, %s paths), %.1f s, peak RSS %.0f MB\n",
               r.nofit->score.at_mean.median_abs_log10_error,
               r.rollout
                   ? fmt::format("{:.3f}", r.rollout->score.at_mean.median_abs_log10_error).c_str()
                   : "skipped",
               r.fit.alpha, r.fit.log_r2, to_string(r.fit_spec.paths), r.seconds, r.peak_rss_mb);
  std::fprintf(stderr, "birth: U test %s\n",
               u_test_text(shares_over_seeds(r.profile_seeds).u).c_str());
  if (group) group->barrier();  // rank 0's rendezvous stays up until every rank is done
}

}  // namespace posbias
