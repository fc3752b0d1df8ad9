// `posbias heads` (positional / symbolic head scores) and `posbias discrepancy` (the index and
// retrieval constructions, or a trained model's key heads) — DESIGN.md §4–5.
#include <cmath>
#include <memory>

#include "commands.h"
#include "experiments/mech/discrepancy_command.h"
#include "experiments/mech/heads_command.h"
#include "posbias/core/parse.h"

namespace posbias::cli {

void register_heads(CLI::App& app, Action* selected) {
  auto o = std::make_shared<HeadsOptions>();
  auto samples = std::make_shared<std::string>("100");
  auto length = std::make_shared<std::string>("0");
  auto seed = std::make_shared<std::string>("0");
  auto tau = std::make_shared<std::string>("1e-4");
  CLI::App* cmd = app.add_subcommand("heads", torch_command_description("heads"));
  cmd->add_option("--run", o->run, "run directory from `posbias train`");
  cmd->add_option("--checkpoints", o->checkpoints, "all or last")->capture_default_str();
  cmd->add_option("--config", o->config, "Hugging Face config.json (instead of --run)");
  cmd->add_option("--weights", o->weights, "model.safetensors for --config");
  cmd->add_option("--tokens", o->tokens, "token ids, one sequence a line (default: random ids)");
  cmd->add_option("-L,--length", *length,
                  "tokens per sample (0: the run's training length, the token rows' own, or 128)")
      ->capture_default_str();
  cmd->add_option("--samples", *samples, "samples averaged over")->capture_default_str();
  cmd->add_option("--seed", *seed, "seed of the samples")->capture_default_str();
  cmd->add_option("--tau", *tau, "temperature of the pair weights softmax(|a_i - a_j| / tau)")
      ->capture_default_str();
  cmd->add_option("--json", o->json, "result JSON (default: stdout)");
  cmd->add_option("--plot", o->plot, "figure stem: layers × checkpoints heatmaps");
  cmd->callback([=] {
    *selected = [=] {
      HeadsOptions opt = *o;
      opt.samples = parse_integer(*samples, "--samples");
      opt.length = parse_integer(*length, "--length");
      opt.seed = parse_seed(*seed);
      opt.tau = parse_number(*tau, "--tau");
      run_heads(opt);
    };
  });
}

void register_discrepancy(CLI::App& app, Action* selected) {
  auto o = std::make_shared<DiscrepancyOptions>();
  auto theta = std::make_shared<std::string>("auto");
  auto omega = std::make_shared<std::string>("0.7853981633974483");
  auto count = std::make_shared<std::string>("0");
  auto seed = std::make_shared<std::string>("0");
  CLI::App* cmd = app.add_subcommand("discrepancy", torch_command_description("discrepancy"));
  auto* fn =
      cmd->add_option("--function", o->sweep.function, "index or retrieval")->capture_default_str();
  auto* th = cmd->add_option("--theta", *theta,
                             "RoPE angle per position (auto: pi/n for index, 0 for retrieval)")
                 ->capture_default_str();
  auto* om = cmd->add_option("--omega", *omega, "retrieval: phase spacing of the 8 symbols (2pi/8)")
                 ->capture_default_str();
  cmd->add_option("--lengths", o->lengths,
                  "comma list of n (default 9,16,...,4096; with --run 17,32,64,128,256,512,850)");
  cmd->add_option("--count", *count, "inputs per length (default 64; with --run 100)");
  cmd->add_option("--seed", *seed, "seed of the inputs")->capture_default_str();
  auto* run = cmd->add_option("--run", o->run, "trained run: measure its key heads");
  cmd->add_option("--checkpoint", o->checkpoint, "with --run: checkpoint file (default: latest)");
  cmd->add_option("--heads", o->heads,
                  "with --run: auto (the most positional and most symbolic head) or L.h,L.h")
      ->capture_default_str();
  run->excludes(fn)->excludes(th)->excludes(om);
  cmd->add_option("--json", o->json, "result JSON (default: stdout)");
  cmd->add_option("--plot", o->plot, "figure stem: discrepancy against n, log-log");
  cmd->callback([=] {
    *selected = [=] {
      DiscrepancyOptions opt = *o;
      if (*theta != "auto") opt.sweep.theta = parse_number(*theta, "--theta");
      opt.sweep.omega = parse_number(*omega, "--omega");
      opt.count = parse_integer(*count, "--count");
      if (opt.count < 0) throw std::invalid_argument("--count must be >= 1");
      opt.seed = parse_seed(*seed);
      run_discrepancy(opt);
    };
  });
}

}  // namespace posbias::cli
