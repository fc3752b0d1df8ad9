#include "experiments/birth/birth_report.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "experiments/birth/birth.h"
#include "experiments/birth/named_birth_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/theory/fit.h"
#include "posbias/theory/shares_summary.h"

namespace posbias {
namespace {

std::string ci(const FitResult& f) {
  if (std::isnan(f.alpha_ci_low)) return fmt::format("{:.3f}", f.alpha);
  return fmt::format("{:.3f} [{:.3f}, {:.3f}]", f.alpha, f.alpha_ci_low, f.alpha_ci_high);
}

}  // namespace

ReportSection birth_report_section(const std::filesystem::path& report_dir,
                                   const BirthPreset& preset) {
  const std::filesystem::path dir = report_dir / "birth";
  ensure_directory(dir);
  ReportSection sec;
  sec.id = "birth";
  sec.title = "Influence at birth: measured profiles of real architectures";
  sec.paragraphs = {
      "Each model is built at its Hugging Face initialization, fed Gaussian input embeddings with "
      "the embedding init std, and measured exactly: p_j = ||dy_q/dx_j||_F for the last token q, "
      "from all d cotangents propagated in one batched linearized backward pass, averaged over " +
          std::to_string(preset.measurements.front().options.seeds) +
          " seeds (weights and inputs redrawn).",
      "The headline is a prediction with nothing fitted to the profile: from the same forward "
      "passes, each layer's attention-branch strength α̂_l (the value path's Jacobian gain g over "
      "the identity path, α̂ = g/(1+g)) goes into the theory's product of (1-α̂_l) I + α̂_l A with "
      "the uniform causal A, and into the rollout with each layer's measured attention. Both are "
      "scored on every position, the query included, after normalizing to unit sum: the median "
      "|log10(measured/predicted)| (0.10 is 26% per position). Then five models are scored on "
      "held-out seeds (fit on even seeds, score on odd ones): the fitted theory (α and gain), the "
      "no-fit theory, the rollout, a power law and an exponential.",
      "The Qwen2-style model is measured with RoPE and with no positional encoding: the profile is "
      "the same, as the theory predicts (attention is uniform at init, so rotations of q and k do "
      "not matter)."};
  sec.paragraphs.push_back(
      "The U by its parts: each profile's share of the influence in four regions that do not "
      "overlap (primacy: positions 0..7; middle: the middle fifth of 0..L-2; recency: the 8 "
      "positions before the query; the query), and the U test: the verdict is U only when the "
      "middle's per-position share is below both end windows', with the 95% Student-t interval "
      "over seeds of each log10 difference below 0. The query is not an end window: a profile "
      "that decays to a minimum before the query and spikes at the query is not a U.");
  sec.paragraphs.push_back("This report ran the " + preset.name + " preset (" + preset.describe() +
                           "); `posbias reproduce --full` runs the full one (" +
                           BirthPreset::full().describe() + "), the runs docs/birth.md shows.");
  const std::vector<BirthMeasurement>& measurements = preset.measurements;
  nlohmann::json all = nlohmann::json::array();
  std::vector<BirthResult> results;
  for (const BirthMeasurement& model : measurements) {
    BirthResult r = measure_birth(model.options);
    all.push_back(fields_to_json(named_birth_record_fields(),
                                 NamedBirthRecord{{birth_record(r)}, model.name}));
    write_file_atomic(dir / (model.file + ".csv"), birth_csv(r));
    render_figure(
        birth_figure(r, model.name + " at init (" + preset.describe() + "): measured vs theory"),
        dir / model.file);
    const ShapeMetrics& nofit = r.nofit->score.at_mean;
    sec.numbers.push_back(
        {model.name + ": no-fit theory, median / max |log10 error|, W1/(L-1), argmin measured vs "
                      "predicted",
         fmt::format("{:.3f} [{:.3f}, {:.3f}] / {:.2f} / {:.4f}, {} vs {}",
                     nofit.median_abs_log10_error, r.nofit->score.median_abs_log10_error.low,
                     r.nofit->score.median_abs_log10_error.high, nofit.max_abs_log10_error,
                     nofit.w1, nofit.argmin_measured, nofit.argmin_predicted)});
    if (r.rollout) {
      sec.numbers.push_back(
          {model.name + ": rollout, median / max |log10 error|",
           fmt::format("{:.3f} / {:.2f}", r.rollout->score.at_mean.median_abs_log10_error,
                       r.rollout->score.at_mean.max_abs_log10_error)});
    }
    std::string heldout;
    for (const ModelScore& m : r.comparison)
      heldout += fmt::format("{}{} {:.3f}", heldout.empty() ? "" : ", ", m.model,
                             m.heldout.median_abs_log10_error);
    if (!heldout.empty())
      sec.numbers.push_back({model.name + ": held-out median |log10 error| per model", heldout});
    sec.numbers.push_back({model.name + ": fitted theory (" + to_string(r.fit_spec.paths) +
                               " paths), α [95% bootstrap CI]; attention entropy / uniform",
                           fmt::format("{}; {:.5f}", ci(r.fit), r.entropy_ratio)});
    const SharesOverSeeds shares = shares_over_seeds(r.profile_seeds);
    sec.numbers.push_back(
        {model.name + ": shares of the influence, mean [95% t interval over seeds]",
         shares_text(shares)});
    sec.numbers.push_back({model.name + ": U test", u_test_text(shares.u)});
    results.push_back(std::move(r));
  }
  const ShapeMetrics rope_vs_none = shape_metrics(results[1].profile, results[2].profile);
  sec.numbers.push_back({"Qwen2 style: median / max |log10| between the RoPE and no-RoPE profiles",
                         fmt::format("{:.4f} / {:.3f}", rope_vs_none.median_abs_log10_error,
                                     rope_vs_none.max_abs_log10_error)});
  write_file_atomic(dir / "birth_summary.json", all.dump(1) + "\n");
  // RoPE and no RoPE on one figure.
  Figure overlay;
  Panel p;
  p.title = "Qwen2 style at init: RoPE vs no positional encoding";
  p.xlabel = "key position";
  p.ylabel = "influence ||dy_q/dx_j||";
  p.log10_y = true;
  for (std::size_t i = 1; i < 3; ++i) {
    Series s;
    s.title = measurements[i].name;
    s.style = i == 1 ? "lines" : "points pt 7 ps 0.5";
    for (std::size_t j = 0; j < results[i].profile.size(); ++j) {
      s.x.push_back(static_cast<double>(j));
      s.y.push_back(std::log10(results[i].profile[j]));
    }
    p.series.push_back(s);
  }
  overlay.panels = {p};
  render_figure(overlay, dir / "birth_rope_vs_none");
  for (const BirthMeasurement& model : measurements)
    sec.figures.push_back(
        {"birth/" + model.file, model.name + ": measured profile (seed band) against the no-fit "
                                             "theory, the rollout and the fitted theory."});
  sec.figures.push_back(
      {"birth/birth_rope_vs_none", "The Qwen2-style profile with and without RoPE."});
  for (const BirthMeasurement& model : measurements)
    sec.data.push_back(
        {"birth/" + model.file + ".csv", model.name + ": mean and per-seed profiles"});
  sec.data.push_back(
      {"birth/birth_summary.json", "every measurement with its fit, config, timing and machine"});
  return sec;
}

}  // namespace posbias
