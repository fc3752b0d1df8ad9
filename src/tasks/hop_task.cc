#include "posbias/tasks/hop_task.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string_view>

#include "posbias/core/enum_names.h"
#include "posbias/tasks/example_lines.h"

namespace posbias {

namespace {

constexpr EnumNames<Variant, 3> kVariantNames{{{Variant::kStandard, "standard"},
                                               {Variant::kSeenJumps, "seen_jumps"},
                                               {Variant::kDecoy, "decoy"}}};

}  // namespace

std::string_view variant_name(Variant variant) { return name_of(kVariantNames, variant); }

Variant parse_variant(const std::string& name) { return value_of(kVariantNames, name, "variant"); }

int min_length(Task task, int hops, Variant variant) {
  if (task == Task::kNumber) return variant == Variant::kSeenJumps ? kTrainLength : 8 + hops;
  return variant == Variant::kDecoy ? 7 + 2 * hops : 8 + hops;
}

void validate_spec(Task task, int hops, int length, Variant variant) {
  require_hop_task(task, "a hop example");
  if (hops < 1 || hops > kMaxHops) {
    throw std::invalid_argument("hops must be in 1..4, got " + std::to_string(hops));
  }
  if (task == Task::kNumber && variant == Variant::kDecoy) {
    throw std::invalid_argument("the decoy variant belongs to the letter task");
  }
  if (task == Task::kLetter && variant == Variant::kSeenJumps) {
    throw std::invalid_argument("the seen_jumps variant belongs to the number task");
  }
  const int need = min_length(task, hops, variant);
  if (length < need) {
    throw std::invalid_argument("length " + std::to_string(length) + " is too short for " +
                                std::to_string(hops) + "-hop " + std::string(task_name(task)) +
                                " examples (" + std::string(variant_name(variant)) +
                                "); need at least " + std::to_string(need));
  }
  if (length > kMaxLength) {
    throw std::invalid_argument("length must be at most " + std::to_string(kMaxLength));
  }
}

void validate_model_length(Task task, int length) {
  if (task == Task::kNumber && length > kMaxNumberLength) {
    throw std::invalid_argument(
        "number models read inputs of at most " + std::to_string(kMaxNumberLength) +
        " tokens (the largest integer token), got " + std::to_string(length));
  }
}

int answer_candidates(const Example& example) {
  std::set<std::string_view> seen;
  for (std::size_t p = 0; p + 1 < example.tokens.size(); ++p) {  // the query is no candidate
    const std::string& t = example.tokens[p];
    const bool candidate =
        example.task == Task::kNumber
            ? !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0]))
            : t.size() >= 3 && t[1] == ':' && std::isdigit(static_cast<unsigned char>(t[2]));
    if (candidate) seen.insert(t);
  }
  return static_cast<int>(seen.size());
}

int target_positions(Task task, int length) { return task == Task::kNumber ? 8 : length - 1; }
int answer_count(Task task) {
  return task == Task::kNumber ? kNumberLetters : kPairLetters * kPairInts;
}

namespace {

// `count` distinct values from [lo, hi] in random order (a partial Fisher-Yates shuffle).
std::vector<int> distinct(Rng& rng, int lo, int hi, int count,
                          const std::vector<int>& exclude = {}) {
  std::vector<int> pool;
  for (int v = lo; v <= hi; ++v) {
    if (std::find(exclude.begin(), exclude.end(), v) == exclude.end()) pool.push_back(v);
  }
  for (int i = 0; i < count; ++i) {
    const int j = i + static_cast<int>(rng.below(static_cast<std::int64_t>(pool.size()) - i));
    std::swap(pool[i], pool[j]);
  }
  pool.resize(count);
  return pool;
}

// An example of `length` empty tokens for the generators to fill.
Example blank_example(Task task, Variant variant, int hops, int length) {
  Example ex;
  ex.task = task;
  ex.variant = variant;
  ex.hops = hops;
  ex.tokens.assign(length, "");
  return ex;
}

Example number_example(int hops, int length, Variant variant, int target, int answer, Rng& rng) {
  Example ex = blank_example(Task::kNumber, variant, hops, length);
  const bool seen = variant == Variant::kSeenJumps;
  const int block = seen ? length - kTrainLength : 0;  // first letter position
  const int query = length - 1;

  std::vector<int> letters = distinct(rng, 0, kNumberLetters - 1, 7, {answer});
  letters.insert(letters.begin() + target, answer);
  for (int i = 0; i < 8; ++i) ex.tokens[block + i] = number_letter(letters[i]);

  // The chain: query → hops-1 integer positions (descending) → the letter at block + target.
  std::vector<int> mids = distinct(rng, block + 8, query - 1, hops - 1);
  std::sort(mids.rbegin(), mids.rend());
  std::vector<int> path{query};
  path.insert(path.end(), mids.begin(), mids.end());
  path.push_back(block + target);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    ex.tokens[path[i]] = std::to_string(path[i] - path[i + 1]);
  }
  ex.chain.assign(path.begin() + 1, path.end());
  ex.answer = ex.tokens[block + target];

  // Everything else: integers pointing back at random earlier positions.
  for (int p = 0; p < length; ++p) {
    if (!ex.tokens[p].empty()) continue;
    if (p == 0) {  // seen_jumps only: nothing lies before position 0
      ex.tokens[p] = number_letter(static_cast<int>(rng.below(kNumberLetters)));
      continue;
    }
    const int reach = seen ? std::min(p, kSeenJumpLimit) : p;
    ex.tokens[p] = std::to_string(rng.between(1, reach));
  }
  return ex;
}

std::string pair(int left, int right_letter) {
  return std::string{static_cast<char>('a' + left), ':', static_cast<char>('a' + right_letter)};
}
std::string target_token(int left, int value) {
  return std::string{static_cast<char>('a' + left), ':'} + std::to_string(value);
}

Example letter_example(int hops, int length, Variant variant, int target, int answer, Rng& rng) {
  Example ex = blank_example(Task::kLetter, variant, hops, length);
  const bool decoy = variant == Variant::kDecoy;
  const int query = length - 1;
  const int answer_left = answer / kPairInts, answer_value = answer % kPairInts;

  // Letters: the chain's (ending at the answer's left letter), the decoy's, the rest free.
  std::vector<int> others = distinct(rng, 0, kPairLetters - 1, kPairLetters - 1, {answer_left});
  std::vector<int> chain_letters(others.begin(), others.begin() + (hops - 1));
  chain_letters.push_back(answer_left);
  std::vector<int> decoy_letters;
  if (decoy) decoy_letters.assign(others.begin() + (hops - 1), others.begin() + (2 * hops - 1));
  std::vector<int> free_letters(others.begin() + (hops - 1) + (decoy ? hops : 0), others.end());
  if (free_letters.empty()) {  // 4-hop decoy: fill with the decoy's non-final letters
    free_letters.assign(decoy_letters.begin(), decoy_letters.end() - 1);
  }
  auto free_letter = [&] {
    return free_letters[static_cast<std::size_t>(
        rng.below(static_cast<std::int64_t>(free_letters.size())))];
  };

  // Positions: the answer at `target`, the rest of both chains anywhere else before the query.
  const int needed = (hops - 1) + (decoy ? hops : 0);
  std::vector<int> spots = distinct(rng, 0, query - 1, needed, {target});
  // The query is never "x:x" either, so attending to its own left letter is never a match.
  int query_left = static_cast<int>(rng.below(kPairLetters - 1));
  if (query_left >= chain_letters[0]) ++query_left;
  ex.tokens[query] = pair(query_left, chain_letters[0]);
  ex.chain.resize(hops);
  for (int i = 0; i + 1 < hops; ++i) {
    ex.tokens[spots[i]] = pair(chain_letters[i], chain_letters[i + 1]);
    ex.chain[i] = spots[i];
  }
  ex.answer = target_token(answer_left, answer_value);
  ex.tokens[target] = ex.answer;
  ex.chain[hops - 1] = target;
  int targets_left = 7;
  if (decoy) {
    for (int i = 0; i + 1 < hops; ++i) {
      ex.tokens[spots[hops - 1 + i]] = pair(decoy_letters[i], decoy_letters[i + 1]);
    }
    ex.decoy = target_token(decoy_letters.back(), static_cast<int>(rng.below(kPairInts)));
    ex.tokens[spots[2 * hops - 2]] = ex.decoy;
    --targets_left;
  }

  // The other targets at random free positions; distractor pairs everywhere else.
  std::vector<int> open;
  for (int p = 0; p < query; ++p) {
    if (ex.tokens[p].empty()) open.push_back(p);
  }
  const std::vector<int> pick = distinct(rng, 0, static_cast<int>(open.size()) - 1, targets_left);
  for (int k : pick) {
    ex.tokens[open[k]] = target_token(free_letter(), static_cast<int>(rng.below(kPairInts)));
  }
  for (int p : open) {
    if (!ex.tokens[p].empty()) continue;
    const int left = free_letter();
    int right = static_cast<int>(rng.below(kPairLetters - 1));
    if (right >= left) ++right;  // never "x:x"
    ex.tokens[p] = pair(left, right);
  }
  return ex;
}

// Endless balanced draws from 0..n-1: shuffled passes over the whole range.
class Cycle {
 public:
  Cycle(int n, Rng& rng) : order_(n), rng_(&rng) { std::iota(order_.begin(), order_.end(), 0); }
  int next() {
    if (pos_ == order_.size()) pos_ = 0;
    if (pos_ == 0) rng_->shuffle(order_);
    return order_[pos_++];
  }

 private:
  std::vector<int> order_;
  std::size_t pos_ = 0;
  Rng* rng_;
};

void validate_hops(const std::vector<int>& hops) {
  if (hops.empty()) throw std::invalid_argument("at least one hop count is needed");
}

}  // namespace

Example generate_example(Task task, int hops, int length, Variant variant, int target, int answer,
                         Rng& rng) {
  validate_spec(task, hops, length, variant);
  if (target < 0 || target >= target_positions(task, length) || answer < 0 ||
      answer >= answer_count(task)) {
    throw std::invalid_argument("target position or answer index out of range");
  }
  return task == Task::kNumber ? number_example(hops, length, variant, target, answer, rng)
                               : letter_example(hops, length, variant, target, answer, rng);
}

void for_each_example(const DatasetSpec& spec, const std::function<void(const Example&)>& visit) {
  validate_hops(spec.hops);
  for (int h : spec.hops) validate_spec(spec.task, h, spec.length, spec.variant);
  if (spec.count < 0) {
    throw std::invalid_argument("count must be >= 0, got " + std::to_string(spec.count));
  }
  Rng order_rng(spec.seed);
  const int positions = target_positions(spec.task, spec.length);
  std::vector<Cycle> targets, answers;
  for (std::size_t h = 0; h < spec.hops.size(); ++h) {
    targets.emplace_back(positions, order_rng);
    answers.emplace_back(answer_count(spec.task), order_rng);
  }
  for (std::int64_t i = 0; i < spec.count; ++i) {
    const std::size_t h = static_cast<std::size_t>(i) % spec.hops.size();
    Rng rng = Rng::stream(spec.seed, static_cast<std::uint64_t>(i), 1);
    const int target = targets[h].next(), answer = answers[h].next();
    visit(
        generate_example(spec.task, spec.hops[h], spec.length, spec.variant, target, answer, rng));
  }
}

DatasetSpec per_hop_spec(Task task, const std::vector<int>& hops, int length,
                         std::int64_t count_per_hop, std::uint64_t seed, Variant variant) {
  return {task, hops,   length, count_per_hop * static_cast<std::int64_t>(hops.size()),
          seed, variant};
}

std::vector<Example> make_dataset(const DatasetSpec& spec) {
  std::vector<Example> out;
  for_each_example(spec, [&out](const Example& ex) { out.push_back(ex); });
  return out;
}

std::vector<Example> sample_batch(Task task, const std::vector<int>& hops, int length,
                                  std::int64_t count, std::uint64_t seed, std::uint64_t step,
                                  std::int64_t first) {
  validate_hops(hops);
  if (first < 0 || count < 0) throw std::invalid_argument("sample_batch: negative slice");
  Rng rng = Rng::stream(seed, step, 2);
  std::vector<Example> out;
  out.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < first + count; ++i) {  // the examples before `first` are skipped
    const int h = hops[static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(hops.size())))];
    const int target = static_cast<int>(rng.below(target_positions(task, length)));
    const int answer = static_cast<int>(rng.below(answer_count(task)));
    Example ex = generate_example(task, h, length, Variant::kStandard, target, answer, rng);
    if (i >= first) out.push_back(std::move(ex));
  }
  return out;
}

nlohmann::json example_to_json(const Example& ex) {
  return fields_to_json(example_line_fields(), ExampleLine{ex, ex.length()});
}

Example example_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("an example must be a JSON object");
  const ExampleLine line = fields_from_json(example_line_fields(), j, ExampleLine{}, "field");
  require_hop_task(line.example.task, "a hop example");
  if (line.length != line.example.length())
    throw std::invalid_argument("'length' differs from the number of tokens");
  return line.example;
}

}  // namespace posbias
