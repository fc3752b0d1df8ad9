// The BOS sink token of `train --sink` (train/sink_token.h, remedy 4a of docs/mitigations.md):
// the token at position 0 of every training, held-out and eval input and nowhere else; the
// answer, the needle's span and the depth found again from the shifted ids by a solver of their
// own; the baseline's weights at init; the training loss, the eval and the server reading it; a
// run without the option equal to the session-start binary's numbers; bad input in one line.
#include "posbias/train/sink_token.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../cli_run.h"
#include "kill_while_training.h"
#include "posbias/runfiles/train_config.h"
#include "posbias/serve/kv_completer.h"
#include "posbias/tasks/kv_task.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/kv_answer_inputs.h"
#include "posbias/train/kv_batch.h"
#include "posbias/train/trainer.h"

namespace {

using namespace posbias;
using namespace posbias_test;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) { return scratch_path("posbias_sink_token", name); }

TrainConfig tiny_kv(bool sink, Family arch = Family::kQwen2) {
  TrainConfig c = TrainConfig::defaults(Task::kKv);
  c.arch = arch;
  c.pos.reset();
  c.layers = 2, c.d_model = 16, c.heads = 2, c.mlp = 32, c.length = 40, c.batch = 8;
  c.steps = 4, c.warmup = 1, c.eval_every = 2, c.checkpoint_every = 2, c.log_checkpoints = 0;
  c.sink = sink;
  c.finalize();
  return c;
}

std::vector<std::int64_t> row_of(const torch::Tensor& ids, std::int64_t r) {
  const torch::Tensor row = ids[r].contiguous();
  return {row.data_ptr<std::int64_t>(), row.data_ptr<std::int64_t>() + row.numel()};
}

// An independent reading of a kv input as the model reads it: skip the sink token, find the
// query "?", its key, the pair with that key among the 6-token pairs that end at the query; the
// value after it, its index among the pairs and its depth. Knows nothing of the generator.
struct Solved {
  std::vector<std::int64_t> value;
  int pair = -1, pairs = 0, key_at = -1;  // key_at: the queried pair's first id, in the row
  double depth = -1;
};

Solved solve(const std::vector<std::int64_t>& row, int example_length, bool sink) {
  const int start = sink ? 1 : 0, query = start + example_length - 4;
  EXPECT_EQ(row.at(query), kv_token_id("?"));
  const std::vector<std::int64_t> key(row.begin() + query + 1, row.begin() + query + 4);
  Solved s;
  int first = query;
  while (first - 6 >= start && row[first - 6] != kv_token_id("_")) first -= 6;
  s.pairs = (query - first) / 6;
  for (int i = 0; i < s.pairs; ++i) {
    const int at = first + 6 * i;
    if (std::equal(key.begin(), key.end(), row.begin() + at)) {
      EXPECT_EQ(s.pair, -1) << "two pairs with the queried key";
      s.pair = i, s.key_at = at;
      s.value.assign(row.begin() + at + 3, row.begin() + at + 6);
    }
  }
  s.depth = s.pairs > 1 ? 100.0 * s.pair / (s.pairs - 1) : 0;
  return s;
}

TEST(SinkToken, EncodesTheSinkAtPositionZeroAndNowhereElse) {
  EXPECT_EQ(sink_token_id(), 39);
  EXPECT_EQ(tiny_kv(true).vocab(), 40);
  EXPECT_EQ(tiny_kv(false).vocab(), 39);
  EXPECT_EQ(tiny_kv(true).model_config().max_positions, 43);  // sink, 40 tokens, 2 answer tokens
  const TrainConfig c = tiny_kv(true);
  for (std::uint64_t step : {1, 2, 3}) {  // training draws
    const std::vector<KvExample> examples = sample_kv_batch(c, 8, step);
    const KvBatch with = encode_kv_examples(examples, true);
    const KvBatch without = encode_kv_examples(examples, false);
    ASSERT_EQ(with.ids.size(1), kv_input_length(40, true));
    ASSERT_EQ(with.ids.size(1), without.ids.size(1) + 1);
    EXPECT_TRUE(with.answers.equal(without.answers));
    EXPECT_TRUE(with.ids.slice(1, 1).equal(without.ids));  // the rest shifts by one
    EXPECT_TRUE(with.ids.select(1, 0).eq(sink_token_id()).all().item<bool>());
    EXPECT_EQ(with.ids.eq(sink_token_id()).sum().item<std::int64_t>(), 8);  // nowhere else
    EXPECT_EQ(without.ids.eq(sink_token_id()).sum().item<std::int64_t>(), 0);
    for (std::int64_t r = 0; r < 8; ++r) {
      const KvExample& ex = examples[static_cast<std::size_t>(r)];
      const Solved s = solve(row_of(with.ids, r), 40, true);
      EXPECT_EQ(s.value, row_of(with.answers, r));  // the answer, read from the shifted ids
      EXPECT_EQ(s.pair, ex.queried);
      EXPECT_EQ(s.pairs, ex.pairs);
      EXPECT_DOUBLE_EQ(s.depth, ex.depth);  // over the example's own pairs
      EXPECT_EQ(s.key_at, ex.position + 1);
    }
  }
}

TEST(SinkToken, EvalAndInfluenceInputsShiftTheNeedleAndKeepTheDepth) {
  for (int length : {32, 64}) {
    for (double depth : {0.0, 50.0, 100.0}) {
      for (std::int64_t e = 0; e < 3; ++e) {
        const KvExample ex = kv_depth_example(length, depth, e, 1);  // eval's cell (L, depth)
        const AnswerInput plain = kv_answer_input(ex, false), in = kv_answer_input(ex, true);
        ASSERT_EQ(in.ids.size(), plain.ids.size() + 1);
        EXPECT_EQ(in.ids.front(), sink_token_id());
        EXPECT_EQ(std::count(in.ids.begin(), in.ids.end(), sink_token_id()), 1);
        EXPECT_EQ(std::vector<std::int64_t>(in.ids.begin() + 1, in.ids.end()), plain.ids);
        EXPECT_EQ(in.answer, plain.answer);
        EXPECT_EQ(in.from, plain.from + 1);  // the value's tokens are still the last read
        EXPECT_EQ(in.depth, ex.depth);
        const Solved s = solve(in.ids, length, true);
        EXPECT_EQ(in.needle.begin, s.key_at);
        EXPECT_EQ(in.needle.end, s.key_at + 6);
        EXPECT_EQ(in.needle.begin, plain.needle.begin + 1);
        EXPECT_DOUBLE_EQ(s.depth, ex.depth);  // the pair the depth rounds to, among its own
        ASSERT_EQ(in.distractors.size(), plain.distractors.size());
        for (std::size_t d = 0; d < in.distractors.size(); ++d)
          EXPECT_EQ(in.distractors[d].begin, plain.distractors[d].begin + 1);
      }
    }
  }
}

TEST(SinkToken, StartsFromTheBaselinesWeightsButTheExtraRows) {
  for (Family arch : {Family::kQwen2, Family::kGpt2}) {  // tied and untied heads, learned table
    const TrainConfig plain = tiny_kv(false, arch), sink = tiny_kv(true, arch);
    Transformer a(plain.model_config()), b(sink.model_config());
    a->init_weights(sink.seed);
    b->init_weights(sink.seed);
    init_sink_weights(b, sink);
    const auto pa = a->named_parameters();
    std::set<std::string> grown;
    for (const auto& p : b->named_parameters()) {
      const torch::Tensor& base = pa[p.key()];
      if (p.value().sizes() == base.sizes()) {
        EXPECT_TRUE(p.value().equal(base)) << p.key();
        continue;
      }
      grown.insert(p.key());
      ASSERT_EQ(p.value().size(0), base.size(0) + 1) << p.key();
      EXPECT_TRUE(p.value().slice(0, 0, base.size(0)).equal(base)) << p.key();
      if (p.key() == "wte.weight") {  // the sink's embedding: drawn, not zero or a copy
        const torch::Tensor row = p.value()[base.size(0)];
        EXPECT_GT(row.abs().sum().item<double>(), 0);
        EXPECT_NEAR(row.std().item<double>(), plain.init_std, plain.init_std);
      }
    }
    EXPECT_TRUE(grown.count("wte.weight")) << to_string(arch);
    EXPECT_EQ(grown.count("wpe"), arch == Family::kGpt2 ? 1u : 0u);  // gpt2: a learned table
    for (const std::string& name : grown)
      EXPECT_TRUE(name == "wte.weight" || name == "wpe" || name.rfind("lm_head.", 0) == 0) << name;
    // Without init_sink_weights the same seed draws other weights: the copy is what makes them
    // equal (the control).
    Transformer c(sink.model_config());
    c->init_weights(sink.seed);
    EXPECT_FALSE(
        c->named_parameters()["blocks.0.attn.qkv.weight"].equal(pa["blocks.0.attn.qkv.weight"]));
  }
}

TEST(SinkToken, TheTrainingLossReadsTheSink) {
  const TrainConfig c = tiny_kv(true);
  Trainer trainer(c);
  Transformer copy(c.model_config());
  copy->init_weights(c.seed);
  init_sink_weights(copy, c);
  copy->train();
  const std::vector<KvExample> batch = sample_kv_batch(c, c.batch, 1);
  const double with = kv_loss(copy, encode_kv_examples(batch, true)).item<double>();
  const double without = kv_loss(copy, encode_kv_examples(batch, false)).item<double>();
  ASSERT_NE(with, without);  // the control: the sink changes the loss at these weights
  EXPECT_DOUBLE_EQ(trainer.step(1), with);
}

std::string tiny_flags() {
  return "train --task kv --layers 2 --d-model 16 --heads 2 --mlp 32 --length 16 --batch 8 "
         "--steps 6 --warmup 2 --eval-every 2 --checkpoint-every 2 --eval-per-hop 16 "
         "--log-checkpoints 0 --arch qwen2 ";
}

TEST(SinkTrain, UnsetIsTheRunOfBeforeAndSetIsRecorded) {
  const fs::path plain = scratch("plain"), explicit_off = scratch("off"), sink = scratch("sink");
  ASSERT_EQ(run_cli(tiny_flags() + "--out " + plain.string(), 300).code, 0);
  // The session-start binary's numbers for this run (before the option existed).
  const std::vector<nlohmann::json> m = metrics_without_timing(plain);
  ASSERT_EQ(m.size(), 4u);
  const double before[] = {3.6337101459503174, 3.6246622800827026, 3.6594831943511963};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m[i + 1]["loss"].get<double>(), before[i], 1e-6);
  const nlohmann::json train = nlohmann::json::parse(slurp(plain / "train.json"));
  EXPECT_FALSE(train["config"].contains("sink"));
  EXPECT_EQ(nlohmann::json::parse(slurp(plain / "config.json"))["vocab_size"], 39);
  // "sink": false given is the run without it, byte for byte.
  const fs::path config = scratch("off.json");
  std::ofstream(config) << R"({"sink": false})";
  ASSERT_EQ(
      run_cli(tiny_flags() + "--config " + config.string() + " --out " + explicit_off.string(), 300)
          .code,
      0);
  EXPECT_EQ(slurp(plain / "model.safetensors"), slurp(explicit_off / "model.safetensors"));
  EXPECT_EQ(metrics_without_timing(plain), metrics_without_timing(explicit_off));

  const CliResult r = run_cli(tiny_flags() + "--sink --out " + sink.string(), 300);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(sink / "train.json"))["config"]["sink"], true);
  const nlohmann::json hf = nlohmann::json::parse(slurp(sink / "config.json"));
  EXPECT_EQ(hf["vocab_size"], 40);
  EXPECT_NE(metrics_without_timing(sink)[1]["loss"], m[1]["loss"]);
  // A resumed sink run keeps it.
  ASSERT_EQ(run_cli("train --resume " + sink.string(), 300).code, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(sink / "train.json"))["config"]["sink"], true);

  // eval reads it from the run: its exact matches are those of the inputs with the sink.
  const fs::path eval = scratch("eval.json");
  const CliResult e =
      run_cli("eval --run " + sink.string() + " --lengths 16,22 --depths 0,100 --count 6 --json " +
                  eval.string(),
              300);
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json ej = nlohmann::json::parse(slurp(eval));
  EXPECT_EQ(ej["config"]["sink"], true);
  LoadedModel loaded = load_trained_model(sink);
  for (int len : {16, 22}) {
    for (int depth : {0, 100}) {
      std::vector<KvExample> examples;
      for (std::int64_t i = 0; i < 6; ++i) examples.push_back(kv_depth_example(len, depth, i, 1));
      const std::vector<bool> right = kv_exact_matches(loaded.model, examples, 6, true);
      const auto correct = std::count(right.begin(), right.end(), true);
      EXPECT_EQ(ej["depth_accuracy"][std::to_string(len)][std::to_string(depth)]["correct"],
                correct)
          << len << " " << depth;
    }
  }
}

// The greedy decode with or without the sink token first, and its tokens' log-probabilities.
std::string greedy(Transformer& model, const KvExample& ex, bool sink,
                   std::vector<double>* logprobs) {
  torch::NoGradGuard no_grad;
  std::vector<std::int64_t> ids;
  if (sink) ids.push_back(sink_token_id());
  for (const std::string& t : ex.tokens) ids.push_back(kv_token_id(t));
  std::string text;
  for (int k = 0; k < kKvValueTokens; ++k) {
    const torch::Tensor in = torch::tensor(ids, torch::kInt64).unsqueeze(0);
    const torch::Tensor logits = model->last_logits(in)[0];
    const std::int64_t next = logits.argmax(-1).item<std::int64_t>();
    logprobs->push_back(torch::log_softmax(logits, -1)[next].item<double>());
    text += (k ? " " : "") + kv_vocabulary().at(static_cast<std::size_t>(next));
    ids.push_back(next);
  }
  return text;
}

TEST(SinkTrain, TheServerPutsTheSinkBeforeThePrompt) {
  const fs::path run = scratch("served");
  ASSERT_EQ(run_cli(tiny_flags() + "--sink --out " + run.string(), 300).code, 0);
  KvCompleter completer({ServedRun{"sink", run.string(), ""}}, 30);
  LoadedModel loaded = load_trained_model(run);
  double apart = 0;  // how far the log-probabilities without the sink are from the served ones
  for (std::int64_t e = 0; e < 6; ++e) {
    const KvExample ex = kv_depth_example(16, 50, e, 3);
    CompletionRequest request;
    request.model = "sink";
    for (const std::string& t : ex.tokens)
      request.prompt += (request.prompt.empty() ? "" : " ") + t;
    request.max_tokens = kKvValueTokens;
    request.logprobs = 0;
    const Completion c = completer.complete(request, [](const Completion&) {});
    std::vector<double> with, without;
    EXPECT_EQ(c.text, greedy(loaded.model, ex, true, &with)) << e;
    greedy(loaded.model, ex, false, &without);
    ASSERT_EQ(c.logprobs.size(), with.size());
    for (std::size_t k = 0; k < with.size(); ++k) {
      EXPECT_NEAR(c.logprobs[k].logprob, with[k], 1e-5) << e << " " << k;
      apart = std::max(apart, std::abs(c.logprobs[k].logprob - without[k]));
    }
  }
  EXPECT_GT(apart, 1e-4) << "the inputs without the sink give the same numbers: the check above "
                            "could not fail";
}

TEST(SinkTrain, BadInputGetsOneLine) {
  const fs::path out = scratch("bad");
  expect_usage_error("train --task number --sink --steps 2 --out " + out.string(), "sink");
  expect_usage_error("train --task text --sink --steps 2 --out " + out.string(), "sink");
  const fs::path config = scratch("bad.json");
  std::ofstream(config) << R"({"task": "kv", "sink": 1})";
  expect_usage_error("train --config " + config.string() + " --out " + out.string(), "sink");
  EXPECT_FALSE(fs::exists(out / "train.json"));
  // A sink on a model without one: a run's train.json that says sink over weights without the
  // sink's row.
  const fs::path plain = scratch("no_sink");
  ASSERT_EQ(run_cli(tiny_flags() + "--out " + plain.string(), 300).code, 0);
  nlohmann::json train = nlohmann::json::parse(slurp(plain / "train.json"));
  train["config"]["sink"] = true;
  std::ofstream(plain / "train.json") << train.dump(2);
  const CliResult r =
      run_cli("eval --run " + plain.string() + " --lengths 16 --depths 0 --count 2", 120);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

}  // namespace
