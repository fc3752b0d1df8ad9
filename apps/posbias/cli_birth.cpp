// `posbias birth`: measured influence profiles at init (or of a checkpoint) against theory.
#include <algorithm>
#include <memory>

#include "birth_option_flags.h"
#include "commands.h"
#include "experiments/birth/birth.h"
#include "experiments/birth/birth_rescore.h"
#include "experiments/birth/birth_run.h"
#include "experiments/retrieval/colocation.h"
#include "field_flags.h"
#include "parsed_options.h"
#include "posbias/train/answer_influence.h"
#include "torchrun_env.h"

namespace posbias::cli {

void register_birth(CLI::App& app, Action* selected) {
  auto options = std::make_shared<BirthOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  BirthOptions& o = *options;
  CLI::App* cmd = app.add_subcommand("birth", torch_command_description("birth"));
  // The model's shape and the measurement: the flags of BirthOptions' field table.
  add_birth_option_flags(cmd, parsed.get(), &o);
  // The flag's earlier name, which TransformerLens uses for the attention score's divisor.
  parsed
      ->add_parsed(cmd, "--attn-scale", "", "", "NUMBER",
                   [](const std::string&, const std::string&) {
                     throw std::invalid_argument(
                         "--attn-scale is now --attn-init-scale: it multiplies the attention "
                         "output projection's init std, not the score divisor that "
                         "TransformerLens calls attn_scale");
                   })
      ->group("");
  add_paths_option(cmd, parsed.get(), &o.paths);
  add_path_option(cmd, "--config", o.config, "Hugging Face config.json of a trained checkpoint");
  add_path_option(cmd, "--weights", o.weights,
                  "model.safetensors of that checkpoint, or its model.safetensors.index.json "
                  "when sharded (measured on --tokens, --text or random token ids)");
  add_path_option(cmd, "--tokens", o.tokens,
                  "token-id file: one sequence per line (ids separated by spaces or commas)");
  add_path_option(cmd, "--text", o.text,
                  "text file, one input per line (UTF-8), encoded by the checkpoint's own "
                  "tokenizer; -L defaults to the shortest line's tokens (instead of --tokens)");
  add_path_option(cmd, "--tokenizer", o.tokenizer,
                  "with --text: the checkpoint's tokenizer.json or tokenizer.model, or the folder "
                  "holding it (default: beside --config)");
  auto mode = std::make_shared<BirthModeFlags>();
  FieldFlagWords mode_words;
  mode_words.lists = {{"depths", ','}};
  add_field_flags(cmd, parsed.get(), birth_mode_flag_fields(), *mode, mode.get(), "birth option",
                  mode_words);
  auto answer = std::make_shared<AnswerInfluenceOptions>();
  auto colocation = std::make_shared<ColocationOptions>();
  add_path_option(cmd, "--colocate", colocation->influence,
                  "`birth --inputs kv|passkey` JSON results, one per training seed (comma list): "
                  "compare each one's influence on the queried pair or needle by depth with the "
                  "accuracy by depth "
                  "of --accuracy; takes --json and --plot")
      ->delimiter(',');
  add_path_option(cmd, "--accuracy", colocation->accuracy,
                  "with --colocate: `eval` JSON results of the same runs in the same order")
      ->delimiter(',');
  add_path_option(cmd, "--run", o.run,
                  "a text or hop training run: measure the checkpoints --checkpoints selects on "
                  "held-out inputs, one per --seeds (a text run's held-out windows, a hop run's "
                  "eval examples), at the run's length unless --length is given");
  auto rescore = std::make_shared<std::string>();
  add_path_option(cmd, "--rescore", *rescore,
                  "a stored birth --json result (at init): rebuild its model from the file's "
                  "config and seeds, run each seed's forward pass only, and score the file's "
                  "profiles with the current no-fit predictions; takes --json, --csv, --plot and "
                  "--memory-budget. A birth --run result: redraw its figures from the file "
                  "(--plot STEM only; nothing is re-scored)");
  auto redraw = std::make_shared<std::string>();
  add_path_option(cmd, "--redraw", *redraw,
                  "a stored birth --json result: draw its --plot figure again from the file alone, "
                  "measuring nothing (a birth --run result: its figures, as --rescore draws them)");
  // --attention, --memory-budget and --json after --checkpoints.
  add_field_flags(cmd, parsed.get(), birth_option_fields(), o, &o, "birth option", {},
                  [cmd, parsed = parsed.get(), &o](const std::string& row, CLI::Option*) {
                    if (row != "checkpoints") return;
                    add_memory_options(cmd, parsed, &o.attention, &o.memory_budget_gb);
                    add_output_option(
                        cmd, "--json", o.json,
                        "result JSON (default: stdout, or a summary when stdout is a terminal; - "
                        "for stdout always); finished seeds are kept in JSON.seeds.json until it "
                        "is written");
                  });
  add_output_option(cmd, "--csv", o.csv,
                    "profile CSV: position, influence, seed0, ... (input for `theory fit`)");
  add_output_option(cmd, "--plot", o.plot,
                    "figure stem: measured profile with seed band against the no-fit prediction, "
                    "the rollout and the fitted theory");
  cmd->callback([cmd, options, parsed, rescore, redraw, mode, answer, colocation, selected] {
    // A token file measures each of its rows once; a --seeds count beside it would be ignored.
    const bool seeds_given = cmd->get_option("--seeds")->count() > 0;
    // --rescore takes everything it measures from its file.
    std::string measured_option;
    for (const CLI::Option* opt : cmd->get_options()) {
      const std::string name = opt->get_name();
      if (opt->count() > 0 && name != "--rescore" && name != "--json" && name != "--csv" &&
          name != "--plot" && name != "--memory-budget" && name != "--stay-probes" &&
          name != "--help")
        measured_option = name;
    }
    std::vector<std::string> given;
    for (const CLI::Option* opt : cmd->get_options()) {
      if (opt->count() > 0) given.push_back(opt->get_name());
    }
    // The first option given outside `allowed` (empty when none).
    auto outside = [given](std::initializer_list<const char*> allowed) {
      for (const std::string& name : given) {
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return name == a; }))
          return name;
      }
      return std::string();
    };
    const std::string answer_extra =
        outside({"--run", "--inputs", "--target", "--checkpoints", "--length", "--depths",
                 "--seeds", "--seed", "--json", "--csv", "--plot"});
    const std::string colocate_extra = outside({"--colocate", "--accuracy", "--json", "--plot"});
    const std::string redraw_extra = outside({"--redraw", "--plot"});
    const bool length_given = cmd->get_option("--length")->count() > 0;
    const bool seed_given = cmd->get_option("--seed")->count() > 0;
    const bool depths_given = cmd->get_option("--depths")->count() > 0;
    const bool stay_probes_given = cmd->get_option("--stay-probes")->count() > 0;
    *selected = [options, parsed, seeds_given, rescore, redraw, measured_option, mode, answer,
                 colocation, length_given, seed_given, depths_given, stay_probes_given,
                 answer_extra, colocate_extra, redraw_extra] {
      parsed->parse();
      if (!redraw->empty()) {
        if (!redraw_extra.empty())
          throw std::invalid_argument("--redraw draws from its file alone: drop " + redraw_extra);
        if (options->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        redraw_birth(*redraw, options->plot);
        return;
      }
      if (!colocation->influence.empty() || !colocation->accuracy.empty()) {
        if (!colocate_extra.empty())
          throw std::invalid_argument("--colocate reads its files only: drop " + colocate_extra);
        colocation->json = options->json;
        colocation->plot = options->plot;
        run_colocation(*colocation);
        return;
      }
      if (mode->inputs == "kv" || mode->inputs == "passkey") {
        const std::string flag = "--inputs " + mode->inputs;
        if (options->run.empty())
          throw std::invalid_argument(flag + " measures a " + mode->inputs +
                                      " run: give --run RUN");
        if (!mode->target.empty() && mode->target != "answer")
          throw std::invalid_argument(flag + " measures --target answer, not '" + mode->target +
                                      "'");
        if (!answer_extra.empty())
          throw std::invalid_argument(flag + " measures the run's own model: drop " + answer_extra);
        answer->inputs = parse_answer_inputs(mode->inputs);
        answer->run = options->run;
        answer->checkpoints = options->checkpoints;
        answer->depths = mode->depths;
        answer->length = length_given ? options->length : 0;
        if (seeds_given) answer->per_depth = options->seeds;
        if (seed_given) answer->seed = options->seed;  // else eval's default seed
        answer->json = options->json;
        answer->csv = options->csv;
        answer->plot = options->plot;
        run_answer_influence(*answer);
        return;
      }
      if (mode->inputs != "text")
        throw std::invalid_argument("--inputs must be text, kv or passkey, not '" + mode->inputs +
                                    "'");
      if (depths_given) throw std::invalid_argument("--depths needs --inputs kv or passkey");
      if (mode->target == "answer")
        throw std::invalid_argument(
            "--target answer needs --inputs kv or passkey and a run of that task");
      if (!mode->target.empty()) options->target = parse_influence_target(mode->target);
      if (!rescore->empty()) {
        if (!measured_option.empty()) {
          throw std::invalid_argument(
              "--rescore takes the model and measurement from its file; "
              "drop " +
              measured_option);
        }
        BirthRescoreOptions ro;
        ro.file = *rescore;
        ro.memory_budget_gb = options->memory_budget_gb;
        if (stay_probes_given) ro.stay_probes = options->stay_probes;
        ro.json = options->json;
        ro.csv = options->csv;
        ro.plot = options->plot;
        run_birth_rescore(ro);
        return;
      }
      if (seeds_given && !options->tokens.empty()) {
        throw std::invalid_argument(
            "--tokens measures every sequence of its file (one per line); drop --seeds, or keep "
            "that many lines in the file");
      }
      if (seeds_given && !options->text.empty()) {
        throw std::invalid_argument(
            "--text measures every line of its file; drop --seeds, or keep that many lines in "
            "the file");
      }
      if (!options->text.empty() && !length_given) options->length = 0;  // the shortest line's
      options->ranks = rank_env_from_environment();
      if (!options->run.empty()) {
        if (options->ranks) {
          throw std::invalid_argument(
              "birth --run is not split over ranks: run it as one process (no posbias launch)");
        }
        if (!length_given) options->length = 0;  // the run's own length
        run_birth_run(*options);
        return;
      }
      run_birth(*options);
    };
  });
}

}  // namespace posbias::cli
