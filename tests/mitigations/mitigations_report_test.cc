// The mitigations section of the report on a micro preset (the quick one shrunk: tiny models at
// birth, 4 training steps, 2 seeds): one table row per remedy with the measurements its kind has,
// the per-seed differences paired by seed (the null sink's at birth recomputed here from the two
// birth files it wrote), "no verdict" with 2 seeds, summary.json read back by its record's table
// (mitigations_summary.h) to the same bytes, and the report's own check
// (tests/reproduce/mitigations_section_check.py, which the report test runs on the quick preset)
// passing on the written report; the section's commands by hand, run in a shell, write the same
// numbers.
#include "experiments/mitigations/mitigations_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../cli_run.h"
#include "experiments/mitigations/mitigations_summary.h"
#include "experiments/mitigations/presets.h"
#include "posbias/theory/profile_shares.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

MitigationsPreset micro_preset() {
  MitigationsPreset p = MitigationsPreset::quick();
  p.name = "micro";
  for (auto& m : p.birth_models) {
    m.options.layers = 2, m.options.d_model = 16, m.options.length = 40, m.options.seeds = 3;
    m.options.bootstrap = 20;
  }
  p.bos.length = 40, p.bos.seeds = 3, p.bos.bootstrap = 20;
  p.design_windows = {0, 16, 32};
  for (TrainConfig* c : {&p.baseline}) {
    c->steps = 4, c->eval_every = 2, c->checkpoint_every = 4, c->warmup = 1, c->batch = 8;
    c->eval_windows = 4;
  }
  for (TrainedRemedy& r : p.trained) {
    TrainConfig& c = r.config;
    c.steps = 4, c.eval_every = 2, c.checkpoint_every = 4, c.warmup = 1, c.batch = 8;
    c.eval_windows = 4;
  }
  p.eval_count = 4;
  p.influence_per_depth = 2;
  return p;
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

// log10 of the middle fifth's share, paired by seed, from two birth --json files.
std::vector<double> middle_change(const fs::path& base, const fs::path& remedy) {
  const auto a = read_json(base).at("profile_seeds"), b = read_json(remedy).at("profile_seeds");
  std::vector<double> out;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const double x = profile_shares(a[s].get<std::vector<double>>()).of(ShareRegion::kMiddle);
    const double y = profile_shares(b[s].get<std::vector<double>>()).of(ShareRegion::kMiddle);
    out.push_back(std::log10(y / x));
  }
  return out;
}

TEST(MitigationsReport, MicroPresetWritesItsSectionPairedBySeed) {
  const MitigationsPreset preset = micro_preset();
  const fs::path dir = scratch_path("posbias_mitigations_report", "report");
  const ReportSection sec = mitigations_report_section(dir, preset);
  EXPECT_EQ(sec.id, "mitigations");
  ASSERT_EQ(sec.tables.size(), 1u);
  ASSERT_EQ(sec.figures.size(), 2u);
  const std::string summary_text = slurp(dir / "mitigations" / "summary.json");
  const auto summary = nlohmann::json::parse(summary_text);
  // The file is the summary's table (mitigations_summary.h): read strictly, it writes its bytes.
  const MitigationsSummary record = fields_from_json(mitigations_summary_fields(), summary,
                                                     MitigationsSummary{}, "summary field");
  EXPECT_EQ(to_json(record).dump(1) + "\n", summary_text);
  const auto& rows = summary.at("rows");
  // Per model a null sink and (when the grid has one) a design; the BOS sink; every kv remedy.
  ASSERT_GE(rows.size(),
            preset.birth_models.size() + 1 + preset.trained.size() + preset.inference.size());
  EXPECT_EQ(sec.tables.front().rows.size(), rows.size());
  int trained = 0, inference = 0;
  for (const auto& row : rows) {
    const std::string when = row.at("when");
    if (when == "at birth") continue;
    (when == "trained" ? trained : inference) += 1;
    const auto& middle = row.at("middle_accuracy_L");
    EXPECT_EQ(middle.at("per_seed").size(), static_cast<std::size_t>(preset.seeds));
    EXPECT_EQ(middle.at("verdict"), "") << "2 seeds give no verdict";
    EXPECT_NE(middle.at("no_verdict").get<std::string>().find("2 seeds"), std::string::npos);
  }
  EXPECT_EQ(trained, static_cast<int>(preset.trained.size()));
  EXPECT_EQ(inference, static_cast<int>(preset.inference.size()));
  // The null sink's cell, paired by seed, from its two birth files.
  const fs::path birth = dir / "mitigations" / "birth";
  const auto want = middle_change(birth / "gpt2_plain.json", birth / "gpt2_null_sink.json");
  const auto got = rows.at(0).at("birth_middle_share").at("per_seed");
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t s = 0; s < want.size(); ++s) EXPECT_NEAR(got[s].get<double>(), want[s], 1e-12);
  EXPECT_GE(want.size(), 3u);
  EXPECT_FALSE(rows.at(0).at("birth_middle_share").at("verdict").get<std::string>().empty());

  Report report("mitigations");
  report.add(sec);
  report.write(dir);
  const CliResult check =
      run_shell("python3 " + std::string(POSBIAS_SOURCE_DIR) +
                "/tests/reproduce/mitigations_section_check.py " + dir.string());
  EXPECT_EQ(check.code, 0) << check.out << check.err;

  // The section's commands by hand, run in a folder of their own, write the same numbers.
  ASSERT_EQ(sec.code.size(), 1u);
  const fs::path by_hand = scratch_path("posbias_mitigations_report", "by_hand");
  fs::create_directories(by_hand / "birth");
  fs::create_directories(by_hand / "kv");
  std::ofstream(by_hand / "commands.sh") << "set -euo pipefail\n" << sec.code.front() << "\n";
  const CliResult ran = run_shell("cd " + by_hand.string() +
                                  " && PATH=" + fs::path(POSBIAS_BIN).parent_path().string() +
                                  ":$PATH OMP_NUM_THREADS=1 bash commands.sh >commands.log 2>&1 || "
                                  "{ tail -5 commands.log; exit 1; }");
  ASSERT_EQ(ran.code, 0) << ran.out << ran.err;
  const fs::path section = dir / "mitigations";
  for (const char* file : {"birth/gpt2_plain.json", "birth/qwen2_null_sink.json",
                           "birth/gpt2_design.json", "birth/bos_sink.json"}) {
    EXPECT_EQ(read_json(by_hand / file).at("profile_seeds"),
              read_json(section / file).at("profile_seeds"))
        << file;
  }
  EXPECT_EQ(read_json(by_hand / "birth/gpt2_design_search.json").at("operators"),
            read_json(section / "birth/gpt2_design_search.json").at("operators"));
  for (const std::string arm : {"baseline", "sink", "pose"}) {
    const std::string eval = "kv/" + arm + "/seed1-eval.json";
    EXPECT_EQ(read_json(by_hand / eval).at("depth_accuracy"),
              read_json(section / eval).at("depth_accuracy"))
        << eval;
    const std::string influence = "kv/" + arm + "/seed0-influence.json";
    const auto by_hand_last = read_json(by_hand / influence).at("checkpoints").back();
    const auto section_last = read_json(section / influence).at("checkpoints").back();
    for (const char* key : {"profile", "by_depth", "step"})
      EXPECT_EQ(by_hand_last.at(key), section_last.at(key)) << influence << " " << key;
  }
  for (const InferenceRemedy& r : preset.inference) {
    const std::string eval = "kv/baseline/seed0-eval-" + r.file + ".json";
    EXPECT_EQ(read_json(by_hand / eval).at("depth_accuracy"),
              read_json(section / eval).at("depth_accuracy"))
        << eval;
  }
}

}  // namespace
