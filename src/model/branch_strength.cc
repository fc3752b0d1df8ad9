#include "posbias/model/branch_strength.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace posbias {
namespace {

// Σ_h W_O,h·W_V,kv(h): the attention branch's value path as one [D, D] matrix (float64).
torch::Tensor value_output_matrix(const AttentionImpl& attn) {
  const auto e = attn.head_dim, h = attn.heads, k = attn.kv_heads;
  const auto wv = attn.qkv->weight.detach().narrow(0, (h + k) * e, k * e).to(torch::kFloat64);
  const auto wo = attn.out->weight.detach().to(torch::kFloat64);  // [D, H·E]
  torch::Tensor v = torch::zeros({wo.size(0), wv.size(1)}, wo.options());
  for (std::int64_t head = 0; head < h; ++head) {
    const std::int64_t kv = head / (h / k);
    v += torch::matmul(wo.narrow(1, head * e, e), wv.narrow(0, kv * e, e));
  }
  return v;
}

// ‖M·J_norm(x_j)‖²_F for every position j: J_norm = diag(w)·rstd·(I - c·11ᵀ/D - x̂x̂ᵀ/D)
// (c = 1 for LayerNorm, 0 for RMSNorm). With B = M·diag(w), b1 = B·1 and bx = B·x̂:
// ‖B‖² + c‖b1‖²/D + ‖bx‖²‖x̂‖²/D² − 2c‖b1‖²/D − 2‖bx‖²/D + 2c(b1·bx)(1·x̂)/D².
torch::Tensor norm_composed_frobenius2(const torch::Tensor& m, const NormImpl& norm,
                                       const NormCache& nc) {
  const auto b = m * norm.weight.detach().to(torch::kFloat64).unsqueeze(0);  // [D, D]
  const double d = static_cast<double>(b.size(1));
  const double c = norm.rms ? 0.0 : 1.0;
  const auto xhat = nc.xhat[0].to(torch::kFloat64);  // [L, D]
  const auto rstd = nc.rstd[0].to(torch::kFloat64).squeeze(-1);
  const double bb = b.pow(2).sum().item<double>();
  const auto b1 = b.sum(1);                    // [D]
  const auto bx = torch::matmul(xhat, b.t());  // [L, D]
  const double b1n = b1.pow(2).sum().item<double>();
  const auto bxn = bx.pow(2).sum(1), xn = xhat.pow(2).sum(1);
  const auto cross = torch::matmul(bx, b1) * xhat.sum(1);
  const auto f = bb + c * b1n / d + bxn * xn / (d * d) - 2 * c * b1n / d - 2 * bxn / d +
                 2 * c * cross / (d * d);
  return f * rstd.pow(2);
}

// sqrt(f_j / mean f) for squared gains f [L]: each position's gain relative to the RMS.
std::vector<double> relative_gains(const torch::Tensor& f) {
  const auto rel = (f / f.mean()).sqrt().contiguous();
  return {rel.data_ptr<double>(), rel.data_ptr<double>() + rel.numel()};
}

}  // namespace

void read_branch_strength(const BlockImpl& block, const BlockCache& bc, std::size_t layer,
                          std::uint64_t probe_seed, BranchStrength& out, int probes) {
  if (probes < 1) throw std::invalid_argument("the MLP gains need at least one probe");
  torch::NoGradGuard no_grad;
  const std::size_t size = std::max(out.jacobian.size(), layer + 1);
  out.jacobian.resize(size), out.forward.resize(size);
  out.key_gain.resize(size), out.stay_gain.resize(size);
  const auto& x = bc.resid_pre;
  const double d = static_cast<double>(x.size(-1));
  const auto g2 =
      norm_composed_frobenius2(value_output_matrix(*block.attn), *block.ln1, bc.ln1) / d;
  const double g = std::sqrt(g2.mean().item<double>());
  out.key_gain[layer] = relative_gains(g2);
  // Gaussian probes v through the MLP half, E‖vᵀT‖² = ‖T‖²_F: one at a time, so that a long
  // sequence holds one probe's [L, D] rows (the MLP half itself runs in position slices).
  auto gen = at::detail::createCPUGenerator((probe_seed ^ 0x5eedb4a9cULL) +
                                            0x9e3779b97f4a7c15ULL * (layer + 1));
  const auto sq = torch::zeros({x.size(1)}, x.options().dtype(torch::kFloat64));  // Σ over probes
  for (int k = 0; k < probes; ++k) {
    const auto v = at::normal(0.0, 1.0, {1, 1, x.size(1), x.size(2)}, gen).to(x.scalar_type());
    auto t = block.mlp_half_sliced(bc, v);
    if (block.parallel) t = block.ln1->backward(bc.ln1, t);
    sq.add_(t[0][0].to(torch::kFloat64).pow(2).sum(-1));
  }
  double s = 1.0;
  std::vector<double> stay(static_cast<std::size_t>(x.size(1)), 1.0);
  if (!block.parallel) {  // T_i = I + J_mlp·J_norm2, on every path through position i
    stay = relative_gains(sq);
  } else {  // the MLP beside the identity path: s² = 1 + ‖J_mlp·J_norm‖²_F / d
    s = std::sqrt(1.0 + sq.mean().item<double>() / probes / d);
  }
  out.stay_gain[layer] = std::move(stay);
  out.jacobian[layer] = g / (s + g);
  const auto a = bc.attn_out[0].to(torch::kFloat64).norm(2, -1);
  const auto xn = x[0].to(torch::kFloat64).norm(2, -1);
  out.forward[layer] = (a / (xn + a)).mean().item<double>();
}

BranchStrength branch_strength(const Transformer& model, const ForwardCache& cache,
                               std::uint64_t probe_seed, int probes) {
  const std::size_t layers = model->layers.size();
  if (cache.layers() != layers)
    throw std::logic_error("branch_strength needs the cache of a full forward pass");
  BranchStrength out;
  for (std::size_t l = 0; l < layers; ++l)
    read_branch_strength(*model->layers[l], cache.block(l), l, probe_seed, out, probes);
  return out;
}

std::vector<torch::Tensor> mean_attention(const ForwardCache& cache) {
  std::vector<torch::Tensor> out;
  for (std::size_t l = 0; l < cache.layers(); ++l) {
    const BlockCache bc = cache.block(l);
    if (!bc.attn.pattern.defined())
      throw std::invalid_argument("the mean attention matrix needs --attention dense");
    out.push_back(bc.attn.pattern[0].to(torch::kFloat64).mean(0));
  }
  return out;
}

}  // namespace posbias
