#include "experiments/mitigations/mitigations_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/mitigations/birth_remedies.h"
#include "experiments/mitigations/kv_remedies.h"
#include "experiments/mitigations/mitigations_summary.h"
#include "experiments/retrieval/kv_eval_command.h"
#include "experiments/retrieval/retrieval_flags.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/plot.h"
#include "posbias/runfiles/train_flags.h"
#include "posbias/theory/birth_flags.h"
#include "posbias/train/answer_influence.h"

namespace posbias {
namespace {

using EffectOf = std::optional<PairedEffect> RemedyRow::*;

// The section's summary.json: the preset and every row.
MitigationsSummary mitigations_summary(const MitigationsPreset& p, std::vector<RemedyRow> rows) {
  MitigationsSummary s;
  s.preset = p.name;
  s.describe = p.describe();
  s.seeds = p.seeds;
  s.scale =
      "per seed: remedy − baseline (influence shares: log10(remedy's share / baseline's)); mean "
      "and 95% Student-t interval over seeds";
  s.rows = std::move(rows);
  return s;
}

// One panel of effects: each row holding `effect` a named series at x = its rank (a bar at the
// mean, its 95% interval as a band cut to [−clip, clip]).
// `least`: the smallest half-height of the y range around 0, so that effects of 0 keep a readable
// axis.
Panel effects_panel(const std::string& title, const std::string& ylabel,
                    const std::vector<const RemedyRow*>& rows, EffectOf effect, double clip,
                    double least) {
  Panel p;
  p.title = plain_text(title);
  p.xlabel = "";  // the legend names each remedy
  p.ylabel = ylabel;
  double lo = -least, hi = least;  // the y range holds 0, the line of no change
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const SeedInterval& i = (rows[k]->*effect)->interval;
    Series s;
    s.title = plain_text(rows[k]->name);
    const double x = static_cast<double>(k + 1);
    s.x = {x - 0.3, x + 0.3};
    s.y = {i.mean, i.mean};
    s.line_width = 4;
    lo = std::min(lo, i.mean), hi = std::max(hi, i.mean);
    if (std::isfinite(i.low) && std::isfinite(i.high)) {
      const double l = std::max(i.low, -clip), h = std::min(i.high, clip);
      s.y_low = {l, l};
      s.y_high = {h, h};
      lo = std::min(lo, l), hi = std::max(hi, h);
    }
    p.series.push_back(std::move(s));
  }
  const double margin = 0.06 * (hi - lo);
  p.xmin = 0.5;
  p.xmax = static_cast<double>(rows.size()) + 0.5;
  p.ymin = lo - margin;
  p.ymax = hi + margin;
  return p;
}

// The rows holding every one of `effects` with a finite mean.
std::vector<const RemedyRow*> rows_with(const std::vector<RemedyRow>& rows,
                                        const std::vector<EffectOf>& effects) {
  std::vector<const RemedyRow*> out;
  for (const RemedyRow& r : rows)
    if (std::all_of(effects.begin(), effects.end(), [&](EffectOf e) {
          return (r.*e).has_value() && std::isfinite((r.*e)->interval.mean);
        }))
      out.push_back(&r);
  return out;
}

// The figures: at birth (one panel) and kv's middle depth at L and 2L (two panels, the same rows
// in the same order, so each remedy keeps its colour). Returns their stems' captions.
std::vector<ReportFigure> render_effects(const std::filesystem::path& dir, const std::string& rel,
                                         const MitigationsPreset& p,
                                         const std::vector<RemedyRow>& rows) {
  const std::string over = fmt::format("mean paired by seed, band: 95% t interval");
  std::vector<ReportFigure> out;
  const auto birth = rows_with(rows, {&RemedyRow::birth_middle});
  if (!birth.empty()) {
    Figure f;
    f.panels = {effects_panel("At birth: change of the middle fifth's share (" + over + ")",
                              "log10(remedy's share / baseline's)", birth, &RemedyRow::birth_middle,
                              10, 0.01)};
    f.width = 1000;
    f.height = 480;
    render_figure(f, dir / "birth_effects");
    out.push_back({rel + "/birth_effects",
                   "At birth: each remedy's log10 change of the middle fifth's share of the "
                   "influence against the same seeds without it (above 0: the middle gains)."});
  }
  const auto kv = rows_with(rows, {&RemedyRow::middle_at_length, &RemedyRow::middle_at_twice});
  if (!kv.empty()) {
    const std::int64_t l = p.baseline.length;
    Figure f;
    f.panels = {
        effects_panel(fmt::format("kv, middle depth, L = {}", l), "exact match: remedy − baseline",
                      kv, &RemedyRow::middle_at_length, 1, 0.1),
        effects_panel(fmt::format("kv, middle depth, 2L = {}", 2 * l),
                      "exact match: remedy − baseline", kv, &RemedyRow::middle_at_twice, 1, 0.1)};
    f.width = 1300;
    f.height = 720;
    render_figure(f, dir / "kv_effects");
    out.push_back({rel + "/kv_effects",
                   fmt::format("kv: each trained and inference-time remedy's change of the exact "
                               "match at the middle depth against the baseline, by seed, at the "
                               "training length and at 2L ({}; bands cut to [−1, 1]).",
                               over)});
  }
  return out;
}

std::string comma_list(const auto& values) {
  std::string out;
  for (const auto& v : values) out += fmt::format("{}{:g}", out.empty() ? "" : ",", double(v));
  return out;
}

// A shell line that prints one value of a JSON file (python3 reads it).
std::string json_value(const std::string& file, const std::string& expression) {
  return fmt::format(
      R"($(python3 -c 'import json, statistics; d = json.load(open("{}")); print({})'))", file,
      expression);
}

// The shell lines that make the section's files by hand, in the section's folder.
std::string commands_by_hand(const MitigationsPreset& p) {
  std::string out = "# At birth\n";
  for (const MitigationsBirthModel& m : p.birth_models) {
    const BirthOptions& o = m.options;
    const std::string b = "birth/" + m.file;
    out += fmt::format("posbias birth {} --json {}_plain.json\n", birth_flags(o), b);
    BirthOptions null_sink = o;
    null_sink.null_sink = p.null_sink;
    out += fmt::format("posbias birth {} --json {}_null_sink.json\n", birth_flags(null_sink), b);
    std::string alibis = "none";
    for (int n : p.design_alibi_heads) alibis += fmt::format(",heads:{}", n);
    std::string null_sinks;
    for (const auto& n : p.design_null_sinks)
      null_sinks += (null_sinks.empty() ? "" : ",") + (n ? fmt::format("{:g}", *n) : "none");
    out += fmt::format("A={}\n", json_value(b + "_plain.json",
                                            R"(round(statistics.mean(d["nofit"]["alpha"]), 2))"));
    out += fmt::format(
        "posbias theory design -L {} -H {} --paths quadrature --baseline-alpha $A --windows {} "
        "--alibis {} --sinks {} --null-sinks {} --alphas {} --ramps none --json "
        "{}_design_search.json\n",
        o.length, o.layers, comma_list(p.design_windows), alibis, comma_list(p.design_sinks),
        null_sinks, p.design_alphas.empty() ? "$A" : comma_list(p.design_alphas), b);
    // The search's first design birth can build, its options replacing the shape's --heads.
    BirthOptions heads, shape = o;
    heads.heads = o.heads;
    shape.heads = BirthOptions{}.heads;
    out += fmt::format(
        "D={}\n[[ $D == *--heads* ]] && H= || H=\"{}\"\n"
        "posbias birth {} $H $D --json {}_design.json\n",
        json_value(
            b + "_design_search.json",
            R"([o for o in d["operators"] if o["rank"] == d["confirm"][0]][0]["birth_options"])"),
        birth_flags(heads), birth_flags(shape), b);
  }
  out += fmt::format("posbias birth {} --json birth/bos_plain.json\n", birth_flags(p.bos));
  BirthOptions sink = p.bos;
  sink.length += 1;
  out += fmt::format("posbias birth {} --json birth/bos_sink.json\n", birth_flags(sink));
  std::string seeds, arms = "baseline";
  for (int s = 0; s < p.seeds; ++s) seeds += (s ? " " : "") + std::to_string(s);
  out += fmt::format("# kv: the baseline and each trained remedy, seeds {}\nfor s in {}; do\n",
                     seeds, seeds);
  out += fmt::format("  posbias train {} --seed $s --out kv/baseline/seed$s\n",
                     train_flags(p.baseline));
  for (const TrainedRemedy& r : p.trained) {
    out += fmt::format("  posbias train {} --seed $s --out kv/{}/seed$s\n", train_flags(r.config),
                       r.folder);
    arms += " " + r.folder;
  }
  out += fmt::format("done\nfor a in {}; do\n  for s in {}; do\n", arms, seeds);
  KvEvalOptions e;  // as the section evaluates each run (kv_remedies.cc)
  e.depths = p.depths;
  e.lengths = p.lengths;
  e.count = p.eval_count;
  const std::string eval = "posbias eval --run kv/$a/seed$s " + depth_eval_flags(e);
  out += fmt::format("    {} --json kv/$a/seed$s-eval.json\n", eval);
  AnswerInfluenceOptions influence;  // and measures the answer's influence
  influence.checkpoints = CheckpointSelection::last();
  influence.depths = p.influence_depths;
  influence.per_depth = p.influence_per_depth;
  out += fmt::format(
      "    posbias birth --run kv/$a/seed$s {} --json kv/$a/seed$s-influence.json\n  done\ndone\n",
      answer_influence_flags(influence));
  out += "# At inference, on the baseline runs\na=baseline\nfor s in " + seeds + "; do\n";
  for (const InferenceRemedy& r : p.inference)
    out += fmt::format("  {} {} --json kv/$a/seed$s-eval-{}.json\n", eval, r.flag, r.file);
  return out + "done";
}

std::vector<std::string> section_paragraphs(const MitigationsPreset& p) {
  const std::string scale =
      p.name == MitigationsPreset::full().name
          ? "This report ran the full preset (reproduce --full): " + p.describe() + "."
          : "This report ran the " + p.name + " preset (" + p.describe() +
                ") to stay fast: its models are tiny and barely trained, so the rows show what "
                "the section computes, not a finding about any remedy; `posbias reproduce "
                "--full` runs the full preset (" +
                MitigationsPreset::full().describe() + "), the shapes docs/mitigations.md uses.";
  return {
      "What fixes it: each remedy of position bias is put through the same measurements as its "
      "baseline, paired by seed. At birth, models at init with and without the remedy (the null "
      "sink, a BOS sink token, the best design the theory's inverse search finds that birth can "
      "build); after training, the kv retrieval baseline against the same command with one "
      "remedy option (BOS sink, null sink, middle-weighted loss, log-n scaling, randomized "
      "positions, PoSE); at inference, eval options on the baseline runs (RoPE position "
      "interpolation and NTK scaling, log-n scaling, attention calibration).",
      fmt::format(
          "Each cell is the mean over seeds of the paired difference d_s = remedy_s − "
          "baseline_s (for influence shares log10 of their ratio) with its 95% Student-t "
          "interval, then the verdict: helps when the interval excludes 0 on the side of less "
          "bias (a larger middle share or middle-depth accuracy, a smaller first-8 share), hurts "
          "on the other side, no effect when it holds 0. No verdict with fewer than {} seeds, "
          "nor on kv when a baseline seed's depth-averaged exact match at L is below {:g} (the "
          "task not learned); the depth-averaged accuracy and the seconds per step are reported, "
          "not judged. A cell with one seed says so and has no interval.",
          kVerdictSeeds, kLearnedGate),
      scale};
}

}  // namespace

ReportSection mitigations_report_section(const std::filesystem::path& report_dir,
                                         const MitigationsPreset& preset) {
  const std::string rel = "mitigations";
  const std::filesystem::path dir = report_dir / rel;
  ensure_directory(dir);
  const auto start = std::chrono::steady_clock::now();
  std::vector<RemedyRow> rows = measure_birth_remedies(dir / "birth", preset);
  KvRemedies kv = measure_kv_remedies(dir / "kv", preset);
  for (RemedyRow& r : kv.rows) rows.push_back(std::move(r));
  write_file_atomic(dir / "summary.json",
                    to_json(mitigations_summary(preset, rows)).dump(1) + "\n");

  ReportSection sec;
  sec.id = "mitigations";
  sec.title = "What fixes it: remedies of position bias, paired by seed";
  sec.paragraphs = section_paragraphs(preset);
  ReportTable table;
  table.caption = fmt::format(
      "Remedy × measurement: mean paired effect [95% t interval over seeds] and verdict; blank "
      "where the measurement does not apply. Birth: {} seeds; kv: {} seeds.",
      preset.birth_models.front().options.seeds, preset.seeds);
  table.header = {"remedy", "when", "option"};
  for (const RemedyMeasurement& m : remedy_measurements()) table.header.push_back(m.header);
  table.header.push_back("what the row measured");
  for (const RemedyRow& r : rows) {
    std::vector<std::string> cells = {r.name, r.when, r.option};
    for (const RemedyMeasurement& m : remedy_measurements()) {
      const auto& e = r.*m.effect;
      cells.push_back(e ? effect_cell(*e, m.effect == &RemedyRow::seconds_per_step ? 4 : 3) : "");
    }
    cells.push_back(r.measured);
    table.rows.push_back(std::move(cells));
  }
  sec.tables.push_back(std::move(table));
  sec.code.push_back(commands_by_hand(preset));
  sec.figures = render_effects(dir, rel, preset, rows);
  sec.numbers.push_back(
      {"wall time (births, design searches, training, evaluation and influence)",
       fmt::format(
           "{:.0f} s",
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())});
  std::string accuracy;
  for (double a : kv.baseline_accuracy)
    accuracy += fmt::format("{}{:.3f}", accuracy.empty() ? "" : ", ", a);
  const bool learned = baseline_learned(kv.baseline_accuracy);
  sec.numbers.push_back(
      {fmt::format("kv baseline: depth-averaged exact match at L = {}, per seed (the learned gate "
                   "of the verdicts: every seed at least {:g})",
                   preset.baseline.length, kLearnedGate),
       accuracy + (learned ? " (learned)" : " (not learned: no verdict on kv)")});
  sec.data.push_back(
      {rel + "/summary.json", "every row's per-seed differences, interval and verdict"});
  for (const MitigationsBirthModel& m : preset.birth_models) {
    sec.data.push_back({rel + "/birth/" + m.file + "_plain.json", m.name + " at init, plain"});
    sec.data.push_back(
        {rel + "/birth/" + m.file + "_null_sink.json", m.name + " at init, with the null sink"});
    sec.data.push_back(
        {rel + "/birth/" + m.file + "_design_search.json", m.name + ": the inverse-design search"});
  }
  return sec;
}

}  // namespace posbias
