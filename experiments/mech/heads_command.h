// `posbias heads`: positional and symbolic scores of every head (mech/head_scores.h), for
// each checkpoint of a hop training run, or for a Hugging Face checkpoint on a token file.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/core/plot.h"

namespace posbias {

struct HeadsOptions {
  std::string run;                  // RUN_DIR from `posbias train`
  std::string checkpoints = "all";  // all | last
  // Instead of a run: a Hugging Face config.json + model.safetensors, measured on the token
  // rows of `tokens` (cut to `length` when given) or on random ids of `length` tokens.
  std::string config, weights, tokens;
  std::int64_t length = 0;  // 0: the run's training length / the token rows' own / 128
  std::int64_t samples = 100;
  std::uint64_t seed = 0;
  double tau = 1e-4;
  std::string json;  // empty = stdout
  std::string plot;  // figure stem: layers × checkpoints heatmaps
};

// JSON: {"source", "task"?, "length", "samples", "tau", "layer_index": "0-based",
//   "checkpoints": [{"step", "file", "heads": [{"layer", "head", "positional", "symbolic",
//   "gap", "label"}]}], "final": {"positional": [...], "symbolic": [...]}, "seconds"}.
nlohmann::json run_heads(const HeadsOptions& options);

// Positional and symbolic heatmaps: rows = layer (and head), columns = checkpoint step.
Figure heads_figure(const nlohmann::json& result, const std::string& title);

}  // namespace posbias
