// The Number and Letter hop tasks (docs/hops.md): one example generator per task, balanced
// datasets, and the JSONL file form. Positions are 0-based token indices; the query is the
// last token and `chain` lists the positions the look-ups visit, ending at the answer's.
//
// Number (positional): letters at positions 0..7, integers after; integer n means "go back n".
//   The query's integer starts the chain; after `hops` jumps it lands on a letter (the answer).
//   Integers off the chain point back at uniformly random earlier positions.
//   Variant seen_jumps (length generalization without unseen integer tokens): the 8 letters
//   sit at positions N-17..N-10 so every chain jump is ≤ 16, and off-chain integers point
//   back at most 16 positions (position 0 then holds a letter so every integer lands inside).
// Letter (symbolic): tokens "l:r". The query's right letter names the unique earlier token
//   with that left letter; after `hops` look-ups the chain reaches a target "l:int" (the
//   answer). There are 8 targets; distractors "l:r" and the other targets avoid the chain's
//   left letters, so every look-up has exactly one match.
//   Variant decoy: a second chain of the same length over disjoint letters, with its own
//   target, that the query does not reach (the `decoy` field is its target).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/rng.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

constexpr int kMaxHops = 4;
// The colour bar's label where hop counts (1-hop, 2-hop, ...) are drawn as an ordered series.
inline constexpr const char* kHopsOrderLabel = "hops";
constexpr int kMaxLength = 1'000'000;             // tokens in one example, query included
constexpr int kTrainLength = 17;                  // 8 letters, 8 integers, the query
constexpr int kSeenJumpLimit = kTrainLength - 1;  // largest jump seen at the training length

enum class Variant { kStandard, kSeenJumps, kDecoy };
std::string_view variant_name(Variant variant);
Variant parse_variant(const std::string& name);  // standard | seen_jumps | decoy

struct Example {
  Task task = Task::kNumber;
  Variant variant = Variant::kStandard;
  int hops = 1;
  std::vector<std::string> tokens;  // length N; tokens.back() is the query
  std::string answer;
  std::vector<int> chain;  // hops positions; chain.back() holds the answer
  std::string decoy;       // the decoy chain's target (Letter, variant decoy only)
  int length() const { return static_cast<int>(tokens.size()); }
};

// The fewest tokens a (task, hops, variant) example needs. Number: 8 + hops (seen_jumps: 17);
// Letter: 8 + hops (decoy: 7 + 2·hops).
int min_length(Task task, int hops, Variant variant);
// Throws std::invalid_argument naming the problem (hops outside 1..4, length too short or,
// beyond 10^6; a variant the task lacks). Number inputs beyond 1024 tokens generate, but hold
// integers the Number vocabulary lacks, so only the discrepancy constructions read them.
void validate_spec(Task task, int hops, int length, Variant variant);
// Throws std::invalid_argument when a model cannot read inputs of this length: Number inputs
// beyond 1024 tokens hold integers its vocabulary lacks.
void validate_model_length(Task task, int length);

// Number of target positions and answers the generator balances over. Number: 8 positions in
// the letter block × 120 letters; Letter: the N-1 positions before the query × 80 targets.
int target_positions(Task task, int length);
int answer_count(Task task);

// How many distinct tokens of the input could be the answer: the letters it holds (Number: the
// block's 8, and the letter at position 0 of a longer seen_jumps input) or its targets
// "l:digit" (Letter: 8). A model guessing among them uniformly scores 1/answer_candidates: the
// example's chance level.
int answer_candidates(const Example& example);

// One example with the target at `target` (0..target_positions-1) and answer index `answer`
// (0..answer_count-1); every other choice is drawn from `rng`.
Example generate_example(Task task, int hops, int length, Variant variant, int target, int answer,
                         Rng& rng);

struct DatasetSpec {
  Task task = Task::kNumber;
  std::vector<int> hops{1, 2, 3, 4};
  int length = kTrainLength;
  std::int64_t count = 1000;
  std::uint64_t seed = 0;
  Variant variant = Variant::kStandard;
};

// `count` examples, deterministic for the seed. Hops cycle through spec.hops; within each hop,
// target positions and answers each cycle through their own shuffled lists, so every hop,
// target position and answer appears equally often (to within one).
std::vector<Example> make_dataset(const DatasetSpec& spec);
// `count_per_hop` examples of every hop at one length: the examples `posbias eval` scores and
// `posbias llm` sends for a seed, so a served model's answers compare with eval's one for one.
DatasetSpec per_hop_spec(Task task, const std::vector<int>& hops, int length,
                         std::int64_t count_per_hop, std::uint64_t seed,
                         Variant variant = Variant::kStandard);
// The same examples, one at a time (for outputs too large to hold).
void for_each_example(const DatasetSpec& spec, const std::function<void(const Example&)>& visit);

// Training draws: examples first .. first + count - 1 of step `step`'s batch (hops, target and
// answer uniform, balanced in expectation), from the stream keyed by (seed, step). A
// data-parallel rank takes its slice of the global batch, so the ranks together train on the
// batch one process would draw, whatever the world size.
std::vector<Example> sample_batch(Task task, const std::vector<int>& hops, int length,
                                  std::int64_t count, std::uint64_t seed, std::uint64_t step,
                                  std::int64_t first = 0);

// JSONL form: the fields of example_line_fields() (example_lines.h).
nlohmann::json example_to_json(const Example& example);
// Strict: throws std::invalid_argument naming the missing, unknown or mistyped field, a task
// that is no hop task, or a length that is not the tokens' count.
Example example_from_json(const nlohmann::json& j);

}  // namespace posbias
