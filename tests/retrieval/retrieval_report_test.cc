// The retrieval section of the report on a micro preset (two tiny configurations, 2 seeds, 4
// steps): its table has one full row per configuration whose effective length and co-location
// cells agree with the per-seed and co-location files, every figure and data file exists and the
// report writes, and the commands it prints for doing the same by hand, run through the CLI in a
// fresh folder, give the same accuracies and influence shares.
#include "experiments/retrieval/retrieval_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "../cli_run.h"
#include "experiments/retrieval/presets.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

RetrievalRun micro_run(const std::string& name, const std::string& folder, std::int64_t window) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.layers = 1, c.d_model = 16, c.heads = 2, c.mlp = 32, c.length = 16;
  c.steps = 4, c.batch = 8, c.warmup = 1, c.eval_every = 2, c.checkpoint_every = 4;
  c.log_checkpoints = 0;
  c.window = window;
  c.finalize();
  return {name, folder, c};
}

RetrievalPreset micro_preset() {
  RetrievalPreset p;
  p.name = "micro";
  p.runs = {micro_run("qwen2, rope", "qwen2-rope", 0),
            micro_run("qwen2, rope, window 6", "qwen2-rope-w6", 6)};
  p.seeds = 2;
  p.depths = {0, 50, 100};
  p.eval_count = 4;
  p.influence_per_depth = 2;
  return p;
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p)); }

// The lower median of the seeds' effective lengths, a seed without one below every length.
std::string expected_effective_length(const fs::path& folder, int seeds) {
  std::vector<std::optional<int>> values;
  for (int s = 0; s < seeds; ++s) {
    const auto e = read_json(folder / ("seed" + std::to_string(s) + "-eval.json"));
    const auto& l = e.at("effective_length");
    values.push_back(l.is_null() ? std::nullopt : std::optional<int>(l.get<int>()));
  }
  std::sort(values.begin(), values.end());
  const auto& m = values[(values.size() - 1) / 2];
  return m ? std::to_string(*m) : "none";
}

// Runs the section's commands by hand, through the CLI, in a fresh folder: the same files, the
// same numbers.
void expect_same_by_hand(const ReportSection& sec, const RetrievalPreset& preset,
                         const fs::path& dir, const std::string& name) {
  ASSERT_EQ(sec.code.size(), 1u);
  const fs::path hand = scratch_path("posbias_retrieval_report", name);
  fs::create_directories(hand);
  const std::string script = "posbias() { " + std::string(POSBIAS_BIN) + " \"$@\"; }\n" +
                             "set -e\n" + sec.code.front() + "\n";
  std::ofstream(hand / "commands.sh") << script;
  const CliResult r = run_shell("cd " + hand.string() + " && timeout 600 bash commands.sh");
  ASSERT_EQ(r.code, 0) << r.err;
  int compared = 0;
  for (const auto& run : preset.runs) {
    const auto a = read_json(dir / "retrieval" / run.folder / "seeds.json");
    const auto b = read_json(hand / "runs" / run.folder / "seeds.json");
    for (const auto& [length, cells] : a.at("depth_accuracy").items()) {
      for (const auto& [depth, cell] : cells.items()) {
        EXPECT_EQ(cell.at("values"), b.at("depth_accuracy").at(length).at(depth).at("values"))
            << run.folder << " L " << length << " depth " << depth;
        ++compared;
      }
    }
    const auto ca = read_json(dir / "retrieval" / run.folder / "colocation.json");
    const auto cb = read_json(hand / "runs" / run.folder / "colocation.json");
    const auto sa = ca.at("mean_needle_share").get<std::vector<double>>();
    const auto sb = cb.at("mean_needle_share").get<std::vector<double>>();
    ASSERT_EQ(sa.size(), sb.size());
    double worst = 0;
    for (std::size_t i = 0; i < sa.size(); ++i) worst = std::max(worst, std::abs(sa[i] - sb[i]));
    EXPECT_LT(worst, 1e-6) << run.folder << ": worst |needle share difference| " << worst;
  }
  // 3 lengths (L, 2L, 4L) × 3 depths per configuration.
  EXPECT_EQ(compared, static_cast<int>(preset.runs.size()) * 3 * 3);
}

TEST(RetrievalReport, MicroPresetWritesItsSectionAndTheCommandsByHandAgree) {
  const RetrievalPreset preset = micro_preset();
  const fs::path dir = scratch_path("posbias_retrieval_report", "report");
  const ReportSection sec = retrieval_report_section(dir, preset);
  EXPECT_EQ(sec.id, "retrieval");
  ASSERT_EQ(sec.tables.size(), 1u);
  const ReportTable& table = sec.tables.front();
  ASSERT_EQ(table.rows.size(), preset.runs.size());
  for (std::size_t k = 0; k < preset.runs.size(); ++k) {
    const auto& row = table.rows[k];
    ASSERT_EQ(row.size(), table.header.size());
    EXPECT_EQ(row[0], preset.runs[k].name);
    const fs::path folder = dir / "retrieval" / preset.runs[k].folder;
    // "median (per seed)": the median is the lower median of the seeds' own effective lengths.
    EXPECT_EQ(row[2].substr(0, row[2].find(' ')), expected_effective_length(folder, preset.seeds))
        << row[2];
    const auto coloc = read_json(folder / "colocation.json");
    EXPECT_EQ(row[6].rfind(coloc.at("verdict").get<std::string>(), 0), 0u) << row[6];
    EXPECT_EQ(read_json(folder / "seeds.json").at("seeds").get<int>(), preset.seeds);
    // The control whose answer is known before training: one layer of a 6-token window reaches 5
    // positions back, so the loss (read at positions 16..18) sees nothing before position 11 and
    // the first pair (positions 1..6, the queried one at depth 0) has no influence at all;
    // without the window it has some.
    const double first_pair = coloc.at("mean_needle_share").at(0).get<double>();
    if (preset.runs[k].config.window > 0)
      EXPECT_LT(first_pair, 1e-12) << preset.runs[k].folder;
    else
      EXPECT_GT(first_pair, 1e-3) << preset.runs[k].folder;
  }
  EXPECT_EQ(sec.figures.size(), 3 * preset.runs.size());  // heatmap, by depth, co-location
  for (const auto& f : sec.figures) {
    EXPECT_TRUE(fs::exists(dir / (f.stem + ".png"))) << f.stem;
    EXPECT_TRUE(fs::exists(dir / (f.stem + ".svg"))) << f.stem;
  }
  for (const auto& [file, what] : sec.data) EXPECT_TRUE(fs::exists(dir / file)) << file;
  Report report("micro");
  report.add(sec);
  ASSERT_NO_THROW(report.write(dir));
  const std::string html = slurp(dir / "index.html");
  EXPECT_NE(html.find("<section id=\"retrieval\">"), std::string::npos);
  EXPECT_NE(html.find("<caption>"), std::string::npos);
  EXPECT_NE(html.find("posbias birth --colocate"), std::string::npos);

  expect_same_by_hand(sec, preset, dir, "by-hand");
}

TEST(RetrievalReport, CoLocationOnItsOwnDepthsReadsASecondEval) {
  RetrievalPreset p = micro_preset();
  p.runs.resize(1);
  p.colocation_depths = {0, 100};  // one depth per pair at L 16
  p.colocation_count = 6;
  const fs::path dir = scratch_path("posbias_retrieval_report", "pairs");
  const ReportSection sec = retrieval_report_section(dir, p);
  const fs::path folder = dir / "retrieval" / p.runs.front().folder;
  for (int s = 0; s < p.seeds; ++s) {
    const auto e = read_json(folder / ("seed" + std::to_string(s) + "-eval-pairs.json"));
    EXPECT_EQ(e.at("lengths"), nlohmann::json({16}));
    EXPECT_EQ(e.at("depths"), nlohmann::json({0.0, 100.0}));
    EXPECT_EQ(e.at("count"), 6);
    const auto i = read_json(folder / ("seed" + std::to_string(s) + "-influence.json"));
    EXPECT_EQ(i.at("depths"), nlohmann::json({0, 100}));
  }
  const auto c = read_json(folder / "colocation.json");
  EXPECT_EQ(c.at("depths"), nlohmann::json({0, 100}));
  EXPECT_NE(c.at("seeds").at(0).at("accuracy_file").get<std::string>().find("-eval-pairs.json"),
            std::string::npos);
  // The by-depth eval keeps every depth.
  EXPECT_EQ(read_json(folder / "seeds.json").at("depths").size(), p.depths.size());
  expect_same_by_hand(sec, p, dir, "pairs-by-hand");
}

TEST(RetrievalReport, RefusesAPresetWithOneSeed) {
  RetrievalPreset p = micro_preset();
  p.seeds = 1;
  EXPECT_THROW(retrieval_report_section(scratch_path("posbias_retrieval_report", "one"), p),
               std::invalid_argument);
}

TEST(RetrievalReport, PresetsDescribeTheirConfigurations) {
  const RetrievalPreset q = RetrievalPreset::quick(), f = RetrievalPreset::full();
  EXPECT_EQ(q.runs.size(), 2u);
  EXPECT_NE(q.runs[0].config.window, q.runs[1].config.window);  // the control differs
  EXPECT_GE(f.seeds, 3);
  std::vector<std::string> folders;
  for (const auto& r : f.runs) folders.push_back(r.folder);
  std::sort(folders.begin(), folders.end());
  EXPECT_EQ(std::adjacent_find(folders.begin(), folders.end()), folders.end());  // distinct
  EXPECT_NE(q.describe().find("2 seeds"), std::string::npos) << q.describe();
}

}  // namespace
