// Held-out evaluation of a text model: next-token loss per position and bits per byte, and
// the per-position gradient norms of that loss (the "geometric headwinds": how much gradient
// reaches the input at each position).
//
// Windows are row-major [n, length + 1] (text_data.h): inputs the first length ids, targets
// the last length. Position t (0-based) predicts the window's id t + 1 from ids 0..t.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/model/transformer.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/train/text_run.h"

namespace posbias {

// Windows per forward pass of evaluate_text.
inline constexpr std::int64_t kTextEvalBatch = 16;

// Runs in eval mode (no dropout) and restores the module's mode. `batch` windows at a time.
TextEvaluation evaluate_text(Transformer& model, const std::vector<std::int64_t>& windows,
                             std::int64_t length, const std::vector<std::int32_t>& token_bytes,
                             std::int64_t batch = kTextEvalBatch);

// Mean over windows of ‖∂ℓ_w/∂h_j‖₂ at each position j, ℓ_w the window's mean next-token loss,
// for h the token embeddings ("embed") and the input of each block in `layers`
// ("layer_<l>", 0-based; layer 0's input is the embeddings plus learned positions). Eval mode.
std::map<std::string, std::vector<double>> position_gradients(
    Transformer& model, const std::vector<std::int64_t>& windows, std::int64_t length,
    const std::vector<int>& layers);

// The whole held-out split (every consecutive window) against the unigram and bigram
// baselines on the same targets.
HeldoutSplit evaluate_heldout_split(const TrainConfig& config, Transformer& model,
                                    const TextRunData& data);

// Peak bytes of evaluate_heldout_split on `attention` beyond what `data` already holds: the
// weights, one batch's forward pass and its logits with their log-softmax ([16, L, V] each),
// the held-out split as windows, and the bigram baseline's table (one entry per training
// token at most). What `posbias eval` on a text run plans before loading the model.
double heldout_split_bytes(const TrainConfig& config, const TextRunData& data,
                           AttentionPath attention);

// The layers whose inputs training logs: 1, H/2 and H−1 (those that exist, without repeats).
std::vector<int> logged_gradient_layers(int layers);

}  // namespace posbias
