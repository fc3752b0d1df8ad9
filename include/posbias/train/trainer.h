// `posbias train`: trains a gptj-hop model on the Number or Letter task with answer-only loss,
// or a language model of any family on the Brown corpus with next-token loss at every position
// (--task text), with AdamW (warmup + linear decay), gradient clipping, a held-out evaluation
// every eval_every steps (metrics.jsonl), and atomic checkpoints with optimizer state. A run
// killed at any moment resumes with `--resume RUN_DIR` and gives the same metrics as an
// uninterrupted one: data are keyed by (seed, step) and dropout by (seed, step, rank), and
// the checkpoint holds the rest. A resume that finds its newest checkpoint damaged (a byte changed
// since it was written, train/checkpoint.h) sets it aside and falls back to the one before, saying
// so in one line. A resume whose train.json no intact checkpoint matches, or whose metrics.jsonl
// is damaged up to the resumed step, is refused before any file changes. A step whose loss or
// gradient norm is not finite stops the run (exit 1) before it updates the weights, so the
// checkpoints on disk stay the last good ones.
//
// Hop runs log held-out accuracy per hop. Text runs log, on fixed held-out windows, the loss
// per position and bits per byte, and the per-position gradient norms of that loss at the
// embeddings and a few layers' inputs (train/text_eval.h); they end with the bits per byte of
// the whole held-out split against unigram and bigram baselines.
//
// RUN_DIR: train.json (config, machine, version), metrics.jsonl, checkpoints/step_*.safetensors,
// summary.json, the figures training_*.{svg,png,gp}, tokenizer.model (SentencePiece text
// runs), and the final weights under Hugging Face names (model.safetensors + config.json).
#pragma once

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "posbias/dist/process_group.h"
#include "posbias/model/transformer.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/runfiles/training_summary.h"
#include "posbias/train/gradient_reducer.h"
#include "posbias/train/optimizer.h"

namespace posbias {

class PasskeyCodec;

// The model, flat parameters and optimizer of one rank, and the training step itself (shared
// by `run_training` and bench/train_bench.cc).
class Trainer {
 public:
  // config must be finalized; text runs read windows of `text_stream` (kept by reference).
  // With a process group (data-parallel ranks), rank 0's initial weights are broadcast and
  // every step's gradients are averaged over the ranks; config.batch must split evenly
  // (run_training refuses a batch that does not, before the ranks join).
  explicit Trainer(const TrainConfig& config,
                   const std::vector<std::int32_t>* text_stream = nullptr,
                   ProcessGroup* group = nullptr);
  // Update number `step` (1-based): draws this rank's slice of the global batch keyed by
  // (seed, step), seeds dropout by (seed, step, rank), and returns the global batch's mean
  // loss. Throws std::runtime_error, leaving the weights as they were, when the loss or the
  // gradient norm is not finite.
  double step(std::int64_t step);
  int rank() const { return group ? group->rank() : 0; }
  // How many shards a hop step splits its batch into (1: the whole batch at once, the default).
  // Not yet set from batch_shards: the batch-parallel step is off until its measurement is in
  // (docs/hops.md, "Batch-parallel step"); tests and benchmarks set it.
  int shards = 1;
  int world_size() const { return group ? group->size() : 1; }

  TrainConfig config;
  const std::vector<std::int32_t>* text_stream = nullptr;
  // Text runs with needle_fraction > 0: the run's passkey ids (kept by reference), set before
  // the first step.
  const PasskeyCodec* passkey = nullptr;
  ProcessGroup* group = nullptr;
  Transformer model{nullptr};
  std::unique_ptr<FlatParams> flat;
  std::unique_ptr<AdamW> adam;
  std::unique_ptr<GradientReducer> reducer;  // with a group
};

// The batch-parallel step: with 2+ torch threads, a hop task's step (fp32, one process, a batch
// of at least 2 examples a thread) splits its batch into one shard per thread, each forwarded
// and differentiated on a thread of its own with one intra-op thread, and sums their gradients
// in shard order. The same loss and gradient up to summation order (each example keeps its
// dropout masks), and the same numbers for the same seed at one thread count. The rule for
// when it would be on; not yet applied: Trainer::shards stays 1 until its measurement is in
// (docs/hops.md, "Batch-parallel step"). Otherwise 1.
int batch_shards(const TrainConfig& config, int threads, bool data_parallel);

struct TrainOptions {
  TrainConfig config;
  std::filesystem::path run_dir;
  bool resume = false;  // continue RUN_DIR from its latest checkpoint (config from the run)
  // Attention path (nullopt: dense unless a step's plan passes the budget) and the memory
  // budget in GB (0: what the machine has available). Either path gives the same numbers up
  // to rounding, so a run may resume on the other.
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  // Data-parallel ranks: this process's slot (nullopt: one process). The command line reads it
  // from the torchrun variables (rank_env_from_environment); the library reads no environment.
  std::optional<RankEnv> ranks;
  // How long a rank waits for the others (joining, and every collective) before it gives up
  // with one line.
  std::chrono::seconds rank_timeout{300};
};

struct TrainResult {
  int rank = 0;  // of a data-parallel run; rank 0 wrote the outputs
  // summary.json as rank 0 wrote it; other ranks' have no metrics or held-out split.
  TrainingSummary summary;
};

// Throws std::invalid_argument for bad usage (an existing run without --resume, a missing
// run directory with it, a batch that does not split over the ranks) and std::runtime_error
// for failures (corrupt checkpoint, I/O, a rank lost). With the torchrun variables set, this
// process is one rank of a data-parallel run: every rank steps, rank 0 alone evaluates and
// writes (the run directory must be one all ranks see), and a resume may use another number
// of ranks.
TrainResult run_training(const TrainOptions& options);

}  // namespace posbias
