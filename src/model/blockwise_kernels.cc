#include "blockwise_kernels.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "posbias/model/fast_exp.h"
#include "posbias/model/gemm.h"

// The row loops are compiled for AVX-512 and for AVX2 with FMA beside the baseline, and the
// first the CPU has is picked once (row_ops()). target_clones would pick by CPU model, not by
// feature, and miss the models GCC does not know.
#define POSBIAS_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")))
#define POSBIAS_AVX2 __attribute__((target("avx2,fma")))
#define POSBIAS_INLINE inline __attribute__((always_inline))

namespace posbias {

// (named, not anonymous: the unity build puts this file beside the others of src/model)
namespace blockwise_tiles {

using std::int64_t;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

using gemm::sgemm;

POSBIAS_INLINE float row_max_body(const float* s, int64_t n) {
  float m = kNegInf;
#pragma omp simd reduction(max : m)
  for (int64_t j = 0; j < n; ++j) m = s[j] > m ? s[j] : m;
  return m;
}

// s ← e^(s − shift), returning Σ e^(s − shift).
POSBIAS_INLINE float exp_row_body(float* s, int64_t n, float shift) {
  float sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t j = 0; j < n; ++j) {
    const float p = fast_exp(s[j] - shift);
    s[j] = p;
    sum += p;
  }
  return sum;
}

// The same, also returning Σ e^(s − shift)·(s − shift) in *moment (the row's entropy term).
POSBIAS_INLINE float exp_moment_row_body(float* s, int64_t n, float shift, float* moment) {
  float sum = 0, u = 0;
#pragma omp simd reduction(+ : sum, u)
  for (int64_t j = 0; j < n; ++j) {
    const float x = s[j] - shift;
    const float p = fast_exp(x);
    s[j] = p;
    sum += p;
    u += p * x;
  }
  *moment = u;
  return sum;
}

// dS = P ⊙ (dP − rowsum(dz ⊙ z)) on one row, in place of dP.
POSBIAS_INLINE void ds_row_body(float* dp, const float* p, int64_t n, float dd) {
#pragma omp simd
  for (int64_t j = 0; j < n; ++j) dp[j] = p[j] * (dp[j] - dd);
}

struct RowOps {
  float (*max)(const float*, int64_t);
  float (*exp)(float*, int64_t, float);
  float (*exp_moment)(float*, int64_t, float, float*);
  void (*ds)(float*, const float*, int64_t, float);
};

POSBIAS_AVX512 float row_max_avx512(const float* s, int64_t n) { return row_max_body(s, n); }
POSBIAS_AVX512 float exp_row_avx512(float* s, int64_t n, float shift) {
  return exp_row_body(s, n, shift);
}
POSBIAS_AVX512 float exp_moment_row_avx512(float* s, int64_t n, float shift, float* moment) {
  return exp_moment_row_body(s, n, shift, moment);
}
POSBIAS_AVX512 void ds_row_avx512(float* dp, const float* p, int64_t n, float dd) {
  ds_row_body(dp, p, n, dd);
}
POSBIAS_AVX2 float row_max_avx2(const float* s, int64_t n) { return row_max_body(s, n); }
POSBIAS_AVX2 float exp_row_avx2(float* s, int64_t n, float shift) {
  return exp_row_body(s, n, shift);
}
POSBIAS_AVX2 float exp_moment_row_avx2(float* s, int64_t n, float shift, float* moment) {
  return exp_moment_row_body(s, n, shift, moment);
}
POSBIAS_AVX2 void ds_row_avx2(float* dp, const float* p, int64_t n, float dd) {
  ds_row_body(dp, p, n, dd);
}
float row_max_base(const float* s, int64_t n) { return row_max_body(s, n); }
float exp_row_base(float* s, int64_t n, float shift) { return exp_row_body(s, n, shift); }
float exp_moment_row_base(float* s, int64_t n, float shift, float* moment) {
  return exp_moment_row_body(s, n, shift, moment);
}
void ds_row_base(float* dp, const float* p, int64_t n, float dd) { ds_row_body(dp, p, n, dd); }

const RowOps& row_ops() {
  static const RowOps ops = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
      return RowOps{row_max_avx512, exp_row_avx512, exp_moment_row_avx512, ds_row_avx512};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      return RowOps{row_max_avx2, exp_row_avx2, exp_moment_row_avx2, ds_row_avx2};
    return RowOps{row_max_base, exp_row_base, exp_moment_row_base, ds_row_base};
  }();
  return ops;
}

float row_max(const float* s, int64_t n) { return row_ops().max(s, n); }
float exp_row(float* s, int64_t n, float shift) { return row_ops().exp(s, n, shift); }
float exp_moment_row(float* s, int64_t n, float shift, float* moment) {
  return row_ops().exp_moment(s, n, shift, moment);
}
void ds_row(float* dp, const float* p, int64_t n, float dd) { row_ops().ds(dp, p, n, dd); }

// One (batch row, head): its score rule and its operands, row-major [L, E] each.
struct Head {
  const ScoreBias* bias;
  double slope;  // ALiBi's slope of this head; 0 without ALiBi
  bool alibi;
  int64_t l, e, tile;
};

// The keys of query i that tile [j0, j0 + nj) holds and the rule lets it see, [lo, hi) within
// the tile (empty when lo == hi).
struct Span {
  int64_t lo, hi;
};
Span visible(const Head& h, int64_t i, int64_t j0, int64_t nj) {
  const int64_t first = h.bias->window > 0 ? i - h.bias->window + 1 - j0 : 0;
  const int64_t lo = std::clamp<int64_t>(first, 0, nj);
  return {lo, std::clamp<int64_t>(i + 1 - j0, lo, nj)};
}

// A tile's row of scores s (query i, keys j0 + [0, nj)): the bias added to its visible span,
// which is returned; entries outside it are left for the caller to zero.
Span bias_row(const Head& h, float* s, int64_t i, int64_t j0, int64_t nj) {
  const Span sp = visible(h, i, j0, nj);
  if (h.alibi) {
    for (int64_t j = sp.lo; j < sp.hi; ++j)
      s[j] += static_cast<float>(-h.slope * static_cast<double>(i - j0 - j));
  }
  return sp;
}

void zero_outside(float* s, const Span& sp, int64_t nj) {
  std::fill(s, s + sp.lo, 0.0f);
  std::fill(s + sp.hi, s + nj, 0.0f);
}

// The running state of a query tile's rows: max m, Σ e^(s − m) and the accumulated P·V; with
// the entropy asked, also U = Σ e^(s − m)·(s − m), so that the row's entropy is
// −Σ P log P = log Σ − U/Σ (two terms ≥ 0, no cancellation).
struct RowState {
  std::vector<float> m, sum, acc;
  std::vector<double> moment;
  RowState(int64_t t, int64_t e)
      : m(static_cast<std::size_t>(t)),
        sum(static_cast<std::size_t>(t)),
        acc(static_cast<std::size_t>(t * e)),
        moment(static_cast<std::size_t>(t)) {}
  void reset() {
    std::fill(m.begin(), m.end(), kNegInf);
    std::fill(sum.begin(), sum.end(), 0.0f);
    std::fill(acc.begin(), acc.end(), 0.0f);
    std::fill(moment.begin(), moment.end(), 0.0);
  }
};

// Row r of a tile's scores (its visible span sp) into the running state: the row becomes
// e^(s − m_new), 0 outside the span.
void online_row(RowState& st, float* row, int64_t r, const Span& sp, int64_t e, bool entropy) {
  const float m_old = st.m[static_cast<std::size_t>(r)];
  const float m_new = std::max(m_old, row_max(row + sp.lo, sp.hi - sp.lo));
  const float correction = std::exp(m_old - m_new);  // 0 while m was −∞
  float& sum = st.sum[static_cast<std::size_t>(r)];
  if (entropy) {
    float u = 0;
    const float tile_sum = exp_moment_row(row + sp.lo, sp.hi - sp.lo, m_new, &u);
    double& moment = st.moment[static_cast<std::size_t>(r)];
    // U moved to the new max: e^(s − m_new)·(s − m_new) = c·e^(s − m_old)·((s − m_old) + m_old −
    // m_new)
    moment = sum > 0 ? correction * (moment + static_cast<double>(m_old - m_new) * sum) + u : u;
    sum = sum * correction + tile_sum;
  } else {
    sum = sum * correction + exp_row(row + sp.lo, sp.hi - sp.lo, m_new);
  }
  for (int64_t c = 0; c < e; ++c) st.acc[static_cast<std::size_t>(r * e + c)] *= correction;
  st.m[static_cast<std::size_t>(r)] = m_new;
}

// Online softmax over the key tiles of each query tile: z and lse of one head, and each row's
// entropy when `entropy` is not null (float64).
void forward_head(const Head& h, const float* q, const float* k, const float* v, float* z,
                  float* lse, double* entropy) {
  const int64_t l = h.l, e = h.e, t = h.tile;
  std::vector<float> s(static_cast<std::size_t>(t * t));
  RowState st(t, e);
  for (int64_t i0 = 0; i0 < l; i0 += t) {
    const int64_t ni = std::min(t, l - i0), i1 = i0 + ni;
    st.reset();
    for (int64_t j0 = h.bias->first_key(i0); j0 < i1; j0 += t) {
      const int64_t nj = std::min(t, i1 - j0);
      sgemm('N', 'T', ni, nj, e, q + i0 * e, e, k + j0 * e, e, 0.0f, s.data(), nj);
      for (int64_t r = 0; r < ni; ++r) {
        float* row = s.data() + r * nj;
        const Span sp = bias_row(h, row, i0 + r, j0, nj);
        if (sp.lo < sp.hi) online_row(st, row, r, sp, e, entropy != nullptr);
        zero_outside(row, sp, nj);  // a row with no visible key in this tile adds nothing
      }
      sgemm('N', 'N', ni, e, nj, s.data(), nj, v + j0 * e, e, 1.0f, st.acc.data(), e);
    }
    for (int64_t r = 0; r < ni; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      for (int64_t c = 0; c < e; ++c)
        z[(i0 + r) * e + c] = st.acc[static_cast<std::size_t>(r * e + c)] / st.sum[ur];
      lse[i0 + r] = st.m[ur] + std::log(st.sum[ur]);
      if (entropy != nullptr) {
        const double sum = st.sum[ur];
        entropy[i0 + r] = std::log(sum) - st.moment[ur] / sum;
      }
    }
  }
}

// The backward's operands of one head: q and k scaled, dz and dd position-major with the C
// cotangents inside ([L, C, E] and [L, C]); dq and dv [L, C, E] and dk [C, L, E] out.
struct HeadGrads {
  const float *qs, *k, *ks, *v, *lse, *dz, *dd;
  float *dq, *dk, *dv;
  int64_t cot;
};

// Softmax rows of tile (i0, j0) recomputed from lse: p [ni, nj].
void recompute_p(const Head& h, const HeadGrads& g, float* p, int64_t i0, int64_t ni, int64_t j0,
                 int64_t nj) {
  sgemm('N', 'T', ni, nj, h.e, g.qs + i0 * h.e, h.e, g.k + j0 * h.e, h.e, 0.0f, p, nj);
  for (int64_t r = 0; r < ni; ++r) {
    float* row = p + r * nj;
    const Span sp = bias_row(h, row, i0 + r, j0, nj);
    if (sp.lo < sp.hi) exp_row(row + sp.lo, sp.hi - sp.lo, g.lse[i0 + r]);
    zero_outside(row, sp, nj);
  }
}

// Key tile by key tile: its dK and dV gather over the query tiles that see it (dK in a local
// [C, nj, E] block, dV in place), while dQ gathers in place across key tiles.
void backward_head(const Head& h, const HeadGrads& g) {
  const int64_t l = h.l, e = h.e, t = h.tile, cot = g.cot;
  std::vector<float> p(static_cast<std::size_t>(t * t));
  std::vector<float> ds(static_cast<std::size_t>(t * cot * t));
  std::vector<float> dk(static_cast<std::size_t>(cot * t * e));
  for (int64_t j0 = 0; j0 < l; j0 += t) {
    const int64_t nj = std::min(t, l - j0);
    std::fill(dk.begin(), dk.end(), 0.0f);
    // queries i ≥ j0 see the tile; with a window, only those with i − (j0 + nj − 1) < window
    const int64_t i_end = h.bias->window > 0 ? std::min(l, j0 + nj - 1 + h.bias->window) : l;
    for (int64_t i0 = j0; i0 < i_end; i0 += t) {
      const int64_t ni = std::min(t, l - i0);
      recompute_p(h, g, p.data(), i0, ni, j0, nj);
      const float* dz_i = g.dz + i0 * cot * e;
      // dP = dZ·Vᵀ, rows (query, cotangent); then dS in place
      sgemm('N', 'T', ni * cot, nj, e, dz_i, e, g.v + j0 * e, e, 0.0f, ds.data(), nj);
      for (int64_t r = 0; r < ni; ++r) {
        for (int64_t c = 0; c < cot; ++c)
          ds_row(ds.data() + (r * cot + c) * nj, p.data() + r * nj, nj, g.dd[(i0 + r) * cot + c]);
      }
      sgemm('N', 'N', ni * cot, e, nj, ds.data(), nj, g.ks + j0 * e, e, 1.0f, g.dq + i0 * cot * e,
            e);
      // dK: dS read as [ni, C·nj] and transposed, rows (cotangent, key)
      sgemm('T', 'N', cot * nj, e, ni, ds.data(), cot * nj, g.qs + i0 * e, e, 1.0f, dk.data(), e);
      sgemm('T', 'N', nj, cot * e, ni, p.data(), nj, dz_i, cot * e, 1.0f, g.dv + j0 * cot * e,
            cot * e);
    }
    for (int64_t c = 0; c < cot; ++c)
      std::copy_n(dk.data() + c * nj * e, nj * e, g.dk + (c * l + j0) * e);
  }
}

Head head_rule(const ScoreBias& bias, const std::vector<double>& slopes, int64_t head, int64_t l,
               int64_t e, int64_t tile) {
  const bool alibi = !slopes.empty();
  // slopes [H] (one per head) or [1] (shared)
  const std::size_t at = slopes.size() == 1 ? 0 : static_cast<std::size_t>(head);
  const double slope = alibi ? slopes[at] : 0.0;
  return {&bias, slope, alibi, l, e, std::max<int64_t>(1, tile)};
}

std::vector<double> slopes_of(const ScoreBias& bias) {
  if (!bias.slopes.defined()) return {};
  const auto s = bias.slopes.to(torch::kFloat64).contiguous();
  return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

}  // namespace blockwise_tiles

bool blockwise_kernels_apply(const torch::Tensor& q) {
  return q.scalar_type() == torch::kFloat32 && q.device().is_cpu();
}

BlockwiseForward blockwise_forward_f32(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const ScoreBias& bias, double scale,
                                       std::int64_t tile, bool entropy) {
  torch::NoGradGuard no_grad;
  const int64_t b = q.size(0), h = q.size(1), l = q.size(2), e = q.size(3);
  const auto qs = (q * scale).contiguous();
  const auto kc = k.contiguous(), vc = v.contiguous();
  auto z = torch::empty({b, h, l, e}, q.options());
  auto lse = torch::empty({b, h, l}, q.options());
  torch::Tensor ent;
  if (entropy) ent = torch::empty({b, h, l}, q.options().dtype(torch::kFloat64));
  const std::vector<double> slopes = blockwise_tiles::slopes_of(bias);
  at::parallel_for(0, b * h, 1, [&](int64_t begin, int64_t end) {
    for (int64_t bh = begin; bh < end; ++bh) {
      const blockwise_tiles::Head rule =
          blockwise_tiles::head_rule(bias, slopes, bh % h, l, e, tile);
      const int64_t off = bh * l * e;
      blockwise_tiles::forward_head(rule, qs.data_ptr<float>() + off, kc.data_ptr<float>() + off,
                                    vc.data_ptr<float>() + off, z.data_ptr<float>() + off,
                                    lse.data_ptr<float>() + bh * l,
                                    entropy ? ent.data_ptr<double>() + bh * l : nullptr);
    }
  });
  return {z, lse, ent};
}

AttentionGrads blockwise_backward_f32(const torch::Tensor& q, const torch::Tensor& k,
                                      const torch::Tensor& v, const torch::Tensor& z,
                                      const torch::Tensor& lse, const torch::Tensor& dz,
                                      const ScoreBias& bias, double scale, std::int64_t tile) {
  torch::NoGradGuard no_grad;
  const int64_t cot = dz.size(0), b = q.size(0), h = q.size(1), l = q.size(2), e = q.size(3);
  const auto dzp = dz.permute({1, 2, 3, 0, 4}).contiguous();    // [B, H, L, C, E]
  const auto dd = (dzp * z.unsqueeze(3)).sum(-1).contiguous();  // rowsum(dz ⊙ z) [B, H, L, C]
  const auto qs = (q * scale).contiguous(), ks = (k * scale).contiguous();
  const auto kc = k.contiguous(), vc = v.contiguous(), lc = lse.contiguous();
  auto dq = torch::zeros({b, h, l, cot, e}, q.options());
  auto dk = torch::empty({b, h, cot, l, e}, q.options());
  auto dv = torch::zeros({b, h, l, cot, e}, q.options());
  const std::vector<double> slopes = blockwise_tiles::slopes_of(bias);
  at::parallel_for(0, b * h, 1, [&](int64_t begin, int64_t end) {
    for (int64_t bh = begin; bh < end; ++bh) {
      const blockwise_tiles::Head rule =
          blockwise_tiles::head_rule(bias, slopes, bh % h, l, e, tile);
      const int64_t off = bh * l * e, off_c = off * cot;
      const blockwise_tiles::HeadGrads g{qs.data_ptr<float>() + off,
                                         kc.data_ptr<float>() + off,
                                         ks.data_ptr<float>() + off,
                                         vc.data_ptr<float>() + off,
                                         lc.data_ptr<float>() + bh * l,
                                         dzp.data_ptr<float>() + off_c,
                                         dd.data_ptr<float>() + bh * l * cot,
                                         dq.data_ptr<float>() + off_c,
                                         dk.data_ptr<float>() + off_c,
                                         dv.data_ptr<float>() + off_c,
                                         cot};
      blockwise_tiles::backward_head(rule, g);
    }
  });
  return {dq.permute({3, 0, 1, 2, 4}), dk.permute({2, 0, 1, 3, 4}), dv.permute({3, 0, 1, 2, 4})};
}

}  // namespace posbias
