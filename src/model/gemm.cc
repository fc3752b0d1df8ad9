#include "posbias/model/gemm.h"

#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <optional>

namespace posbias::gemm {

namespace {

// A 2-D float32 operand as dnnl_sgemm reads it: row-major storage with leading dimension ld,
// transposed ('T') when the view's columns, not its rows, are the unit-stride direction.
struct Operand {
  char trans;
  std::int64_t ld;
};

std::optional<Operand> operand(const torch::Tensor& t) {
  const auto rows = t.size(0), cols = t.size(1);
  const auto s0 = t.stride(0), s1 = t.stride(1);
  // A dimension of size 1 may carry any stride; only the other one's must be 1.
  if (cols == 1 || s1 == 1) {
    if (rows == 1 || s0 >= cols)
      return Operand{'N', std::max<std::int64_t>(rows == 1 ? cols : s0, 1)};
  }
  if (rows == 1 || s0 == 1) {
    if (cols == 1 || s1 >= rows)
      return Operand{'T', std::max<std::int64_t>(cols == 1 ? rows : s1, 1)};
  }
  return std::nullopt;
}

bool sgemm_applies(const torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b) {
  for (const auto* t : {&out, &a, &b}) {
    if (t->scalar_type() != torch::kFloat32 || !t->device().is_cpu() || t->dim() != 2) return false;
  }
  return true;
}

}  // namespace

void sgemm(char ta, char tb, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
           std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
           std::int64_t ldc) {
  if (m == 0 || n == 0 || k == 0) return;
  const auto status = dnnl_sgemm(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
  TORCH_CHECK(status == dnnl_success, "dnnl_sgemm failed with status ", static_cast<int>(status));
}

void mm_out(const torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b) {
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && out.dim() == 2 && a.size(1) == b.size(0) &&
                  out.size(0) == a.size(0) && out.size(1) == b.size(1),
              "mm_out: shapes ", a.sizes(), " · ", b.sizes(), " → ", out.sizes());
  const auto m = out.size(0), n = out.size(1), k = a.size(1);
  const auto oa = sgemm_applies(out, a, b) ? operand(a) : std::nullopt;
  const auto ob = oa ? operand(b) : std::nullopt;
  const auto oc = ob ? operand(out) : std::nullopt;
  if (!oc || oc->trans != 'N' || m == 0 || n == 0 || k == 0) {
    torch::Tensor result = out;
    at::mm_out(result, a, b);
    return;
  }
  sgemm(oa->trans, ob->trans, m, n, k, a.data_ptr<float>(), oa->ld, b.data_ptr<float>(), ob->ld,
        0.0f, out.data_ptr<float>(), oc->ld);
}

torch::Tensor matmul(const torch::Tensor& x, const torch::Tensor& w) {
  const auto k = x.size(-1);
  auto sizes = x.sizes().vec();
  sizes.back() = w.size(1);
  auto out = torch::empty(sizes, x.options());
  mm_out(out.view({-1, w.size(1)}), x.reshape({-1, k}), w);
  return out;
}

void bmm_out(const torch::Tensor& out, const torch::Tensor& a, const torch::Tensor& b) {
  TORCH_CHECK(a.dim() == 3 && b.dim() == 3 && out.dim() == 3 && a.size(0) == b.size(0) &&
                  out.size(0) == a.size(0),
              "bmm_out: shapes ", a.sizes(), " · ", b.sizes(), " → ", out.sizes());
  for (std::int64_t i = 0; i < a.size(0); ++i) mm_out(out[i], a[i], b[i]);
}

}  // namespace posbias::gemm
