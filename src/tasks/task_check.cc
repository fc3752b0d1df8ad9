#include "posbias/tasks/task_check.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"
#include "posbias/tasks/kv_check.h"
#include "posbias/tasks/passkey_check.h"

namespace posbias {
namespace {

// A Number token: a positive integer (returned) or one of the 120 letters (returns 0).
int number_token(const std::string& t, int position) {
  if (!t.empty() && t[0] >= '0' && t[0] <= '9') {
    int v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size() || v < 1 || v >= 1'000'000 || t[0] == '0') {
      throw std::invalid_argument("position " + std::to_string(position) + ": bad integer '" +
                                  t.substr(0, 20) + "'");
    }
    return v;
  }
  const bool letters = !t.empty() && t.size() <= 2 &&
                       std::all_of(t.begin(), t.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  if (!letters || !Vocabulary::of(Task::kNumber).contains(t)) {
    throw std::invalid_argument("position " + std::to_string(position) + ": '" + t.substr(0, 20) +
                                "' is neither an integer nor a letter");
  }
  return 0;
}

Solution solve_number(int hops, const std::vector<std::string>& tokens) {
  for (std::size_t i = 0; i < tokens.size(); ++i) number_token(tokens[i], static_cast<int>(i));
  Solution s;
  int p = static_cast<int>(tokens.size()) - 1;
  for (int hop = 0; hop < hops; ++hop) {
    const int jump = number_token(tokens[p], p);
    if (jump == 0) {
      throw std::invalid_argument("look-up " + std::to_string(hop + 1) +
                                  " starts at a letter (position " + std::to_string(p) + ")");
    }
    if (jump > p) {
      throw std::invalid_argument("position " + std::to_string(p) + " jumps before the start");
    }
    p -= jump;
    s.chain.push_back(p);
  }
  if (number_token(tokens[p], p) != 0) {
    throw std::invalid_argument("the chain ends on an integer at position " + std::to_string(p) +
                                ", not a letter");
  }
  s.answer = tokens[p];
  return s;
}

// A Letter token "l:r": left letter a..h, right a..h or 0..9. Returns {left, right}.
std::pair<char, char> pair_token(const std::string& t, int position) {
  const bool ok = t.size() == 3 && t[1] == ':' && t[0] >= 'a' && t[0] <= 'h' &&
                  ((t[2] >= 'a' && t[2] <= 'h') || (t[2] >= '0' && t[2] <= '9'));
  if (!ok) {
    throw std::invalid_argument("position " + std::to_string(position) + ": '" + t.substr(0, 20) +
                                "' is not a pair l:r");
  }
  return {t[0], t[2]};
}

Solution solve_letter(int hops, const std::vector<std::string>& tokens) {
  const int query = static_cast<int>(tokens.size()) - 1;
  std::vector<std::pair<char, char>> pairs;
  for (int p = 0; p <= query; ++p) pairs.push_back(pair_token(tokens[p], p));
  Solution s;
  char want = pairs[query].second;
  for (int hop = 0; hop < hops; ++hop) {
    if (want >= '0' && want <= '9') {
      throw std::invalid_argument("look-up " + std::to_string(hop + 1) + " follows a target");
    }
    int found = -1;
    for (int p = 0; p < query; ++p) {
      if (pairs[p].first != want) continue;
      if (found >= 0) {
        throw std::invalid_argument("look-up " + std::to_string(hop + 1) + " for '" + want +
                                    "' matches positions " + std::to_string(found) + " and " +
                                    std::to_string(p));
      }
      found = p;
    }
    if (found < 0) {
      throw std::invalid_argument("look-up " + std::to_string(hop + 1) + " for '" + want +
                                  "' matches nothing");
    }
    s.chain.push_back(found);
    want = pairs[found].second;
  }
  if (!(want >= '0' && want <= '9')) {
    throw std::invalid_argument("the chain ends on a pair, not a target l:int");
  }
  s.answer = tokens[s.chain.back()];
  return s;
}

}  // namespace

Solution solve(Task task, int hops, const std::vector<std::string>& tokens) {
  if (hops < 1 || hops > kMaxHops) {
    throw std::invalid_argument("hops must be in 1..4, got " + std::to_string(hops));
  }
  if (tokens.size() < 2) throw std::invalid_argument("an example needs at least 2 tokens");
  return task == Task::kNumber ? solve_number(hops, tokens) : solve_letter(hops, tokens);
}

std::optional<std::string> check_example(const Example& ex) {
  try {
    const Solution s = solve(ex.task, ex.hops, ex.tokens);
    if (s.answer != ex.answer) {
      return "answer is '" + ex.answer.substr(0, 20) + "' but the tokens give '" + s.answer + "'";
    }
    if (s.chain != ex.chain) return std::string("chain differs from the look-ups the tokens give");
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

CheckReport check_file(const std::filesystem::path& path) {
  // A device or a pipe (/dev/urandom, /dev/zero) never ends: only regular files are checked.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error(
        "cannot check '" + path.string() +
        "': " + (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path.string() + "'");
  CheckReport report;
  std::string line;
  std::int64_t number = 0;
  constexpr std::size_t kMaxLine = 64u << 20;
  while (read_bounded_line(in, line, kMaxLine, path.string(), number + 1)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++report.examples;
    std::optional<std::string> problem;
    try {
      const nlohmann::json j = parse_json(line, path.string());
      const auto task = j.is_object() ? j.find("task") : j.end();
      const std::string name =
          task != j.end() && task->is_string() ? task->get<std::string>() : std::string();
      problem = name == "kv"        ? check_kv_example(kv_example_from_json(j))
                : name == "passkey" ? check_passkey_example(j)
                                    : check_example(example_from_json(j));
    } catch (const nlohmann::json::exception&) {
      problem = "not valid JSON";
    } catch (const JsonTooDeep&) {
      problem = "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    } catch (const std::invalid_argument& e) {
      problem = e.what();
    }
    if (problem) report.problems.push_back("line " + std::to_string(number) + ": " + *problem);
  }
  if (in.bad()) throw std::runtime_error("cannot read '" + path.string() + "'");
  if (report.examples == 0) {
    throw std::runtime_error("'" + path.string() +
                             "' holds no examples; write some with `posbias tasks -o FILE`");
  }
  return report;
}

}  // namespace posbias
