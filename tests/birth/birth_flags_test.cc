// birth_flags: the command line of BirthOptions parses back, through `posbias birth`'s own flags
// (registered from the field table as the command registers them, parsed by CLI11 and each
// row's parser), to the same options: the defaults, the mitigations presets' shapes at init
// (with and without the null sink, and the BOS sink's), options with every field set, and what
// `theory design` writes for each operator (its birth_options) to the operator's spec.
#include "posbias/theory/birth_flags.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../parse_flags.h"
#include "apps/posbias/birth_option_flags.h"
#include "experiments/birth/birth.h"
#include "experiments/mitigations/presets.h"
#include "experiments/retrieval/retrieval_flags.h"
#include "experiments/theory/design_command.h"
#include "posbias/theory/birth_spec.h"
#include "posbias/train/answer_influence.h"

namespace posbias {
namespace {

// What `posbias birth FLAGS` measures with: the flags through birth's own parsers.
BirthOptions parse_birth_flags(const std::string& flags) {
  return posbias_test::parse_flags<BirthOptions>(flags, cli::add_birth_option_flags);
}

nlohmann::json fields(const BirthSpec& o) { return fields_to_json(birth_spec_fields(), o); }

void expect_round_trip(const BirthOptions& o, const std::string& what) {
  const std::string flags = birth_flags(o);
  EXPECT_EQ(fields(parse_birth_flags(flags)), fields(o)) << what << ": " << flags;
}

TEST(BirthFlags, TheDefaultsGiveNoFlag) {
  EXPECT_EQ(birth_flags(BirthOptions{}), "");
  expect_round_trip(BirthOptions{}, "defaults");
}

TEST(BirthFlags, TheMitigationsShapesParseBack) {
  for (const MitigationsPreset& p : {MitigationsPreset::quick(), MitigationsPreset::full()}) {
    for (const MitigationsBirthModel& m : p.birth_models) {
      expect_round_trip(m.options, p.name + " " + m.file);
      BirthOptions sink = m.options;
      sink.null_sink = p.null_sink;
      expect_round_trip(sink, p.name + " " + m.file + " null sink");
    }
    expect_round_trip(p.bos, p.name + " bos");
  }
  BirthOptions qwen = MitigationsPreset::quick().birth_models.back().options;
  qwen.null_sink = 2;
  EXPECT_EQ(birth_flags(qwen),
            "--arch qwen2 --layers 4 --d-model 64 --heads 4 --kv-heads 2 --null-sink 2 "
            "--length 64 --seeds 4");
}

TEST(BirthFlags, EveryFieldParsesBackInTheTablesOrder) {
  BirthOptions o;
  o.arch = "tinyllama-1.1b";
  o.layers = 3;
  o.d_model = 48;
  o.heads = 6;
  o.kv_heads = 2;
  o.mlp = 96;
  o.rotary_dim = 4;
  o.pos = PosEncoding::kAlibi;
  o.window = 12;
  o.attn_init_scale = 0.35;
  o.null_sink = -1.25;
  o.alpha_estimator = AlphaEstimator::kForward;
  o.stay_probes = 3;
  o.length = 40;
  o.seeds = 2;
  o.method = JacobianMethod::kHutchinson;
  o.probes = 5;
  o.query = 17;
  o.input = BirthInput::kTokens;
  o.init = BirthInit::kUnscaled;
  o.seed = 9'007'199'254'740'992ULL;  // 2^53, the largest seed the flag takes
  o.bootstrap = 50;
  expect_round_trip(o, "every field");
  const std::string flags = birth_flags(o);
  std::size_t at = 0;
  for (const FieldRow<BirthSpec>& row : birth_spec_fields()) {
    const std::size_t next = flags.find(row.flag + " ", at);
    EXPECT_NE(next, std::string::npos) << row.flag << " missing or out of order: " << flags;
    if (next != std::string::npos) at = next;
  }
  EXPECT_NE(flags.find("--attn-init-scale 0.35 --null-sink -1.25"), std::string::npos) << flags;
}

// --arch's help comes from the preset table (arch/presets.h): the presets in order, the families
// in their reference presets' order and the reference presets not named as their family.
TEST(BirthFlags, ArchHelpListsThePresetTable) {
  EXPECT_EQ(birth_spec_fields().front().name, "arch");
  EXPECT_EQ(birth_spec_fields().front().help,
            "preset (gpt2, gpt2-medium, qwen2-0.5b, tinyllama-1.1b, gptj-hop) or family (gpt2, "
            "qwen2, llama, gptj), which builds its reference preset (qwen2: qwen2-0.5b, llama: "
            "tinyllama-1.1b, gptj: gptj-hop)");
}

// Each operator's birth_options, given to birth, build the operator's spec: its window, ALiBi of
// its head count and null sink, every other field birth's default.
TEST(BirthFlags, TheDesignsBirthOptionsBuildEachOperatorsSpec) {
  DesignOptions o;
  o.length = 64;
  o.layers = 4;
  o.grid.windows = {0, 24};
  o.grid.alibis = {{"0.05", {0.05}, 0}, {"heads:4", alibi_standard_slopes(4), 4}};
  o.grid.null_sinks = {std::nullopt, -1.5, 2.0};
  o.grid.alphas = {design_alpha(0.4)};
  const DesignResult r = run_design_search(o);
  ASSERT_EQ(r.points.size(), 2u * 3 * 3 * 2);  // windows, ALiBi (with none), null sinks, α
  for (const DesignPoint& p : r.points) {
    BirthSpec expected;
    expected.window = p.window;
    if (p.alibi.heads > 0) expected.pos = PosEncoding::kAlibi, expected.heads = p.alibi.heads;
    expected.null_sink = p.null_sink;
    EXPECT_EQ(fields(p.birth), fields(expected)) << p.birth_options;
    EXPECT_EQ(fields(parse_birth_flags(p.birth_options)), fields(expected)) << p.birth_options;
  }
}

// The answer influence's and eval's lines: each option the report sets, eval's defaults left out.
TEST(BirthFlags, AnswerInfluenceAndEvalByDepthLines) {
  AnswerInfluenceOptions i;
  i.checkpoints = CheckpointSelection::last();
  i.depths = {0, 33, 67, 100};
  i.per_depth = 4;
  EXPECT_EQ(answer_influence_flags(i),
            "--inputs kv --target answer --checkpoints last --depths 0,33,67,100 --seeds 4");
  i.inputs = AnswerInputs::kPasskey;
  i.length = 48;
  i.seed = 7;
  EXPECT_EQ(answer_influence_flags(i),
            "--inputs passkey --target answer --checkpoints last --length 48 --depths "
            "0,33,67,100 --seeds 4 --seed 7");
  DepthEvalOptions e;
  e.depths = {0, 12.5, 100};
  e.count = 24;
  EXPECT_EQ(depth_eval_flags(e), "--depths 0,12.5,100 --count 24");
  e.lengths = {32, 64};
  e.seed = 3;
  EXPECT_EQ(depth_eval_flags(e), "--depths 0,12.5,100 --lengths 32,64 --count 24 --seed 3");
}

}  // namespace
}  // namespace posbias
