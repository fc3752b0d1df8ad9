#include "posbias/model/blockwise_attention.h"

#include <algorithm>
#include <limits>

#include "blockwise_kernels.h"

namespace posbias {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Whether the tile has anything to add: a masked key (above the diagonal or past the window)
// or an ALiBi term. Tiles wholly inside the visible band of a causal model skip the bias.
bool tile_needs_bias(const ScoreBias& bias, std::int64_t i0, std::int64_t ni, std::int64_t j0,
                     std::int64_t nj) {
  if (bias.slopes.defined()) return true;
  if (j0 + nj - 1 > i0) return true;  // some key after some query
  return bias.window > 0 && (i0 + ni - 1) - j0 >= bias.window;
}

torch::Tensor add_bias(torch::Tensor scores, const ScoreBias& bias, std::int64_t i0,
                       std::int64_t j0) {
  const std::int64_t ni = scores.size(-2), nj = scores.size(-1);
  if (!tile_needs_bias(bias, i0, ni, j0, nj)) return scores;
  return scores.add_(bias.tile(i0, ni, j0, nj).to(scores.scalar_type()));
}

}  // namespace

torch::Tensor ScoreBias::tile(std::int64_t i0, std::int64_t ni, std::int64_t j0,
                              std::int64_t nj) const {
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  const auto d = torch::arange(i0, i0 + ni, opts).unsqueeze(1) -
                 torch::arange(j0, j0 + nj, opts).unsqueeze(0);  // i − j
  auto visible = d.ge(0);
  if (window > 0) visible = visible.logical_and(d.lt(static_cast<double>(window)));
  torch::Tensor out = torch::zeros({ni, nj}, opts).masked_fill(visible.logical_not(), kNegInf);
  if (slopes.defined()) return out.unsqueeze(0) - slopes.view({-1, 1, 1}) * d.clamp_min(0);
  return out.unsqueeze(0);
}

std::int64_t ScoreBias::first_key(std::int64_t i0) const {
  return window > 0 ? std::max<std::int64_t>(0, i0 - window + 1) : 0;
}

BlockwiseForward blockwise_attention(const torch::Tensor& q, const torch::Tensor& k,
                                     const torch::Tensor& v, const ScoreBias& bias, double scale,
                                     std::int64_t tile, bool entropy) {
  if (blockwise_kernels_apply(q)) return blockwise_forward_f32(q, k, v, bias, scale, tile, entropy);
  torch::NoGradGuard no_grad;
  const std::int64_t b = q.size(0), h = q.size(1), l = q.size(2);
  auto z = torch::empty_like(q);
  auto lse = torch::empty({b, h, l}, q.options());
  const auto qs = q * scale;
  for (std::int64_t i0 = 0; i0 < l; i0 += tile) {
    const std::int64_t ni = std::min(tile, l - i0), i1 = i0 + ni;
    const auto qi = qs.narrow(2, i0, ni);
    auto m = torch::full({b, h, ni, 1}, kNegInf, q.options());  // running row max
    auto sum = torch::zeros({b, h, ni, 1}, q.options());        // running Σ exp(s − m)
    auto acc = torch::zeros({b, h, ni, q.size(3)}, q.options());
    for (std::int64_t j0 = bias.first_key(i0); j0 < i1; j0 += tile) {
      const std::int64_t nj = std::min(tile, i1 - j0);
      auto s = add_bias(torch::matmul(qi, k.narrow(2, j0, nj).transpose(-1, -2)), bias, i0, j0);
      const auto m_new = torch::maximum(m, std::get<0>(s.max(-1, /*keepdim=*/true)));
      // A row with no visible key in this tile (or before it) keeps m = −inf: shift by 0.
      const auto shift = m_new.masked_fill(m_new.isneginf(), 0.0);
      const auto p = s.sub_(shift).exp_();
      const auto correction = (m - shift).exp_();
      sum.mul_(correction).add_(p.sum(-1, /*keepdim=*/true));
      acc.mul_(correction).add_(torch::matmul(p, v.narrow(2, j0, nj)));
      m = m_new;
    }
    z.narrow(2, i0, ni).copy_(acc.div_(sum));
    lse.narrow(2, i0, ni).copy_((m + sum.log()).squeeze(-1));
  }
  return {z, lse, entropy ? attention_entropy(q, k, lse, bias, scale, tile) : torch::Tensor()};
}

AttentionGrads blockwise_attention_backward(const torch::Tensor& q, const torch::Tensor& k,
                                            const torch::Tensor& v, const torch::Tensor& z,
                                            const torch::Tensor& lse, const torch::Tensor& dz,
                                            const ScoreBias& bias, double scale,
                                            std::int64_t tile) {
  if (blockwise_kernels_apply(q))
    return blockwise_backward_f32(q, k, v, z, lse, dz, bias, scale, tile);
  torch::NoGradGuard no_grad;
  const std::int64_t cot = dz.size(0), b = q.size(0), h = q.size(1), l = q.size(2), e = q.size(3);
  // Position-major with the cotangents inside, [B, H, L, C, E]: a query tile's C·ni rows are
  // one GEMM operand against the tile's keys.
  const auto dzp = dz.permute({1, 2, 3, 0, 4}).contiguous();
  const auto dd = (dzp * z.unsqueeze(3)).sum(-1, /*keepdim=*/true);  // rowsum(dz ⊙ z) [B,H,L,C,1]
  auto dq = torch::empty({b, h, l, cot, e}, q.options());
  auto dk = torch::zeros({b, h, cot, l, e}, q.options());
  auto dv = torch::zeros({b, h, l, cot, e}, q.options());
  const auto qs = q * scale, ks = k * scale;
  for (std::int64_t i0 = 0; i0 < l; i0 += tile) {
    const std::int64_t ni = std::min(tile, l - i0), i1 = i0 + ni;
    const auto qi = qs.narrow(2, i0, ni);
    const auto lse_i = lse.narrow(2, i0, ni).unsqueeze(-1);
    const auto dz_i = dzp.narrow(2, i0, ni);  // [B, H, ni, C, E]
    const auto dz_rows = dz_i.reshape({b, h, ni * cot, e});
    const auto dd_i = dd.narrow(2, i0, ni);
    auto dq_i = torch::zeros({b, h, ni * cot, e}, q.options());
    for (std::int64_t j0 = bias.first_key(i0); j0 < i1; j0 += tile) {
      const std::int64_t nj = std::min(tile, i1 - j0);
      const auto kj = k.narrow(2, j0, nj), vj = v.narrow(2, j0, nj);
      const auto p =
          add_bias(torch::matmul(qi, kj.transpose(-1, -2)), bias, i0, j0).sub_(lse_i).exp_();
      auto ds = torch::matmul(dz_rows, vj.transpose(-1, -2)).view({b, h, ni, cot, nj});
      ds.sub_(dd_i).mul_(p.unsqueeze(3));  // dS = P ⊙ (dP − rowsum(dz ⊙ z))
      dq_i.add_(torch::matmul(ds.view({b, h, ni * cot, nj}), ks.narrow(2, j0, nj)));
      dk.narrow(3, j0, nj).add_(torch::matmul(ds.view({b, h, ni, cot * nj}).transpose(-1, -2), qi)
                                    .view({b, h, cot, nj, e}));
      dv.narrow(2, j0, nj).add_(
          torch::matmul(p.transpose(-1, -2), dz_i.reshape({b, h, ni, cot * e}))
              .view({b, h, nj, cot, e}));
    }
    dq.narrow(2, i0, ni).copy_(dq_i.view({b, h, ni, cot, e}));
  }
  return {dq.permute({3, 0, 1, 2, 4}), dk.permute({2, 0, 1, 3, 4}), dv.permute({3, 0, 1, 2, 4})};
}

torch::Tensor attention_row(const torch::Tensor& q, const torch::Tensor& k,
                            const torch::Tensor& lse, const ScoreBias& bias, double scale,
                            std::int64_t row) {
  torch::NoGradGuard no_grad;
  const std::int64_t l = k.size(2);
  auto s = torch::matmul(q.narrow(2, row, 1) * scale, k.transpose(-1, -2));  // [B, H, 1, L]
  s.add_(bias.tile(row, 1, 0, l).to(s.scalar_type()));
  return s.sub_(lse.narrow(2, row, 1).unsqueeze(-1)).exp_().squeeze(2);
}

torch::Tensor attention_entropy(const torch::Tensor& q, const torch::Tensor& k,
                                const torch::Tensor& lse, const ScoreBias& bias, double scale,
                                std::int64_t tile) {
  torch::NoGradGuard no_grad;
  const std::int64_t l = q.size(2);
  const auto qs = (q * scale).to(torch::kFloat64), kd = k.to(torch::kFloat64);
  const auto lse_d = lse.to(torch::kFloat64);
  auto expected = torch::zeros_like(lse_d);  // Σ_j P_ij·s_ij
  for (std::int64_t i0 = 0; i0 < l; i0 += tile) {
    const std::int64_t ni = std::min(tile, l - i0), i1 = i0 + ni;
    const auto qi = qs.narrow(2, i0, ni);
    const auto lse_i = lse_d.narrow(2, i0, ni).unsqueeze(-1);
    auto row_sum = expected.narrow(2, i0, ni);
    for (std::int64_t j0 = bias.first_key(i0); j0 < i1; j0 += tile) {
      const std::int64_t nj = std::min(tile, i1 - j0);
      const auto s =
          add_bias(torch::matmul(qi, kd.narrow(2, j0, nj).transpose(-1, -2)), bias, i0, j0);
      const auto p = (s - lse_i).exp_();
      // masked keys: P = 0 and s = −inf, whose product is taken as 0
      row_sum.add_((p * s.masked_fill(s.isneginf(), 0.0)).sum(-1));
    }
  }
  return lse_d - expected;
}

namespace {

class BlockwiseAttentionFunction : public torch::autograd::Function<BlockwiseAttentionFunction> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx,
                                                const torch::Tensor& q, const torch::Tensor& k,
                                                const torch::Tensor& v, const ScoreBias& bias,
                                                double scale) {
    auto out = blockwise_attention(q, k, v, bias, scale);
    ctx->save_for_backward({q, k, v, out.z, out.lse});
    ctx->saved_data["window"] = bias.window;
    ctx->saved_data["scale"] = scale;
    ctx->saved_data["alibi"] = bias.slopes.defined();
    if (bias.slopes.defined()) ctx->saved_data["slopes"] = bias.slopes;
    ctx->mark_non_differentiable({out.lse});
    return {out.z, out.lse};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    ScoreBias bias;
    bias.window = ctx->saved_data["window"].toInt();
    if (ctx->saved_data["alibi"].toBool()) bias.slopes = ctx->saved_data["slopes"].toTensor();
    const auto g = blockwise_attention_backward(saved[0], saved[1], saved[2], saved[3], saved[4],
                                                grads[0].unsqueeze(0), bias,
                                                ctx->saved_data["scale"].toDouble());
    return {g.dq[0], g.dk[0], g.dv[0], torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

torch::Tensor blockwise_attention_autograd(const torch::Tensor& q, const torch::Tensor& k,
                                           const torch::Tensor& v, const ScoreBias& bias,
                                           double scale, torch::Tensor* lse_out) {
  const auto out = BlockwiseAttentionFunction::apply(q, k, v, bias, scale);
  if (lse_out != nullptr) *lse_out = out[1].detach();
  return out[0];
}

}  // namespace posbias
