// A CheckpointSelection as a field of a table (core/field_table.h): written as the text
// `--checkpoints` takes ("all", "last", "500,1000"), read back by its parser.
#pragma once

#include <string>

#include "posbias/core/field_table.h"
#include "posbias/runfiles/checkpoint_selection.h"

namespace posbias {

struct CheckpointSelectionNames {
  static std::string name(const CheckpointSelection& s) { return to_string(s); }
  static CheckpointSelection parse(const std::string& text) {
    return parse_checkpoint_selection(text);
  }
};

template <>
struct FieldCodec<CheckpointSelection> : EnumCodec<CheckpointSelection, CheckpointSelectionNames> {
};

}  // namespace posbias
