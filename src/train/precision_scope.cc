#include "posbias/train/precision_scope.h"

#include <ATen/autocast_mode.h>

#include <stdexcept>

#include "posbias/core/machine.h"

namespace posbias {

PrecisionScope::PrecisionScope(Precision precision) : active_(precision == Precision::kBf16) {
  if (!active_) return;
  was_enabled_ = at::autocast::is_cpu_enabled();
  was_dtype_ = at::autocast::get_autocast_cpu_dtype();
  at::autocast::set_cpu_enabled(true);
  at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
  at::autocast::increment_nesting();
}

PrecisionScope::~PrecisionScope() {
  if (!active_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  at::autocast::set_cpu_enabled(was_enabled_);
  at::autocast::set_autocast_cpu_dtype(was_dtype_);
}

void require_precision_supported(Precision precision) {
  if (precision == Precision::kBf16 && !cpu_has_native_bf16()) {
    throw std::invalid_argument(
        "precision bf16 needs a CPU that multiplies bfloat16 natively (AVX-512 BF16), and this "
        "one does not: train with --precision fp32");
  }
}

}  // namespace posbias
