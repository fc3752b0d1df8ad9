// The needle in Brown text (docs/retrieval.md): passkey sentences spliced into a window of a text
// run's Brown token ids, and a question about one of them at the end. In text:
//
//   needle    "The pass key of <Name> is <number>."     (its own line: a newline before and after)
//   question  "What is the pass key of <Name>? The pass key of <Name> is"   (after a newline)
//   answer    " <number>"  then  "."
//
// <Name> comes from passkey_names() (distinct per example), <number> has kPasskeyDigits digits
// (no leading zero). K needles: the queried one and K − 1 distractors under other names.
//
// Tokens. Everything is in ids of the run's tokenizer. The sentence parts are encoded once each
// (PasskeyCodec): the needle's "The pass key of <Name> is", the question, and the number one
// character at a time (" ", then each digit: a single ASCII character is always one id), so a
// number is always 1 + kPasskeyDigits ids and is the same ids in the needle and the answer. The
// needles are spliced between Brown ids at token offsets that ignore sentence boundaries.
//
// An example at length L is L + 1 ids, a training window of a text run: the model reads the first
// L and is scored on the answer's digits (greedy = teacher-forced argmax here):
//
//   [haystack: F Brown ids with the K needles inserted] [question] [" " d d d d d] ["."]
//
// F = L + 1 − (the needles' ids) − (the question's) − (1 + kPasskeyDigits) − 1 varies with the
// names. Depth: a needle inserted before Brown id o (o in 0..F) has depth 100 · o / F percent:
// the share of the haystack's Brown ids that come before it (0 = first in the window, 100 =
// just before the question). Needles have distinct offsets. A depth d places the needle at
// o = round(d · F / 100) (halves away from zero, the product first). This is the one definition
// training, eval, `tasks` and `tasks check` use.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "posbias/core/rng.h"
#include "posbias/tasks/example_lines.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

constexpr int kPasskeyDigits = 5;
constexpr int kPasskeyAnswerIds = 1 + kPasskeyDigits;  // " " and the digits

// The fixed list of distinct capitalised first names (64), the most needles an example holds.
const std::vector<std::string>& passkey_names();
std::string passkey_needle_text(const std::string& name, const std::string& number);
std::string passkey_question_text(const std::string& name);

// Depth in percent of a needle before Brown id `offset` of `haystack` (0 for an empty haystack),
// and the offset of a depth: round(depth · haystack / 100). The latter throws
// std::invalid_argument for a depth outside 0..100.
double passkey_depth(int offset, int haystack);
int passkey_offset_at_depth(double depth, int haystack);

struct PasskeyNeedle {
  std::string name, number;
  int offset = 0;    // Brown ids before it, 0..F
  int position = 0;  // index of its first id (the newline before it) in the example
  double depth = 0;  // percent, passkey_depth(offset, F)
  int size = 0;      // its ids, from the newline before it to the newline after it
};

struct PasskeyExample {
  std::vector<std::int32_t> ids;  // L + 1
  std::vector<PasskeyNeedle> needles;
  int queried = 0;       // index into needles
  int haystack = 0;      // F: Brown ids in the example
  int answer_start = 0;  // index of the answer's first digit
  int length() const { return static_cast<int>(ids.size()) - 1; }
  const PasskeyNeedle& target() const { return needles[static_cast<std::size_t>(queried)]; }
};

// What a passkey example needs of the run's tokenizer, encoded once.
class PasskeyCodec {
 public:
  explicit PasskeyCodec(const Tokenizer& tokenizer);
  // The fewest Brown ids an example of `needles` needles at `length` may hold (the longest
  // names). Throws std::invalid_argument in one line when that is below `needles` (the needles
  // and the question do not fit), naming the length that would fit.
  int check_fits(int length, int needles) const;
  // An example at `length` of `numbers.size()` needles named `names`, needle k before Brown id
  // offsets[k] (distinct, 0..F), the question about needle `queried`. `brown` holds at least
  // length + 1 ids (its first F are the haystack). Throws std::invalid_argument for bad inputs.
  PasskeyExample build(const std::int32_t* brown, int length, const std::vector<std::string>& names,
                       const std::vector<std::string>& numbers, const std::vector<int>& offsets,
                       int queried) const;
  // Brown ids of an example at `length` with these names.
  int haystack(int length, const std::vector<std::string>& names) const;

 private:
  std::vector<std::int32_t> needle_head_, question_;  // per name, concatenated
  std::vector<std::size_t> needle_at_, question_at_;  // per name: start in the above, and end
  std::int32_t newline_ = 0, space_ = 0, dot_ = 0;
  std::int32_t digit_[10] = {};
  int needle_ids(std::size_t name) const;
  int question_ids(std::size_t name) const;
};

// The names and numbers of an example: `needles` distinct names, numbers of kPasskeyDigits
// digits, drawn from `rng`; the queried needle is the first.
struct PasskeyDraw {
  std::vector<std::string> names, numbers;
};
PasskeyDraw draw_passkey_names(int needles, Rng& rng);
// Distinct offsets in 0..haystack for the needles: `fixed` (>= 0) for the first, the rest drawn
// by the prior over the haystack's offsets (kv_task.h's draw_kv_queried over haystack + 1 slots),
// redrawn until distinct; fixed < 0 draws the first too.
std::vector<int> draw_passkey_offsets(int needles, int haystack, int fixed, DepthPrior prior,
                                      Rng& rng);

// A training or held-out example: names, then offsets by the prior, from `rng`.
PasskeyExample draw_passkey_example(const PasskeyCodec& codec, const std::int32_t* brown,
                                    int length, int needles, DepthPrior prior, Rng& rng);
// Example `example` of the depth cell (length, depth): the queried needle at the depth, the
// distractors uniform, names, numbers and the haystack's start in `heldout` drawn from the stream
// keyed by (seed, length, depth in thousandths of a percent, example), as kv_depth_example. What
// eval by depth and `tasks --task passkey` at a given depth draw.
PasskeyExample passkey_depth_example(const PasskeyCodec& codec,
                                     const std::vector<std::int32_t>& heldout, int length,
                                     int needles, double depth, std::int64_t example,
                                     std::uint64_t seed);

// An example's JSONL line (example_lines.h), and that line as JSON.
PasskeyExampleLine passkey_example_line(const PasskeyExample& example, const Tokenizer& tokenizer);
nlohmann::json passkey_example_to_json(const PasskeyExample& example, const Tokenizer& tokenizer);

}  // namespace posbias
