#include "experiments/mech/mech_report.h"

#include <fmt/format.h>

#include <cmath>

#include "experiments/mech/discrepancy_command.h"
#include "experiments/mech/heads_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/mech/trained_discrepancy.h"

namespace posbias {
namespace {

std::string join(const nlohmann::json& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n.get<std::string>();
  return out.empty() ? "none" : out;
}

}  // namespace

ReportSection mech_report_section(const std::filesystem::path& dir, bool full) {
  ReportSection sec;
  sec.id = "mechanisms";
  sec.title = "Mechanisms: positional and symbolic heads, and the discrepancy theory";
  sec.paragraphs = {
      "Head scores (DESIGN.md section 4): for each layer, swap the layer's input hidden states at "
      "two earlier positions (position ids kept), recompute that layer, and compare the query's "
      "new attention on the two keys with the old one. Positional = it stayed with the "
      "positions, symbolic = it followed the content; pairs are weighted by softmax(|a_i - a_j| / "
      "1e-4), so the pair the head separates most decides. A head is positional-pure with "
      "positional >= 0.9 and symbolic <= 0.5 (and the reverse for symbolic). Layers are 0-based.",
      "Discrepancy (section 5) is the query's top attention logit minus the second. The index "
      "construction (attend k back, 2-D RoPE at angle theta = pi/n) has gap 1 - cos(pi/n), about "
      "pi^2/(2n^2): it shrinks as n^-2, so a positional head needs ever finer angles. The "
      "retrieval construction (attend to the matching symbol, theta = 0) keeps the symbol gap 1 - "
      "cos(omega) at every n; with rotation theta > 0 it degrades and fails once n theta passes "
      "the symbol spacing. Both run as real attention layers on the tasks' own inputs."};
  const std::filesystem::path hop = dir / "hop", mech = dir / "mech";
  ensure_directory(mech);

  for (const char* task : {"number", "letter"}) {
    const std::string name = task;
    HeadsOptions h;
    h.run = (hop / name).string();
    h.json = (mech / (name + "_heads.json")).string();
    h.plot = (mech / (name + "_heads")).string();
    const nlohmann::json hr = run_heads(h);
    sec.numbers.push_back(
        {name + ": positional-pure / symbolic-pure heads at the last checkpoint",
         join(hr["final"]["positional"]) + " / " + join(hr["final"]["symbolic"])});
    sec.numbers.push_back({name + ": head scores over " + std::to_string(hr["checkpoints"].size()) +
                               " checkpoints, time",
                           fmt::format("{:.1f} s", hr["seconds"].get<double>())});
    sec.figures.push_back({"mech/" + name + "_heads",
                           name + " run: positional and symbolic score per layer (rows) at each "
                                  "checkpoint (columns)."});
    sec.data.push_back(
        {"mech/" + name + "_heads.json", name + ": scores per checkpoint, layer, head"});
  }

  std::vector<nlohmann::json> sweeps;
  for (const auto& [fn, theta] : std::vector<std::pair<std::string, double>>{
           {"index", NAN}, {"retrieval", NAN}, {"retrieval", 5e-4}}) {
    ConstructionSweep s;
    s.function = fn;
    s.theta = theta;
    s.count = full ? 64 : 16;
    sweeps.push_back(sweep_construction(s));
  }
  write_file_atomic(mech / "constructions.json", nlohmann::json(sweeps).dump(2) + "\n");
  render_figure(construction_figure(sweeps), mech / "constructions");
  double spread = 0, base = sweeps[1]["points"][0]["discrepancy_min"].get<double>();
  for (const auto& p : sweeps[1]["points"])
    spread = std::max(spread, std::abs(p["discrepancy_min"].get<double>() - base));
  sec.numbers.push_back(
      {"index construction: log-log slope of the gap over n = 64..4096 (target -2)",
       fmt::format("{:.4f}", sweeps[0]["slope"]["value"].get<double>())});
  sec.numbers.push_back({"retrieval construction, theta = 0: gap at n = 9..4096, largest deviation",
                         fmt::format("{:.6f}, {:.1e}", base, spread)});
  sec.numbers.push_back(
      {"retrieval construction, theta = 5e-4: accuracy at n = 4096",
       fmt::format("{:.2f}", sweeps[2]["points"].back()["accuracy"].get<double>())});
  sec.figures.push_back({"mech/constructions",
                         "Constructions: measured gap (min over task inputs) against n beside the "
                         "bounds, with accuracy on the right axis."});
  sec.data.push_back({"mech/constructions.json", "constructions: gap, accuracy and bound per n"});

  for (const char* task : {"number", "letter"}) {
    const std::string name = task;
    TrainedDiscrepancyOptions t;
    t.run = (hop / name).string();
    if (!full) t.lengths = {17, 32, 64, 128, 256};
    t.count = full ? 100 : 40;
    const nlohmann::json r = measure_trained_discrepancy(t);
    write_file_atomic(mech / (name + "_discrepancy.json"), r.dump(2) + "\n");
    render_figure(trained_discrepancy_figure(r), mech / (name + "_discrepancy"));
    const std::string first = std::to_string(t.lengths.front()),
                      last = std::to_string(t.lengths.back());
    for (const auto& head : r["discrepancy"]) {
      sec.numbers.push_back(
          {fmt::format("{}: most {} head L{}, median gap at {} / {}", name,
                       head["kind"].get<std::string>(), head["layer"].get<int>(), first, last),
           fmt::format("{:.3f} / {:.3f}", head["points"].front()["median"].get<double>(),
                       head["points"].back()["median"].get<double>())});
    }
    sec.figures.push_back({"mech/" + name + "_discrepancy",
                           name + " model: key-head discrepancy against input length, with its "
                                  "accuracy (right axis)."});
    sec.data.push_back({"mech/" + name + "_discrepancy.json", name + ": key-head gaps per length"});
  }
  return sec;
}

}  // namespace posbias
