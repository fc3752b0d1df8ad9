// `posbias heads` (positional / symbolic head scores) and `posbias discrepancy` (the index and
// retrieval constructions, or a trained model's key heads); see docs/mech.md.
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "experiments/mech/discrepancy_command.h"
#include "experiments/mech/heads_command.h"
#include "parsed_options.h"
#include "posbias/core/parse.h"
#include "posbias/mech/head_search.h"
#include "posbias/mech/trained_discrepancy.h"
#include "posbias/train/checkpoint.h"
#include "torchrun_env.h"

namespace posbias::cli {

void register_heads(CLI::App& app, Action* selected) {
  auto o = std::make_shared<HeadsOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("heads", torch_command_description("heads"));
  add_path_option(cmd, "--run", o->run, "run directory from `posbias train`");
  parsed->add(cmd, "--checkpoints", &o->checkpoints, checkpoint_selection_choices());
  add_path_option(cmd, "--config", o->config, "Hugging Face config.json (instead of --run)");
  add_path_option(cmd, "--weights", o->weights,
                  "model.safetensors for --config, or its model.safetensors.index.json when "
                  "sharded");
  add_path_option(cmd, "--tokens", o->tokens,
                  "token ids, one sequence a line (default: random ids)");
  add_path_option(cmd, "--text", o->text,
                  "text file, one input per line (UTF-8), encoded by the checkpoint's own "
                  "tokenizer (instead of --tokens)");
  add_path_option(cmd, "--tokenizer", o->tokenizer,
                  "with --text: the checkpoint's tokenizer.json or tokenizer.model, or the folder "
                  "holding it (default: beside --config)");
  parsed->add(
      cmd, "-L,--length", &o->length,
      "tokens per sample (0: the run's, the first token row's, the shortest line's, or 128)");
  parsed->add(cmd, "--samples", &o->samples, "samples averaged over");
  parsed->add(cmd, "--seed", &o->seed, "seed of the samples");
  parsed->add(cmd, "--tau", &o->tau, "temperature of the pair weights softmax(|a_i - a_j| / tau)");
  cmd->add_flag("--at-init", o->at_init,
                "the scores' null: the run's model as training starts (its seed), not its "
                "checkpoints");
  parsed->add(cmd, "--qk-scale", &o->qk_scale,
              "the scores' null: multiply every layer's query and key projections by this");
  add_memory_options(cmd, parsed.get(), &o->attention, &o->memory_budget_gb);
  parsed->add(cmd, "--rank-timeout", &o->rank_timeout,
              "data-parallel ranks (posbias launch, torchrun): a run's checkpoints are split over "
              "the ranks and gathered; seconds a rank waits for the others",
              1);
  cmd->add_flag("--ablate", o->causal.ablate,
                "hop run: mean-ablate each layer's attention output at the last checkpoint and "
                "report accuracy per hop and length (JSON `ablation`)");
  cmd->add_flag("--patch", o->causal.patch,
                "Number run: patch each layer's attention output from an input whose query "
                "integer differs (JSON `patching`)");
  parsed->add(cmd, "--causal-lengths", &o->causal.lengths, "input lengths of --ablate and --patch");
  parsed->add(cmd, "--causal-count", &o->causal.count,
              "examples per hop and length (--ablate), pairs per length (--patch)");
  parsed->add(cmd, "--layers", &o->causal.layers,
              "0-based layers --ablate and --patch test (default: every layer); two or more: "
              "--ablate also ablates them all at once");
  cmd->add_flag("--spans", o->causal.spans,
                "with --ablate: also ablate layers 0..k and k..last at once, for every k");
  add_output_option(cmd, "--json", o->json, "result JSON (default: stdout)");
  add_output_option(cmd, "--plot", o->plot,
                    "figure stem: layers × checkpoints heatmaps (and STEM_ablation, "
                    "STEM_patching)");
  auto redraw = std::make_shared<std::string>();
  add_path_option(cmd, "--redraw", *redraw,
                  "a stored heads --json result: draw its --plot figures again from the file "
                  "alone, measuring nothing");
  cmd->callback([=] {
    // --redraw takes everything from its file: the first other option given, if any.
    std::string redraw_extra;
    for (const CLI::Option* opt : cmd->get_options()) {
      const std::string name = opt->get_name();
      if (opt->count() > 0 && name != "--redraw" && name != "--plot" && redraw_extra.empty())
        redraw_extra = name;
    }
    *selected = [=] {
      if (!redraw->empty()) {
        if (!redraw_extra.empty())
          throw std::invalid_argument("--redraw draws from its file alone: drop " + redraw_extra);
        if (o->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        return redraw_heads(*redraw, o->plot);
      }
      parsed->parse();
      o->causal.seed = o->seed;
      o->ranks = rank_env_from_environment();
      run_heads(*o);
    };
  });
}

namespace {

// `discrepancy`'s flags as the command line gives them; discrepancy_options builds the one mode
// they ask for.
struct DiscrepancyFlags {
  std::string function = "index", theta = "auto", search, frequencies = "free";
  double omega = ConstructionSweep{}.omega;
  std::vector<int> lengths;
  std::int64_t count = 0;  // 0: the mode's default
  std::uint64_t seed = 0;
  HeadSearchOptions head_search;
  std::string run, heads = "auto", variant = "standard";
  CheckpointSelection checkpoints = CheckpointSelection::last();
  std::optional<AttentionPath> attention;
  double memory_budget_gb = 0;
  std::string redraw;  // a stored result whose figure is drawn, measuring nothing
};

// The one checkpoint `selection` picks of `run`: discrepancy --run measures one model.
std::filesystem::path one_checkpoint(const std::string& run, const CheckpointSelection& selection) {
  const std::vector<RunCheckpoint> chosen = select_checkpoints(run, selection);
  if (chosen.size() > 1)
    throw std::invalid_argument("discrepancy --run measures one checkpoint, and --checkpoints " +
                                to_string(selection) + " selects " + std::to_string(chosen.size()) +
                                ": give " + to_string(CheckpointSelection::last()) +
                                " or one step");
  return chosen.front().path;
}

DiscrepancyMode discrepancy_mode(const DiscrepancyFlags& f) {
  const SearchFrequencies frequencies = parse_search_frequencies(f.frequencies);
  if (!f.search.empty()) {
    if (f.search != "optimized")
      throw std::invalid_argument("--search must be optimized, got '" + f.search + "'");
    HeadSearchSweep s;
    s.search = f.head_search;
    s.search.frequencies = frequencies;
    s.search.function = parse_construction(f.function);
    if (s.search.function == Construction::kReflexive)
      throw std::invalid_argument("--search covers the index and retrieval functions");
    s.search.omega = f.omega;
    s.search.seed = f.seed;
    s.memory_budget_gb = f.memory_budget_gb;
    if (!f.lengths.empty()) s.lengths = f.lengths;
    return s;
  }
  if (!f.run.empty()) {
    TrainedDiscrepancyOptions t;
    t.run = f.run;
    t.checkpoint = one_checkpoint(f.run, f.checkpoints).string();
    t.heads = parse_head_list(f.heads);
    t.variant = parse_variant(f.variant);
    if (!f.lengths.empty()) t.lengths = f.lengths;
    if (f.count != 0) t.count = f.count;
    t.seed = f.seed;
    t.attention = f.attention;
    t.memory_budget_gb = f.memory_budget_gb;
    return t;
  }
  ConstructionSweep s;
  s.function = parse_construction(f.function);
  if (f.theta != "auto") s.theta = parse_number(f.theta, "--theta");
  s.omega = f.omega;
  if (!f.lengths.empty()) s.lengths = f.lengths;
  if (f.count != 0) s.count = f.count;
  s.seed = f.seed;
  s.memory_budget_gb = f.memory_budget_gb;
  return s;
}

}  // namespace

void register_discrepancy(CLI::App& app, Action* selected) {
  auto f = std::make_shared<DiscrepancyFlags>();
  auto o = std::make_shared<DiscrepancyOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("discrepancy", torch_command_description("discrepancy"));
  auto* fn = cmd->add_option("--function", f->function,
                             "index, retrieval or reflexive (--search: index or retrieval)")
                 ->capture_default_str()
                 ->type_name("NAME");
  auto* th = cmd->add_option(
                    "--theta", f->theta,
                    "RoPE angle per position (auto: pi/n for index and reflexive, 0 for retrieval)")
                 ->capture_default_str()
                 ->type_name("NUMBER|auto");
  auto* om =
      parsed->add(cmd, "--omega", &f->omega, "retrieval: phase spacing of the 8 symbols (2pi/8)");
  parsed->add(cmd, "--lengths", &f->lengths,
              "comma list of n (default " + join_integers(ConstructionSweep{}.lengths) +
                  "; with --run " + join_integers(TrainedDiscrepancyOptions{}.lengths) + ")");
  parsed->add(cmd, "--count", &f->count,
              "inputs per length (0: " + std::to_string(ConstructionSweep{}.count) +
                  "; with --run " + std::to_string(TrainedDiscrepancyOptions{}.count) + ")",
              /*lo=*/0);
  parsed->add(cmd, "--seed", &f->seed, "seed of the inputs");
  auto* search = cmd->add_option("--search", f->search,
                                 "optimized: search whole RoPE heads for the best worst-case gap "
                                 "at each n (instead of the constructions)")
                     ->type_name("NAME");
  parsed->add(cmd, "--head-dim", &f->head_search.head_dim,
              "with --search: dims of the searched head, all rotary (F = dim/2 frequencies)");
  cmd->add_option("--frequencies", f->frequencies,
                  "with --search: free (every frequency optimised) or rope (the fixed schedule "
                  "rope_theta^(-2f/dim))")
      ->capture_default_str()
      ->type_name("NAME");
  parsed->add(cmd, "--rope-theta", &f->head_search.rope_theta,
              "with --search --frequencies rope: the schedule's base");
  parsed->add(cmd, "--starts", &f->head_search.starts,
              "with --search: random starts per length, beside the designs", /*lo=*/0);
  parsed->add(cmd, "--steps", &f->head_search.steps, "with --search: Adam steps per start");
  auto* run = add_path_option(cmd, "--run", f->run, "trained run: measure its key heads");
  parsed
      ->add(cmd, "--checkpoints", &f->checkpoints,
            "with --run: the checkpoint measured, " + to_string(CheckpointSelection::last()) +
                " or one step")
      ->needs(run);
  parsed->add_retired_checkpoint_option(cmd);
  cmd->add_option("--heads", f->heads,
                  "with --run: auto (the most positional and most symbolic head) or head names, "
                  "L2.h0,L3.h1 (0-based layer and head)")
      ->capture_default_str()
      ->type_name("auto|LIST");
  auto* variant =
      cmd->add_option("--variant", f->variant,
                      "with --run: the inputs, standard or a variant the task has (Number: "
                      "seen_jumps, jump integers within those training showed; Letter: decoy)")
          ->capture_default_str()
          ->type_name("NAME");
  variant->needs(run);
  run->excludes(fn)->excludes(th)->excludes(om)->excludes(search);
  search->excludes(th);
  add_memory_options(cmd, parsed.get(), &f->attention, &f->memory_budget_gb);
  auto* json = add_output_option(cmd, "--json", o->json, "result JSON (default: stdout)");
  add_output_option(cmd, "--plot", o->plot, "figure stem: discrepancy against n, log-log");
  add_path_option(cmd, "--redraw", f->redraw,
                  "a construction or --search result file (--json's): draw its --plot figure "
                  "from the file alone, measuring nothing")
      ->excludes(run)
      ->excludes(search)
      ->excludes(json);
  cmd->callback([=] {
    *selected = [=] {
      parsed->parse();
      if (!f->redraw.empty()) {
        if (o->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        return redraw_discrepancy(f->redraw, o->plot);
      }
      o->mode = discrepancy_mode(*f);
      run_discrepancy(*o);
    };
  });
}

}  // namespace posbias::cli
