#include "posbias/runfiles/run_header.h"

#include <fstream>
#include <stdexcept>

#include "posbias/core/json_read.h"

namespace posbias {

const std::vector<FieldRow<RunHeader>>& run_header_fields() {
  using H = RunHeader;
  static const std::vector<FieldRow<H>> rows = {
      required(field("config", &H::config, "the run's training config")),
      required(field("machine", &H::machine, "the machine the run started on")),
      optional_field("threads", &H::threads, "torch's thread count when the run started"),
      required(field("version", &H::version, "posbias's version")),
      optional_field("corpus", &H::corpus, "a text run's corpus folder"),
      optional_field("corpus_fingerprint", &H::corpus_fingerprint,
                     "the fingerprint of a text run's corpus files"),
  };
  return rows;
}

nlohmann::json to_json(const RunHeader& header) {
  return fields_to_json(run_header_fields(), header);
}

RunHeader run_header_from_json(const nlohmann::json& j) {
  return fields_from_json(run_header_fields(), j, RunHeader{}, "train.json field");
}

RunHeader read_run_header(const std::filesystem::path& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec)) {
    throw std::invalid_argument("run directory '" + run_dir.string() + "' does not exist");
  }
  const std::filesystem::path file = run_dir / "train.json";
  std::ifstream in(file);
  if (!in) {
    throw std::runtime_error("'" + run_dir.string() + "' is not a training run (no train.json)");
  }
  try {
    RunHeader header = run_header_from_json(parse_json(in, file.string()));
    header.config.finalize();
    return header;
  } catch (const std::exception& e) {
    throw std::runtime_error(file.string() + " is corrupt: " + e.what());
  }
}

}  // namespace posbias
