#include "posbias/tasks/passkey_check.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "posbias/tasks/example_lines.h"

namespace posbias {
namespace {

constexpr std::string_view kQuestion = "What is the pass key of ";
constexpr std::string_view kNeedle = "The pass key of ";

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// The lines of `text` (split at '\n').
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

PasskeySolution solve_passkey(const std::string& text) {
  const std::size_t q = text.rfind(kQuestion);
  if (q == std::string::npos) throw std::invalid_argument("no question 'What is the pass key of'");
  const std::size_t name_end = text.find('?', q + kQuestion.size());
  if (name_end == std::string::npos) throw std::invalid_argument("the question has no '?'");
  PasskeySolution s;
  s.name = text.substr(q + kQuestion.size(), name_end - q - kQuestion.size());
  const std::string tail = "? The pass key of " + s.name + " is";
  if (text.compare(name_end, std::string::npos, tail) != 0)
    throw std::invalid_argument("the text does not end with '" + tail + "'");
  int found = 0;
  for (std::string_view line : lines_of(std::string_view(text).substr(0, q))) {
    // A needle line: "The pass key of <Name> is <digits>."
    if (line.substr(0, kNeedle.size()) != kNeedle || line.empty() || line.back() != '.') continue;
    const std::string_view rest = line.substr(kNeedle.size(), line.size() - kNeedle.size() - 1);
    const std::size_t is = rest.rfind(" is ");
    if (is == std::string_view::npos || !is_digits(rest.substr(is + 4))) continue;
    ++s.needles;
    if (rest.substr(0, is) != s.name) continue;
    ++found;
    s.answer = std::string(rest.substr(is + 4));
  }
  if (found == 0) throw std::invalid_argument("no needle names " + s.name);
  if (found > 1) throw std::invalid_argument(std::to_string(found) + " needles name " + s.name);
  return s;
}

std::optional<std::string> check_passkey_example(const nlohmann::json& j) {
  const PasskeyExampleLine line = passkey_example_line_from_json(j);
  PasskeySolution s;
  try {
    s = solve_passkey(line.text);
  } catch (const std::invalid_argument& e) {
    return std::string("unsolvable: ") + e.what();
  }
  if (s.name != line.queried_name)
    return "the question names " + s.name + ", the file says " + line.queried_name;
  if (s.answer != line.answer)
    return "the answer is " + s.answer + ", the file says " + line.answer;
  if (s.needles != line.needles)
    return "the text holds " + std::to_string(s.needles) + " needles, the file says " +
           std::to_string(line.needles);
  return std::nullopt;
}

}  // namespace posbias
