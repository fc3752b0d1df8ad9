// Strict parsing of command-line values. Every function throws std::invalid_argument with
// a message that names the option and the bad text, so `main` can exit 2 with one line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posbias {

// "1024", "1e5", "100000" → integer; rejects fractions, NaN, and values beyond ±2^53.
std::int64_t parse_integer(const std::string& text, const std::string& what);
// "0.5" or "0.1,0.2,0.3"
std::vector<double> parse_number_list(const std::string& text, const std::string& what);
// Exactly one finite number: "what must be one finite number, got 'X'" otherwise.
double parse_number(const std::string& text, const std::string& what);
// One integer in [lo, hi]: "what must be in lo..hi, got X" otherwise.
std::int64_t parse_integer_in(const std::string& text, const std::string& what, std::int64_t lo,
                              std::int64_t hi);
// A --seed value: an integer >= 0 ("--seed must be >= 0" otherwise).
std::uint64_t parse_seed(const std::string& text);
std::vector<std::string> split_commas(const std::string& text);
// "17,32,64" → integers, each in [lo, hi]; "what must be in lo..hi, got X" otherwise.
std::vector<std::int64_t> parse_integer_list(const std::string& text, const std::string& what,
                                             std::int64_t lo, std::int64_t hi);
// "17,32,64" ← integers: the inverse of parse_integer_list, for defaults shown in --help.
std::string join_integers(const std::vector<std::int64_t>& values);
std::string join_integers(const std::vector<int>& values);
// The same as ints (lengths, hops, depths).
std::vector<int> parse_int_list(const std::string& text, const std::string& what, int lo, int hi);

}  // namespace posbias
