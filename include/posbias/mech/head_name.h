// What a head and a layer are called in every output and option: "L2.h0" is head 0 of layer 2,
// "L2" is layer 2, both 0-based (L0 is the first layer). JSON files carry the two numbers as
// `layer` and `head`; the name is for figures, summaries and `--heads`. Header-only and
// torch-free: `seeds` names heads without loading torch.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/core/parse.h"

namespace posbias {

// A head of a model: 0-based layer and head.
struct HeadRef {
  int layer = 0, head = 0;
};

inline std::string layer_name(int layer) { return "L" + std::to_string(layer); }

inline std::string head_name(int layer, int head) {
  return layer_name(layer) + ".h" + std::to_string(head);
}

// One head from its name: "L2.h0", or the older "2.0" (and "2", head 0 of layer 2), which
// `discrepancy --heads` took before; std::invalid_argument naming `option` otherwise. Whether
// the head exists is checked against the model.
inline HeadRef parse_head_name(std::string_view text, const std::string& option) {
  std::string_view s = text;
  const bool named = !s.empty() && s.front() == 'L';
  if (named) s.remove_prefix(1);
  const auto dot = s.find('.');
  const std::string_view layer = s.substr(0, dot);
  std::string_view head = dot == std::string_view::npos ? "0" : s.substr(dot + 1);
  if (named && dot != std::string_view::npos) {
    if (head.empty() || head.front() != 'h') {
      throw std::invalid_argument(option + ": '" + std::string(text.substr(0, 32)) +
                                  "' is not a head name (L2.h0 is head 0 of layer 2)");
    }
    head.remove_prefix(1);
  }
  return {static_cast<int>(parse_integer_in(std::string(layer), option + " layer", 0, 100000)),
          static_cast<int>(parse_integer_in(std::string(head), option + " head", 0, 100000))};
}

// `--heads`: "auto" (empty: the caller picks) or a comma list of head names.
inline std::vector<HeadRef> parse_head_list(const std::string& text) {
  std::vector<HeadRef> out;
  if (text == "auto") return out;
  for (const std::string& item : split_commas(text))
    out.push_back(parse_head_name(item, "--heads"));
  if (out.empty())
    throw std::invalid_argument("--heads: give auto or head names, e.g. L2.h0,L3.h1");
  return out;
}

}  // namespace posbias
