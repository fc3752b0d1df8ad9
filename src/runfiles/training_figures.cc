#include "posbias/runfiles/training_figures.h"

#include <fstream>
#include <stdexcept>
#include <string>

#include "posbias/core/json_read.h"
#include "posbias/runfiles/run_header.h"

namespace posbias {

void render_run_training_figures(const std::vector<MetricsRow>& rows, const TrainConfig& c,
                                 const std::filesystem::path& stem) {
  if (c.task == Task::kText) {
    render_text_training_figures(rows, to_string(c.arch) + " on text", stem);
  } else {
    render_training_figures(rows, std::string(task_name(c.task)) + " task", c.length, stem);
  }
}

std::filesystem::path train_json_beside(const std::filesystem::path& metrics) {
  const std::string name = metrics.filename().string();
  const std::string suffix = "metrics.jsonl";
  if (name != suffix && !(name.ends_with("-" + suffix)))
    throw std::invalid_argument("'" + metrics.string() +
                                "' is not a run's metrics file (metrics.jsonl or P-metrics.jsonl)");
  return metrics.parent_path() / (name.substr(0, name.size() - suffix.size()) + "train.json");
}

void redraw_training_figures(const std::filesystem::path& metrics,
                             const std::filesystem::path& stem) {
  const std::filesystem::path header_file = train_json_beside(metrics);
  std::ifstream in(header_file);
  if (!in)
    throw std::runtime_error("cannot open '" + header_file.string() + "', the train.json of '" +
                             metrics.string() + "'");
  TrainConfig config;
  try {
    config = run_header_from_json(parse_json(in, header_file.string())).config;
    config.finalize();
  } catch (const std::exception& e) {
    throw std::runtime_error(header_file.string() + " is corrupt: " + e.what());
  }
  if (!std::filesystem::exists(metrics))
    throw std::runtime_error("cannot open '" + metrics.string() + "'");
  const std::vector<MetricsRow> rows = read_metrics(metrics);
  if (rows.empty()) throw std::runtime_error("'" + metrics.string() + "' holds no metrics row");
  render_run_training_figures(rows, config, stem);
}

}  // namespace posbias
