// The project's enums in field tables (tasks/task_codecs.h, arch/arch_codecs.h,
// text/tokenizer_codec.h, theory/theory_codecs.h, llm/api_codec.h): every value is written as
// its name and reads back to itself, and a name not in the table is refused in one line that
// lists the names there are. The names of the torch concepts' enums (the attention path, the
// Jacobian method, the influence target, the α estimator) live in torch-free headers, so the
// readers without torch (`seeds`, `birth --colocate`) hold them as enums too.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../shipped_records.h"
#include "posbias/arch/arch_codecs.h"
#include "posbias/llm/api_codec.h"
#include "posbias/tasks/task_codecs.h"
#include "posbias/text/tokenizer_codec.h"
#include "posbias/theory/theory_codecs.h"

namespace posbias {
namespace {

template <class E>
void expect_round_trip(const std::vector<std::pair<E, std::string>>& values) {
  for (const auto& [value, name] : values) {
    EXPECT_EQ(FieldCodec<E>::write(value), nlohmann::json(name));
    EXPECT_EQ(FieldCodec<E>::read(nlohmann::json(name), "field 'x'"), value) << name;
  }
}

template <class E>
std::string refusal(const nlohmann::json& j) {
  return posbias_test::refusal_of([&] { FieldCodec<E>::read(j, "eval field 'task'"); });
}

TEST(EnumCodecs, EveryValueIsWrittenByItsNameAndReadsBack) {
  expect_round_trip<Task>({{Task::kNumber, "number"},
                           {Task::kLetter, "letter"},
                           {Task::kText, "text"},
                           {Task::kKv, "kv"}});
  expect_round_trip<Variant>({{Variant::kStandard, "standard"},
                              {Variant::kSeenJumps, "seen_jumps"},
                              {Variant::kDecoy, "decoy"}});
  expect_round_trip<AnswerInputs>({{AnswerInputs::kKv, "kv"}, {AnswerInputs::kPasskey, "passkey"}});
  expect_round_trip<DepthPrior>({{DepthPrior::kUniform, "uniform"}, {DepthPrior::kEnds, "ends"}});
  expect_round_trip<Family>({{Family::kGpt2, "gpt2"},
                             {Family::kQwen2, "qwen2"},
                             {Family::kGptj, "gptj"},
                             {Family::kLlama, "llama"}});
  expect_round_trip<PosEncoding>({{PosEncoding::kLearned, "learned"},
                                  {PosEncoding::kRope, "rope"},
                                  {PosEncoding::kNone, "none"},
                                  {PosEncoding::kAlibi, "alibi"}});
  expect_round_trip<RopeScalingKind>(
      {{RopeScalingKind::kPi, "pi"}, {RopeScalingKind::kNtk, "ntk"}});
  expect_round_trip<TokenizerKind>(
      {{TokenizerKind::kSpm, "spm"}, {TokenizerKind::kBytes, "bytes"}});
  expect_round_trip<PathSum>({{PathSum::kLinear, "linear"}, {PathSum::kQuadrature, "quadrature"}});
  expect_round_trip<Api>({{Api::kChat, "chat"}, {Api::kCompletions, "completions"}});
  expect_round_trip<AttentionPath>(
      {{AttentionPath::kDense, "dense"}, {AttentionPath::kBlockwise, "blockwise"}});
  expect_round_trip<JacobianMethod>({{JacobianMethod::kExact, "exact"},
                                     {JacobianMethod::kHutchinson, "hutchinson"},
                                     {JacobianMethod::kAutogradLoop, "autograd"}});
  expect_round_trip<InfluenceTarget>({{InfluenceTarget::kHidden, "hidden"},
                                      {InfluenceTarget::kLoss, "loss"},
                                      {InfluenceTarget::kProb, "prob"}});
  expect_round_trip<AlphaEstimator>({{AlphaEstimator::kJacobian, "jacobian"},
                                     {AlphaEstimator::kForward, "forward"},
                                     {AlphaEstimator::kPositions, "positions"}});
  expect_round_trip<EvalTask>({{EvalTask::kNumber, "number"},
                               {EvalTask::kLetter, "letter"},
                               {EvalTask::kText, "text"},
                               {EvalTask::kKv, "kv"},
                               {EvalTask::kPasskey, "passkey"}});
}

// The field the value sits in comes first, then the names there are.
TEST(EnumCodecs, AnUnknownNameIsRefusedListingTheNames) {
  EXPECT_EQ(refusal<Task>("letters"),
            "eval field 'task': unknown task 'letters' (use number, letter, text or kv); did you "
            "mean 'letter'?");
  const std::string variant = refusal<Variant>("decoys");
  EXPECT_NE(variant.find("(use standard, seen_jumps or decoy)"), std::string::npos) << variant;
  EXPECT_EQ(refusal<AnswerInputs>("needle"),
            "eval field 'task': unknown retrieval task 'needle' (use kv or passkey)");
  EXPECT_NE(refusal<DepthPrior>("middle").find("(use uniform or ends)"), std::string::npos)
      << refusal<DepthPrior>("middle");
  EXPECT_EQ(refusal<Family>("qwen3"),
            "eval field 'task': unknown architecture family 'qwen3' (use gpt2, qwen2, gptj or "
            "llama); did you mean "
            "'qwen2'?");
  EXPECT_EQ(
      refusal<TokenizerKind>("byte"),
      "eval field 'task': unknown tokenizer 'byte' (use spm or bytes); did you mean 'bytes'?");
  EXPECT_NE(refusal<PosEncoding>("sinusoidal").find("(use learned, rope, none or alibi)"),
            std::string::npos)
      << refusal<PosEncoding>("sinusoidal");
  EXPECT_EQ(refusal<PathSum>("quad"),
            "eval field 'task': unknown --paths 'quad' (use linear or quadrature); did you mean "
            "'quadrature'?");
  EXPECT_EQ(
      refusal<Api>("chats"),
      "eval field 'task': unknown --api 'chats' (use chat or completions); did you mean 'chat'?");
  EXPECT_EQ(refusal<AttentionPath>("auto"),
            "eval field 'task': unknown attention path 'auto' (use dense or blockwise)");
  EXPECT_EQ(refusal<EvalTask>("hop"),
            "eval field 'task': unknown eval task 'hop' (use number, letter, text, kv or passkey)");
  EXPECT_NE(refusal<JacobianMethod>("exactly").find("(use exact, hutchinson or autograd)"),
            std::string::npos);
  EXPECT_NE(refusal<InfluenceTarget>("answer").find("(use hidden, loss or prob)"),
            std::string::npos);
  EXPECT_NE(refusal<AlphaEstimator>("fit").find("(use jacobian, forward or positions)"),
            std::string::npos);
  // Not a name at all: the field's own message.
  EXPECT_EQ(refusal<Task>(3), "eval field 'task' must be a string");
}

}  // namespace
}  // namespace posbias
