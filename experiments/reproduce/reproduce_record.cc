#include "experiments/reproduce/reproduce_record.h"

#include "posbias/core/flag_rows.h"
#include "posbias/llm/api_codec.h"

namespace posbias {

const std::vector<FieldRow<ReproduceOptions>>& reproduce_option_fields() {
  using O = ReproduceOptions;
  static const std::vector<FieldRow<O>> rows = {
      field("full", &O::full,
            "every section at its full preset, the shapes its docs page measures, instead of the "
            "quick one (many hours: the retrieval and mitigations sections each train over "
            "twenty kv runs of 8000 steps)"),
      field("endpoint", &O::endpoint,
            "also probe this OpenAI-compatible endpoint with the LLM suites", "URL"),
      field("model", &O::model, "model name for --endpoint"),
      named_field<ApiNames>("api", &O::api, "chat or completions (with --endpoint)"),
      field("api_key_env", &O::api_key_env, "environment variable with the endpoint's API key"),
  };
  return rows;
}

namespace {

// The options run.json records: `out` and every row of the table but --api-key-env (a
// variable's name, not a setting of the results), each required.
const std::vector<FieldRow<ReproduceOptions>>& reproduce_config_fields() {
  using O = ReproduceOptions;
  static const std::vector<FieldRow<O>> rows = [] {
    std::vector<FieldRow<O>> r = {required(field("out", &O::out, "report folder", "PATH"))};
    for (const FieldRow<O>& row : reproduce_option_fields())
      if (row.name != "api_key_env") r.push_back(required(row));
    return r;
  }();
  return rows;
}

}  // namespace

template <>
struct FieldCodec<ReproduceOptions> : TableCodec<ReproduceOptions, &reproduce_config_fields> {};

namespace {

const std::vector<FieldRow<ReproduceRunRecord>>& reproduce_run_record_fields() {
  using R = ReproduceRunRecord;
  static const std::vector<FieldRow<R>> rows = {
      required(field("command", &R::command, "the command: reproduce")),
      required(field("config", &R::config, "the command's options")),
      required(field("seed", &R::seed, "the seed")),
      required(field("machine", &R::machine, "the machine it ran on")),
      required(field("seconds", &R::seconds, "wall time of the whole run")),
      required(field("section_seconds", &R::section_seconds, "each section's wall time")),
  };
  return rows;
}

}  // namespace

nlohmann::json to_json(const ReproduceRunRecord& r) {
  return fields_to_json(reproduce_run_record_fields(), r);
}

ReproduceRunRecord reproduce_run_record_from_json(const nlohmann::json& j) {
  ReproduceRunRecord r = fields_from_json(reproduce_run_record_fields(), j, ReproduceRunRecord{},
                                          "reproduce run field");
  if (r.command != "reproduce")
    throw std::invalid_argument("reproduce run field 'command' must be reproduce, not " +
                                r.command.substr(0, 40));
  return r;
}

}  // namespace posbias
