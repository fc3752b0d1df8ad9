#include "experiments/retrieval/eval_command_options.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "posbias/core/flag_rows.h"
#include "posbias/core/parse.h"
#include "posbias/runfiles/checkpoint_selection_codec.h"

namespace posbias {
namespace {

using S = EvalCommandOptions;
using Row = FieldRow<S>;

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// Values written by their name, parsed by the parser the command line has always used.
struct RopeScalingNames {
  static std::string name(const RopeScaling& s) { return to_string(s); }
  static RopeScaling parse(const std::string& text) { return parse_rope_scaling(text); }
};

// An optional value written by its name, null when unset.
template <class T, class Names>
struct OptionalNameCodec {
  static constexpr const char* type = "NAME";
  static nlohmann::json write(const std::optional<T>& v) {
    return v ? nlohmann::json(Names::name(*v)) : nlohmann::json();
  }
  static std::optional<T> read(const nlohmann::json& j, const std::string& what) {
    if (j.is_null()) return std::nullopt;
    return EnumCodec<T, Names>::read(j, what);
  }
};

// An optional value written by its name; a bad flag text refused with Names' own message.
template <class Names, class T>
Row named(std::string name, std::optional<T> S::*member, std::string help, std::string type) {
  Row row = field<S, std::optional<T>, OptionalNameCodec<T, Names>>(std::move(name), member,
                                                                    std::move(help), type);
  row.from_flag = [](const std::string& text) {
    return nlohmann::json(Names::name(Names::parse(text)));
  };
  return row;
}

// An optional field whose flag's text `parse` (text, flag) reads.
template <class T, class Parse>
Row parsed(std::string name, std::optional<T> S::*member, std::string help, Parse parse) {
  return parsed_flag(optional_field(std::move(name), member, std::move(help)), parse);
}

// A flag that turns a true default over: --no-NAME.
Row negated(std::string name, bool S::*member, std::string help) {
  Row row = field(std::move(name), member, std::move(help));
  row.flag = "--no-" + row.flag.substr(2);
  return row;
}

std::vector<Row> rows() {
  const auto integers = [](const std::string& text, const std::string& flag) {
    return parse_integer_list(text, flag, kMin, kMax);
  };
  return {
      named<CheckpointSelectionNames>(
          "checkpoints", &S::checkpoints,
          "which checkpoints of the run: " + checkpoint_selection_choices() +
              "; several give one result per checkpoint, in training order",
          checkpoint_selection_type()),
      parsed("depths", &S::depths,
             "kv: comma list of depths of the queried pair in percent (0 = first pair, 100 = "
             "last); passkey runs (text with needles): of the queried needle, and given --depths "
             "or --lengths a passkey run is evaluated by depth x length instead of bits per byte",
             parse_number_list),
      parsed("lengths", &S::lengths,
             "comma list of input lengths (kv: default the training length, 2x and 4x)", integers),
      parsed("count", &S::count,
             "examples per length and hop (kv: per cell, default " +
                 std::to_string(DepthEvalOptions{}.count) + ")",
             [](const std::string& text, const std::string& flag) {
               return parse_integer_in(text, flag, kMin, kMax);
             }),
      parsed("seed", &S::seed, "seed of the evaluation examples",
             [](const std::string& text, const std::string&) { return parse_seed(text); }),
      field("hops", &S::hops,
            "hop runs: comma list of hops to score, each on the examples the whole evaluation "
            "draws for it (default: every hop the run was trained on), so a long evaluation can "
            "run in pieces"),
      negated("controls", &S::controls, "skip the seen_jumps / decoy control"),
      parsed("effective_threshold", &S::threshold,
             "kv: depth-averaged accuracy a length must reach for the effective length",
             parse_number),
      named<RopeScalingNames>(
          "rope_scaling", &S::rope_scaling,
          "kv, passkey (by depth) and hop runs with rotary positions: change the rotations at "
          "evaluation, no retraining; pi:F divides positions by F (position interpolation), "
          "ntk:F raises the rotary base to theta*F^(d/(d-2)), d the rotary dims per head "
          "(NTK-aware); F > 0, F = 1 the run's own",
          "pi:F|ntk:F"),
      parsed("logn_scale", &S::logn_scale,
             "kv, passkey (by depth) and hop runs trained without it: log-n attention scaling at "
             "evaluation only, query i's logits multiplied by s*log(n), n = i + 1 the keys it "
             "sees (scalable softmax); s in (0, 100]; absent: the run's own softmax",
             parse_number),
      field("calibrate", &S::calibrate,
            "kv runs: attention calibration at evaluation only; each head's attention on the "
            "filler '_' at every position (its position-only component) is divided out, "
            "attention P*P0^(-a) renormalized (docs/mitigations.md)"),
      parsed("calibrate_strength", &S::calibrate_strength,
             "--calibrate's strength a in [0, 1]: 1 divides the baseline out, 0 is plain "
             "attention",
             parse_number)};
}

}  // namespace

const std::vector<FieldRow<EvalCommandOptions>>& eval_option_fields() {
  static const std::vector<Row> table = rows();
  return table;
}

DepthEvalOptions depth_eval_options(const EvalCommandOptions& o) {
  DepthEvalOptions d;
  set_shared_eval_options(o, d);
  d.depths = o.depths.value_or(d.depths);
  d.threshold = o.threshold.value_or(d.threshold);
  if (o.calibrate) d.calibrate = o.calibrate_strength.value_or(kFullCalibration);
  d.csv = o.csv;
  return d;
}

EvalCommandOptions eval_command_options(const DepthEvalOptions& d) {
  const DepthEvalOptions defaults;
  EvalCommandOptions o;
  if (to_string(d.checkpoints) != to_string(defaults.checkpoints)) o.checkpoints = d.checkpoints;
  o.depths = d.depths;
  if (!d.lengths.empty()) o.lengths = d.lengths;
  o.count = d.count;
  if (d.seed != defaults.seed) o.seed = d.seed;
  if (d.threshold != defaults.threshold) o.threshold = d.threshold;
  o.rope_scaling = d.rope_scaling;
  o.logn_scale = d.logn_scale;
  o.calibrate = d.calibrate.has_value();
  o.calibrate_strength = d.calibrate;
  return o;
}

}  // namespace posbias
