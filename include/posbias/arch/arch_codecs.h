// The architecture's enums as values of a field table (core/field_table.h): a record holds the
// enum and its row is a plain field(); the writer writes the enum's name from its one name table
// and the strict reader refuses a name that is not in it, listing the names there are:
//   "unknown architecture family 'qwen3' (use gpt2, qwen2, gptj or llama); did you mean 'qwen2'?"
// Family and PosEncoding (config.h), RopeScalingKind (rope_scaling.h), AttentionPath
// (attention_path.h).
#pragma once

#include <string>

#include "posbias/arch/attention_path.h"
#include "posbias/arch/config.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/field_table.h"

namespace posbias {

struct FamilyNames {
  static std::string name(Family f) { return to_string(f); }
  static Family parse(const std::string& s) { return parse_family(s); }
};
struct PosEncodingNames {
  static std::string name(PosEncoding p) { return to_string(p); }
  static PosEncoding parse(const std::string& s) { return parse_pos_encoding(s); }
};
struct RopeScalingKindNames {
  static std::string name(RopeScalingKind kind) { return to_string(kind); }
  static RopeScalingKind parse(const std::string& name) { return parse_rope_scaling_kind(name); }
};
struct AttentionPathNames {
  static std::string name(AttentionPath p) { return to_string(p); }
  static AttentionPath parse(const std::string& s) { return parse_attention_path(s); }
};

template <>
struct FieldCodec<Family> : EnumCodec<Family, FamilyNames> {};
template <>
struct FieldCodec<PosEncoding> : EnumCodec<PosEncoding, PosEncodingNames> {};
template <>
struct FieldCodec<RopeScalingKind> : EnumCodec<RopeScalingKind, RopeScalingKindNames> {};
template <>
struct FieldCodec<AttentionPath> : EnumCodec<AttentionPath, AttentionPathNames> {};

}  // namespace posbias
