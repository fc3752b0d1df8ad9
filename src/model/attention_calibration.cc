#include "posbias/model/attention_calibration.h"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace posbias {
namespace {

void check_alpha(double alpha) {
  if (!(alpha >= 0 && alpha <= 1))
    throw std::invalid_argument(
        fmt::format("--calibrate-strength must be in [0, 1], got {}", alpha));
}

void clear_score_hooks(Transformer& model) {
  for (Block& b : model->layers) b->attn->score_hook = nullptr;
}

// log of each row's softmax, 0 where a key is not seen (-inf scores): [H, n, n] of batch row 0.
torch::Tensor log_attention(const torch::Tensor& scores) {
  const torch::Tensor c = torch::log_softmax(scores[0], -1);
  return torch::where(torch::isfinite(c), c, torch::zeros_like(c));
}

}  // namespace

PositionComponents estimate_position_components(Transformer& model, std::int64_t filler,
                                                std::int64_t length, double alpha) {
  check_alpha(alpha);
  if (model->config().null_sink)
    throw std::invalid_argument(
        "--calibrate does not apply to a model with a null sink (the sink's share of a row has "
        "no key to calibrate)");
  if (length < 1) throw std::invalid_argument(fmt::format("calibration length {} < 1", length));
  const bool was_training = model->is_training();
  const AttentionPath path = model->attention();
  model->eval();
  model->set_attention(AttentionPath::kDense);
  torch::NoGradGuard no_grad;
  PositionComponents c(model->layers.size());
  for (std::size_t l = 0; l < model->layers.size(); ++l) {
    // Layer l records its component, then passes its scores on calibrated, so layer l + 1 is
    // estimated under the calibration of the layers before it.
    model->layers[l]->attn->score_hook = [&c, l, alpha](const torch::Tensor& scores) {
      c[l] = log_attention(scores);
      return alpha == 0 ? scores : scores - alpha * c[l];
    };
  }
  const auto restore = [&] {
    clear_score_hooks(model);
    model->set_attention(path);
    if (was_training) model->train();
  };
  try {
    model->forward_embeddings(model->embed(torch::full({1, length}, filler, torch::kLong)));
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return c;
}

CalibratedAttention::CalibratedAttention(Transformer& model, PositionComponents components,
                                         double alpha)
    : model_(model), components_(std::move(components)) {
  check_alpha(alpha);
  clear_score_hooks(model_);
  if (alpha == 0) return;  // plain attention, the plain code path
  for (std::size_t l = 0; l < model_->layers.size(); ++l) {
    model_->layers[l]->attn->score_hook = [this, l, alpha](const torch::Tensor& scores) {
      const torch::Tensor& c = components_[l];
      const std::int64_t n = scores.size(-1);
      if (n > c.size(-1))
        throw std::logic_error(fmt::format(
            "calibration estimated for inputs of up to {} tokens, not {}", c.size(-1), n));
      return scores - alpha * c.narrow(1, 0, n).narrow(2, 0, n).to(scores.scalar_type());
    };
  }
}

CalibratedAttention::~CalibratedAttention() { clear_score_hooks(model_); }

}  // namespace posbias
