#include "posbias/theory/quadrature_row.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace posbias {
namespace {

using Column = std::vector<double>;  // [q]

double scale_at(const std::vector<std::vector<double>>& scale, std::size_t l, std::size_t j) {
  return scale.empty() ? 1.0 : scale[l][j];
}

// U [q, 2^h] after h layers; every layer doubles it.
std::vector<double> factor_row(const QuadratureRowSpec& spec, std::size_t q) {
  std::vector<Column> u(1, Column(q, 0.0));
  u[0][q - 1] = 1.0;
  for (std::size_t l = spec.alpha.size(); l-- > 0;) {  // e_qᵀ N_H first
    const double al = spec.alpha[l];
    const std::size_t m = u.size();
    for (std::size_t k = 0; k < m; ++k) {
      Column attended(q);
      Column& col = u[k];
      double suffix = 0;  // (Aᵀ S u)_j = Σ_{i >= j} (S u)_i / i
      for (std::size_t j = q; j-- > 0;) {
        col[j] *= scale_at(spec.stay_scale, l, j);
        suffix += col[j] / static_cast<double>(j + 1);
        attended[j] = al * suffix * scale_at(spec.key_scale, l, j);
      }
      for (double& x : col) x *= 1.0 - al;
      u.push_back(std::move(attended));
    }
  }
  Column row(q, 0.0);
  for (const Column& col : u)
    for (std::size_t j = 0; j < q; ++j) row[j] += col[j] * col[j];
  return row;
}

// C and P in the packed lower triangle (row i at i(i+1)/2, entries k = 0..i).
std::vector<double> dense_row(const QuadratureRowSpec& spec, std::size_t q) {
  auto at = [](std::size_t i) { return i * (i + 1) / 2; };
  std::vector<double> c(at(q), 0.0), p(at(q));
  c[at(q - 1) + q - 1] = 1.0;
  Column tail(q);
  for (std::size_t l = spec.alpha.size(); l-- > 0;) {
    for (std::size_t i = 0; i < q; ++i) {  // C ← S C S
      const double si = scale_at(spec.stay_scale, l, i);
      for (std::size_t k = 0; k <= i; ++k) c[at(i) + k] *= si * scale_at(spec.stay_scale, l, k);
    }
    // E_ab = C_ab / (a·b) (1-based). tail_a = Σ_{b > a} E_ba, the row's entries right of the
    // diagonal by symmetry.
    std::fill(tail.begin(), tail.end(), 0.0);
    for (std::size_t b = 0; b < q; ++b)
      for (std::size_t a = 0; a < b; ++a)
        tail[a] += c[at(b) + a] / (static_cast<double>(a + 1) * static_cast<double>(b + 1));
    // R_a(k) = Σ_{b >= k} E_ab for k <= a, into P's row a; then P_ik = Σ_{a >= i} R_a(k).
    for (std::size_t a = 0; a < q; ++a) {
      double run = tail[a];
      for (std::size_t k = a + 1; k-- > 0;) {
        run += c[at(a) + k] / (static_cast<double>(a + 1) * static_cast<double>(k + 1));
        p[at(a) + k] = run;
      }
    }
    for (std::size_t i = q - 1; i-- > 0;)
      for (std::size_t k = 0; k <= i; ++k) p[at(i) + k] += p[at(i + 1) + k];
    const double keep = (1 - spec.alpha[l]) * (1 - spec.alpha[l]);
    const double attend = spec.alpha[l] * spec.alpha[l];
    for (std::size_t i = 0; i < q; ++i) {
      const double di = scale_at(spec.key_scale, l, i);
      for (std::size_t k = 0; k <= i; ++k) {
        c[at(i) + k] =
            keep * c[at(i) + k] + attend * di * scale_at(spec.key_scale, l, k) * p[at(i) + k];
      }
    }
  }
  Column row(q);
  for (std::size_t j = 0; j < q; ++j) row[j] = c[at(j) + j];
  return row;
}

}  // namespace

void QuadratureRowSpec::validate() const {
  if (query < 1) throw std::invalid_argument("quadrature row: query must be >= 1");
  for (std::size_t l = 0; l < alpha.size(); ++l) {
    if (!(alpha[l] >= 0.0 && alpha[l] <= 1.0))
      throw std::invalid_argument("quadrature row: α of layer " + std::to_string(l) +
                                  " must be in [0, 1]");
  }
  const auto q = static_cast<std::size_t>(query);
  for (const auto* scale : {&key_scale, &stay_scale}) {
    const char* name = scale == &key_scale ? "key_scale" : "stay_scale";
    if (!scale->empty() && scale->size() != alpha.size())
      throw std::invalid_argument(std::string("quadrature row: ") + name +
                                  " needs one row per layer");
    for (const auto& row : *scale) {
      if (row.size() < q)
        throw std::invalid_argument(std::string("quadrature row: a ") + name +
                                    " row is shorter than q");
      for (std::size_t j = 0; j < q; ++j)
        if (!(std::isfinite(row[j]) && row[j] > 0))
          throw std::invalid_argument(std::string("quadrature row: ") + name +
                                      " must be finite and > 0");
    }
  }
}

QuadratureRowMethod quadrature_row_method(std::int64_t query, std::size_t layers) {
  return layers < 62 && (std::int64_t{1} << layers) <= query / 2 ? QuadratureRowMethod::kFactor
                                                                 : QuadratureRowMethod::kDense;
}

double quadrature_row_bytes(std::int64_t query, std::size_t layers) {
  const auto q = static_cast<double>(query);
  return quadrature_row_method(query, layers) == QuadratureRowMethod::kFactor
             ? 8.0 * q * std::ldexp(1.0, static_cast<int>(layers))
             : 8.0 * q * (q + 1);  // C and P, packed
}

std::vector<double> quadrature_row(const QuadratureRowSpec& spec) {
  spec.validate();
  const auto q = static_cast<std::size_t>(spec.query);
  const QuadratureRowMethod method = spec.method == QuadratureRowMethod::kAuto
                                         ? quadrature_row_method(spec.query, spec.alpha.size())
                                         : spec.method;
  if (method == QuadratureRowMethod::kFactor && spec.alpha.size() > 30)
    throw std::invalid_argument("quadrature row: the factor form holds 2^H columns; H <= 30");
  std::vector<double> row =
      method == QuadratureRowMethod::kFactor ? factor_row(spec, q) : dense_row(spec, q);
  for (double& v : row) v = std::sqrt(std::max(0.0, v));
  return row;
}

}  // namespace posbias
