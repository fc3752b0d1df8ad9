#include "posbias/tasks/kv_check.h"

#include <cmath>
#include <stdexcept>

namespace posbias {
namespace {

bool is_letter(const std::string& t) { return t.size() == 1 && t[0] >= 'A' && t[0] <= 'Z'; }
bool is_digit(const std::string& t) { return t.size() == 1 && t[0] >= '0' && t[0] <= '9'; }

std::string at(const std::vector<std::string>& tokens, std::size_t p) {
  return "position " + std::to_string(p) + " ('" + tokens[p].substr(0, 20) + "')";
}

}  // namespace

KvSolution solve_kv(const std::vector<std::string>& tokens) {
  // The layout is restated here, not taken from kv_task.h, so a change to the generator's
  // constants cannot silently change what the check accepts.
  // The query: "?" then a key of letters, at the very end.
  const std::size_t key_len = 3, value_len = 3, pair_len = key_len + value_len;
  if (tokens.size() < 1 + key_len) throw std::invalid_argument("too few tokens for a query");
  const std::size_t query = tokens.size() - 1 - key_len;
  if (tokens[query] != "?") {
    throw std::invalid_argument(at(tokens, query) + " should be the query mark '?'");
  }
  for (std::size_t p = query + 1; p < tokens.size(); ++p) {
    if (!is_letter(tokens[p])) throw std::invalid_argument(at(tokens, p) + " is not a key letter");
  }
  // Leading fillers, then whole pairs of letters and digits up to the query.
  std::size_t first = 0;
  while (first < query && tokens[first] == "_") ++first;
  if ((query - first) % pair_len != 0) {
    throw std::invalid_argument("the " + std::to_string(query - first) +
                                " tokens between the fillers and the query are not whole pairs");
  }
  KvSolution s;
  s.pairs = static_cast<int>((query - first) / pair_len);
  if (s.pairs < 1) throw std::invalid_argument("no pairs before the query");
  int found = -1;
  for (int i = 0; i < s.pairs; ++i) {
    const std::size_t start = first + static_cast<std::size_t>(i) * pair_len;
    bool same = true;
    for (std::size_t k = 0; k < pair_len; ++k) {
      const std::size_t p = start + k;
      const bool ok = k < key_len ? is_letter(tokens[p]) : is_digit(tokens[p]);
      if (!ok) {
        throw std::invalid_argument(at(tokens, p) + " should be a " +
                                    (k < key_len ? "key letter" : "value digit"));
      }
      if (k < key_len && tokens[p] != tokens[query + 1 + k]) same = false;
    }
    if (!same) continue;
    if (found >= 0) {
      throw std::invalid_argument("the query's key matches pairs " + std::to_string(found) +
                                  " and " + std::to_string(i));
    }
    found = i;
  }
  if (found < 0) throw std::invalid_argument("the query's key matches no pair");
  s.queried = found;
  s.position = static_cast<int>(first) + found * static_cast<int>(pair_len);
  s.depth = s.pairs > 1 ? 100.0 * found / (s.pairs - 1) : 0.0;
  for (std::size_t v = 0; v < value_len; ++v) {
    if (v) s.answer += ' ';
    s.answer += tokens[static_cast<std::size_t>(s.position) + key_len + v];
  }
  return s;
}

std::optional<std::string> check_kv_example(const KvExample& ex) {
  try {
    const KvSolution s = solve_kv(ex.tokens);
    if (s.answer != ex.answer) {
      return "answer is '" + ex.answer.substr(0, 20) + "' but the tokens give '" + s.answer + "'";
    }
    if (!(std::abs(s.depth - ex.depth) <= 1e-9)) {
      return "depth is " + std::to_string(ex.depth) + "% but the queried pair is at " +
             std::to_string(s.depth) + "%";
    }
    if (s.position != ex.position) {
      return "position is " + std::to_string(ex.position) + " but the queried pair starts at " +
             std::to_string(s.position);
    }
    if (s.pairs != ex.pairs) {
      return "pairs is " + std::to_string(ex.pairs) + " but the tokens hold " +
             std::to_string(s.pairs);
    }
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

}  // namespace posbias
