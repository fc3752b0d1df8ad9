#include "posbias/model/dnnl_linear.h"

#include <ATen/autocast_mode.h>
#include <ATen/record_function.h>

#include "posbias/model/gemm.h"

namespace posbias {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Whether the three products can go to dnnl_sgemm without a copy: float32 CPU tensors, the
// input and weight contiguous (x viewed as rows [M, K], the weight read transposed in place),
// and no autocast (--precision bf16 casts torch's linear to bfloat16).
bool dnnl_linear_applies(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  if (at::autocast::is_cpu_enabled()) return false;
  const auto f32 = [](const torch::Tensor& t) {
    return t.scalar_type() == torch::kFloat32 && t.device().is_cpu() && t.is_contiguous();
  };
  return f32(x) && f32(w) && (!b.defined() || (f32(b) && b.dim() == 1)) && x.dim() >= 1 &&
         w.dim() == 2 && x.size(-1) == w.size(1) && (!b.defined() || b.size(0) == w.size(0));
}

// y = x·Wᵀ + b, the bias added after the product (torch's addmm adds it in the GEMM's C).
torch::Tensor dnnl_linear_forward(const torch::Tensor& x, const torch::Tensor& w,
                                  const torch::Tensor& b) {
  RECORD_FUNCTION("posbias::dnnl_linear", c10::ArrayRef<const c10::IValue>{});
  auto sizes = x.sizes().vec();
  sizes.back() = w.size(0);
  auto y = torch::empty(sizes, x.options());
  gemm::mm_out(y.view({-1, w.size(0)}), x.view({-1, w.size(1)}), w.t());
  if (b.defined()) y.add_(b);
  return y;
}

// The bias is an optional input: libtorch's Function takes no undefined tensor.
struct DnnlLinearFunction : torch::autograd::Function<DnnlLinearFunction> {
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& w,
                               const c10::optional<torch::Tensor>& b) {
    ctx->save_for_backward({x, w});
    ctx->saved_data["bias"] = b.has_value();
    return dnnl_linear_forward(x, w, b ? *b : torch::Tensor());
  }

  // dx = dy·W, dW = dyᵀ·x, db = Σ_rows dy, each only when its input needs it. Under
  // create_graph (grad mode on) in torch's differentiable ops instead.
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    RECORD_FUNCTION("posbias::dnnl_linear_backward", c10::ArrayRef<const c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto &x = saved[0], &w = saved[1];
    const auto n = w.size(0), k = w.size(1);
    const auto dy = grads[0].reshape({-1, n});
    const auto rows = x.reshape({-1, k});
    const bool differentiable = torch::GradMode::is_enabled();
    torch::Tensor dx, dw, db;
    if (ctx->needs_input_grad(0)) {
      if (differentiable) {
        dx = dy.mm(w).view(x.sizes());
      } else {
        dx = torch::empty(x.sizes(), x.options());
        gemm::mm_out(dx.view({-1, k}), dy, w);
      }
    }
    if (ctx->needs_input_grad(1)) {
      if (differentiable) {
        dw = dy.t().mm(rows);
      } else {
        dw = torch::empty({n, k}, w.options());
        gemm::mm_out(dw, dy.t(), rows);
      }
    }
    if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) db = dy.sum(0);
    return {dx, dw, db};
  }
};

}  // namespace

torch::Tensor dnnl_linear(const torch::Tensor& x, const torch::Tensor& weight,
                          const torch::Tensor& bias) {
  if (!dnnl_linear_applies(x, weight, bias)) return torch::nn::functional::linear(x, weight, bias);
  const bool grad = torch::GradMode::is_enabled() && (x.requires_grad() || weight.requires_grad() ||
                                                      (bias.defined() && bias.requires_grad()));
  if (!grad) return dnnl_linear_forward(x, weight, bias);
  return DnnlLinearFunction::apply(
      x, weight, bias.defined() ? c10::optional<torch::Tensor>(bias) : c10::nullopt);
}

torch::Tensor dnnl_linear(const torch::Tensor& x, const torch::nn::Linear& layer) {
  return dnnl_linear(x, layer->weight, layer->bias);
}

}  // namespace posbias
