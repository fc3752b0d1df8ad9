// An eval's RoPE scaling (`eval --rope-scaling`, arch/rope_scaling.h) as its result file holds
// it: one field table (its kind and factor) for the kv, passkey and hop eval records, which
// write it only when the option was given.
#pragma once

#include <string>
#include <vector>

#include "posbias/arch/arch_codecs.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/field_table.h"

namespace posbias {

const std::vector<FieldRow<RopeScaling>>& rope_scaling_fields();
template <>
struct FieldCodec<RopeScaling> : TableCodec<RopeScaling, &rope_scaling_fields> {};

}  // namespace posbias
