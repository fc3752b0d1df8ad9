// Every record (a struct with a field table, core/field_table.h) and every enum name table
// (core/enum_names.h), one line each, for tests/core/field_tables_test.cc, which checks each the
// same way: a value with every field set round-trips through JSON to the same bytes; a missing,
// mistyped or unknown field is refused by its name (or a missing optional one defaulted); an
// enum's every value → name → value. A new record joins with one line in record_codecs(), a new
// enum with one line in enum_codecs(); the test fails while a table in the sources is missing.
#pragma once

#include <concepts>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "experiments/birth/birth.h"
#include "experiments/birth/birth_record.h"
#include "experiments/birth/named_birth_record.h"
#include "experiments/birth/seed_journal_key.h"
#include "experiments/hops/hop_eval_record.h"
#include "experiments/hops/hop_seeds_record.h"
#include "experiments/llm/llm_options.h"
#include "experiments/llm/llm_record.h"
#include "experiments/mech/construction_sweep_record.h"
#include "experiments/mech/discrepancy_command_options.h"
#include "experiments/mech/head_search_record.h"
#include "experiments/mech/heads_options.h"
#include "experiments/mitigations/mitigations_summary.h"
#include "experiments/mitigations/paired_effect.h"
#include "experiments/reproduce/reproduce_record.h"
#include "experiments/retrieval/colocation_record.h"
#include "experiments/retrieval/depth_eval_record.h"
#include "experiments/retrieval/eval_command_options.h"
#include "experiments/retrieval/kv_seeds_record.h"
#include "experiments/seeds/seeds_flags.h"
#include "experiments/seeds/seeds_record.h"
#include "experiments/theory/compare_record.h"
#include "experiments/theory/design_record.h"
#include "experiments/theory/theory_command.h"
#include "experiments/theory/theory_option_fields.h"
#include "experiments/theory/theory_record.h"
#include "experiments/theory/theory_shares_record.h"
#include "posbias/arch/attention_path.h"
#include "posbias/arch/config.h"
#include "posbias/arch/rope_scaling.h"
#include "posbias/arch/rope_scaling_record.h"
#include "posbias/cluster/launch.h"
#include "posbias/cluster/sweep.h"
#include "posbias/cluster/sweep_grid.h"
#include "posbias/cluster/sweep_record.h"
#include "posbias/core/field_table.h"
#include "posbias/core/machine_record.h"
#include "posbias/llm/answer.h"
#include "posbias/llm/llm_summary_record.h"
#include "posbias/llm/openai.h"
#include "posbias/mech/causal_record.h"
#include "posbias/mech/constructions.h"
#include "posbias/mech/head_score.h"
#include "posbias/mech/head_search.h"
#include "posbias/mech/heads_record.h"
#include "posbias/mech/trained_discrepancy_record.h"
#include "posbias/model/branch_strength.h"
#include "posbias/runfiles/checkpoint_record.h"
#include "posbias/runfiles/eval_steps.h"
#include "posbias/runfiles/heldout_split.h"
#include "posbias/runfiles/metrics.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/runfiles/training_summary.h"
#include "posbias/serve/serve_command.h"
#include "posbias/stats/seed_interval_record.h"
#include "posbias/tasks/eval_task.h"
#include "posbias/tasks/example_lines.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/tasks/retrieval_inputs.h"
#include "posbias/tasks/tasks_command.h"
#include "posbias/tasks/vocab.h"
#include "posbias/text/tokenizer.h"
#include "posbias/theory/birth_run_record.h"
#include "posbias/theory/birth_spec.h"
#include "posbias/theory/fit_record.h"
#include "posbias/theory/influence.h"
#include "posbias/theory/influence_method.h"
#include "posbias/theory/profile_shares.h"
#include "posbias/theory/shares_record.h"
#include "posbias/train/answer_influence_record.h"

namespace posbias_test {

// A record as the test sees it: its JSON as it writes it (`write`) after its strict reader has
// read `j` (std::invalid_argument naming the field when it refuses).
struct RecordCodec {
  std::string name;  // the function the record is reached by: its table, or its JSON reader
  struct Row {
    std::string name;
    bool required = false;
    std::string help;
  };
  std::vector<Row> rows;  // the table's rows (empty: only the JSON functions are public)
  std::function<nlohmann::json()> defaults;  // the record's default value as written
  std::function<nlohmann::json(const nlohmann::json& j)> round_trip;
  // Two reads of `j` are equal values (nullopt when the struct has no ==).
  std::function<std::optional<bool>(const nlohmann::json& j)> reads_equal;
};

inline void PrintTo(const RecordCodec& codec, std::ostream* out) { *out << codec.name; }

template <class S>
std::optional<bool> equal_reads(const S& a, const S& b) {
  if constexpr (std::equality_comparable<S>) return a == b;
  return std::nullopt;
}

// A record whose table is public: its rows, read by fields_from_json into S{}.
template <class S>
RecordCodec table_codec(std::string name, const std::vector<posbias::FieldRow<S>>& (*table)()) {
  RecordCodec c;
  c.name = std::move(name);
  for (const auto& row : table()) c.rows.push_back({row.name, row.required, row.help});
  c.defaults = [table] { return posbias::fields_to_json(table(), S{}); };
  auto read = [table](const nlohmann::json& j) {
    return posbias::fields_from_json(table(), j, S{}, "record field");
  };
  c.round_trip = [table, read](const nlohmann::json& j) {
    return posbias::fields_to_json(table(), read(j));
  };
  c.reads_equal = [read](const nlohmann::json& j) { return equal_reads(read(j), read(j)); };
  return c;
}

// A record whose table is file-local: its public to_json and reader.
template <class S>
RecordCodec json_codec(std::string name, S (*from_json)(const nlohmann::json&)) {
  RecordCodec c;
  c.name = std::move(name);
  c.defaults = [] { return to_json(S{}); };
  c.round_trip = [from_json](const nlohmann::json& j) { return to_json(from_json(j)); };
  c.reads_equal = [from_json](const nlohmann::json& j) {
    return equal_reads(from_json(j), from_json(j));
  };
  return c;
}

#define POSBIAS_TABLE(table) table_codec(#table, &posbias::table)
#define POSBIAS_JSON(S, from_json) json_codec<posbias::S>(#from_json, &posbias::from_json)

inline const std::vector<RecordCodec>& record_codecs() {
  static const std::vector<RecordCodec> codecs = {
      // core, tasks, runfiles, llm, cluster
      POSBIAS_TABLE(machine_record_fields),
      POSBIAS_TABLE(example_line_fields),
      POSBIAS_TABLE(kv_example_line_fields),
      POSBIAS_TABLE(passkey_example_line_fields),
      POSBIAS_TABLE(tasks_option_fields),
      POSBIAS_TABLE(train_config_fields),
      POSBIAS_TABLE(run_header_fields),
      POSBIAS_TABLE(checkpoint_info_fields),
      POSBIAS_TABLE(checkpoint_record_fields),
      POSBIAS_TABLE(metrics_row_fields),
      POSBIAS_TABLE(text_evaluation_fields),
      POSBIAS_TABLE(heldout_split_fields),
      POSBIAS_TABLE(text_eval_result_fields),
      POSBIAS_TABLE(accuracy_summary_fields),
      POSBIAS_TABLE(data_parallel_stats_fields),
      POSBIAS_TABLE(training_summary_fields),
      POSBIAS_TABLE(suite_summary_record_fields),
      POSBIAS_JSON(SweepManifest, sweep_manifest_from_json),
      POSBIAS_JSON(SweepStarted, sweep_started_from_json),
      POSBIAS_JSON(SweepRunEnd, sweep_run_end_from_json),
      POSBIAS_JSON(SweepStatus, sweep_status_from_json),
      POSBIAS_TABLE(sweep_grid_fields),
      POSBIAS_JSON(SweepCollection, sweep_collection_from_json),
      POSBIAS_TABLE(collect_option_fields),
      POSBIAS_TABLE(sweep_run_option_fields),
      POSBIAS_TABLE(launch_option_fields),
      POSBIAS_TABLE(server_option_fields),
      POSBIAS_TABLE(serve_option_fields),
      // experiments
      POSBIAS_TABLE(answer_influence_record_fields),
      POSBIAS_TABLE(birth_spec_fields),
      POSBIAS_TABLE(birth_option_fields),
      POSBIAS_TABLE(birth_mode_flag_fields),
      POSBIAS_TABLE(birth_record_fields),
      POSBIAS_TABLE(named_birth_record_fields),
      POSBIAS_TABLE(seed_journal_key_fields),
      POSBIAS_TABLE(birth_run_record_fields),
      table_codec("eval_steps_fields", &posbias::eval_steps_fields<posbias::HopEvalSteps>),
      POSBIAS_TABLE(rope_scaling_fields),
      POSBIAS_TABLE(hop_eval_control_fields),
      POSBIAS_TABLE(hop_eval_record_fields),
      POSBIAS_TABLE(hop_comparison_record_fields),
      POSBIAS_TABLE(hop_seeds_record_fields),
      POSBIAS_TABLE(llm_record_fields),
      POSBIAS_TABLE(llm_target_fields),
      POSBIAS_TABLE(llm_option_fields),
      POSBIAS_TABLE(ablation_record_fields),
      POSBIAS_TABLE(patching_record_fields),
      POSBIAS_JSON(SweepResult, sweep_result_from_json),
      POSBIAS_TABLE(head_search_record_fields),
      POSBIAS_TABLE(checkpoint_heads_fields),
      POSBIAS_TABLE(heads_record_fields),
      POSBIAS_TABLE(heads_option_fields),
      POSBIAS_TABLE(exponent_record_fields),
      POSBIAS_TABLE(paired_effect_fields),
      POSBIAS_TABLE(remedy_row_fields),
      POSBIAS_TABLE(mitigations_summary_fields),
      POSBIAS_TABLE(trained_discrepancy_record_fields),
      POSBIAS_TABLE(discrepancy_option_fields),
      POSBIAS_JSON(ReproduceRunRecord, reproduce_run_record_from_json),
      POSBIAS_TABLE(reproduce_option_fields),
      POSBIAS_TABLE(colocation_record_fields),
      POSBIAS_TABLE(depth_eval_record_fields),
      POSBIAS_TABLE(eval_option_fields),
      POSBIAS_TABLE(kv_seeds_record_fields),
      POSBIAS_TABLE(seed_interval_fields),
      POSBIAS_TABLE(seed_statistic_fields),
      POSBIAS_TABLE(whole_statistic_fields),
      POSBIAS_TABLE(text_seeds_record_fields),
      POSBIAS_TABLE(seeds_flag_fields),
      POSBIAS_TABLE(profile_shares_record_fields),
      POSBIAS_TABLE(share_change_record_fields),
      POSBIAS_TABLE(shares_record_fields),
      POSBIAS_TABLE(u_test_record_fields),
      POSBIAS_TABLE(compare_record_fields),
      POSBIAS_TABLE(design_record_fields),
      POSBIAS_TABLE(fit_record_fields),
      POSBIAS_TABLE(exact_theory_record_fields),
      POSBIAS_TABLE(theory_config_record_fields),
      POSBIAS_TABLE(theory_record_fields),
      POSBIAS_TABLE(theory_shares_record_fields),
      POSBIAS_TABLE(theory_option_fields),
      POSBIAS_TABLE(fit_option_fields),
      POSBIAS_TABLE(compare_option_fields),
      POSBIAS_TABLE(design_option_fields),
      POSBIAS_TABLE(design_grid_flag_fields),
  };
  return codecs;
}

// An enum name table as the test sees it: the name of a value (std::invalid_argument for a value
// the table lacks) and, where names are read, the value of a name.
struct EnumCodec {
  std::string name;  // the enum
  std::function<std::string(int value)> name_of;
  std::function<int(const std::string& name)> value_of;  // empty: names are only written
};

inline void PrintTo(const EnumCodec& codec, std::ostream* out) { *out << codec.name; }

template <class E, class Name, class Parse>
EnumCodec enum_codec(std::string enum_name, Name name, Parse parse) {
  EnumCodec c;
  c.name = std::move(enum_name);
  c.name_of = [name](int v) { return std::string(name(static_cast<E>(v))); };
  if constexpr (!std::is_same_v<Parse, std::nullptr_t>)
    c.value_of = [parse](const std::string& n) { return static_cast<int>(parse(n)); };
  return c;
}

// One enum: its name function and its parse function (nullptr when none).
#define POSBIAS_ENUM(E, name, parse)                     \
  enum_codec<posbias::E>(                                \
      #E, [](posbias::E v) { return posbias::name(v); }, \
      [](const std::string& n) { return posbias::parse(n); })
#define POSBIAS_WRITTEN_ENUM(E, name) \
  enum_codec<posbias::E>(             \
      #E, [](posbias::E v) { return posbias::name(v); }, nullptr)

inline const std::vector<EnumCodec>& enum_codecs() {
  static const std::vector<EnumCodec> codecs = {
      POSBIAS_ENUM(Precision, to_string, parse_precision),
      POSBIAS_ENUM(AlphaEstimator, to_string, parse_alpha_estimator),
      POSBIAS_ENUM(AttentionPath, to_string, parse_attention_path),
      POSBIAS_ENUM(TokenizerKind, to_string, parse_tokenizer_kind),
      POSBIAS_ENUM(RopeScalingKind, to_string, parse_rope_scaling_kind),
      POSBIAS_ENUM(Family, to_string, parse_family),
      POSBIAS_ENUM(PosEncoding, to_string, parse_pos_encoding),
      POSBIAS_ENUM(ExampleFormat, to_string, parse_example_format),
      enum_codec<posbias::Task>(
          "Task (tasks --task)", [](posbias::Task t) { return posbias::tasks_task_name(t); },
          [](const std::string& n) { return posbias::parse_tasks_task(n); }),
      POSBIAS_ENUM(DepthPrior, depth_prior_name, parse_depth_prior),
      enum_codec<posbias::AnswerInputs>(
          "AnswerInputs", [](posbias::AnswerInputs v) { return posbias::to_string(v); },
          [](const std::string& n) { return posbias::parse_answer_inputs(n, "--inputs"); }),
      POSBIAS_ENUM(JacobianMethod, to_string, parse_jacobian_method),
      POSBIAS_ENUM(InfluenceTarget, to_string, parse_influence_target),
      POSBIAS_ENUM(Api, to_string, parse_api),
      POSBIAS_ENUM(ScoreRule, to_string, parse_score_rule),
      POSBIAS_WRITTEN_ENUM(ShareRegion, to_string),
      POSBIAS_ENUM(PathSum, to_string, parse_path_sum),
      POSBIAS_ENUM(BirthInput, to_string, parse_birth_input),
      POSBIAS_ENUM(BirthInit, to_string, parse_birth_init),
      POSBIAS_ENUM(SearchFrequencies, search_frequencies_name, parse_search_frequencies),
      POSBIAS_ENUM(Construction, construction_name, parse_construction),
      POSBIAS_ENUM(HeadLabel, head_label_name, parse_head_label),
      POSBIAS_ENUM(KeyHeadKind, key_head_kind_name, parse_key_head_kind),
      POSBIAS_WRITTEN_ENUM(RunState, to_string),
      POSBIAS_ENUM(RowFormat, to_string, parse_row_format),
      POSBIAS_ENUM(Task, task_name, parse_task),
      POSBIAS_ENUM(Variant, variant_name, parse_variant),
      POSBIAS_ENUM(LessBias, to_string, parse_less_bias),
      POSBIAS_ENUM(EvalTask, to_string, parse_eval_task),
  };
  return codecs;
}

}  // namespace posbias_test
