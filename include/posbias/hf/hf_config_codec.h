// An HfConfig as a field of a record (core/field_table.h): written as the family's config.json
// (to_json), read by parse_hf_config with the field's name as the source, so a bad value is
// refused in one line naming the field ("birth field 'config': n_head = 5 does not divide
// n_embd = 64"). As Hugging Face reads config.json, unknown keys inside it are ignored.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "posbias/core/field_table.h"
#include "posbias/hf/hf_config.h"

namespace posbias {

template <>
struct FieldCodec<HfConfig> {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const HfConfig& config) { return to_json(config); }
  static HfConfig read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_object()) throw std::invalid_argument(what + " must be an object");
    return parse_hf_config(j.dump(), what);
  }
};

}  // namespace posbias
