// The query's row of the quadrature path sum with per-layer, per-position gains, at any length.
//
// Layer l maps the residual stream by N_l = S_l ((1-α_l) I + α_l A D_l) (rollout.h: A the
// Cesàro operator A_ij = 1/i, D_l = diag(key gains), S_l = diag(stay gains), positions 1..q).
// With independent random matrices per layer, paths through different layer sets S add in
// quadrature and paths through the same set add linearly, so the squared row is the diagonal of
//   C = Σ_S v_S v_Sᵀ,   v_S = e_qᵀ Π_{l = H-1..0} (S_l (1-α_l) if l ∉ S, S_l α_l A D_l if l ∈ S).
// It is not the row of the squared operators (1-α)² I + α² (AD)∘(AD): that sum treats paths
// through the same layers and different positions as independent too, and differs from two
// layers on. rollout.h propagates C densely with a matrix product, O(q³) per layer. Two exact
// ways avoid it, both to rounding equal to rollout.h:
//   factor: C = U Uᵀ with U [q, 2^h] after h layers; U ← [(1-α) S U, α D Aᵀ S U], and Aᵀu is a
//           suffix sum (Aᵀu)_j = Σ_{i >= j} u_i / i: O(2^h·q) per layer;
//   dense:  C ← (1-α)² SCS + α² D P D, P_ik = Σ_{a >= i, b >= k} (SCS)_ab / (a·b), a 2D suffix
//           sum kept in the packed lower triangle: O(q²) time and 2·q²/2 doubles of memory.
// The factor is taken while 2^H <= q / 2, the dense form otherwise.
#pragma once

#include <cstdint>
#include <vector>

namespace posbias {

enum class QuadratureRowMethod { kAuto, kFactor, kDense };

struct QuadratureRowSpec {
  std::int64_t query = 0;     // q >= 1: the row's positions are 1..q
  std::vector<double> alpha;  // α_l per layer in model order, each in [0, 1]
  // [layer][j], j = 0..q-1 (longer rows are cut to q), each finite and > 0; empty = all 1.
  std::vector<std::vector<double>> key_scale, stay_scale;
  QuadratureRowMethod method = QuadratureRowMethod::kAuto;  // tests force one

  // Throws std::invalid_argument naming the bad field.
  void validate() const;
};

// The method kAuto takes and the bytes its state holds.
QuadratureRowMethod quadrature_row_method(std::int64_t query, std::size_t layers);
double quadrature_row_bytes(std::int64_t query, std::size_t layers);

// sqrt(C_jj), positions 1..q, not normalized.
std::vector<double> quadrature_row(const QuadratureRowSpec& spec);

}  // namespace posbias
