#include "posbias/core/parse.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace posbias {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& what) {
  std::vector<double> out;
  for (const std::string& part : split_commas(text)) {
    double v = 0;
    const char* b = part.data();
    const char* e = part.data() + part.size();
    while (b < e && *b == ' ') ++b;
    while (e > b && e[-1] == ' ') --e;
    const auto [ptr, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || ptr != e || b == e) {
      throw std::invalid_argument(what + " must be a number or a comma-separated list, got '" +
                                  text.substr(0, 60) + "'");
    }
    out.push_back(v);
    if (out.size() > 1000000) throw std::invalid_argument(what + " has too many values");
  }
  return out;
}

double parse_number(const std::string& text, const std::string& what) {
  const std::vector<double> v = parse_number_list(text, what);
  if (v.size() != 1 || !std::isfinite(v[0]))
    throw std::invalid_argument(what + " must be one finite number, got '" + text.substr(0, 60) +
                                "'");
  return v[0];
}

std::int64_t parse_integer(const std::string& text, const std::string& what) {
  const std::vector<double> v = parse_number_list(text, what);
  constexpr double kLimit = 9007199254740992.0;  // 2^53
  if (v.size() != 1 || !std::isfinite(v[0]) || v[0] != std::floor(v[0])) {
    throw std::invalid_argument(what + " must be an integer, got '" + text.substr(0, 60) + "'");
  }
  if (std::fabs(v[0]) > kLimit) {
    throw std::invalid_argument(what + " must be at most 2^53 in magnitude, got '" +
                                text.substr(0, 60) + "'");
  }
  return static_cast<std::int64_t>(v[0]);
}

std::int64_t parse_integer_in(const std::string& text, const std::string& what, std::int64_t lo,
                              std::int64_t hi) {
  // An integer outside the range is told the range, however large it is (even past 2^53).
  const std::vector<double> n = parse_number_list(text, what);
  if (n.size() == 1 && n[0] == std::floor(n[0]) &&
      (n[0] < static_cast<double>(lo) || n[0] > static_cast<double>(hi))) {
    throw std::invalid_argument(what + " must be in " + std::to_string(lo) + ".." +
                                std::to_string(hi) + ", got " + text.substr(0, 40));
  }
  return parse_integer(text, what);
}

std::uint64_t parse_seed(const std::string& text) {
  const std::int64_t s = parse_integer(text, "--seed");
  if (s < 0) throw std::invalid_argument("--seed must be >= 0");
  return static_cast<std::uint64_t>(s);
}

std::vector<std::int64_t> parse_integer_list(const std::string& text, const std::string& what,
                                             std::int64_t lo, std::int64_t hi) {
  std::vector<std::int64_t> out;
  for (const std::string& part : split_commas(text))
    out.push_back(parse_integer_in(part, what, lo, hi));
  return out;
}

std::string join_integers(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::int64_t v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

std::string join_integers(const std::vector<int>& values) {
  return join_integers(std::vector<std::int64_t>(values.begin(), values.end()));
}

std::vector<int> parse_int_list(const std::string& text, const std::string& what, int lo, int hi) {
  std::vector<int> out;
  for (std::int64_t v : parse_integer_list(text, what, lo, hi)) out.push_back(static_cast<int>(v));
  return out;
}

}  // namespace posbias
