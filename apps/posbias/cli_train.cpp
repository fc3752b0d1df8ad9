// `posbias train` and `posbias eval`: training runs (hop tasks and text) and their evaluation.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "commands.h"
#include "eval_option_flags.h"
#include "experiments/hops/eval_command.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/passkey_eval_command.h"
#include "experiments/text/text_eval_command.h"
#include "parsed_options.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"
#include "posbias/core/parse.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/runfiles/training_figures.h"
#include "posbias/tasks/eval_task.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/trainer.h"
#include "torchrun_env.h"

namespace posbias::cli {
namespace {

// Flags stay text until parsing succeeds, so a bad value gets our one-line message. Only
// flags the user gave override the config file, which overrides the defaults.
struct TrainArgs {
  std::string out, resume, config_file;
  std::string redraw, plot;                   // a finished run's figures drawn again
  std::map<std::string, std::string> values;  // config field -> flag text
  std::optional<AttentionPath> attention;     // how the run computes attention (not saved)
  double memory_budget_gb = 0;
  std::int64_t rank_timeout = 300;
  ParsedOptions parsed;
};

// The flag's value as its config field's JSON value; an absolute corpus path, so that resuming
// from another directory finds it.
nlohmann::json flag_value(const FieldRow<TrainConfig>& row, const std::string& text) {
  if (row.type == kPathType) return text.empty() ? text : std::filesystem::absolute(text).string();
  if (row.type == "BOOL") return true;  // a flag: present or not
  return row.from_flag(text);
}

// A field's default as help shows it.
std::string shown_default(const FieldRow<TrainConfig>& row, const TrainConfig& defaults) {
  const nlohmann::json value = row.write(defaults);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return row.present(defaults) ? "the family's" : "none";
  if (!value.is_array()) return value.dump();
  std::string shown;
  for (const auto& v : value) shown += (shown.empty() ? "" : ",") + v.dump();
  return shown;
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
    for (const FieldRow<TrainConfig>& row : train_config_fields()) {
      const auto given = a.values.find(row.name);
      if (given != a.values.end()) j[row.name] = flag_value(row, given->second);
    }
    const Task task = j.contains("task") && j["task"].is_string()
                          ? parse_task(j["task"].get<std::string>())
                          : Task::kNumber;
    o.config = train_config_from_json(j, TrainConfig::defaults_following(task, j));
  }
  return o;
}

// `eval --redraw FILE --plot STEM`: a stored eval result's figures drawn again from the file
// alone, measuring nothing, by the functions the measuring run draws with: a kv or passkey
// result's STEM-heatmap and STEM-depth, a hop run's STEM. A file of another kind or one the
// strict record reader refuses: std::invalid_argument in one line naming the file.
void redraw_eval(const std::string& file, const std::string& plot) {
  const nlohmann::json j =
      parse_json_or_discarded(read_bounded_file(file, kMaxSeedFileBytes, kMaxSeedFileName));
  const auto refused = [&file](const std::string& why) {
    return std::invalid_argument(file + ": " + why + " (is it an eval --json result?)");
  };
  if (j.is_discarded()) throw refused("not JSON");
  EvalFileKind kind;
  try {
    kind = eval_file_kind(j);
  } catch (const std::invalid_argument& e) {
    throw refused(e.what());
  }
  if (kind.checkpoints)
    throw std::invalid_argument(file +
                                ": holds the eval of several checkpoints (eval --checkpoints); "
                                "--redraw draws the eval of one checkpoint");
  try {
    switch (kind.task) {
      case EvalTask::kKv:
      case EvalTask::kPasskey:
        return render_depth_eval_figures(depth_eval_record_from_json(j), plot);
      case EvalTask::kNumber:
      case EvalTask::kLetter:
        return render_figure(eval_figure(hop_eval_record_from_json(j)), plot);
      case EvalTask::kText:
        break;
    }
  } catch (const std::invalid_argument& e) {
    throw refused(e.what());
  }
  throw std::invalid_argument(file +
                              ": a text run's eval; --redraw draws kv, passkey and hop (number, "
                              "letter) evals");
}

}  // namespace

void register_train(CLI::App& app, Action* selected) {
  auto a = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand("train", torch_command_description("train"));
  add_output_option(cmd, "-o,--out", a->out, "run directory to create");
  add_path_option(cmd, "--resume", a->resume,
                  "continue this run directory from its latest checkpoint (config from the run)");
  add_path_option(cmd, "--config", a->config_file,
                  "JSON file with any of the fields below (flags override it)");
  add_path_option(cmd, "--redraw", a->redraw,
                  "a finished run's metrics.jsonl: draw its training figures again at --plot "
                  "STEM from it and the train.json beside it (P-metrics.jsonl: P-train.json), "
                  "training nothing");
  add_output_option(cmd, "--plot", a->plot, "with --redraw: the figures' stem (STEM_accuracy...)");
  // Help shows the defaults of the task asked for: `train --task text --help` the text run's.
  auto options =
      std::make_shared<std::vector<std::pair<const FieldRow<TrainConfig>*, CLI::Option*>>>();
  const auto show_defaults = [options](Task task) {
    const TrainConfig defaults = TrainConfig::defaults(task);
    for (const auto& [row, option] : *options) option->default_str(shown_default(*row, defaults));
  };
  for (const FieldRow<TrainConfig>& row : train_config_fields()) {
    // -L as `tasks` and `theory` spell it.
    const std::string flag = row.name == "length" ? "-L," + row.flag : row.flag;
    if (row.type == "BOOL") {
      cmd->add_flag_callback(
          flag, [a, f = row.name] { a->values[f] = "true"; }, row.help);
      continue;
    }
    CLI::Option* option = cmd->add_option_function<std::string>(
        flag,
        [a, f = row.name, show_defaults](const std::string& v) {
          a->values[f] = v;
          if (f != "task") return;
          try {
            show_defaults(parse_task(v));
          } catch (const std::invalid_argument&) {  // refused with its message when it runs
          }
        },
        row.help);
    option->type_name(row.type);
    options->emplace_back(&row, option);
  }
  show_defaults(Task::kNumber);
  add_memory_options(cmd, &a->parsed, &a->attention, &a->memory_budget_gb);
  a->parsed.add(cmd, "--rank-timeout", &a->rank_timeout,
                "data-parallel runs (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT set, as `posbias "
                "launch` and torchrun do): seconds a rank waits for the others before it stops "
                "with one line");
  cmd->callback([a, selected] {
    *selected = [a] {
      a->parsed.parse();
      if (!a->redraw.empty() || !a->plot.empty()) {
        if (a->redraw.empty()) throw std::invalid_argument("--plot goes with --redraw METRICS");
        if (a->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        if (!a->out.empty() || !a->resume.empty() || !a->config_file.empty() || !a->values.empty())
          throw std::invalid_argument(
              "--redraw trains nothing; give no --out, --resume, --config or training flags");
        return redraw_training_figures(a->redraw, a->plot);
      }
      TrainOptions o = train_options(*a);
      o.ranks = rank_env_from_environment();
      const TrainResult r = run_training(o);
      if (r.rank == 0)
        std::fprintf(stderr, "posbias train: %lld steps, %.1f s of training; see %s\n",
                     static_cast<long long>(r.summary.steps), r.summary.train_seconds,
                     o.run_dir.c_str());
    };
  });
}

namespace {

// A hop run's options: EvalOptions{}'s where `o` leaves a value unset.
EvalOptions hop_eval_options(const EvalCommandOptions& o) {
  EvalOptions h;
  set_shared_eval_options(o, h);
  h.hops = o.hops;
  h.controls = o.controls;
  return h;
}

// eval of the run's task: kv, passkey by depth x length (given --depths, --lengths,
// --effective-threshold or --csv), text, else hop; an option the task does not take is refused in
// one line. `csv_given`: --csv was given.
void run_eval_command(const EvalCommandOptions& o, bool csv_given) {
  if (!o.hops.empty() && (is_kv_run(o.run) || is_text_run(o.run)))
    throw std::invalid_argument("--hops applies to hop runs (number, letter) only");
  if (o.calibrate_strength && !o.calibrate)
    throw std::invalid_argument("--calibrate-strength needs --calibrate");
  if (o.calibrate && !is_kv_run(o.run))
    throw std::invalid_argument(
        "--calibrate applies to kv runs only (its content-free input is kv's filler '_')");
  if (is_kv_run(o.run)) {
    run_kv_eval(depth_eval_options(o));
    return;
  }
  const bool by_depth = o.depths || o.lengths || o.threshold || csv_given;
  if (by_depth && is_passkey_run(o.run)) {  // a text run with needles, by depth x length
    PasskeyEvalOptions pk;
    static_cast<DepthEvalOptions&>(pk) = depth_eval_options(o);
    run_passkey_eval(pk);
    return;
  }
  for (const auto& [given, name] : {std::pair{o.depths.has_value(), "--depths"},
                                    {o.threshold.has_value(), "--effective-threshold"},
                                    {csv_given, "--csv"}}) {
    if (given)
      throw std::invalid_argument(std::string(name) +
                                  " applies to kv and passkey (text with needles) runs only");
  }
  if (o.rope_scaling && is_text_run(o.run))
    throw std::invalid_argument(
        "--rope-scaling applies to kv, hop and passkey runs by depth (give --lengths or "
        "--depths), not to a text run's bits per byte");
  if (o.logn_scale && is_text_run(o.run))
    throw std::invalid_argument(
        "--logn-scale applies to kv, hop and passkey runs by depth (give --lengths or "
        "--depths), not to a text run's bits per byte");
  if (is_text_run(o.run)) {  // bits per byte and loss per position instead; what it shares
    const EvalOptions h = hop_eval_options(o);  // with a hop run's evaluation
    run_text_eval({h.run, h.checkpoints, h.json, h.plot, h.attention, h.memory_budget_gb});
    return;
  }
  run_eval(hop_eval_options(o));
}

}  // namespace

void register_eval(CLI::App& app, Action* selected) {
  auto o = std::make_shared<EvalCommandOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand("eval", torch_command_description("eval"));
  add_path_option(cmd, "--run", o->run,
                  "run directory from `posbias train` (a text run reports held-out bits per byte "
                  "and the loss per position; the hop options below do not apply); required "
                  "unless --redraw");
  auto redraw = std::make_shared<std::string>();
  add_path_option(cmd, "--redraw", *redraw,
                  "a stored eval --json result of one checkpoint (kv, passkey by depth, or a hop "
                  "run): draw its --plot figures again from the file alone, measuring nothing");
  CLI::Option* csv = nullptr;
  add_eval_option_flags(cmd, parsed.get(), o.get(), [&](const std::string& row) {
    if (row == "checkpoints") parsed->add_retired_checkpoint_option(cmd);
    if (row == "effective_threshold")
      csv = add_output_option(cmd, "--csv", o->csv, "kv: one row per depth x length cell");
  });
  add_memory_options(cmd, parsed.get(), &o->attention, &o->memory_budget_gb);
  add_output_option(cmd, "--json", o->json, "result JSON (default: stdout)");
  add_output_option(cmd, "--plot", o->plot,
                    "figure stem: accuracy against length per hop (kv: STEM-heatmap, the depth x "
                    "length heatmap, and STEM-depth, accuracy against depth per length)");
  cmd->callback([=] {
    std::string redraw_extra;  // the first option given beside --redraw and --plot
    for (const CLI::Option* opt : cmd->get_options()) {
      const std::string name = opt->get_name();
      if (opt->count() > 0 && name != "--redraw" && name != "--plot" && redraw_extra.empty())
        redraw_extra = name;
    }
    *selected = [=] {
      parsed->parse();
      if (!redraw->empty()) {
        if (!redraw_extra.empty())
          throw std::invalid_argument("--redraw draws from its file alone: drop " + redraw_extra);
        if (o->plot.empty()) throw std::invalid_argument("--redraw needs --plot STEM");
        return redraw_eval(*redraw, o->plot);
      }
      if (o->run.empty())
        throw std::invalid_argument("--run RUN_DIR is required (or --redraw FILE --plot STEM)");
      run_eval_command(*o, csv->count() > 0);
    };
  });
}

}  // namespace posbias::cli
