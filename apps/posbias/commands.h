// Command registration for the posbias CLI. Each register_* adds one subcommand to the
// app and returns the action to run after parsing succeeds (parsing itself never runs work).
// The executable `posbias` registers the commands that need no libtorch; the torch commands
// (kTorchCommands) are registered by the torch plugin (torch_plugin.h), which `posbias` loads
// only when one of them runs.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "parsed_options.h"
#include "posbias/arch/attention_path.h"
#include "posbias/core/atomic_file.h"
#include "posbias/theory/influence.h"

namespace posbias::cli {

using Action = std::function<void()>;

// Thrown by an action that has already printed why it failed: run_cli exits with `code` and
// prints nothing more.
struct ExitQuietly {
  int code;
};

struct CommandInfo {
  const char* name;
  const char* description;
};

// The commands that run in the torch plugin; `posbias --help` lists them from here.
inline constexpr CommandInfo kTorchCommands[] = {
    {"birth",
     "Measure the influence profile ‖∂y_q/∂x_j‖_F of a transformer at initialization (or of a "
     "trained checkpoint), averaged over seeds; predict it with nothing fitted (the theory and "
     "the rollout with the measured branch strengths α̂), fit the theory, and score every model "
     "on held-out seeds. Each profile is also split into the shares of primacy, middle, "
     "recency and query, with the U test (the query left out). With --run: every checkpoint of "
     "a text run on held-out text."},
    {"train",
     "Train the gptj-hop model on the Number or Letter task (answer-only loss, AdamW with "
     "warmup and linear decay, batch 64), logging held-out accuracy per hop, or (--task text) "
     "a gpt2, qwen2, llama or gptj language model on the Brown corpus, logging held-out loss and "
     "gradient per position (with --needle-fraction, a share of the windows carries passkey "
     "needles and a question, and the passkey exact match is logged too); atomic checkpoints. "
     "A killed run continues with --resume RUN_DIR."},
    {"eval",
     "Accuracy of a trained hop model per input length and per hop (length generalization), "
     "with the task's control: seen_jumps for Number, decoy for Letter. On a text run: held-out "
     "bits per byte and loss per position against unigram and bigram baselines. On a kv run: "
     "exact-match accuracy by the queried pair's depth and the context length (Wilson "
     "intervals), RULER's effective length and a U verdict (middle depths against both ends); "
     "the same by the queried needle's depth on a passkey run given --depths or --lengths."},
    {"heads",
     "Positional and symbolic score of every attention head: swap the layer's "
     "inputs at two positions, recompute that layer, and see whether the query's attention "
     "stays with the positions or follows the content. Over every checkpoint of a run, or for "
     "a Hugging Face checkpoint on a token file."},
    {"discrepancy",
     "Top-minus-second attention logit at the query. Without --run: the index "
     "(\"go back k\", Number inputs), retrieval (\"find the matching symbol\", Letter inputs) "
     "or reflexive (\"pass on the current token\") construction as a 2-D RoPE attention layer, "
     "swept over n beside its bounds. With --search "
     "optimized: whole RoPE heads optimised for the worst-case gap at each n, against the "
     "constructions, with the fitted length exponent. With --run: a trained model's key heads "
     "against input length, next to its accuracy."},
    {"serve",
     "Serve trained hop and kv runs as an OpenAI-compatible endpoint (/v1/completions, "
     "/v1/chat/completions, /v1/models, /health) until Ctrl-C; a kv run completes a kv "
     "example's tokens with its value's greedy decode, \"4 0 7\"."},
    {"reproduce",
     "Run every experiment at laptop scale on the embedded defaults and write a report folder "
     "with figures (SVG, PNG), data (CSV, JSON), run.json and index.html."}};

bool is_torch_command(std::string_view name);
// The one description of a torch command (throws std::logic_error for another name).
const char* torch_command_description(std::string_view name);

// Parses argv into app and runs the selected action: 0 on success, 2 for bad usage (a parse
// error or std::invalid_argument) and 1 for a failed run, each with one line on stderr.
int run_cli(CLI::App& app, const Action& action, int argc, char** argv);

// The selected subcommand's action is stored into *selected by the subcommand callback.
// In `posbias`:
void register_theory(CLI::App& app, Action* selected);
void register_tasks(CLI::App& app, Action* selected);
void register_llm(CLI::App& app, Action* selected);
void register_doctor(CLI::App& app, Action* selected);
void register_seeds(CLI::App& app, Action* selected);
void register_launch(CLI::App& app, Action* selected);
void register_sweep(CLI::App& app, Action* selected);
// In the torch plugin:
void register_birth(CLI::App& app, Action* selected);
void register_train(CLI::App& app, Action* selected);
void register_eval(CLI::App& app, Action* selected);
void register_heads(CLI::App& app, Action* selected);
void register_discrepancy(CLI::App& app, Action* selected);
void register_serve(CLI::App& app, Action* selected);
void register_reproduce(CLI::App& app, Action* selected);

// Whether --help was given to cmd or a command above it: parsing has finished when validators
// run, so a checked option does not refuse what help is about to print.
inline bool help_asked(const CLI::App* cmd) {
  for (const CLI::App* a = cmd; a != nullptr; a = a->get_parent())
    if (a->get_help_ptr() != nullptr && a->get_help_ptr()->count() > 0) return true;
  return false;
}

// What --help shows for a value that names a file, a folder or a figure stem (train's field rows
// spell the same word: runfiles/train_config.cc's --corpus).
inline constexpr const char* kPathType = "PATH";

// An option naming something the command reads: a file or a folder (a list of them for a
// std::vector target). --help shows PATH.
template <class T>
CLI::Option* add_path_option(CLI::App* cmd, const std::string& flags, T& target,
                             const std::string& help) {
  return cmd->add_option(flags, target, help)->type_name(kPathType);
}

// An option naming an output: a file, a figure stem, or a run, sweep or report folder the command
// creates; --help shows PATH. Its folder is checked (check_output_folder, core/atomic_file.h) as
// the command line is parsed, before any work: a missing folder outside the working directory is
// refused in one line, exit 2 (run_cli).
inline CLI::Option* add_output_option(CLI::App* cmd, const std::string& flags, std::string& target,
                                      const std::string& help) {
  CLI::Option* option = add_path_option(cmd, flags, target, help);
  option->check([cmd, name = option->get_name()](const std::string& path) {
    if (help_asked(cmd)) return std::string();
    try {
      check_output_folder(path);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(name + " " + path + ": " + e.what());
    }
    return std::string();
  });
  return option;
}

// --paths, shared by `theory fit` and `birth`: how the fitted theory combines the paths.
inline CLI::Option* add_paths_option(CLI::App* cmd, ParsedOptions* parsed, PathSum* paths) {
  return parsed->add_choice(
      cmd, "--paths", paths,
      "how paths through different layer sets combine in the theory: linear "
      "(the paper's r = e_qᵀNᴴ) or quadrature (independent random path matrices add "
      "in Frobenius norm; docs/birth.md)",
      parse_path_sum, [](PathSum p) { return std::string(to_string(p)); });
}

// --attention and --memory-budget, shared by the commands that run models (torch plugin only):
// the attention path and the bytes the memory plan may use.
inline void add_memory_options(CLI::App* cmd, ParsedOptions* parsed,
                               std::optional<AttentionPath>* attention, double* budget_gb) {
  parsed->add_choice(
      cmd, "--attention", attention,
      "attention path: dense (keeps the [heads, L, L] pattern), blockwise (tiles of 128 keys "
      "with an online softmax; memory linear in L) or auto (dense unless it would pass the "
      "memory budget)",
      parse_attention_choice, [](const std::optional<AttentionPath>& a) { return to_string(a); });
  parsed->add(cmd, "--memory-budget", budget_gb,
              "GB the run may plan for (0: what this machine has available); a run whose plan "
              "passes it is refused before it allocates");
}

}  // namespace posbias::cli
