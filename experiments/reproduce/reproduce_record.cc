#include "experiments/reproduce/reproduce_record.h"

#include "posbias/llm/api_codec.h"

namespace posbias {
namespace {

// The options run.json records: every one but --api-key-env (a variable's name, not a setting
// of the results).
const std::vector<FieldRow<ReproduceOptions>>& reproduce_config_fields() {
  using O = ReproduceOptions;
  static const std::vector<FieldRow<O>> rows = {
      required(field("out", &O::out, "report folder", "PATH")),
      required(field("full", &O::full, "hop tasks trained with the shipped defaults")),
      required(field("endpoint", &O::endpoint, "the OpenAI-compatible endpoint also probed")),
      required(field("model", &O::model, "the model name for the endpoint")),
      required(field("api", &O::api, "chat or completions")),
  };
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
