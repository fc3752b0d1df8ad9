// The probe suites of `posbias llm`: prompts with known answers, built from editable
// templates (templates/*.txt, embedded at build time).
//
// number, letter: the hop tasks' examples (docs/hops.md) exactly as `posbias eval` draws them
//   for the same seed, lengths, hops and count, so a served model's answers can be compared
//   with eval's one for one. Depth = the answer token's position / (length - 1).
// needle: key-value retrieval as in Liu et al. 2023 ("Lost in the Middle"): a JSON object of
//   `length` UUID pairs with the queried key at depth 0%, 10%, ..., 100% of the object.
// kv: the kv task (tasks/kv_task.h) in the format a `train --task kv` model reads: the example's
//   tokens separated by spaces, as `posbias tasks --task kv` writes them; the answer is the
//   value's 3 digits, "4 0 7". Lengths are tokens; every example holds as many pairs as fit,
//   with the queried pair at depth d (kv_probe_examples); a probe's depth is d, the cell's,
//   as `eval` keys it. For models trained here (`serve`).
// passkey: the needle in Brown text (tasks/passkey_task.h) of a text run trained with needles
//   (`--run RUN`): the examples `posbias eval` scores in cell (length, depth) for the same seed
//   (passkey_depth_example), cut before the answer's digits, i.e. ending "... is " with the
//   space. The prompt is the decoded ids; prompt_ids are the ids themselves, which a completions
//   endpoint may take instead (`llm --prompt-ids`: exactly the ids eval reads, however the
//   server's tokenizer would split the text). The answer is the 5-digit number. Lengths are
//   tokens of the run (default: the run's length, 2× and 4×).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/vocab.h"

namespace posbias {

struct Probe {
  std::string suite;  // number | letter | needle | kv | passkey
  std::string id;     // stable, readable: "letter/L32/#5", "needle/L50/d30/#2"
  int length = 0;     // tokens (number, letter, kv) or key-value pairs (needle)
  int hops = 0;       // 0 for needle
  double depth = 0;   // the answer's relative position in the context, 0..1
  std::string prompt;
  std::vector<std::int32_t> prompt_ids;  // passkey: the prompt in the run's ids; else empty
  std::string answer;
  // The accuracy of a uniform guess among the prompt's candidate answers: 1/answer_candidates
  // for the hop suites (Number: 1/8), 1/pairs for needle and kv (any value of the context).
  double chance = 0;
};

struct SuiteOptions {
  std::vector<int> lengths;  // empty = the suite's default_lengths
  std::vector<int> hops{1, 2, 3, 4};
  std::vector<int> depths{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};  // percent (needle, kv)
  std::int64_t count = 20;  // examples per (length, hop) or per (length, depth)
  std::uint64_t seed = 1;
  std::string template_dir;  // empty = the built-in templates; else DIR/<suite>.txt
  std::string run;           // passkey: the text run whose examples are asked
};

const std::vector<std::string>& suite_names();  // number, letter, needle, kv, passkey
// Throws std::invalid_argument naming the suite and the known ones.
void validate_suite(const std::string& suite);
std::vector<int> default_lengths(const std::string& suite);

// The built-in template of a suite, and the one a run uses (DIR/<suite>.txt when a template
// directory is given). Throws std::invalid_argument for an unreadable file or a template
// without its placeholders ({input}; needle also {key}). The kv template is "{input}" alone:
// a kv model reads nothing but the example's tokens; so is passkey's, with no newline after it
// (the model continues the text).
std::string builtin_template(const std::string& suite);
std::string load_template(const std::string& suite, const std::string& template_dir);
// Writes every built-in template to DIR/<suite>.txt (to edit).
void write_templates(const std::string& dir);

// Every probe of a suite, deterministic for the options. Throws std::invalid_argument for
// lengths, hops, depths or counts the suite cannot make.
std::vector<Probe> make_probes(const std::string& suite, const SuiteOptions& options);

// The kv suite's examples of one cell, the ones `posbias eval` scores on a kv run for the same
// seed: examples 0..count−1 of kv_depth_example (tasks/kv_task.h).
std::vector<KvExample> kv_probe_examples(int length, int depth, std::int64_t count,
                                         std::uint64_t seed);

// The inverse of a hop template, as `posbias serve` reads a prompt: the tokens of the prompt's
// last line made only of the vocabulary's tokens (split at white space). Throws
// std::invalid_argument when no line is.
std::vector<std::string> extract_task_input(const std::string& prompt, const Vocabulary& vocab);

}  // namespace posbias
