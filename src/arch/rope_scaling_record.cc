#include "posbias/arch/rope_scaling_record.h"

namespace posbias {

const std::vector<FieldRow<RopeScaling>>& rope_scaling_fields() {
  using S = RopeScaling;
  static const std::vector<FieldRow<S>> rows = {
      required(field("kind", &S::kind,
                     "pi (positions divided by F) or ntk (base θ·F^(d/(d-2)), d the rotary dims)")),
      required(field("factor", &S::factor, "the factor F")),
  };
  return rows;
}

}  // namespace posbias
