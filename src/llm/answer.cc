#include "posbias/llm/answer.h"

#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/core/enum_names.h"
#include "posbias/tasks/vocab.h"

namespace posbias {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  static constexpr std::string_view kBreaks = ",;!?\"'`*()[]{}<>";
  std::vector<std::string_view> out;
  std::size_t start = 0;
  auto flush = [&](std::size_t end) {
    std::string_view w = s.substr(start, end - start);
    while (!w.empty() && w.back() == '.') w.remove_suffix(1);
    if (!w.empty()) out.push_back(w);
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_space(s[i]) || kBreaks.find(s[i]) != std::string_view::npos) {
      flush(i);
      start = i + 1;
    }
  }
  flush(s.size());
  return out;
}

bool is_number_letter(std::string_view w) {
  return Vocabulary::of(Task::kNumber).contains(w) &&
         std::islower(static_cast<unsigned char>(w[0]));
}

bool is_letter_target(std::string_view w) {
  return w.size() == 3 && w[0] >= 'a' && w[0] < 'a' + kPairLetters && w[1] == ':' &&
         std::isdigit(static_cast<unsigned char>(w[2]));
}

bool is_uuid(std::string_view w) {
  if (w.size() != 36) return false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? w[i] != '-' : !std::isxdigit(static_cast<unsigned char>(w[i]))) return false;
  }
  return true;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// The kv suite's lenient reading: the response's last kKvValueTokens digits, in order, are the
// value's ("Value: 407" and "4 0 7" both give 407).
bool kv_digits_match(std::string_view response, std::string_view answer) {
  std::string said, want;
  for (char c : response) {
    if (std::isdigit(static_cast<unsigned char>(c))) said += c;
  }
  for (char c : answer) {
    if (std::isdigit(static_cast<unsigned char>(c))) want += c;
  }
  return said.size() >= want.size() &&
         said.compare(said.size() - want.size(), want.size(), want) == 0;
}

// The passkey suite's lenient reading: the response's first run of digits is the number
// (" 48213." and "It is 48213" both give 48213).
bool first_number_matches(std::string_view response, std::string_view answer) {
  const std::size_t begin = response.find_first_of("0123456789");
  if (begin == std::string_view::npos) return false;
  const std::size_t end = response.find_first_not_of("0123456789", begin);
  return response.substr(begin, end == std::string_view::npos ? end : end - begin) == answer;
}

}  // namespace

Score score_answer(const std::string& suite, const std::string& response,
                   const std::string& answer) {
  Score s;
  s.strict = trim(response) == answer;
  if (suite == "kv") {
    s.lenient = kv_digits_match(response, answer);
    return s;
  }
  if (suite == "passkey") {
    s.lenient = first_number_matches(response, answer);
    return s;
  }
  const std::vector<std::string_view> ws = words(response);
  for (auto it = ws.rbegin(); it != ws.rend(); ++it) {
    if (suite == "needle" && is_uuid(*it)) {
      s.lenient = equal_ignoring_case(*it, answer);
      break;
    }
    if ((suite == "number" && is_number_letter(*it)) ||
        (suite == "letter" && is_letter_target(*it))) {
      s.lenient = *it == answer;
      break;
    }
  }
  return s;
}

namespace {

constexpr EnumNames<ScoreRule, 2> kScoreRuleNames{
    {{ScoreRule::kStrict, "strict"}, {ScoreRule::kLenient, "lenient"}}};

}  // namespace

std::string to_string(ScoreRule rule) { return std::string(name_of(kScoreRuleNames, rule)); }

std::string score_rule_names() { return name_list(kScoreRuleNames); }

ScoreRule parse_score_rule(const std::string& name) {
  return value_of(kScoreRuleNames, name, "--score");
}

}  // namespace posbias
