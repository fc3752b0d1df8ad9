// Key–value retrieval (docs/retrieval.md): Liu et al. 2023's synthetic KV task, sized for small
// models. An example is n pairs, each a key of kKvKeyTokens upper-case letters followed by its
// value of kKvValueTokens digits, then the query "?" and one of the keys; the answer is that
// key's value. Keys are distinct within an example; values are drawn independently (two pairs
// may share a value). Every pair but the queried one is a distractor. Positions are 0-based token
// indices; lengths are in tokens, query included:
//
//   [_ × f] [K K K 9 9 9] × n  ? K K K        L = f + 6n + 4,  n = (L − 4) / 6,  f = (L − 4) % 6
//
// The f < 6 leftover tokens are fillers "_" at the start, so the query follows the last pair.
// An example may hold fewer pairs than fit (training draws n from a range): the fillers at the
// start then make up the rest, f = L − 6n − 4, and the pairs still end at the query.
// Depth of the queried pair i (0-based): 100 · i / (n − 1) percent, which is where its first
// token sits in the span f .. f + 6(n − 1) that pairs start in (0 = first pair, 100 = last).
// The depth prior draws i: uniform over 0..n−1, or `ends`, i = ⌊u·n⌋ with u ~ Beta(0.5, 0.5)
// (u = sin²(πU/2), U uniform), a U-shaped prior with more mass at both ends.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "posbias/core/rng.h"

namespace posbias {

constexpr int kKvKeyTokens = 3;    // letters A..Z
constexpr int kKvValueTokens = 3;  // digits 0..9
constexpr int kKvPairTokens = kKvKeyTokens + kKvValueTokens;
constexpr int kKvQueryTokens = 1 + kKvKeyTokens;  // "?" and the key
constexpr int kKvKeyLetters = 26;
constexpr int kKvDistinctKeys = 26 * 26 * 26;  // so at most this many pairs
constexpr int kKvMinPairs = 2;                 // every example has a distractor
constexpr int kKvMinLength = kKvMinPairs * kKvPairTokens + kKvQueryTokens;
constexpr int kKvMaxLength = kKvDistinctKeys * kKvPairTokens + kKvQueryTokens + kKvPairTokens - 1;
constexpr std::string_view kKvFiller = "_";
constexpr std::string_view kKvQuery = "?";

// The kv vocabulary, id order: "<pad>", "_", "?", "A".."Z", "0".."9" (39 tokens).
const std::vector<std::string>& kv_vocabulary();
// Throws std::invalid_argument naming a token outside the kv vocabulary.
std::int64_t kv_token_id(std::string_view token);

enum class DepthPrior { kUniform, kEnds };
std::string_view depth_prior_name(DepthPrior prior);
DepthPrior parse_depth_prior(const std::string& name);  // uniform | ends

// The number of pairs at `length` tokens. Throws std::invalid_argument when fewer than
// kKvMinPairs pairs fit, or more pairs than there are distinct keys would be needed.
int kv_pairs(int length);

struct KvExample {
  DepthPrior prior = DepthPrior::kUniform;
  std::vector<std::string> tokens;  // length L; the last kKvQueryTokens are the query
  int pairs = 0;                    // n
  int queried = 0;                  // index of the queried pair, 0..n−1
  int position = 0;                 // token index of the queried pair's first key token
  double depth = 0;                 // percent, 100 · queried / (n − 1)
  std::string answer;               // the queried value's tokens joined by spaces: "4 0 7"
  int length() const { return static_cast<int>(tokens.size()); }
};

// Depth in percent of pair `index` among `pairs` (0 for a single pair).
double kv_depth(int index, int pairs);

// One example of `pairs` pairs (0: as many as fit, kv_pairs(length)) with the queried pair at
// `queried`; keys and values drawn from `rng`. Throws std::invalid_argument when `pairs` is
// outside kKvMinPairs..kv_pairs(length) or `queried` outside 0..pairs−1.
KvExample generate_kv_example(int length, int queried, DepthPrior prior, Rng& rng, int pairs = 0);
// The pair at `depth` percent among `pairs`: round(depth · (pairs − 1) / 100), halves away
// from zero; the product first, so whole and half percents round exactly (0.7 · 165 would give
// 115.49999999999999, not 115.5). Throws std::invalid_argument for a depth outside 0..100.
int kv_queried_at_depth(double depth, int pairs);
// Example `example` of the depth cell (length, depth) for `seed`: the most pairs that fit, the
// queried pair at the depth, from the stream keyed by (seed, length, depth in thousandths of a
// percent, example), so a cell is the same whatever else is measured. What eval by depth, the
// influence on the same inputs and `llm --suite kv` all draw.
KvExample kv_depth_example(int length, double depth, std::int64_t example, std::uint64_t seed);
// The queried index drawn by the prior, then the example (both from `rng`).
KvExample draw_kv_example(int length, DepthPrior prior, Rng& rng, int pairs = 0);
// The queried index the prior draws among `pairs` (one draw from `rng`, rarely two).
int draw_kv_queried(int pairs, DepthPrior prior, Rng& rng);

struct KvSpec {
  int length = 256;
  std::int64_t count = 1000;
  std::uint64_t seed = 0;
  DepthPrior prior = DepthPrior::kUniform;
};

// `count` examples, example i drawn from the stream keyed by (seed, i): deterministic for the
// seed, and example i is the same whatever the count.
void for_each_kv_example(const KvSpec& spec, const std::function<void(const KvExample&)>& visit);
std::vector<KvExample> make_kv_dataset(const KvSpec& spec);

// JSONL form: the fields of kv_example_line_fields() (example_lines.h).
nlohmann::json kv_example_to_json(const KvExample& example);
// Strict: throws std::invalid_argument naming the missing, unknown or mistyped field, another
// task, or a length that is not the tokens' count.
KvExample kv_example_from_json(const nlohmann::json& j);

}  // namespace posbias
