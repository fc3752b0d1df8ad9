// `posbias serve` on kv runs and `posbias llm --suite kv` against it, over loopback HTTP as a user
// runs them. The reference is computed here, in process, on the run's own checkpoint: an
// independent greedy decode of every probe's example (last_logits, one token at a time) and
// kv_exact_matches on the same examples. Every served completion must equal the decode, every
// stored exact match the in-process one, and every per-cell accuracy of the llm JSON the
// in-process cell and `posbias eval`'s; a copy of the reference with one answer altered must show
// that one difference. Bad input: a foreign token and a prompt past a learned position table get
// one 400 line each; stop strings and max_tokens cut the completion. A text run is served too:
// its completion is the in-process greedy continuation of the prompt's bytes.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../cli_run.h"
#include "../process.h"
#include "posbias/llm/http_client.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/probe.h"
#include "posbias/llm/result_store.h"
#include "posbias/serve/kv_completer.h"
#include "posbias/text/tokenizer.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/kv_batch.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kLength = 16;  // two pairs: a small model learns to copy one of the two values
constexpr std::uint64_t kSeed = 7;
constexpr std::int64_t kCount = 12;
const std::vector<int> kLengths{16, 22};  // the training length and the next with 3 pairs
const std::vector<int> kDepths{0, 50, 100};

fs::path dir() {
  static const fs::path d = [] {
    const fs::path p =
        fs::temp_directory_path() / ("posbias_kv_serve_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

fs::path tiny_kv_run(const std::string& name, const std::string& flags) {
  const fs::path run = dir() / name;
  const CliResult r = run_cli("train --task kv --layers 2 --d-model 64 --heads 4 --mlp 128 -L " +
                                  std::to_string(kLength) + " " + flags + " --out " + run.string(),
                              300);
  EXPECT_EQ(r.code, 0) << r.err;
  return run;
}

// The greedy decode of an example's value, token by token, each step a fresh forward pass; the
// sum of its tokens' log-probabilities (log_softmax of the logits at each step) in `logprob`.
std::string greedy_value(posbias::Transformer& model, const posbias::KvExample& ex,
                         double* logprob = nullptr) {
  torch::NoGradGuard no_grad;
  std::vector<std::int64_t> ids;
  for (const std::string& t : ex.tokens) ids.push_back(posbias::kv_token_id(t));
  std::string text;
  double sum = 0;
  for (int k = 0; k < posbias::kKvValueTokens; ++k) {
    const torch::Tensor in = torch::tensor(ids, torch::kInt64).unsqueeze(0);
    const torch::Tensor logits = model->last_logits(in)[0];
    const std::int64_t next = logits.argmax(-1).item<std::int64_t>();
    sum += torch::log_softmax(logits, -1)[next].item<double>();
    text += (k ? " " : "") + posbias::kv_vocabulary()[static_cast<std::size_t>(next)];
    ids.push_back(next);
  }
  if (logprob != nullptr) *logprob = sum;
  return text;
}

struct Reference {
  std::map<std::string, std::string> completion;   // probe id -> greedy value
  std::map<std::string, double> logprob;           // probe id -> its log-probability
  std::map<std::string, bool> exact;               // probe id -> kv_exact_matches
  std::map<std::pair<int, int>, double> accuracy;  // (length, depth) -> mean exact match
};

Reference in_process(const fs::path& run) {
  posbias::LoadedModel m = posbias::load_trained_model(run);
  Reference ref;
  for (int len : kLengths) {
    for (int depth : kDepths) {
      const auto examples = posbias::kv_probe_examples(len, depth, kCount, kSeed);
      const std::vector<bool> right = posbias::kv_exact_matches(m.model, examples, 8, false);
      double hits = 0;
      for (std::size_t i = 0; i < examples.size(); ++i) {
        const std::string id =
            "kv/L" + std::to_string(len) + "/d" + std::to_string(depth) + "/#" + std::to_string(i);
        ref.completion[id] = greedy_value(m.model, examples[i], &ref.logprob[id]);
        ref.exact[id] = right[i];
        hits += right[i];
      }
      ref.accuracy[{len, depth}] = hits / static_cast<double>(examples.size());
    }
  }
  return ref;
}

// Probe ids whose served completion or exact match differs from the reference.
std::vector<std::string> differences(const std::vector<posbias::ResultRow>& served,
                                     const Reference& ref) {
  std::vector<std::string> out;
  for (const posbias::ResultRow& r : served) {
    const auto c = ref.completion.find(r.probe_id);
    const auto e = ref.exact.find(r.probe_id);
    if (!r.ok || c == ref.completion.end() || c->second != r.response || e->second != r.strict) {
      out.push_back(r.probe_id);
    }
  }
  return out;
}

class KvServed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rope_ = new fs::path(
        tiny_kv_run("rope",
                    "--arch qwen2 --steps 600 --warmup 50 --lr 3e-3 --batch 32 --eval-every 600 "
                    "--checkpoint-every 600"));
    learned_ = new fs::path(tiny_kv_run(
        "learned",
        "--arch gpt2 --steps 2 --warmup 1 --batch 4 --eval-every 2 --checkpoint-every 2"));
    server_ =
        new Process({POSBIAS_BIN, "serve", "--run", rope_->string(), "--run", learned_->string(),
                     "--port", "0", "--port-file", (dir() / "port").string()},
                    (dir() / "serve.log").string());
    port_ = wait_for_port(dir() / "port");
  }
  static void TearDownTestSuite() {
    server_->signal(SIGTERM);
    EXPECT_EQ(server_->wait(), 0) << "serve did not stop cleanly on SIGTERM";
    delete server_;
    delete rope_;
    delete learned_;
  }
  static std::string url() { return "http://127.0.0.1:" + std::to_string(port_); }
  static posbias::HttpResponse complete(const std::string& body) {
    posbias::HttpClient client;
    return client.post_json(url() + "/v1/completions", body, {}, 30);
  }
  static fs::path* rope_;
  static fs::path* learned_;
  static Process* server_;
  static int port_;
};
fs::path* KvServed::rope_ = nullptr;
fs::path* KvServed::learned_ = nullptr;
Process* KvServed::server_ = nullptr;
int KvServed::port_ = 0;

// serve --checkpoints: several checkpoints of one run side by side as NAME@STEP, each answering
// with its own weights (the last one as the run's latest does); one keeps the run's name; a step
// the run lacks is one line, exit 2.
TEST_F(KvServed, CheckpointsAreServedSideBySideByStep) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  Process steps({POSBIAS_BIN, "serve", "--run", "tiny=" + learned_->string(), "--checkpoints",
                 "0,2", "--port", "0", "--port-file", (dir() / "steps_port").string()},
                (dir() / "steps_serve.log").string());
  const int port = wait_for_port(dir() / "steps_port");
  ASSERT_GT(port, 0) << slurp(dir() / "steps_serve.log");
  EXPECT_NE(slurp(dir() / "steps_serve.log").find("(models: tiny@0, tiny@2)"), std::string::npos)
      << slurp(dir() / "steps_serve.log");
  posbias::HttpClient client;
  std::string tokens;
  const auto examples = posbias::kv_probe_examples(kLengths[0], 50, 1, kSeed);
  for (const std::string& t : examples.front().tokens) tokens += (tokens.empty() ? "" : " ") + t;
  const std::string prompt = R"(, "prompt": ")" + tokens + R"(", "max_tokens": 3})";
  auto answer = [&](const std::string& url, const std::string& model) {
    const posbias::HttpResponse r =
        client.post_json(url + "/v1/completions", R"({"model": ")" + model + "\"" + prompt, {}, 30);
    EXPECT_EQ(r.status, 200) << model << ": " << r.body;
    return r.body;
  };
  const std::string here = "http://127.0.0.1:" + std::to_string(port);
  auto text = [](const std::string& body) {
    return posbias::parse_completion(posbias::Api::kCompletions, body).text;
  };
  EXPECT_EQ(text(answer(here, "tiny@2")), text(answer(url(), "learned")));
  answer(here, "tiny@0");
  const posbias::HttpResponse plain =
      client.post_json(here + "/v1/completions", R"({"model": "tiny")" + prompt, {}, 30);
  EXPECT_EQ(plain.status, 404) << plain.body;
  steps.signal(SIGTERM);
  EXPECT_EQ(steps.wait(), 0);
  expect_usage_error("serve --run " + learned_->string() + " --checkpoints 7 --port 0",
                     "no checkpoint at step 7");
}

TEST_F(KvServed, LlmKvSuiteEqualsInProcessGreedyDecodeOnTheSameExamples) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  const fs::path db = dir() / "kv.db", out = dir() / "kv_llm.json";
  const CliResult r = run_cli("llm --endpoint " + url() +
                              " --model rope --api completions --suite kv --lengths 16,22 "
                              "--depths 0,50,100 --count 12 --seed 7 --jobs 4 --quiet --db " +
                              db.string() + " --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const json llm = json::parse(slurp(out));
  const json& suite = llm["suites"][0];
  EXPECT_EQ(suite["answered"], 72);

  const Reference ref = in_process(*rope_);
  posbias::ResultStore store(db.string());
  const std::vector<posbias::ResultRow> rows = store.rows("kv", "rope");
  ASSERT_EQ(rows.size(), 72u);
  EXPECT_EQ(differences(rows, ref), std::vector<std::string>{});

  // Every cell's accuracy in the llm JSON is the in-process one.
  int cells = 0;
  for (const json& row : suite["by_depth"]) {
    const auto it = ref.accuracy.find({row["length"].get<int>(), row["depth"].get<int>()});
    ASSERT_NE(it, ref.accuracy.end()) << row.dump();
    EXPECT_DOUBLE_EQ(row["strict"].get<double>(), it->second) << row.dump();
    ++cells;
  }
  EXPECT_EQ(cells, 6);

  // And `posbias eval` on the same run, lengths, depths, count and seed: the same cells.
  const fs::path eval_out = dir() / "kv_eval.json";
  const CliResult e =
      run_cli("eval --run " + rope_->string() +
              " --lengths 16,22 --depths 0,50,100 --count 12 --seed 7 --json " + eval_out.string());
  ASSERT_EQ(e.code, 0) << e.err;
  const json eval = json::parse(slurp(eval_out))["depth_accuracy"];
  for (const json& row : suite["by_depth"]) {
    const json& cell =
        eval[std::to_string(row["length"].get<int>())][std::to_string(row["depth"].get<int>())];
    EXPECT_EQ(row["strict"].get<double>(), cell["accuracy"].get<double>()) << row.dump();
    EXPECT_EQ(row["n"], cell["n"]);
  }

  // The comparison sees an altered answer: one reference value changed, one difference.
  Reference altered = ref;
  const std::string victim = "kv/L22/d50/#3";
  altered.exact[victim] = !altered.exact[victim];
  EXPECT_EQ(differences(rows, altered), std::vector<std::string>{victim});

  // Not vacuous: at the training length the model gets some values right and some wrong (it
  // copies one of the two, about half the time after 600 steps), and its answers vary.
  std::int64_t right_at_training = 0, wrong_at_training = 0;
  std::set<std::string> distinct;
  for (const auto& [id, right] : ref.exact) {
    if (id.rfind("kv/L16/", 0) == 0) (right ? right_at_training : wrong_at_training) += 1;
    distinct.insert(ref.completion.at(id));
  }
  EXPECT_GE(right_at_training, 3) << "the small kv run did not learn";
  EXPECT_GE(wrong_at_training, 3);
  EXPECT_GE(distinct.size(), 5u) << "the served model answers a constant";
}

// The harness through serve with streaming and log-probabilities on (chat): the same answers,
// and each stored log-probability is the in-process sum over the greedy value's tokens.
TEST_F(KvServed, LlmStreamingWithLogprobsStoresTheModelsOwnLogProbability) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  const fs::path db = dir() / "kv_stream.db", out = dir() / "kv_stream.json";
  const CliResult r = run_cli("llm --endpoint " + url() +
                              " --model rope --api chat --stream --logprobs --suite kv "
                              "--lengths 16,22 --depths 0,50,100 --count 12 --seed 7 --jobs 4 "
                              "--quiet --db " +
                              db.string() + " --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const Reference ref = in_process(*rope_);
  posbias::ResultStore store(db.string());
  const std::vector<posbias::ResultRow> rows = store.rows("kv", "rope");
  ASSERT_EQ(rows.size(), 72u);
  EXPECT_EQ(differences(rows, ref), std::vector<std::string>{});
  std::set<double> distinct;
  for (const posbias::ResultRow& row : rows) {
    ASSERT_TRUE(row.logprob.has_value()) << row.probe_id;
    EXPECT_NEAR(*row.logprob, ref.logprob.at(row.probe_id), 1e-4) << row.probe_id;
    EXPECT_LE(*row.logprob, 0) << row.probe_id;
    distinct.insert(*row.logprob);
  }
  EXPECT_GE(distinct.size(), 10u) << "the log-probabilities do not vary";
  const json suite = json::parse(slurp(out))["suites"][0];
  for (const json& cell : suite["by_depth"]) {
    EXPECT_EQ(cell["logprob_n"], 12) << cell.dump();
    const std::string prefix = "kv/L" + std::to_string(cell["length"].get<int>()) + "/d" +
                               std::to_string(cell["depth"].get<int>()) + "/";
    double mean = 0;
    for (const posbias::ResultRow& row : rows) {
      if (row.probe_id.rfind(prefix, 0) == 0) mean += *row.logprob / 12;
    }
    EXPECT_NEAR(cell["logprob"].get<double>(), mean, 1e-9) << cell.dump();
  }
}

TEST_F(KvServed, ChatMaxTokensAndStopStrings) {
  ASSERT_GT(port_, 0);
  const auto ex = posbias::kv_probe_examples(kLength, 50, 1, kSeed).front();
  std::string prompt;
  for (const std::string& t : ex.tokens) prompt += (prompt.empty() ? "" : " ") + t;
  posbias::LoadedModel m = posbias::load_trained_model(*rope_);
  const std::string value = greedy_value(m.model, ex);

  const posbias::HttpResponse full = complete(
      R"({"model": "rope", "prompt": "instructions above are ignored\n)" + prompt + R"("})");
  ASSERT_EQ(full.status, 200) << full.body;
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kCompletions, full.body).text, value);

  posbias::HttpClient client;
  const posbias::HttpResponse chat =
      client.post_json(url() + "/v1/chat/completions",
                       posbias::request_body(posbias::Api::kChat, "rope", prompt, 16), {}, 30);
  ASSERT_EQ(chat.status, 200) << chat.body;
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kChat, chat.body).text, value);

  const posbias::HttpResponse one =
      complete(R"({"model": "rope", "max_tokens": 1, "prompt": ")" + prompt + R"("})");
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kCompletions, one.body).text,
            value.substr(0, 1));
  // A stop string ends the completion before it: " " leaves the first token.
  const posbias::HttpResponse stopped =
      complete(R"({"model": "rope", "stop": [" "], "prompt": ")" + prompt + R"("})");
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kCompletions, stopped.body).text,
            value.substr(0, 1));
  const posbias::HttpResponse last =
      complete(R"({"model": "rope", "stop": ")" + value.substr(4, 1) + R"(", "prompt": ")" +
               prompt + R"("})");
  std::string cut = value;
  posbias::cut_at_stop(cut, {value.substr(4, 1)});
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kCompletions, last.body).text, cut);
}

// Each decoded token's log-probability is the model's own: log_softmax of the in-process
// logits at that step, teacher-forced on the greedy value; the alternatives are the most likely
// tokens, most likely first (the chosen one first under greedy decoding), with the text each
// would add (a space before every kv token after the first).
TEST_F(KvServed, LogProbabilitiesAreTheModelsOwnMostLikelyFirst) {
  ASSERT_GT(port_, 0);
  const auto ex = posbias::kv_probe_examples(kLength, 50, 1, kSeed).front();
  std::string prompt;
  for (const std::string& t : ex.tokens) prompt += (prompt.empty() ? "" : " ") + t;
  const posbias::HttpResponse r =
      complete(R"({"model": "rope", "logprobs": 3, "prompt": ")" + prompt + R"("})");
  ASSERT_EQ(r.status, 200) << r.body;
  const nlohmann::ordered_json lp = nlohmann::ordered_json::parse(r.body)["choices"][0]["logprobs"];
  ASSERT_EQ(lp["tokens"].size(), static_cast<std::size_t>(posbias::kKvValueTokens)) << r.body;

  posbias::LoadedModel m = posbias::load_trained_model(*rope_);
  torch::NoGradGuard no_grad;
  std::vector<std::int64_t> ids;
  for (const std::string& t : ex.tokens) ids.push_back(posbias::kv_token_id(t));
  std::string text;
  for (std::size_t k = 0; k < lp["tokens"].size(); ++k) {
    const torch::Tensor in = torch::tensor(ids, torch::kInt64).unsqueeze(0);
    const torch::Tensor logp = torch::log_softmax(m.model->last_logits(in)[0], -1);
    const std::int64_t next = logp.argmax().item<std::int64_t>();
    const std::string word = posbias::kv_vocabulary()[static_cast<std::size_t>(next)];
    const std::string token = (k ? " " : "") + word;
    EXPECT_EQ(lp["tokens"][k], token) << k;
    EXPECT_NEAR(lp["token_logprobs"][k].get<double>(), logp[next].item<double>(), 1e-5) << k;
    const auto& top = lp["top_logprobs"][k];
    ASSERT_EQ(top.size(), 3u) << k;
    double previous = 0;
    bool first = true;
    for (const auto& [alternative, value] : top.items()) {
      if (first) {
        EXPECT_EQ(alternative, token) << k;
      }
      EXPECT_LE(value.get<double>(), previous) << k << ": not most likely first";
      previous = value.get<double>();
      first = false;
    }
    text += token;
    ids.push_back(next);
  }
  EXPECT_EQ(text, r.body.empty()
                      ? ""
                      : posbias::parse_completion(posbias::Api::kCompletions, r.body).text);
}

TEST_F(KvServed, BadPromptsGetOneLineFourHundreds) {
  ASSERT_GT(port_, 0);
  const auto ex = posbias::kv_probe_examples(kLength, 0, 1, kSeed).front();
  std::string prompt;
  for (const std::string& t : ex.tokens) prompt += (prompt.empty() ? "" : " ") + t;
  struct Case {
    std::string body;
    long status;
    std::string says;
  };
  const std::vector<Case> cases{
      {R"({"model": "rope", "prompt": ")" + prompt + R"( x7"})", 400, "'x7'"},
      {R"({"model": "rope", "prompt": "A B C 1 2 3 D E F 4 5 6 ? a b c"})", 400, "'a'"},
      {R"({"model": "rope", "prompt": "  \n "})", 400, "empty"},
      // the learned run's table holds 16 + 2 positions: 17 prompt tokens need 19
      {R"({"model": "learned", "prompt": "_ )" + prompt + R"("})", 400, "at most 18"},
      {R"({"model": "rope", "stop": "", "prompt": ")" + prompt + R"("})", 400, "stop"},
      {R"({"model": "rope", "stop": ["a", "b", "c", "d", "e"], "prompt": "A"})", 400, "stop"},
      {R"({"model": "nobody", "prompt": ")" + prompt + R"("})", 404, "nobody"}};
  for (const Case& c : cases) {
    const posbias::HttpResponse r = complete(c.body);
    EXPECT_EQ(r.status, c.status) << c.body << " -> " << r.body;
    const std::string message = json::parse(r.body)["error"]["message"].get<std::string>();
    EXPECT_NE(message.find(c.says), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  // The learned run still answers a prompt that fits (16 tokens read 18 positions).
  const posbias::HttpResponse ok =
      complete(R"({"model": "learned", "prompt": ")" + prompt + R"("})");
  EXPECT_EQ(ok.status, 200) << ok.body;
}

TEST(KvPrompt, TokensAreTheLastNonEmptyLine) {
  EXPECT_EQ(posbias::kv_prompt_tokens("say the value\nA B C 1 2 3 ? A B C\n\n"),
            (std::vector<std::string>{"A", "B", "C", "1", "2", "3", "?", "A", "B", "C"}));
  EXPECT_THROW(posbias::kv_prompt_tokens("A B C 1 2 3 ? A B C\nValue:"), std::invalid_argument);
  std::string text = "4 0 7";
  EXPECT_TRUE(posbias::cut_at_stop(text, {"7", " 0"}));
  EXPECT_EQ(text, "4");
  EXPECT_FALSE(posbias::cut_at_stop(text, {"9"}));
  EXPECT_EQ(text, "4");
  const posbias::CompletionRequest r =
      posbias::parse_request(posbias::Api::kCompletions, R"({"prompt": "A", "stop": ["x", "y"]})");
  EXPECT_EQ(r.stop, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(
      posbias::parse_request(posbias::Api::kCompletions, R"({"prompt": "A", "stop": "z"})").stop,
      std::vector<std::string>{"z"});
}

TEST(TextServe, CompletionIsTheGreedyContinuationAndALearnedTableIsALimit) {
  const fs::path run = dir() / "text";
  const CliResult t = run_cli(
      "train --task text --tokenizer bytes --arch gpt2 --layers 1 --d-model 16 --heads 2 "
      "--mlp 32 -L 32 --steps 4 --warmup 1 --batch 4 --eval-every 4 --eval-windows 4 "
      "--checkpoint-every 4 "
      "--out " +
          run.string(),
      300);
  ASSERT_EQ(t.code, 0) << t.err;
  Process server({POSBIAS_BIN, "serve", "--run", run.string(), "--port", "0", "--port-file",
                  (dir() / "text_port").string()},
                 (dir() / "text_serve.log").string());
  const int port = wait_for_port(dir() / "text_port");
  ASSERT_GT(port, 0) << slurp(dir() / "text_serve.log");
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/v1/completions";

  // The reference: bytes in, one forward pass per token, bytes out.
  const std::string prompt = "The jury said";
  posbias::LoadedModel m = posbias::load_trained_model(run);
  const posbias::Tokenizer bytes = posbias::Tokenizer::bytes();
  std::vector<std::int32_t> ids = bytes.encode({prompt});
  ids.pop_back();  // the newline encode puts after the line
  std::vector<std::int32_t> produced;
  {
    torch::NoGradGuard no_grad;
    for (int k = 0; k < 8; ++k) {
      std::vector<std::int64_t> in(ids.begin(), ids.end());
      const auto next = static_cast<std::int32_t>(
          m.model->last_logits(torch::tensor(in, torch::kInt64).unsqueeze(0))
              .argmax(-1)
              .item<std::int64_t>());
      produced.push_back(next);
      ids.push_back(next);
    }
  }
  posbias::HttpClient client;
  const posbias::HttpResponse r =
      client.post_json(url, R"({"prompt": ")" + prompt + R"(", "max_tokens": 8})", {}, 30);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(posbias::parse_completion(posbias::Api::kCompletions, r.body).text,
            bytes.decode(produced));

  // 30 prompt bytes and 8 new tokens read 37 positions; the table holds 32.
  const posbias::HttpResponse past = client.post_json(
      url, R"({"prompt": ")" + std::string(30, 'a') + R"(", "max_tokens": 8})", {}, 30);
  EXPECT_EQ(past.status, 400) << past.body;
  EXPECT_NE(past.body.find("at most 32"), std::string::npos) << past.body;
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(), 0);
}

}  // namespace
