#include "experiments/hops/ablation_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/hops/hop_compare.h"
#include "experiments/hops/hop_seed_files.h"
#include "posbias/core/atomic_file.h"
#include "posbias/runfiles/result_file.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// One way of encoding positions, applied to the hops section's training config.
struct PositionVariant {
  std::string id, label;
  TrainConfig config;
};

std::vector<PositionVariant> variants(const TrainConfig& base) {
  const int head_dims = base.d_model / base.heads;
  TrainConfig every = base, none = base;
  every.rotary_dim = head_dims;
  every.finalize();
  none.pos = PosEncoding::kNone;
  none.finalize();
  return {{"default",
           fmt::format("RoPE on {} of {} dims (the default)", base.rotary_dim, head_dims), base},
          {"rotary-every-dim", fmt::format("RoPE on every dim ({})", head_dims), every},
          {"nope", "no positional encoding (NoPE)", none}};
}

std::string accuracy_text(const SeedInterval& i) { return fmt::format("{:.3f}", i.mean); }

}  // namespace

ReportSection ablation_report_section(const std::filesystem::path& dir, const HopsPreset& preset,
                                      const HopsSection& hops) {
  ReportSection sec;
  sec.id = "ablation";
  sec.title = "What the positional encoding does: RoPE on few dims, on every dim, or none";
  const std::filesystem::path out = dir / "hops" / "ablation";
  ensure_directory(out);
  const std::int64_t longest = preset.ablation_lengths.back();
  sec.paragraphs = {
      fmt::format(
          "The hop model rotates {} of each head's {} dims with RoPE (base {:g}). Here each task "
          "is trained again, same preset, seed and steps, once with RoPE on every dim and once "
          "with no positional encoding at all (causal attention alone), and all three models "
          "are evaluated at {} tokens. A task that needs positions should fail without them; "
          "length generalization that rests on the unrotated dims should break when every dim "
          "rotates.",
          preset.letter.rotary_dim, preset.letter.d_model / preset.letter.heads,
          preset.letter.rope_theta, fmt::join(preset.ablation_lengths, ", ")),
      "One seed per variant at this scale. docs/hops.md gives the full-scale ablations (RoPE on "
      "16, 32, 64 and 128 dims, bases 1e4 to 1e6, no encoding) with intervals over training "
      "seeds."};
  for (const HopsRun& run : hops.runs) {
    const std::string task(task_name(run.task));
    std::vector<HopConfiguration> configurations;
    std::vector<double> crossings;
    for (const PositionVariant& v : variants(preset.config(run.task))) {
      std::filesystem::path run_dir = run.run_dir;
      if (v.id != "default") {
        TrainOptions o;
        o.config = v.config;
        o.run_dir = out / (task + "-" + v.id);
        o.resume = std::filesystem::exists(o.run_dir / "train.json");
        run_training(o);
        run_dir = o.run_dir;
      }
      const HopSummaryFile s =
          parse_hop_summary(read_result_json((run_dir / "summary.json").string()),
                            (run_dir / "summary.json").string());
      crossings.push_back(s.crossing_90.count(kAllHops) ? s.crossing_90.at(kAllHops) : NAN);
      EvalOptions e;
      e.run = run_dir.string();
      e.lengths = preset.ablation_lengths;
      e.count = preset.eval_count;
      e.json = (out / (task + "-" + v.id + "_eval.json")).string();
      run_eval(e);
      configurations.push_back({v.label, {e.json}});
    }
    const HopComparison comparison = compare_hop_configurations(configurations);
    write_hop_comparison(comparison, (out / (task + "-compare.json")).string(),
                         (out / (task + "-compare.csv")).string(), (out / task).string());
    for (std::size_t k = 0; k < comparison.configurations.size(); ++k) {
      const HopTable& t = comparison.accuracy[k];
      const std::size_t all = *t.all_hops();  // compare_hop_configurations requires it
      sec.numbers.push_back(
          {fmt::format("{}, {}: all hops ≥ 0.9 at step; accuracy at {} / {} tokens (chance {:.3f})",
                       task, comparison.configurations[k].label, t.lengths.front(), longest,
                       t.cells.back()[all].chance),
           fmt::format("{}; {} / {}",
                       std::isfinite(crossings[k]) ? fmt::format("{:.0f}", crossings[k])
                                                   : std::string("not reached"),
                       accuracy_text(t.cells.front()[all].accuracy.interval),
                       accuracy_text(t.cells.back()[all].accuracy.interval))});
    }
    sec.figures.push_back(
        {"hops/ablation/" + task + "_compare",
         task + " task: accuracy (all hops) against input length with RoPE on few dims, on "
                "every dim, and without positional encoding."});
    sec.data.push_back({"hops/ablation/" + task + "-compare.json",
                        task + ": accuracy[length][hop] and chance per variant"});
    sec.data.push_back(
        {"hops/ablation/" + task + "-compare.csv", task + ": one row per variant, length and hop"});
  }
  return sec;
}

}  // namespace posbias
