#include "posbias/runfiles/checkpoint_selection.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "posbias/core/enum_names.h"
#include "posbias/core/parse.h"

namespace posbias {

namespace {

// The selections with a name; the third kind is a comma list of steps.
constexpr EnumNames<CheckpointSelection::Kind, 2> kNamedSelections{{
    {CheckpointSelection::Kind::kAll, "all"},
    {CheckpointSelection::Kind::kLast, "last"},
}};

}  // namespace

std::string checkpoint_selection_type() {
  std::string type;
  for (const auto& [kind, name] : kNamedSelections) type += std::string(name) + "|";
  return type + "STEPS";
}

std::string checkpoint_selection_choices() {
  std::string names;
  for (const auto& [kind, name] : kNamedSelections) names += std::string(name) + ", ";
  return names.substr(0, names.size() - 2) + " or a comma list of steps";
}

CheckpointSelection parse_checkpoint_selection(const std::string& text) {
  for (const auto& [kind, name] : kNamedSelections)
    if (text == name) return {kind, {}};
  CheckpointSelection s{CheckpointSelection::Kind::kSteps, {}};
  try {
    s.steps = parse_integer_list(text, "--checkpoints", 0, 1'000'000'000'000);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("--checkpoints must be " + checkpoint_selection_choices() +
                                " (0 to 10^12), got '" + text.substr(0, 40) + "'");
  }
  std::sort(s.steps.begin(), s.steps.end());
  s.steps.erase(std::unique(s.steps.begin(), s.steps.end()), s.steps.end());
  return s;
}

std::string to_string(const CheckpointSelection& s) {
  if (s.kind != CheckpointSelection::Kind::kSteps)
    return std::string(name_of(kNamedSelections, s.kind));
  std::string out;
  for (std::int64_t step : s.steps) {
    if (!out.empty()) out += ',';
    out += std::to_string(step);
  }
  return out;
}

std::vector<std::int64_t> select_checkpoint_steps(const CheckpointSelection& s,
                                                  const std::vector<std::int64_t>& available) {
  if (available.empty()) throw std::runtime_error("the run has no checkpoints");
  if (s.kind == CheckpointSelection::Kind::kAll) return available;
  if (s.kind == CheckpointSelection::Kind::kLast) return {available.back()};
  for (std::int64_t step : s.steps) {
    if (!std::binary_search(available.begin(), available.end(), step)) {
      std::string choices;
      for (std::size_t i = 0; i < available.size() && i < 20; ++i) {
        if (i) choices += ", ";
        choices += std::to_string(available[i]);
      }
      if (available.size() > 20) choices += ", ...";
      throw std::invalid_argument("--checkpoints: no checkpoint at step " + std::to_string(step) +
                                  "; the run has " + choices);
    }
  }
  return s.steps;
}

}  // namespace posbias
