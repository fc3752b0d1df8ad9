// A run's training figures drawn again from the files it keeps (redraw_training_figures, what
// `posbias train --redraw` runs): the train.json beside P-metrics.jsonl gives the task and the
// evaluation length, as the run's own figures took them; a file of another name, a missing
// train.json and a metrics file without rows are refused by name.
#include "posbias/runfiles/training_figures.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "../cli_run.h"
#include "posbias/runfiles/run_header.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

TEST(TrainingFigures, RedrawReadsTheTrainJsonBesideTheMetrics) {
  const fs::path dir = posbias_test::scratch_path("posbias_training_figures", "redraw");
  fs::create_directories(dir);
  RunHeader header;
  header.config = TrainConfig::defaults(Task::kLetter);
  header.config.length = 23;
  header.version = "test";
  write(dir / "seed0-train.json", to_json(header).dump(2));
  MetricsRow row;
  std::string lines;
  for (std::int64_t step : {0, 50, 100}) {
    row.step = step;
    row.loss = 2.0 / static_cast<double>(step + 1);
    row.acc = std::map<std::string, double>{
        {"1", 0.01 * static_cast<double>(step)}, {"2", 0.1}, {"all", 0.25}};
    lines += metrics_row_to_json(row).dump() + "\n";
  }
  write(dir / "seed0-metrics.jsonl", lines);
  EXPECT_EQ(train_json_beside(dir / "seed0-metrics.jsonl"), dir / "seed0-train.json");
  EXPECT_EQ(train_json_beside(dir / "metrics.jsonl"), dir / "train.json");
  redraw_training_figures(dir / "seed0-metrics.jsonl", dir / "fig");
  const std::string gp = posbias_test::slurp(dir / "fig_accuracy.gp");
  EXPECT_NE(gp.find("letter task: held-out accuracy"), std::string::npos) << gp;
  EXPECT_NE(gp.find("accuracy at 23 tokens"), std::string::npos) << gp;
  EXPECT_NE(gp.find("\n100 1\n"), std::string::npos) << gp;  // 1-hop accuracy at step 100
  // 1-hop and 2-hop are an ordered series: on the colour bar, not in the legend.
  EXPECT_NE(gp.find("set cblabel \"hops\""), std::string::npos) << gp;
  EXPECT_NE(gp.find("lc palette cb 1 notitle"), std::string::npos) << gp;
  EXPECT_TRUE(fs::exists(dir / "fig_loss.png"));

  EXPECT_THROW(train_json_beside(dir / "seed0.jsonl"), std::invalid_argument);
  write(dir / "other-metrics.jsonl", lines);
  try {
    redraw_training_figures(dir / "other-metrics.jsonl", dir / "other");
    ADD_FAILURE() << "no train.json, no figure";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("other-train.json"), std::string::npos) << e.what();
  }
  write(dir / "empty-metrics.jsonl", "");
  fs::copy_file(dir / "seed0-train.json", dir / "empty-train.json");
  EXPECT_THROW(redraw_training_figures(dir / "empty-metrics.jsonl", dir / "empty"),
               std::runtime_error);
  fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace posbias
