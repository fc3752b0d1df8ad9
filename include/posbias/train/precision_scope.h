// The arithmetic of a training step's forward pass (TrainConfig::precision) as a scope. With bf16,
// CPU autocast runs the matrix products (linear, matmul, bmm) in bfloat16 while the weights,
// their gradients and AdamW's moments stay fp32; leaving the scope clears autocast's cache of
// bf16 weight copies, so the next step casts the updated weights. With fp32 it does nothing.
#pragma once

#include <c10/core/ScalarType.h>

#include "posbias/runfiles/train_config.h"

namespace posbias {

class PrecisionScope {
 public:
  explicit PrecisionScope(Precision precision);
  ~PrecisionScope();
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  bool active_ = false, was_enabled_ = false;
  c10::ScalarType was_dtype_ = c10::ScalarType::BFloat16;
};

// bf16 only where this CPU multiplies bfloat16 natively (AVX-512 BF16); std::invalid_argument
// in one line otherwise.
void require_precision_supported(Precision precision);

}  // namespace posbias
