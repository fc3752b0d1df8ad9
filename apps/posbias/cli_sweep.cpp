// `posbias sweep plan|run|status|collect`: grids of runs for Slurm array jobs or this machine.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "commands.h"
#include "field_flags.h"
#include "posbias/cluster/sweep.h"
#include "posbias/cluster/sweep_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/json_read.h"

namespace posbias::cli {
namespace {

struct SweepArgs {
  std::string grid, dir, json, redraw;
  SweepRunOptions run;
  CollectOptions collect;
  ParsedOptions parsed, collect_parsed;
};

}  // namespace

void register_sweep(CLI::App& app, Action* selected) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Grids of runs of any posbias command (options × seeds) as one Slurm array job or on this "
      "machine: plan a directory, run it (sbatch DIR/sweep.sbatch, or bash DIR/run-local.sh "
      "--jobs N), watch it, and collect the results with seed intervals. Every run is "
      "idempotent: done runs are skipped and killed ones resumed.");
  sweep->require_subcommand(1);

  CLI::App* plan = sweep->add_subcommand(
      "plan",
      "Expand GRID.json ({\"command\": [...], \"grid\": {OPTION: [values]}, \"seeds\": [...], "
      "\"resume\": {\"when\": FILE, \"command\": [...]}, \"result\": FILE, \"slurm\": {...}}; "
      "{run} stands for a run's directory) into DIR: manifest.json, sweep.sbatch, run-local.sh");
  add_path_option(plan, "grid", a->grid, "GRID.json")->required();
  add_output_option(plan, "-o,--out", a->dir, "sweep directory")->required();
  plan->callback([a, selected] {
    *selected = [a] {
      if (!std::filesystem::exists(a->grid))
        throw std::invalid_argument("cannot open GRID.json '" + a->grid + "'");
      // Within a limit, and a regular file only (a FIFO would block).
      const std::string text = read_bounded_file(a->grid, std::uintmax_t{64} << 20, "64 MiB grid");
      nlohmann::json j;
      try {
        j = parse_json(text, a->grid);
      } catch (const nlohmann::json::exception&) {
        throw std::invalid_argument("'" + a->grid + "' is not valid JSON");
      }
      const SweepGrid grid = sweep_grid_from_json(j);
      const SweepPlan p = expand_sweep(grid, a->dir, command_options(sweep_command(grid)));
      write_sweep(p, a->dir);
      std::fprintf(stderr,
                   "posbias sweep: %zu runs in %s; submit with sbatch %s/sweep.sbatch or run "
                   "here with bash %s/run-local.sh --jobs N\n",
                   p.runs.size(), a->dir.c_str(), a->dir.c_str(), a->dir.c_str());
    };
  });

  CLI::App* run = sweep->add_subcommand(
      "run",
      "Run one run of a planned sweep (what each array task does): skip it when done, "
      "resume it when started");
  add_path_option(run, "dir", a->dir, "sweep directory")->required();
  FieldFlagWords index_words;
  index_words.required_flags = true;
  add_field_flags(run, &a->parsed, sweep_run_option_fields(), a->run, &a->run, "sweep run option",
                  index_words);
  run->callback([a, selected] {
    *selected = [a] {
      a->parsed.parse();
      const int code = run_sweep_entry(a->dir, a->run.index);
      if (code != 0) throw ExitQuietly{code == 2 ? 2 : 1};
    };
  });

  CLI::App* status = sweep->add_subcommand(
      "status",
      "Count the runs of a sweep that are done, started (running or killed), pending "
      "and failed; list those not done");
  add_path_option(status, "dir", a->dir, "sweep directory")->required();
  add_output_option(status, "--json", a->json, "the state of every run as JSON");
  status->callback([a, selected] {
    *selected = [a] {
      const SweepStatus s = sweep_status(read_sweep(a->dir));
      for (const SweepRunStatus& row : s.states) {
        if (row.state == RunState::kDone) continue;
        std::string values;
        for (const auto& [k, v] : row.values) values += " " + k + " " + v;
        std::printf("run %d %s%s\n", row.index, to_string(row.state), values.c_str());
      }
      std::printf("%d runs: %d done, %d started, %d pending, %d failed\n", s.runs, s.done,
                  s.started, s.pending, s.failed);
      if (!a->json.empty()) write_file_atomic(a->json, to_json(s).dump(2) + "\n");
    };
  });

  CLI::App* collect = sweep->add_subcommand(
      "collect",
      "Gather every done run's result file into one JSON and CSV, with each metric's "
      "seed mean and 95% t interval per grid point, and a figure with seed bands");
  add_path_option(collect, "dir", a->dir, "sweep directory");
  FieldFlagWords metric_words;
  metric_words.lists = {{"metrics", '\0'}};
  add_field_flags(collect, &a->collect_parsed, collect_option_fields(), a->collect, &a->collect,
                  "collect option", metric_words);
  add_output_option(collect, "--json", a->collect.json, "result JSON (default: stdout)");
  add_output_option(collect, "--csv", a->collect.csv, "one row per run: index, values, metrics");
  add_output_option(collect, "--plot", a->collect.plot,
                    "figure stem: the first metric against the first grid axis");
  add_path_option(collect, "--redraw", a->redraw,
                  "a stored collect --json result: draw its --plot figure again from the "
                  "file alone (instead of DIR), collecting nothing");
  collect->callback([a, collect, selected] {
    if (a->redraw.empty() == a->dir.empty())
      throw CLI::ValidationError("give the sweep directory DIR, or --redraw FILE --plot STEM");
    const bool metrics = collect->get_option("--metric")->count() > 0;  // read by parse()
    if (!a->redraw.empty() &&
        (a->collect.plot.empty() || metrics || !a->collect.json.empty() || !a->collect.csv.empty()))
      throw CLI::ValidationError(
          "--redraw takes --plot STEM and nothing else (the file names its metrics)");
    *selected = [a] {
      a->collect_parsed.parse();
      if (!a->redraw.empty()) {
        render_sweep_figure(read_sweep_collection(a->redraw), a->collect.plot);
        std::fprintf(stderr, "posbias sweep: %s redrawn as %s\n", a->redraw.c_str(),
                     a->collect.plot.c_str());
        return;
      }
      const SweepCollection c = collect_sweep(read_sweep(a->dir), a->collect);
      if (a->collect.json.empty()) std::printf("%s\n", to_json(c).dump(2).c_str());
      std::fprintf(stderr, "posbias sweep: collected %lld runs (%d not done)\n",
                   static_cast<long long>(c.collected), c.not_done);
    };
  });
}

}  // namespace posbias::cli
