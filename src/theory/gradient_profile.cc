#include "posbias/theory/gradient_profile.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {

GradientProfile gradient_profile(std::int64_t length, const std::vector<double>& alpha,
                                 const AttentionOperator& op) {
  if (length < 1 || length > kMaxGradientProfileLength) {
    throw std::invalid_argument("the gradient profile needs a length in 1.." +
                                std::to_string(kMaxGradientProfileLength));
  }
  op.validate();
  const auto n = static_cast<std::size_t>(length);
  // A, row-major lower triangle.
  std::vector<double> a(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double> row = op.dense_row(static_cast<std::int64_t>(i + 1));
    for (std::size_t j = 0; j < row.size() && j <= i; ++j) a[i * n + j] = row[j];
  }
  std::vector<double> m(n * n, 0.0), next(n * n);
  for (std::size_t i = 0; i < n; ++i) m[i * n + i] = 1.0;
  for (double al : alpha) {
    if (!(al >= 0 && al <= 1)) throw std::invalid_argument("alpha must be in [0, 1]");
    // next = ((1 − α) I + α A) m; lower triangular, so k runs over j..i.
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j <= i; ++j) {
        double s = 0;
        for (std::size_t k = j; k <= i; ++k) s += a[i * n + k] * m[k * n + j];
        next[i * n + j] = (1 - al) * m[i * n + j] + al * s;
      }
    }
    m.swap(next);
  }
  GradientProfile g;
  g.column_sum.assign(n, 0.0);
  g.root_sum_square.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j <= i; ++j) {
      g.column_sum[j] += m[i * n + j];
      g.root_sum_square[j] += m[i * n + j] * m[i * n + j];
    }
  }
  for (double& v : g.root_sum_square) v = std::sqrt(v);
  return g;
}

}  // namespace posbias
