// The `posbias birth` command line of BirthOptions' model shape and measurement, from their field
// table (birth_options_fields.h): what a report's "commands by hand" prints, so that no command
// spells birth's flags by hand.
#pragma once

#include <string>

namespace posbias {

struct AnswerInfluenceOptions;
struct BirthOptions;

// The flags that make `posbias birth` build `options`' table fields again from the defaults
// ("--arch qwen2 --layers 4 --d-model 64 --heads 4 --kv-heads 2 --length 64 --seeds 4"): each
// field whose value differs from BirthOptions{}'s, in the table's order; "" when none does.
// Without the fields outside the table (--paths, --run, --json, ...).
std::string birth_flags(const BirthOptions& options);

// `posbias birth --inputs kv|passkey`'s flags of a measurement of the answer's influence
// (train/answer_influence.h): "--inputs kv --target answer --checkpoints last --depths 0,50,100
// --seeds 4" (--seeds is the examples per depth), --length when given (the run's own otherwise)
// and --seed when it is not eval's default; without --run and the outputs, which the caller
// writes.
std::string answer_influence_flags(const AnswerInfluenceOptions& options);

}  // namespace posbias
