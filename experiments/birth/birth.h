// `posbias birth`: the measured influence profile of a model at initialization (or of a
// trained checkpoint), averaged over seeds, fitted against the theory (docs/theory.md).
//
// Per seed: fresh Hugging Face init (or the loaded weights), an input of L embeddings
// (Gaussian with the init std, random token ids, ids from --tokens or --text), and the profile
// p_j = ‖∂y_q/∂x_j‖_F from jacobian.h. From the same forward passes: each layer's
// attention-branch strength α̂_l and head-averaged attention A_l (model/branch_strength.h),
// which predict the profile with nothing fitted to it (the theory with α̂, and the rollout
// with A_l). The mean profile is also fitted with theory/fit.h, and every model is scored on
// held-out seeds (theory/model_comparison.h).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/birth/birth_record.h"
#include "posbias/arch/config.h"
#include "posbias/core/field_table.h"
#include "posbias/core/plot.h"
#include "posbias/dist/process_group.h"
#include "posbias/model/branch_strength.h"
#include "posbias/model/memory_plan.h"
#include "posbias/model/transformer.h"
#include "posbias/runfiles/checkpoint_selection.h"
#include "posbias/theory/birth_spec.h"
#include "posbias/theory/fit.h"
#include "posbias/theory/influence_method.h"
#include "posbias/theory/model_comparison.h"
#include "posbias/theory/shape_comparison.h"
#include "posbias/train/answer_influence.h"

namespace posbias {

// birth's model and measurement (theory/birth_spec.h, whose field table gives their flags), and
// its inputs, run, memory plan, ranks and outputs.
struct BirthOptions : BirthSpec {
  // The headline no-fit prediction and fit (every path sum and estimator is reported).
  PathSum paths = PathSum::kQuadrature;
  std::string config, weights, tokens;  // a trained checkpoint and its token file
  // Or a text file encoded by the checkpoint's tokenizer (beside config, or `tokenizer`); length
  // 0 with text: the shortest line's.
  std::string text, tokenizer;
  // What the profile differentiates: the final hidden state (the theory's), or the next-token
  // loss or top-1 probability at the query (need token inputs).
  InfluenceTarget target = InfluenceTarget::kHidden;
  // A training run measured checkpoint by checkpoint on its held-out text (birth_run.h):
  // "all", "last" or a comma list of steps.
  std::string run;
  CheckpointSelection checkpoints;  // with run: all, last or listed steps
  // Attention path (nullopt: dense unless the memory plan passes the budget, then blockwise,
  // then blockwise with activation checkpointing) and the budget in GB (0: what the machine
  // has available).
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  // Finished seeds are kept beside --json (seed_journal.h); resume takes them from there.
  bool resume = false;
  // Data-parallel ranks: this process's slot (nullopt: one process), which the command line
  // reads from the torchrun variables (rank_env_from_environment); seeds are split over the
  // ranks. The library reads no environment. Seconds a rank waits for the others.
  std::optional<RankEnv> ranks;
  std::int64_t rank_timeout = 300;
  std::string json, csv, plot;
};
// The options' own value flags beside BirthSpec's (checkpoints, resume, rank_timeout) as one
// field table, in the order `posbias birth --help` lists them: their help, type, default and
// parsing come from it. The files and outputs are registered as paths, --paths, --attention
// and --memory-budget by the helpers other commands share.
const std::vector<FieldRow<BirthOptions>>& birth_option_fields();

// birth's mode flags as the command line gives them, before it chooses the mode: the target by
// name (empty: BirthOptions' default; "answer", a retrieval answer's loss, only with inputs kv
// or passkey, which measure answer_influence.h's inputs instead of birth's), and those inputs'
// depths.
struct BirthModeFlags {
  std::string target;
  std::string inputs = "text";
  std::vector<int> depths = AnswerInfluenceOptions{}.depths;
};
const std::vector<FieldRow<BirthModeFlags>>& birth_mode_flag_fields();

// A prediction with nothing fitted to the measured profile, scored against it.
struct NoFitPrediction {
  std::string model;  // "theory" (Π_l (1-α̂_l) I + α̂_l A, A the operator) or "rollout"
  AlphaEstimator estimator = AlphaEstimator::kJacobian;
  PathSum paths = PathSum::kLinear;
  std::string op;               // the operator's name (theory) or "measured" (rollout)
  std::vector<double> alpha;    // α̂_l per layer (seed mean)
  std::vector<double> profile;  // unit sum over positions 1..q
  ShapeComparison score;
};

struct BirthResult {
  BirthOptions options;  // what was measured
  ModelConfig config;
  std::vector<std::vector<double>> profile_seeds;  // [seeds][q]
  std::vector<double> profile;                     // mean, positions 1..q
  FitResult fit;                                   // against the theory with --paths
  FitSpec fit_spec;
  FitResult other_fit;  // against the other path sum (no bootstrap)
  FitSpec other_spec;
  std::vector<BranchStrength> strength_seeds;     // per seed
  std::optional<NoFitPrediction> nofit, rollout;  // --alpha-estimator, --paths
  std::vector<NoFitPrediction> variants;          // every estimator × path sum × model
  std::optional<NoFitPrediction> causal_control;  // window, ALiBi, null sink: plain causal A
  std::string rollout_skipped;                    // why there is no rollout ("" if there is)
  std::vector<ModelScore> comparison;             // held-out seeds (>= 2 seeds)
  double entropy_ratio = 0;
  JacobianPlan plan;  // the attention path, checkpointing and planned peak bytes
  double seconds = 0;
  double peak_rss_mb = 0;
};

// A trained model measured in place of fresh initializations (birth --run): its config, the
// loaded model (eval mode) and one token row per seed, each of length L + 1 (the last id is
// the next token, read by the loss target).
struct TrainedInput {
  ModelConfig config;
  Transformer model{nullptr};
  std::vector<std::vector<std::int64_t>> rows;
};

// Seed mean of each layer's α̂ under estimator e.
std::vector<double> seed_mean_alpha(const std::vector<BranchStrength>& seeds, AlphaEstimator e);

// Resolves the preset and overrides (throws std::invalid_argument for bad values).
ModelConfig birth_model_config(const BirthOptions& options);
// With a process group the seeds are sharded over its ranks (seed s on rank s mod size) and
// gathered, giving every rank the one-process result. With stored_profiles (one per seed, as a
// result file holds them) nothing is differentiated: each seed's forward pass gives the gains,
// and the no-fit predictions and fits are computed anew (birth_rescore.h).
BirthResult measure_birth(const BirthOptions& options, const TrainedInput* trained = nullptr,
                          ProcessGroup* group = nullptr,
                          const std::vector<std::vector<double>>* stored_profiles = nullptr);
// The result as `birth --json` writes it (birth_record.h), and that as JSON.
BirthRecord birth_record(const BirthResult& result);
nlohmann::json to_json(const BirthResult& result);
std::string birth_csv(const BirthResult& result);
Figure birth_figure(const BirthResult& result, const std::string& title);
// The same figure from the result as its file holds it (what `birth --redraw` draws): the
// measured profile with its seed band, the theory fitted with both path sums and the no-fit
// predictions. The file keeps no profile of the plain causal control (window, ALiBi, null
// sink): `control` is it, or null to leave it out.
Figure birth_figure(const BirthRecord& record, const std::vector<double>* control,
                    const std::string& title);
// The figure's title, as `birth --plot`, `--rescore --plot` and `--redraw` write it: "gpt2
// (learned), 12 layers, d = 128, L = 128[, null sink b = B]: influence at init vs theory".
std::string birth_figure_title(const ModelConfig& config, std::int64_t length);
// --text without --length (length 0): the shortest line's token count (one less for the loss
// target, which reads the id after the query); other options as they are.
BirthOptions resolve_text_length(BirthOptions options);
// Runs the measurement and writes --json / --csv / --plot (JSON to stdout when no file).
void run_birth(const BirthOptions& options);

}  // namespace posbias
