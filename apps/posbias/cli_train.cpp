// `posbias train` and `posbias eval`: hop-task training runs and their length generalization.
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "experiments/hops/eval_command.h"
#include "posbias/core/parse.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/trainer.h"

namespace posbias::cli {
namespace {

// Flags stay text until parsing succeeds, so a bad value gets our one-line message. Only
// flags the user gave override the config file, which overrides the defaults.
struct TrainArgs {
  std::string out, resume, config_file;
  std::map<std::string, std::string> values;  // config field -> flag text
};

nlohmann::json flag_value(const std::string& field, const std::string& text) {
  if (field == "task") return text;
  if (field == "hops") return parse_integer_list(text, "--hops", 1, kMaxHops);
  const double v = parse_number(text, "--" + field);
  // Real or integer, as the field's default is (the config JSON keeps the C++ types).
  static const nlohmann::json defaults = train_config_to_json(TrainConfig{});
  if (defaults.at(field).is_number_float()) return v;
  return parse_integer(text, "--" + field);
}

}  // namespace

void register_train(CLI::App& app, Action* selected) {
  auto a = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", torch_command_description("train"));
  cmd->add_option("-o,--out", a->out, "run directory to create");
  cmd->add_option("--resume", a->resume,
                  "continue this run directory from its latest checkpoint (config from the run)");
  cmd->add_option("--config", a->config_file,
                  "JSON file with any of the fields below (flags override it)");
  const TrainConfig d;
  const std::vector<std::pair<std::string, std::string>> fields{
      {"task", "number (positional) or letter (symbolic)"},
      {"hops", "hop counts mixed in training, comma list (default 1,2,3,4)"},
      {"length", "training sequence length (default 17)"},
      {"steps", "optimizer steps (default: number 3000, letter 5000)"},
      {"batch", "global batch size (default 64)"},
      {"lr", "peak learning rate (default 1e-3)"},
      {"warmup", "linear warmup steps (default 500), then linear decay to 0"},
      {"weight_decay", "AdamW decoupled weight decay on matrices (default 0.01)"},
      {"beta1", "AdamW β1 (default 0.9)"},
      {"beta2", "AdamW β2 (default 0.999)"},
      {"adam_eps", "AdamW ε (default 1e-8)"},
      {"grad_clip", "max global gradient L2 norm, 0 = off (default 1)"},
      {"layers", "layers (default 12)"},
      {"d_model", "hidden size (default 128)"},
      {"heads", "attention heads per layer (default 1)"},
      {"mlp", "MLP width (default 512)"},
      {"rotary_dim", "rotary dims per head, even (default 16 of 128)"},
      {"rope_theta", "rotary base θ (default 10000)"},
      {"dropout", "dropout on embeddings, attention and residuals (default 0.1)"},
      {"init_std", "normal init std (default 0.02)"},
      {"seed", "seed for weights, data and dropout (default 0)"},
      {"eval_every", "steps between held-out evaluations (default 50)"},
      {"eval_per_hop", "held-out examples per hop (default 256)"},
      {"checkpoint_every", "steps between checkpoints, a multiple of eval_every (default 500)"},
      {"rank", "data-parallel rank (default 0)"},
      {"world_size", "data-parallel world size (default 1)"}};
  for (const auto& [field, help] : fields) {
    std::string flag = "--" + field;
    for (char& ch : flag) ch = ch == '_' ? '-' : ch;
    cmd->add_option_function<std::string>(
        flag, [a, f = field](const std::string& v) { a->values[f] = v; }, help);
  }
  cmd->callback([a, selected] {
    *selected = [a] {
      TrainOptions o;
      if (!a->resume.empty()) {
        if (!a->out.empty() || !a->values.empty() || !a->config_file.empty()) {
          throw std::invalid_argument(
              "--resume takes the run's own config; give no --out, --config or training flags");
        }
        o.resume = true;
        o.run_dir = a->resume;
      } else {
        if (a->out.empty()) throw std::invalid_argument("--out RUN_DIR is required");
        o.run_dir = a->out;
        nlohmann::json j = nlohmann::json::object();
        if (!a->config_file.empty()) {
          std::ifstream in(a->config_file);
          if (!in) throw std::invalid_argument("cannot open --config '" + a->config_file + "'");
          try {
            j = nlohmann::json::parse(in);
          } catch (const nlohmann::json::exception&) {
            throw std::invalid_argument("--config '" + a->config_file + "' is not valid JSON");
          }
          if (!j.is_object()) throw std::invalid_argument("--config must hold a JSON object");
        }
        for (const auto& [field, text] : a->values) j[field] = flag_value(field, text);
        o.config = train_config_from_json(j);
      }
      const TrainResult r = run_training(o);
      std::fprintf(stderr, "posbias train: %lld steps, %.1f s of training; see %s\n",
                   static_cast<long long>(r.steps), r.train_seconds, o.run_dir.c_str());
    };
  });
}

void register_eval(CLI::App& app, Action* selected) {
  auto o = std::make_shared<EvalOptions>();
  auto count = std::make_shared<std::string>("200");
  auto seed = std::make_shared<std::string>("1");
  CLI::App* cmd = app.add_subcommand("eval", torch_command_description("eval"));
  cmd->add_option("--run", o->run, "run directory from `posbias train`")->required();
  cmd->add_option("--checkpoint", o->checkpoint, "checkpoint file (default: the run's latest)");
  cmd->add_option("--lengths", o->lengths, "comma list of input lengths")->capture_default_str();
  cmd->add_option("--count", *count, "examples per length and hop")->capture_default_str();
  cmd->add_option("--seed", *seed, "seed of the evaluation examples")->capture_default_str();
  cmd->add_flag("!--no-controls", o->controls, "skip the seen_jumps / decoy control");
  cmd->add_option("--json", o->json, "result JSON (default: stdout)");
  cmd->add_option("--plot", o->plot, "figure stem: accuracy against length per hop");
  cmd->callback([o, count, seed, selected] {
    *selected = [o, count, seed] {
      EvalOptions opt = *o;
      opt.count = parse_integer(*count, "--count");
      opt.seed = parse_seed(*seed);
      run_eval(opt);
    };
  });
}

}  // namespace posbias::cli
