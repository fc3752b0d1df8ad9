// eval_flags: the command line of eval's options parses back, through `posbias eval`'s own flags
// (registered from the field table as the command registers them, parsed by CLI11 and each row's
// parser), to the same options: the defaults, the retrieval and mitigations presets' evaluations
// by depth, and options with every field of the table set.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../parse_flags.h"
#include "apps/posbias/eval_option_flags.h"
#include "experiments/mitigations/presets.h"
#include "experiments/retrieval/eval_command_options.h"
#include "experiments/retrieval/presets.h"
#include "experiments/retrieval/retrieval_flags.h"

namespace posbias {
namespace {

// What `posbias eval FLAGS` evaluates with: the flags through eval's own parsers.
EvalCommandOptions parse_eval_flags(const std::string& flags) {
  return posbias_test::parse_flags<EvalCommandOptions>(
      flags, [](CLI::App* app, cli::ParsedOptions* parsed, EvalCommandOptions* o) {
        cli::add_eval_option_flags(app, parsed, o, [](const std::string&) {});
      });
}

nlohmann::json fields(const EvalCommandOptions& o) {
  return fields_to_json(eval_option_fields(), o);
}

// A kv or passkey evaluation's options as a command line gives them back, the table's fields.
nlohmann::json depth_fields(const DepthEvalOptions& o) { return fields(eval_command_options(o)); }

void expect_round_trip(const DepthEvalOptions& o, const std::string& what) {
  const std::string flags = depth_eval_flags(o);
  EXPECT_EQ(depth_fields(depth_eval_options(parse_eval_flags(flags))), depth_fields(o))
      << what << ": " << flags;
}

TEST(EvalFlags, TheDefaultsGiveNoFlag) {
  EXPECT_EQ(eval_flags(EvalCommandOptions{}), "");
  EXPECT_EQ(fields(parse_eval_flags("")), fields(EvalCommandOptions{}));
  // The depths and the examples per cell always, as the reports' commands by hand show them.
  EXPECT_EQ(depth_eval_flags(DepthEvalOptions{}),
            "--depths 0,10,20,30,40,50,60,70,80,90,100 --count 100");
  expect_round_trip(DepthEvalOptions{}, "defaults");
}

TEST(EvalFlags, ThePresetsEvaluationsParseBack) {
  for (const RetrievalPreset& p : {RetrievalPreset::quick(), RetrievalPreset::full()}) {
    DepthEvalOptions e;
    e.depths = p.depths;
    e.count = p.eval_count;
    expect_round_trip(e, p.name);
  }
  for (const MitigationsPreset& p : {MitigationsPreset::quick(), MitigationsPreset::full()}) {
    DepthEvalOptions e;
    e.depths = p.depths;
    e.lengths = p.lengths;
    e.count = p.eval_count;
    expect_round_trip(e, p.name);
    for (const InferenceRemedy& r : p.inference) {
      e.rope_scaling = r.rope_scaling;
      e.logn_scale = r.logn_scale;
      e.calibrate = r.calibrate;
      expect_round_trip(e, p.name + " " + r.file);
    }
  }
  std::vector<std::string> remedies;  // as the mitigations section names them
  for (const InferenceRemedy& r : MitigationsPreset::full().inference) remedies.push_back(r.flag);
  EXPECT_EQ(remedies, (std::vector<std::string>{"--rope-scaling pi:2", "--rope-scaling ntk:2",
                                                "--logn-scale 0.2885",
                                                "--calibrate --calibrate-strength 1"}));
}

TEST(EvalFlags, EveryFieldParsesBackInTheTablesOrder) {
  DepthEvalOptions d;
  d.checkpoints = parse_checkpoint_selection("500,1000");
  d.depths = {0, 12.5, 100};
  d.lengths = {32, 64};
  d.count = 24;
  d.seed = 9'007'199'254'740'992ULL;  // 2^53
  d.threshold = 0.5;
  d.rope_scaling = parse_rope_scaling("ntk:2.5");
  d.logn_scale = 0.3607;
  d.calibrate = 0.25;
  expect_round_trip(d, "every kv field");
  EXPECT_EQ(depth_eval_flags(d),
            "--checkpoints 500,1000 --depths 0,12.5,100 --lengths 32,64 --count 24 --seed "
            "9007199254740992 --effective-threshold 0.5 --rope-scaling ntk:2.5 --logn-scale "
            "0.3607 --calibrate --calibrate-strength 0.25");
  EvalCommandOptions o = eval_command_options(d);
  o.hops = {1, 3};
  o.controls = false;
  const std::string flags = eval_flags(o);
  EXPECT_EQ(fields(parse_eval_flags(flags)), fields(o)) << flags;
  std::size_t at = 0;
  for (const FieldRow<EvalCommandOptions>& row : eval_option_fields()) {
    const std::size_t next = flags.find(row.flag, at);
    EXPECT_NE(next, std::string::npos) << row.flag << " missing or out of order: " << flags;
    if (next != std::string::npos) at = next;
  }
}

}  // namespace
}  // namespace posbias
