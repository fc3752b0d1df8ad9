#include "posbias/arch/attention_path.h"

#include <stdexcept>

#include "posbias/core/enum_names.h"

namespace posbias {
namespace {
constexpr EnumNames<AttentionPath, 2> kAttentionPathNames{
    {{AttentionPath::kDense, "dense"}, {AttentionPath::kBlockwise, "blockwise"}}};
}  // namespace

std::string to_string(AttentionPath path) {
  return std::string(name_of(kAttentionPathNames, path));
}

AttentionPath parse_attention_path(const std::string& name) {
  return value_of(kAttentionPathNames, name, "attention path");
}

std::optional<AttentionPath> parse_attention_choice(const std::string& name) {
  if (name == "auto") return std::nullopt;
  for (const auto& [path, path_name] : kAttentionPathNames)
    if (path_name == name) return path;
  throw std::invalid_argument("--attention must be auto, " + name_list(kAttentionPathNames) +
                              ", got '" + name.substr(0, 40) + "'");
}

std::string to_string(std::optional<AttentionPath> choice) {
  return choice ? to_string(*choice) : "auto";
}

}  // namespace posbias
