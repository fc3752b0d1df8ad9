#include "posbias/train/optimizer.h"

#include <cmath>
#include <stdexcept>

namespace posbias {

FlatParams::FlatParams(torch::nn::Module& module) {
  std::int64_t total = 0;
  const auto named = module.named_parameters(/*recurse=*/true);
  for (const auto& item : named) {
    const torch::Tensor& p = item.value();
    if (p.scalar_type() != torch::kFloat32) throw std::runtime_error("training needs fp32 params");
    slots_.push_back({item.key(), p.sizes().vec(), total, p.numel()});
    total += p.numel();
  }
  params = torch::empty({total}, torch::kFloat32);
  grads = torch::zeros({total}, torch::kFloat32);
  decay_mask = torch::zeros({total}, torch::kFloat32);
  torch::NoGradGuard no_grad;
  std::size_t i = 0;
  for (const auto& item : named) {
    torch::Tensor p = item.value();
    const ParamSlot& s = slots_[i++];
    torch::Tensor view = params.narrow(0, s.offset, s.numel).view(s.shape);
    view.copy_(p);
    p.set_data(view);
    p.mutable_grad() = grads.narrow(0, s.offset, s.numel).view(s.shape);
    if (s.shape.size() >= 2) decay_mask.narrow(0, s.offset, s.numel).fill_(1.0f);
  }
}

double learning_rate(const TrainConfig& c, std::int64_t step) {
  if (c.warmup > 0 && step <= c.warmup) {
    return c.lr * static_cast<double>(step) / static_cast<double>(c.warmup);
  }
  const double rest = static_cast<double>(c.steps - c.warmup);
  return rest <= 0 ? c.lr : c.lr * std::max(0.0, static_cast<double>(c.steps - step + 1) / rest);
}

double clip_gradients(FlatParams& flat, double max_norm) {
  const double norm = flat.grads.norm().item<double>();
  if (max_norm > 0 && norm > max_norm) flat.grads.mul_(max_norm / (norm + 1e-6));
  return norm;
}

AdamW::AdamW(FlatParams& flat, const TrainConfig& c)
    : exp_avg(torch::zeros_like(flat.params)),
      exp_avg_sq(torch::zeros_like(flat.params)),
      flat_(&flat),
      beta1_(c.beta1),
      beta2_(c.beta2),
      eps_(c.adam_eps),
      weight_decay_(c.weight_decay) {
  if (!c.pos_lr_scale) return;
  lr_scale = torch::ones_like(flat.params);
  bool found = false;
  for (const ParamSlot& s : flat.slots()) {
    if (s.name != kPositionTableParam) continue;
    lr_scale.narrow(0, s.offset, s.numel).fill_(*c.pos_lr_scale);
    found = true;
  }
  if (!found) throw std::logic_error("AdamW: pos_lr_scale on a model without a position table");
  decay_scale_ = flat.decay_mask * lr_scale;
}

void AdamW::step(double lr) {
  torch::NoGradGuard no_grad;
  ++steps_taken;
  const double t = static_cast<double>(steps_taken);
  const double correction1 = 1.0 - std::pow(beta1_, t);
  const double correction2 = 1.0 - std::pow(beta2_, t);
  torch::Tensor& p = flat_->params;
  const torch::Tensor& g = flat_->grads;
  const bool scaled = lr_scale.defined();
  if (weight_decay_ > 0)
    p.addcmul_(p, scaled ? decay_scale_ : flat_->decay_mask, -lr * weight_decay_);
  exp_avg.mul_(beta1_).add_(g, 1.0 - beta1_);
  exp_avg_sq.mul_(beta2_).addcmul_(g, g, 1.0 - beta2_);
  const torch::Tensor denom = (exp_avg_sq.sqrt() / std::sqrt(correction2)).add_(eps_);
  // With lr_scale: each parameter's step times its multiple (× 1 leaves a float as it is).
  p.addcdiv_(scaled ? exp_avg * lr_scale : exp_avg, denom, -lr / correction1);
}

}  // namespace posbias
