// `posbias serve` on passkey runs (text runs trained with needles) and `posbias llm --suite
// passkey` against it, over loopback HTTP as a user runs them. Two tiny runs: one with the byte
// tokenizer, asked in text (decoding and re-encoding bytes is exact), and one with SentencePiece,
// asked with `--prompt-ids` (its text may split differently from the spliced ids eval reads).
// The reference is computed here, in process, on each run's checkpoint: an independent greedy
// decode of every probe's ids (last_logits, one token at a time). Every served completion must
// equal it, every per-cell accuracy of the llm JSON must equal `posbias eval`'s cell on the same
// run, lengths, depths, count and seed, and a reference with one completion altered must show that
// one difference. The tiny runs have not learned the passkey (every cell is 0), so the completions
// carry the comparison: they must vary. Bad input: --run without --suite passkey, --suite passkey
// without --run, --prompt-ids on chat, a length past a learned table, ids outside the vocabulary
// and ids sent to a kv model get one line each.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../cli_run.h"
#include "../process.h"
#include "../text/brown_excerpt.h"
#include "posbias/llm/http_client.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/probe.h"
#include "posbias/llm/result_store.h"
#include "posbias/runfiles/passkey_run_files.h"
#include "posbias/tasks/passkey_task.h"
#include "posbias/train/checkpoint.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uint64_t kSeed = 5;
constexpr std::int64_t kCount = 6;
const std::vector<int> kDepths{0, 50, 100};

fs::path dir() {
  static const fs::path d = [] {
    const fs::path p =
        fs::temp_directory_path() / ("posbias_passkey_serve_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

const fs::path& corpus() {
  static const fs::path c = write_brown_excerpt("posbias_passkey_serve_corpus", 12, 60);
  return c;
}

fs::path tiny_passkey_run(const std::string& name, const std::string& flags) {
  const fs::path run = dir() / name;
  const CliResult r = run_cli("train --task text --corpus " + corpus().string() +
                                  " --needle-fraction 1 --layers 2 --d-model 32 --heads 2 --mlp 64 "
                                  "--batch 8 --eval-windows 4 --steps 300 --warmup 20 --lr 3e-3 "
                                  "--eval-every 300 --checkpoint-every 300 " +
                                  flags + " --out " + run.string(),
                              300);
  EXPECT_EQ(r.code, 0) << r.err;
  return run;
}

// Probe id -> the greedy decode of its ids (kPasskeyDigits tokens), decoded to text.
std::map<std::string, std::string> greedy_completions(const fs::path& run,
                                                      const std::vector<int>& lengths) {
  posbias::SuiteOptions o;
  o.run = run.string();
  o.lengths = lengths;
  o.depths = kDepths;
  o.count = kCount;
  o.seed = kSeed;
  const std::vector<posbias::Probe> probes = posbias::make_probes("passkey", o);
  const posbias::PasskeyRun opened = posbias::open_passkey_run(run);
  posbias::LoadedModel m = posbias::load_trained_model(run);
  torch::NoGradGuard no_grad;
  std::map<std::string, std::string> out;
  for (const posbias::Probe& p : probes) {
    std::vector<std::int64_t> ids(p.prompt_ids.begin(), p.prompt_ids.end());
    std::vector<std::int32_t> produced;
    for (int k = 0; k < posbias::kPasskeyDigits; ++k) {
      const std::int64_t next =
          m.model->last_logits(torch::tensor(ids).unsqueeze(0)).argmax(-1).item<std::int64_t>();
      produced.push_back(static_cast<std::int32_t>(next));
      ids.push_back(next);
    }
    out[p.id] = opened.tokenizer.decode(produced);
  }
  return out;
}

std::vector<std::string> differences(const std::vector<posbias::ResultRow>& served,
                                     const std::map<std::string, std::string>& ref) {
  std::vector<std::string> out;
  for (const posbias::ResultRow& r : served) {
    const auto it = ref.find(r.probe_id);
    if (!r.ok || it == ref.end() || it->second != r.response) out.push_back(r.probe_id);
  }
  return out;
}

class PasskeyServed : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    bytes_ = new fs::path(tiny_passkey_run("bytes", "--tokenizer bytes --arch qwen2 -L 112"));
    spm_ = new fs::path(
        tiny_passkey_run("spm", "--tokenizer spm --vocab-size 300 --arch gpt2 -L 160 --needles 2"));
    kv_ = new fs::path(dir() / "kv");
    const CliResult k = run_cli(
        "train --task kv --layers 1 --d-model 16 --heads 2 --mlp 32 -L 16 --steps 1 --warmup 0 "
        "--batch 2 --eval-every 1 --checkpoint-every 1 --out " +
            kv_->string(),
        300);
    EXPECT_EQ(k.code, 0) << k.err;
    server_ = new Process({POSBIAS_BIN, "serve", "--run", bytes_->string(), "--run", spm_->string(),
                           "--port", "0", "--port-file", (dir() / "port").string()},
                          (dir() / "serve.log").string());
    kv_server_ = new Process({POSBIAS_BIN, "serve", "--run", kv_->string(), "--port", "0",
                              "--port-file", (dir() / "kv_port").string()},
                             (dir() / "kv_serve.log").string());
    port_ = wait_for_port(dir() / "port");
    kv_port_ = wait_for_port(dir() / "kv_port");
  }
  static void TearDownTestSuite() {
    for (Process* p : {server_, kv_server_}) {
      p->signal(SIGTERM);
      EXPECT_EQ(p->wait(), 0) << "serve did not stop cleanly on SIGTERM";
      delete p;
    }
    delete bytes_;
    delete spm_;
    delete kv_;
  }
  static std::string url(int port) { return "http://127.0.0.1:" + std::to_string(port); }

  // llm --suite passkey against the server and eval on the same cells: equal per cell, every
  // completion the in-process greedy decode. Returns the stored rows.
  static std::vector<posbias::ResultRow> llm_equals_eval(const fs::path& run,
                                                         const std::string& model,
                                                         const std::string& lengths,
                                                         const std::string& extra) {
    const fs::path db = dir() / (model + ".db"), out = dir() / (model + "_llm.json");
    const std::string cells =
        " --lengths " + lengths + " --depths 0,50,100 --count 6 --seed " + std::to_string(kSeed);
    const CliResult r =
        run_cli("llm --endpoint " + url(port_) + " --model " + model +
                " --api completions --suite passkey --run " + run.string() + cells +
                " --jobs 4 --quiet " + extra + " --db " + db.string() + " --json " + out.string());
    EXPECT_EQ(r.code, 0) << r.err;
    const fs::path eval_out = dir() / (model + "_eval.json");
    const CliResult e =
        run_cli("eval --run " + run.string() + cells + " --json " + eval_out.string());
    EXPECT_EQ(e.code, 0) << e.err;
    if (r.code != 0 || e.code != 0) return {};
    const json suite = json::parse(slurp(out))["suites"][0];
    const json eval = json::parse(slurp(eval_out))["depth_accuracy"];
    int cells_seen = 0;
    for (const json& row : suite["by_depth"]) {
      const json& cell =
          eval[std::to_string(row["length"].get<int>())][std::to_string(row["depth"].get<int>())];
      EXPECT_EQ(row["strict"].get<double>(), cell["accuracy"].get<double>()) << row.dump();
      EXPECT_EQ(row["n"], cell["n"]);
      EXPECT_EQ(row["chance"].get<double>(), cell["chance"].get<double>());
      ++cells_seen;
    }
    EXPECT_EQ(cells_seen, static_cast<int>(eval.size() * kDepths.size()));
    posbias::ResultStore store(db.string());
    return store.rows("passkey", model);
  }

  static fs::path* bytes_;
  static fs::path* spm_;
  static fs::path* kv_;
  static Process* server_;
  static Process* kv_server_;
  static int port_, kv_port_;
};
fs::path* PasskeyServed::bytes_ = nullptr;
fs::path* PasskeyServed::spm_ = nullptr;
fs::path* PasskeyServed::kv_ = nullptr;
Process* PasskeyServed::server_ = nullptr;
Process* PasskeyServed::kv_server_ = nullptr;
int PasskeyServed::port_ = 0;
int PasskeyServed::kv_port_ = 0;

TEST_F(PasskeyServed, TextPromptsOnAByteRunEqualEvalAndTheInProcessDecode) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  const std::vector<posbias::ResultRow> rows = llm_equals_eval(*bytes_, "bytes", "112,224", "");
  ASSERT_EQ(rows.size(), 36u);
  const auto ref = greedy_completions(*bytes_, {112, 224});
  EXPECT_EQ(differences(rows, ref), std::vector<std::string>{});
  // The comparison sees an altered completion.
  auto altered = ref;
  altered["passkey/L224/d50/#3"] += "0";
  EXPECT_EQ(differences(rows, altered), std::vector<std::string>{"passkey/L224/d50/#3"});
  // Not vacuous: the served model's completions vary with the prompt.
  std::set<std::string> distinct;
  for (const auto& [id, text] : ref) distinct.insert(text);
  EXPECT_GE(distinct.size(), 4u) << "the served model answers a constant";
  // The prompts end with the space before the number: the text eval's model reads.
  for (const posbias::ResultRow& r : rows) {
    ASSERT_GE(r.prompt.size(), 4u);
    EXPECT_EQ(r.prompt.substr(r.prompt.size() - 4), " is ") << r.probe_id;
  }
}

TEST_F(PasskeyServed, TokenIdPromptsOnASentencePieceRunEqualEval) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  // gpt2 has learned positions: the run's own length only.
  const std::vector<posbias::ResultRow> rows = llm_equals_eval(*spm_, "spm", "160", "--prompt-ids");
  ASSERT_EQ(rows.size(), 18u);
  const auto ref = greedy_completions(*spm_, {160});
  EXPECT_EQ(differences(rows, ref), std::vector<std::string>{});
  std::set<std::string> distinct;
  for (const auto& [id, text] : ref) distinct.insert(text);
  EXPECT_GE(distinct.size(), 3u) << "the served model answers a constant";
}

TEST_F(PasskeyServed, BadInputGetsOneLine) {
  ASSERT_GT(port_, 0);
  const std::string base = "llm --endpoint " + url(port_) + " --model spm --api completions --db " +
                           (dir() / "bad.db").string() + " ";
  expect_usage_error(base + "--suite kv --run " + spm_->string(),
                     "--run belongs to --suite passkey");
  expect_usage_error(base + "--suite passkey", "--suite passkey needs --run RUN");
  expect_usage_error(base + "--suite kv --prompt-ids", "--prompt-ids belongs to --suite passkey");
  expect_usage_error("llm --endpoint " + url(port_) + " --model spm --api chat --db " +
                         (dir() / "bad.db").string() + " --suite passkey --run " + spm_->string() +
                         " --prompt-ids",
                     "--prompt-ids needs --api completions");
  expect_usage_error(base + "--suite passkey --run " + spm_->string() + " --lengths 320",
                     "--lengths 320 is past the run's learned position table (160 positions)");
  expect_usage_error(base + "--suite passkey --run " + dir().string(), "is not a training run");
  expect_usage_error(base + "--suite passkey --run " + kv_->string(), "is not a text run");

  // The server: ids outside the vocabulary, malformed ids, and ids to a model without a
  // tokenizer get 400 with one message.
  posbias::HttpClient client;
  const auto post = [&](int port, const std::string& body) {
    return client.post_json(url(port) + "/v1/completions", body, {}, 30);
  };
  posbias::HttpResponse r = post(port_, R"({"model": "spm", "prompt": [1, 2, 300]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("prompt token id 300 is outside the model's vocabulary (300 ids)"),
            std::string::npos)
      << r.body;
  r = post(port_, R"({"model": "spm", "prompt": [1, -2]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("integers in 0..2147483647"), std::string::npos) << r.body;
  r = post(port_, R"({"model": "spm", "prompt": [1, 2.5]})");
  EXPECT_EQ(r.status, 400);
  r = post(kv_port_, R"({"prompt": [1, 2, 3]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("a kv model reads a text prompt, not token ids"), std::string::npos)
      << r.body;
  // A prompt of ids in the OpenAI batch form [[...]] is read as one prompt.
  r = post(port_, R"({"model": "spm", "prompt": [[5, 6, 7]], "max_tokens": 2})");
  EXPECT_EQ(r.status, 200) << r.body;
}

}  // namespace
