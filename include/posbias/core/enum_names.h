// An enum's names written once, as a table of (value, name) rows: the name of a value and the
// value of a name (with the one-line error that lists the names) both come from it.
//
//   constexpr EnumNames<Family, 3> kFamilyNames{{{Family::kGpt2, "gpt2"}, ...}};
//   name_of(kFamilyNames, f)                            // "gpt2"
//   value_of(kFamilyNames, "gpt2", "architecture family")   // Family::kGpt2, or throws
//       std::invalid_argument("unknown architecture family 'x' (use gpt2, qwen2 or gptj)")
//   value_of(kFamilyNames, "qwen3", ...) throws "unknown architecture family 'qwen3' (use gpt2,
//       qwen2 or gptj); did you mean 'qwen2'?"
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
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

// The optimal string alignment (restricted Damerau-Levenshtein) distance between a and b,
// ignoring ASCII case: insertions, deletions, substitutions and swaps of two neighbours.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  auto lower = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// The name `typed` was probably meant as: the one name it is a prefix of, else the one name
// nearest to it within edit distance 2 (and nearer than its own length, so "x" suggests nothing).
// Empty when there is none or two are equally likely.
inline std::string_view closest_name(const std::vector<std::string_view>& names,
                                     std::string_view typed) {
  if (typed.empty() || typed.size() > 64) return {};
  std::string_view prefix_of;
  int prefixes = 0;
  for (std::string_view n : names) {
    if (n.size() > typed.size() && edit_distance(n.substr(0, typed.size()), typed) == 0) {
      prefix_of = n;
      ++prefixes;
    }
  }
  if (prefixes == 1) return prefix_of;
  std::string_view best;
  std::size_t best_distance = 3;
  bool tie = false;
  for (std::string_view n : names) {
    const std::size_t d = edit_distance(n, typed);
    if (d < best_distance) {
      best = n;
      best_distance = d;
      tie = false;
    } else if (d == best_distance) {
      tie = true;
    }
  }
  if (best.empty() || tie || best_distance >= typed.size()) return {};
  return best;
}

// "; did you mean 'rope'?" for a typed name that is close to one of `names` (closest_name),
// else "".
inline std::string did_you_mean(const std::vector<std::string_view>& names,
                                std::string_view typed) {
  const std::string_view best = closest_name(names, typed);
  return best.empty() ? std::string() : "; did you mean '" + std::string(best) + "'?";
}

template <class E, std::size_t N>
std::vector<std::string_view> names_of(const EnumNames<E, N>& names) {
  std::vector<std::string_view> list;
  for (const auto& row : names) list.push_back(row.second);
  return list;
}

template <class E, std::size_t N>
std::string name_list(const EnumNames<E, N>& names) {
  return name_list(names_of(names));
}

template <class E, std::size_t N>
std::string_view name_of(const EnumNames<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  throw std::invalid_argument("no name for enum value " + std::to_string(static_cast<int>(value)));
}

// `what` names the kind of value in the error ("task", "--method"); a name close to one of the
// table's gets "; did you mean 'X'?" (did_you_mean).
template <class E, std::size_t N>
E value_of(const EnumNames<E, N>& names, const std::string& name, const std::string& what) {
  for (const auto& [v, n] : names)
    if (n == name) return v;
  throw std::invalid_argument("unknown " + what + " '" + name.substr(0, 40) + "' (use " +
                              name_list(names) + ")" + did_you_mean(names_of(names), name));
}

}  // namespace posbias
