// `posbias train`: trains a gptj-hop model on the Number or Letter task with answer-only loss,
// AdamW (warmup + linear decay), gradient clipping, held-out accuracy per hop every
// eval_every steps (metrics.jsonl), and atomic checkpoints with optimizer state. A run killed
// at any moment resumes with `--resume RUN_DIR` and gives the same metrics as an uninterrupted
// one: data and dropout are keyed by (seed, step, rank), and the checkpoint holds the rest.
//
// RUN_DIR: train.json (config, machine, version), metrics.jsonl, checkpoints/step_*.safetensors,
// summary.json, training_accuracy.{svg,png,gp}, training_loss.{svg,png,gp}, and the final
// weights under Hugging Face GPT-J names (model.safetensors + config.json) for `birth`.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "posbias/model/transformer.h"
#include "posbias/train/optimizer.h"
#include "posbias/train/train_config.h"

namespace posbias {

// The model, flat parameters and optimizer of one rank, and the training step itself (shared
// by `run_training` and bench/train_bench.cc).
class HopTrainer {
 public:
  explicit HopTrainer(const TrainConfig& config);  // config must be finalized
  // Update number `step` (1-based): draws this rank's shard of the batch keyed by
  // (seed, step, rank), seeds dropout the same way, and returns the batch's mean loss.
  double step(std::int64_t step);

  TrainConfig config;
  Transformer model{nullptr};
  std::unique_ptr<FlatParams> flat;
  std::unique_ptr<AdamW> adam;
};

struct TrainOptions {
  TrainConfig config;
  std::filesystem::path run_dir;
  bool resume = false;  // continue RUN_DIR from its latest checkpoint (config from the run)
};

struct TrainResult {
  std::int64_t steps = 0;
  double train_seconds = 0;
  nlohmann::json summary;
};

// Throws std::invalid_argument for bad usage (an existing run without --resume, a missing
// run directory with it) and std::runtime_error for failures (corrupt checkpoint, I/O).
TrainResult run_training(const TrainOptions& options);

}  // namespace posbias
