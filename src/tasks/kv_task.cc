#include "posbias/tasks/kv_task.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <stdexcept>
#include <unordered_map>

#include "posbias/core/enum_names.h"
#include "posbias/tasks/example_lines.h"

namespace posbias {

const std::vector<std::string>& kv_vocabulary() {
  static const std::vector<std::string> tokens = [] {
    std::vector<std::string> t{"<pad>", std::string(kKvFiller), std::string(kKvQuery)};
    for (int i = 0; i < kKvKeyLetters; ++i) t.emplace_back(1, static_cast<char>('A' + i));
    for (int d = 0; d < 10; ++d) t.emplace_back(1, static_cast<char>('0' + d));
    return t;
  }();
  return tokens;
}

std::int64_t kv_token_id(std::string_view token) {
  static const std::unordered_map<std::string, std::int64_t> ids = [] {
    std::unordered_map<std::string, std::int64_t> m;
    const auto& v = kv_vocabulary();
    for (std::size_t i = 0; i < v.size(); ++i) m.emplace(v[i], static_cast<std::int64_t>(i));
    return m;
  }();
  const auto it = ids.find(std::string(token));
  if (it == ids.end()) {
    throw std::invalid_argument("token '" + std::string(token.substr(0, 20)) +
                                "' is not in the kv vocabulary");
  }
  return it->second;
}

namespace {

constexpr EnumNames<DepthPrior, 2> kDepthPriorNames{
    {{DepthPrior::kUniform, "uniform"}, {DepthPrior::kEnds, "ends"}}};

}  // namespace

std::string_view depth_prior_name(DepthPrior prior) { return name_of(kDepthPriorNames, prior); }

DepthPrior parse_depth_prior(const std::string& name) {
  return value_of(kDepthPriorNames, name, "depth prior");
}

int kv_pairs(int length) {
  if (length < kKvMinLength) {
    throw std::invalid_argument("length " + std::to_string(length) + " fits fewer than " +
                                std::to_string(kKvMinPairs) +
                                " kv pairs (6 tokens each, plus a 4-token query); use -L " +
                                std::to_string(kKvMinLength) + " or more");
  }
  if (length > kKvMaxLength) {
    throw std::invalid_argument("length " + std::to_string(length) + " needs more than " +
                                std::to_string(kKvDistinctKeys) +
                                " kv pairs, more than there are distinct keys; use -L " +
                                std::to_string(kKvMaxLength) + " or less");
  }
  return (length - kKvQueryTokens) / kKvPairTokens;
}

double kv_depth(int index, int pairs) { return pairs > 1 ? 100.0 * index / (pairs - 1) : 0.0; }

namespace {

// Key k (0..kKvDistinctKeys−1) as its letters, most significant first.
void write_key(std::vector<std::string>& tokens, int at, int key) {
  for (int t = kKvKeyTokens - 1; t >= 0; --t, key /= kKvKeyLetters) {
    tokens[at + t] = std::string(1, static_cast<char>('A' + key % kKvKeyLetters));
  }
}

// `count` distinct keys: rejection against a table of the ones taken.
std::vector<int> distinct_keys(Rng& rng, int count) {
  std::vector<bool> taken(kKvDistinctKeys, false);
  std::vector<int> keys;
  keys.reserve(count);
  while (static_cast<int>(keys.size()) < count) {
    const int k = static_cast<int>(rng.below(kKvDistinctKeys));
    if (taken[k]) continue;
    taken[k] = true;
    keys.push_back(k);
  }
  return keys;
}

// The pair count of an example: `pairs`, or all that fit when it is 0.
int pair_count(int length, int pairs) {
  const int most = kv_pairs(length);
  if (pairs != 0 && (pairs < kKvMinPairs || pairs > most)) {
    throw std::invalid_argument(std::to_string(pairs) + " kv pairs do not fit length " +
                                std::to_string(length) + " (it holds " +
                                std::to_string(kKvMinPairs) + ".." + std::to_string(most) + ")");
  }
  return pairs == 0 ? most : pairs;
}

}  // namespace

KvExample generate_kv_example(int length, int queried, DepthPrior prior, Rng& rng, int pairs) {
  const int n = pair_count(length, pairs);
  if (queried < 0 || queried >= n) {
    throw std::invalid_argument("queried pair " + std::to_string(queried) + " outside 0.." +
                                std::to_string(n - 1));
  }
  KvExample ex;
  ex.prior = prior;
  ex.pairs = n;
  ex.queried = queried;
  ex.tokens.assign(length, std::string(kKvFiller));
  const int first = length - kKvQueryTokens - n * kKvPairTokens;  // the fillers before pair 0
  const std::vector<int> keys = distinct_keys(rng, n);
  for (int i = 0; i < n; ++i) {
    const int at = first + i * kKvPairTokens;
    write_key(ex.tokens, at, keys[i]);
    for (int v = 0; v < kKvValueTokens; ++v) {
      ex.tokens[at + kKvKeyTokens + v] = std::string(1, static_cast<char>('0' + rng.below(10)));
    }
  }
  const int query = length - kKvQueryTokens;
  ex.tokens[query] = std::string(kKvQuery);
  write_key(ex.tokens, query + 1, keys[queried]);
  ex.position = first + queried * kKvPairTokens;
  ex.depth = kv_depth(queried, n);
  for (int v = 0; v < kKvValueTokens; ++v) {
    if (v) ex.answer += ' ';
    ex.answer += ex.tokens[ex.position + kKvKeyTokens + v];
  }
  return ex;
}

int draw_kv_queried(int n, DepthPrior prior, Rng& rng) {
  if (prior == DepthPrior::kUniform) return static_cast<int>(rng.below(n));
  // Beta(0.5, 0.5) by inversion: sin²(πU/2)
  const double s = std::sin(std::numbers::pi / 2 * rng.unit());
  return std::min(n - 1, static_cast<int>(std::floor(s * s * n)));
}

KvExample draw_kv_example(int length, DepthPrior prior, Rng& rng, int pairs) {
  const int n = pair_count(length, pairs);
  return generate_kv_example(length, draw_kv_queried(n, prior, rng), prior, rng, pairs);
}

int kv_queried_at_depth(double depth, int pairs) {
  if (!(depth >= 0 && depth <= 100)) {
    throw std::invalid_argument("depth " + std::to_string(depth) + " is outside 0..100 percent");
  }
  return static_cast<int>(std::lround(depth * static_cast<double>(pairs - 1) / 100.0));
}

KvExample kv_depth_example(int length, double depth, std::int64_t example, std::uint64_t seed) {
  const int pairs = kv_pairs(length);
  const int queried = kv_queried_at_depth(depth, pairs);
  const auto millipercent = static_cast<std::uint64_t>(std::llround(depth * 1000));
  const std::uint64_t cell =
      Rng::stream(seed, static_cast<std::uint64_t>(length), millipercent).next();
  Rng rng = Rng::stream(cell, static_cast<std::uint64_t>(example));
  return generate_kv_example(length, queried, DepthPrior::kUniform, rng);
}

void for_each_kv_example(const KvSpec& spec, const std::function<void(const KvExample&)>& visit) {
  kv_pairs(spec.length);
  if (spec.count < 0) {
    throw std::invalid_argument("count must be >= 0, got " + std::to_string(spec.count));
  }
  for (std::int64_t i = 0; i < spec.count; ++i) {
    Rng rng = Rng::stream(spec.seed, static_cast<std::uint64_t>(i), 3);
    visit(draw_kv_example(spec.length, spec.prior, rng));
  }
}

std::vector<KvExample> make_kv_dataset(const KvSpec& spec) {
  std::vector<KvExample> out;
  for_each_kv_example(spec, [&out](const KvExample& ex) { out.push_back(ex); });
  return out;
}

nlohmann::json kv_example_to_json(const KvExample& ex) {
  return fields_to_json(kv_example_line_fields(), KvExampleLine{ex, Task::kKv, ex.length()});
}

KvExample kv_example_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("a kv example must be a JSON object");
  KvExampleLine line = fields_from_json(kv_example_line_fields(), j, KvExampleLine{}, "field");
  if (line.task != Task::kKv) throw std::invalid_argument("'task' must be \"kv\"");
  if (line.length != line.example.length())
    throw std::invalid_argument("'length' differs from the number of tokens");
  line.example.queried = -1;  // not stored: the solver finds it from the tokens
  return line.example;
}

}  // namespace posbias
