// An enum's names written once, as a table of (value, name) rows: the name of a value and the
// value of a name (with the one-line error that lists the names) both come from it.
//
//   constexpr EnumNames<Family, 3> kFamilyNames{{{Family::kGpt2, "gpt2"}, ...}};
//   name_of(kFamilyNames, f)                            // "gpt2"
//   value_of(kFamilyNames, "gpt2", "architecture family")   // Family::kGpt2, or throws
//       std::invalid_argument("unknown architecture family 'x' (use gpt2, qwen2 or gptj)")
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace posbias {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<E, std::string_view>, N>;

// "a, b or c"
inline std::string name_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}

template <class E, std::size_t N>
std::string name_list(const EnumNames<E, N>& names) {
  std::vector<std::string_view> list;
  for (const auto& row : names) list.push_back(row.second);
  return name_list(list);
}

template <class E, std::size_t N>
std::string_view name_of(const EnumNames<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  throw std::invalid_argument("no name for enum value " + std::to_string(static_cast<int>(value)));
}

// `what` names the kind of value in the error ("task", "--method").
template <class E, std::size_t N>
E value_of(const EnumNames<E, N>& names, const std::string& name, const std::string& what) {
  for (const auto& [v, n] : names)
    if (n == name) return v;
  throw std::invalid_argument("unknown " + what + " '" + name.substr(0, 40) + "' (use " +
                              name_list(names) + ")");
}

}  // namespace posbias
