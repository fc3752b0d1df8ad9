#include "experiments/mech/mech_report.h"

#include <fmt/format.h>

#include <cmath>

#include "experiments/mech/discrepancy_command.h"
#include "experiments/mech/head_search_record.h"
#include "experiments/mech/head_search_sweep.h"
#include "experiments/mech/heads_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/mech/trained_discrepancy.h"
#include "posbias/mech/trained_discrepancy_record.h"

namespace posbias {
namespace {

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// The heads of one hop run: scores at every checkpoint, and on the last one each layer's
// attention mean-ablated (Number: also patched).
void add_heads(ReportSection& sec, const std::filesystem::path& mech, const HopsRun& run,
               const MechPreset& preset) {
  const std::string name(task_name(run.task));
  HeadsOptions h;
  h.run = run.run_dir.string();
  h.json = (mech / (name + "_heads.json")).string();
  h.plot = (mech / (name + "_heads")).string();
  h.causal.ablate = true;
  h.causal.patch = run.task == Task::kNumber;
  h.causal.count = preset.causal_count;
  const HeadsResult hr = run_heads(h);
  sec.numbers.push_back({name + ": positional-pure / symbolic-pure heads at the last checkpoint",
                         join(hr.final_heads(HeadLabel::kPositional)) + " / " +
                             join(hr.final_heads(HeadLabel::kSymbolic))});
  sec.numbers.push_back(
      {name + ": head scores over " + std::to_string(hr.checkpoints.size()) + " checkpoints, time",
       fmt::format("{:.1f} s", hr.seconds)});
  sec.figures.push_back({"mech/" + name + "_heads",
                         name + " run: positional and symbolic score per layer (rows) at each "
                                "checkpoint (columns)."});
  const AblationResult& a = *hr.causal->ablation;
  // The layer whose ablation costs the most accuracy over all hops at the first length.
  std::size_t worst = 0;
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    if (a.ablated[i][0].all() < a.ablated[worst][0].all()) worst = i;
  }
  sec.numbers.push_back(
      {fmt::format("{}: accuracy at {} tokens, all hops, unablated / with the costliest layer "
                   "(L{}) mean-ablated",
                   name, a.lengths[0], a.layers[worst]),
       fmt::format("{:.2f} / {:.2f}", a.baseline[0].all(), a.ablated[worst][0].all())});
  sec.figures.push_back({"mech/" + name + "_heads_ablation",
                         name + " run, last checkpoint: exact match per hop and length (columns) "
                                "with one layer's attention output mean-ablated (rows; none = "
                                "the model as trained)."});
  if (run.task == Task::kNumber) {
    sec.figures.push_back(
        {"mech/" + name + "_heads_patching",
         "number run: the fraction of 1-hop pairs whose answer moves to the corrupted input's "
         "when one layer's attention output is patched from it."});
  }
  sec.data.push_back({"mech/" + name + "_heads.json",
                      name + ": scores per checkpoint, layer, head; ablation (and patching)"});
}

}  // namespace

ReportSection mech_report_section(const std::filesystem::path& dir, const MechPreset& preset,
                                  const HopsSection& hops) {
  ReportSection sec;
  sec.id = "mech";
  sec.title = "Mechanisms: positional and symbolic heads, and the discrepancy theory";
  sec.paragraphs = {
      fmt::format(
          "Head scores: for each layer, swap the layer's input hidden states at two earlier "
          "positions (position ids kept), recompute that layer, and compare the query's new "
          "attention on the two keys with the old one. Positional = it stayed with the positions, "
          "symbolic = it followed the content; pairs are weighted by softmax(|a_i - a_j| / {}), "
          "so the pair the head separates most decides. A head is positional-pure with "
          "positional >= 0.9 and symbolic <= 0.5 (and the reverse for symbolic). Layers are "
          "0-based.",
          HeadsOptions{}.tau),
      "Discrepancy is the query's top attention logit minus the second. The index "
      "construction (attend k back, 2-D RoPE at angle theta = pi/n) has gap 1 - cos(pi/n), about "
      "pi^2/(2n^2): it shrinks as n^-2, so a positional head needs ever finer angles. The "
      "retrieval construction (attend to the matching symbol, theta = 0) keeps the symbol gap 1 - "
      "cos(omega) at every n; with rotation theta > 0 it degrades and fails once n theta passes "
      "the symbol spacing. The reflexive construction (the query attends to itself by position) "
      "has the index gap. All three run as real attention layers on the tasks' own inputs. The "
      "head search asks whether a whole RoPE head, every frequency and weight free, can beat "
      "the index construction: the best worst-case gap it finds is a lower bound on what such "
      "a head can reach."};
  const std::filesystem::path mech = dir / "mech";
  ensure_directory(mech);

  for (const HopsRun& run : hops.runs) add_heads(sec, mech, run, preset);

  std::vector<SweepResult> sweeps;
  for (const auto& [fn, theta] :
       std::vector<std::pair<Construction, double>>{{Construction::kIndex, NAN},
                                                    {Construction::kRetrieval, NAN},
                                                    {Construction::kRetrieval, 5e-4},
                                                    {Construction::kReflexive, NAN}}) {
    ConstructionSweep s;
    s.function = fn;
    s.theta = theta;
    s.count = preset.construction_count;
    sweeps.push_back(sweep_construction(s));
  }
  const SweepResult &index = sweeps[0], &retrieval = sweeps[1], &rotated = sweeps[2],
                    &reflexive = sweeps[3];
  nlohmann::json sweeps_json = nlohmann::json::array();
  for (const SweepResult& s : sweeps) sweeps_json.push_back(to_json(s));
  write_file_atomic(mech / "constructions.json", sweeps_json.dump(2) + "\n");
  render_figure(construction_figure(sweeps), mech / "constructions");
  double spread = 0;
  const double base = retrieval.points.front().discrepancy_min;
  for (const SweepPoint& p : retrieval.points)
    spread = std::max(spread, std::abs(p.discrepancy_min - base));
  sec.numbers.push_back(
      {fmt::format("index construction: log-log slope of the gap over n = {}..{} (target -2)",
                   SweepResult::kSlopeFrom, SweepResult::kSlopeTo),
       fmt::format("{:.4f}", index.slope.value)});
  sec.numbers.push_back(
      {fmt::format("retrieval construction, theta = 0: gap at n = {}..{}, largest deviation",
                   retrieval.points.front().length, retrieval.points.back().length),
       fmt::format("{:.6f}, {:.1e}", base, spread)});
  sec.numbers.push_back(
      {fmt::format("reflexive construction: log-log slope of the gap over n = {}..{} (target -2)",
                   SweepResult::kSlopeFrom, SweepResult::kSlopeTo),
       fmt::format("{:.4f}", reflexive.slope.value)});
  sec.numbers.push_back({fmt::format("retrieval construction, theta = {}: accuracy at n = {}",
                                     rotated.theta, rotated.points.back().length),
                         fmt::format("{:.2f}", rotated.points.back().accuracy)});
  sec.figures.push_back({"mech/constructions",
                         "Constructions: measured gap (min over task inputs) against n beside the "
                         "bounds, with accuracy on the right axis."});
  sec.data.push_back({"mech/constructions.json", "constructions: gap, accuracy and bound per n"});

  // Can a whole RoPE head do better than the index construction? The search, head dim 8.
  HeadSearchSweep search;
  search.lengths = preset.search_lengths;
  search.search.steps = preset.search_steps;
  const HeadSearchSweepResult found = sweep_head_search(search);
  const HeadSearchRecord record = head_search_record(found);
  write_file_atomic(mech / "head_search.json", to_json(record).dump(2) + "\n");
  render_figure(head_search_figure(record), mech / "head_search");
  const HeadSearchPoint& last = found.points.back();
  sec.numbers.push_back(
      {fmt::format("index head search (head dim {}, free frequencies): best gap at n = {} "
                   "against the construction's",
                   search.search.head_dim, last.length),
       fmt::format("{:.3e} / {:.3e}", last.best_gap, last.construction_gap)});
  sec.figures.push_back({"mech/head_search",
                         "Index head search: the best worst-case gap found for a whole RoPE head "
                         "(every frequency and weight free) against n, beside the construction, "
                         "the best one-frequency head and the bound pi^2/(2n^2)."});
  sec.data.push_back({"mech/head_search.json", "head search: best gap per n, exponent"});

  for (const HopsRun& run : hops.runs) {
    const std::string name(task_name(run.task));
    TrainedDiscrepancyOptions t;
    t.run = run.run_dir.string();
    t.lengths = preset.discrepancy_lengths;
    t.count = preset.discrepancy_count;
    const TrainedDiscrepancyResult r = measure_trained_discrepancy(t);
    write_file_atomic(mech / (name + "_discrepancy.json"),
                      to_json(trained_discrepancy_record(r)).dump(2) + "\n");
    render_figure(trained_discrepancy_figure(r), mech / (name + "_discrepancy"));
    for (const KeyHeadGaps& head : r.heads) {
      sec.numbers.push_back(
          {fmt::format("{}: most {} head L{}, median gap at {} / {}", name,
                       key_head_kind_name(head.kind), head.layer, head.points.front().length,
                       head.points.back().length),
           fmt::format("{:.3f} / {:.3f}", head.points.front().median, head.points.back().median)});
    }
    sec.figures.push_back({"mech/" + name + "_discrepancy",
                           name + " model: key-head discrepancy against input length, with its "
                                  "accuracy (right axis)."});
    sec.data.push_back({"mech/" + name + "_discrepancy.json", name + ": key-head gaps per length"});
  }
  return sec;
}

}  // namespace posbias
