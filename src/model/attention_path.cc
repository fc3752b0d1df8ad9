#include "posbias/model/attention_path.h"

#include <stdexcept>

namespace posbias {

std::string to_string(AttentionPath path) {
  return path == AttentionPath::kDense ? "dense" : "blockwise";
}

std::optional<AttentionPath> parse_attention_choice(const std::string& name) {
  if (name == "auto") return std::nullopt;
  if (name == "dense") return AttentionPath::kDense;
  if (name == "blockwise") return AttentionPath::kBlockwise;
  throw std::invalid_argument("--attention must be auto, dense or blockwise, got '" + name + "'");
}

std::string to_string(std::optional<AttentionPath> choice) {
  return choice ? to_string(*choice) : "auto";
}

}  // namespace posbias
