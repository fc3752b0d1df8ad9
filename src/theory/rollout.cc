#include "posbias/theory/rollout.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {

void RolloutSpec::validate() const {
  if (length < 1) throw std::invalid_argument("rollout: length must be >= 1");
  if (query < 0 || query > length)
    throw std::invalid_argument("rollout: query must be in 1..L (0 = last)");
  if (attention.size() != alpha.size())
    throw std::invalid_argument("rollout: one α per layer (" + std::to_string(alpha.size()) +
                                " α for " + std::to_string(attention.size()) + " layers)");
  const auto n = static_cast<std::size_t>(length);
  for (const auto* scale : {&key_scale, &stay_scale}) {
    const char* name = scale == &key_scale ? "key_scale" : "stay_scale";
    if (!scale->empty() && scale->size() != attention.size())
      throw std::invalid_argument(std::string("rollout: ") + name + " needs one row per layer");
    for (const auto& row : *scale) {
      if (row.size() != n)
        throw std::invalid_argument(std::string("rollout: a ") + name + " row is not L long");
      for (double v : row)
        if (!(std::isfinite(v) && v > 0))
          throw std::invalid_argument(std::string("rollout: ") + name + " must be finite and > 0");
    }
  }
  for (std::size_t l = 0; l < attention.size(); ++l) {
    if (!(alpha[l] >= 0.0 && alpha[l] <= 1.0))
      throw std::invalid_argument("rollout: α of layer " + std::to_string(l) +
                                  " must be in [0, 1]");
    const auto& a = attention[l];
    if (a.size() != n * n)
      throw std::invalid_argument("rollout: layer " + std::to_string(l) +
                                  "'s attention is not L×L");
    for (std::size_t i = 0; i < n; ++i) {
      double sum = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double v = a[i * n + j];
        if (!(v >= 0.0) || (j > i && v != 0.0))
          throw std::invalid_argument("rollout: layer " + std::to_string(l) +
                                      " has a negative or non-causal attention weight");
        sum += v;
      }
      if (sum > 1.0 + 1e-6)  // below 1: a null sink holds the rest (operator.h)
        throw std::invalid_argument("rollout: layer " + std::to_string(l) + "'s row " +
                                    std::to_string(i + 1) + " sums to " + std::to_string(sum) +
                                    ", more than 1");
    }
  }
}

std::vector<double> rollout_row(const RolloutSpec& spec) {
  spec.validate();
  const auto q = static_cast<std::size_t>(spec.query_position());
  const auto n = static_cast<std::size_t>(spec.length);
  const std::size_t layers = spec.attention.size();
  if (spec.paths == PathSum::kLinear) {
    std::vector<double> r(q, 0.0), s(q);
    r[q - 1] = 1.0;
    for (std::size_t l = layers; l-- > 0;) {  // e_qᵀ N_H first
      if (!spec.stay_scale.empty())
        for (std::size_t j = 0; j < q; ++j) r[j] *= spec.stay_scale[l][j];
      const auto& a = spec.attention[l];
      std::fill(s.begin(), s.end(), 0.0);
      for (std::size_t i = 0; i < q; ++i) {
        if (r[i] == 0.0) continue;
        for (std::size_t j = 0; j <= i; ++j) s[j] += r[i] * a[i * n + j];
      }
      if (!spec.key_scale.empty())
        for (std::size_t j = 0; j < q; ++j) s[j] *= spec.key_scale[l][j];
      const double al = spec.alpha[l];
      for (std::size_t j = 0; j < q; ++j) r[j] = (1.0 - al) * r[j] + al * s[j];
    }
    return r;
  }
  if (spec.query_position() > kMaxQuadratureRolloutLength) {
    throw std::invalid_argument("a quadrature rollout is limited to q <= " +
                                std::to_string(kMaxQuadratureRolloutLength) + " (O(q³) per layer)");
  }
  // C on positions 1..q, row-major; T = C·A, then C' = (1-α)² C + α² Aᵀ T.
  std::vector<double> c(q * q, 0.0), t(q * q), next(q * q);
  c[(q - 1) * q + (q - 1)] = 1.0;
  for (std::size_t l = layers; l-- > 0;) {
    if (!spec.stay_scale.empty()) {  // C ← S C S
      for (std::size_t i = 0; i < q; ++i)
        for (std::size_t j = 0; j < q; ++j)
          c[i * q + j] *= spec.stay_scale[l][i] * spec.stay_scale[l][j];
    }
    const auto& a = spec.attention[l];
    std::fill(t.begin(), t.end(), 0.0);
    for (std::size_t i = 0; i < q; ++i) {
      for (std::size_t k = 0; k < q; ++k) {
        const double cik = c[i * q + k];
        if (cik == 0.0) continue;
        for (std::size_t j = 0; j <= k; ++j) t[i * q + j] += cik * a[k * n + j];
      }
    }
    if (!spec.key_scale.empty()) {  // T·D, and D·(Aᵀ T D) below
      for (std::size_t i = 0; i < q; ++i)
        for (std::size_t j = 0; j < q; ++j) t[i * q + j] *= spec.key_scale[l][j];
    }
    const double al = spec.alpha[l];
    for (std::size_t x = 0; x < q * q; ++x) next[x] = (1.0 - al) * (1.0 - al) * c[x];
    for (std::size_t k = 0; k < q; ++k) {  // (Aᵀ T)[i][j] = Σ_k A[k][i] T[k][j]
      for (std::size_t i = 0; i <= k; ++i) {
        const double aki =
            al * al * a[k * n + i] * (spec.key_scale.empty() ? 1.0 : spec.key_scale[l][i]);
        if (aki == 0.0) continue;
        for (std::size_t j = 0; j < q; ++j) next[i * q + j] += aki * t[k * q + j];
      }
    }
    c.swap(next);
  }
  std::vector<double> r(q);
  for (std::size_t j = 0; j < q; ++j) r[j] = std::sqrt(std::max(0.0, c[j * q + j]));
  return r;
}

}  // namespace posbias
