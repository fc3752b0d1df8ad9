// The harness against a fault-injecting endpoint (random 500s, 429s, stalls past the timeout,
// truncated and malformed JSON): 550 prompts, SIGKILL in the middle, then a re-run. Every
// prompt ends answered or failed after its retries, exactly once; rows stored before the kill
// are unchanged; every answer belongs to its own prompt; the database is intact. The same
// endpoint streaming server-sent events with log-probabilities (cut-short streams among its
// faults): every stored log-probability is its own answer's, and --logprobs keys rows apart
// while --stream does not.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../cli_run.h"
#include "../process.h"
#include "experiments/llm/llm_command.h"
#include "posbias/llm/http_client.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;

struct Row {
  std::string probe_id, prompt, status, response, error;
  int attempts = 0;
};

std::map<std::string, Row> read_rows(const fs::path& db) {  // by prompt hash
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  std::map<std::string, Row> rows;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h,
                               "SELECT prompt_hash, probe_id, prompt, status, response, error, "
                               "attempts FROM results",
                               -1, &st, nullptr),
            SQLITE_OK);
  auto text = [&](int i) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
    return p ? std::string(p) : std::string();
  };
  while (sqlite3_step(st) == SQLITE_ROW) {
    const std::string hash = text(0);
    EXPECT_EQ(rows.count(hash), 0u) << "duplicate row " << hash;
    rows[hash] = Row{text(1), text(2), text(3), text(4), text(5), sqlite3_column_int(st, 6)};
  }
  sqlite3_finalize(st);
  EXPECT_EQ(sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, nullptr), SQLITE_OK);
  EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(text(0), "ok");
  sqlite3_finalize(st);
  sqlite3_close(h);
  return rows;
}

std::string last_word(const std::string& s) {
  std::istringstream in(s);
  std::string w, last;
  while (in >> w) last = w;
  return last;
}

TEST(LlmFaults, EveryPromptAnsweredOrFailedOnceAcrossAKill) {
  const fs::path dir = fs::temp_directory_path() / ("posbias_fault_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The API key travels as a Bearer header and nowhere else.
  const std::string secret = "sk-posbias-test-" + std::to_string(::getpid());
  ::setenv("FAULT_ENDPOINT_KEY", secret.c_str(), 1);
  ::setenv("POSBIAS_FAULT_KEY", secret.c_str(), 1);
  // 35% of requests fail one way or another; 5 attempts leave ~0.5% of prompts failed.
  Process endpoint(
      {FAULT_ENDPOINT, (dir / "port").string(), "7", "0.1", "0.1", "0.05", "0.05", "0.05", "1.5"},
      (dir / "endpoint.log").string());
  const int port = wait_for_port(dir / "port");
  ASSERT_GT(port, 0);
  const fs::path db = dir / "faults.db";
  const std::vector<std::string> args{POSBIAS_BIN,
                                      "llm",
                                      "--endpoint",
                                      "http://127.0.0.1:" + std::to_string(port),
                                      "--model",
                                      "faulty",
                                      "--suite",
                                      "needle",
                                      "--needle-lengths",
                                      "3,6",
                                      "--count",
                                      "25",
                                      "--jobs",
                                      "8",
                                      "--timeout",
                                      "0.5",
                                      "--retries",
                                      "4",
                                      "--backoff",
                                      "0.02",
                                      "--backoff-cap",
                                      "0.2",
                                      "--db",
                                      db.string(),
                                      "--json",
                                      (dir / "summary.json").string(),
                                      "--quiet",
                                      "--api-key-env",
                                      "POSBIAS_FAULT_KEY"};
  const std::size_t total = 2 * 11 * 25;  // lengths × depths × count
  ASSERT_GE(total, 500u);

  // First run: killed once a third of the prompts are stored.
  std::map<std::string, Row> before;
  {
    Process run(args, (dir / "run1.log").string());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (std::chrono::steady_clock::now() < deadline && run.running()) {
      if (fs::exists(db)) {
        sqlite3* h = nullptr;
        sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
        sqlite3_stmt* st = nullptr;
        std::int64_t n = 0;
        if (sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM results", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW) {
          n = sqlite3_column_int64(st, 0);
        }
        sqlite3_finalize(st);
        sqlite3_close(h);
        if (n >= static_cast<std::int64_t>(total / 3)) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(run.running()) << "the run ended before it could be killed: "
                               << slurp(dir / "run1.log");
    run.signal(SIGKILL);
    EXPECT_EQ(run.wait(), 128 + SIGKILL);
    before = read_rows(db);
  }
  EXPECT_GE(before.size(), total / 3);
  EXPECT_LT(before.size(), total);

  // The re-run finishes: exit 0, or 1 when some prompts failed after their retries.
  Process rerun(args, (dir / "run2.log").string());
  const int code = rerun.wait();
  EXPECT_TRUE(code == 0 || code == 1) << slurp(dir / "run2.log");
  const std::map<std::string, Row> after = read_rows(db);
  ASSERT_EQ(after.size(), total) << "a prompt is missing or stored twice";
  std::set<std::string> ids;
  std::int64_t failed = 0;
  for (const auto& [hash, r] : after) {
    ids.insert(r.probe_id);
    if (r.status == "ok") {
      EXPECT_EQ(r.response, last_word(r.prompt)) << r.probe_id << ": someone else's answer";
    } else {
      ASSERT_EQ(r.status, "failed");
      EXPECT_FALSE(r.error.empty());
      EXPECT_GE(r.attempts, 5) << r.probe_id << " failed before its retries ran out";
      ++failed;
    }
  }
  EXPECT_EQ(ids.size(), total) << "probe ids are not one per prompt";
  for (const auto& [hash, r] : before) {
    if (r.status != "ok") continue;
    ASSERT_TRUE(after.count(hash));
    EXPECT_EQ(after.at(hash).response, r.response) << "an answered row changed on re-run";
    EXPECT_EQ(after.at(hash).attempts, r.attempts);
  }
  EXPECT_EQ(code, failed > 0 ? 1 : 0);
  const auto summary = nlohmann::json::parse(slurp(dir / "summary.json"));
  EXPECT_EQ(summary["failed"].get<std::int64_t>(), failed);
  EXPECT_EQ(summary["suites"][0]["answered"].get<std::int64_t>() + failed,
            static_cast<std::int64_t>(total));
  EXPECT_LE(failed, static_cast<std::int64_t>(total / 20));

  // Every kind of fault was injected.
  posbias::HttpClient client;
  const posbias::HttpResponse stats =
      client.post_json("http://127.0.0.1:" + std::to_string(port) + "/stats", "{}", {}, 10);
  ASSERT_EQ(stats.status, 200);
  const auto injected = nlohmann::json::parse(stats.body);
  long requests = 0;
  for (const char* kind : {"500", "429", "stall", "truncated", "malformed", "ok"}) {
    EXPECT_GT(injected[kind].get<long>(), 5) << kind;
    requests += injected[kind].get<long>();
  }
  EXPECT_EQ(injected["with_key"].get<long>(), requests) << "a request went without the key";
  for (const fs::path& f : fs::directory_iterator(dir)) {
    EXPECT_EQ(slurp(f).find(secret), std::string::npos) << "the API key was written to " << f;
  }
  std::printf(
      "fault test: %zu rows before the kill, %zu after the re-run (%lld failed); "
      "injected %s\n",
      before.size(), after.size(), static_cast<long long>(failed), injected.dump().c_str());
  endpoint.signal(SIGTERM);
  fs::remove_all(dir);
}

TEST(LlmFaults, AHugeRetryAfterIsCappedWithALine) {
  // A server asking for 10^9 s gets the --backoff-cap wait instead, said once on stderr; the
  // prompt's total wait stays retries × cap. The header used to be dropped (any value from
  // 3600 s up), so the harness retried at once.
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_retry_after_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::setenv("FAULT_ENDPOINT_RETRY_AFTER", "1000000000", 1);
  Process endpoint({FAULT_ENDPOINT, (dir / "port").string(), "1", "0", "1", "0", "0", "0", "1"},
                   (dir / "endpoint.log").string());
  ::unsetenv("FAULT_ENDPOINT_RETRY_AFTER");
  const int port = wait_for_port(dir / "port");
  ASSERT_GT(port, 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  posbias::HttpClient client;
  const posbias::HttpResponse r =
      client.post_json(url + "/v1/completions", R"({"prompt": "a b", "model": "m"})", {}, 10);
  EXPECT_EQ(r.status, 429);
  EXPECT_EQ(r.retry_after, 1e9);
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult run = run_cli("llm --endpoint " + url +
                                " --model m --suite letter --lengths 17 --hops 1 --count 1 "
                                "--jobs 1 --retries 2 --backoff 0.01 --backoff-cap 0.4 --quiet "
                                "--db " +
                                (dir / "r.db").string() + " --json " + (dir / "r.json").string());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(run.code, 1) << run.err;  // the prompt failed after its retries
  const std::string line =
      "the endpoint asked to wait 1000000000 s (Retry-After); waiting "
      "--backoff-cap 0.4 s instead";
  EXPECT_NE(run.err.find(line), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(line), run.err.rfind(line)) << "said more than once: " << run.err;
  EXPECT_GE(seconds, 2 * 0.4) << "the waits were not raised to the cap";
  EXPECT_LT(seconds, 30.0);
  endpoint.signal(SIGTERM);
  fs::remove_all(dir);
}

TEST(LlmFaults, FailedPromptsSayWhyTheyFailed) {
  // HTTP 400s, 429s and malformed bodies, no retries: the run ends with exit 1 and "N prompts
  // failed after their retries", and before it the distinct reasons with their counts, the
  // most frequent first, at most three and a line for the rest.
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_reasons_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::setenv("FAULT_ENDPOINT_ERROR_STATUS", "400", 1);
  Process endpoint(
      {FAULT_ENDPOINT, (dir / "port").string(), "5", "0.3", "0.2", "0", "0", "0.2", "0"},
      (dir / "endpoint.log").string());
  ::unsetenv("FAULT_ENDPOINT_ERROR_STATUS");
  const int port = wait_for_port(dir / "port");
  ASSERT_GT(port, 0);
  const CliResult run = run_cli("llm --endpoint http://127.0.0.1:" + std::to_string(port) +
                                " --model m --suite letter --lengths 17 --hops 1 --count 40 "
                                "--jobs 1 --retries 0 --backoff 0 --backoff-cap 0 --quiet --db " +
                                (dir / "r.db").string() + " --json " + (dir / "r.json").string());
  EXPECT_EQ(run.code, 1) << run.err;
  const auto summary = nlohmann::json::parse(slurp(dir / "r.json"));
  const std::int64_t failed = summary["failed"].get<std::int64_t>();
  ASSERT_GT(failed, 0) << run.err;
  // Every "posbias llm: failed: N prompts: ..." line, and the "... and N prompts" one, add up
  // to the failed count.
  std::istringstream lines_in(run.err);
  std::vector<std::string> reasons;
  std::int64_t counted = 0;
  for (std::string line; std::getline(lines_in, line);) {
    const std::string head = "posbias llm: failed: ";
    if (line.rfind(head, 0) != 0) continue;
    reasons.push_back(line);
    std::string rest = line.substr(head.size());
    if (rest.rfind("... and ", 0) == 0) rest = rest.substr(8);
    counted += std::stoll(rest);
    EXPECT_LE(line.size(), head.size() + 200) << line;
  }
  EXPECT_EQ(counted, failed) << run.err;
  ASSERT_GE(reasons.size(), 2u) << run.err;
  EXPECT_LE(reasons.size(), 4u) << run.err;
  EXPECT_NE(run.err.find(R"(prompts: HTTP 400: {"error":{"message":"injected"}})"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find(std::to_string(failed) + " prompts failed after their retries"),
            std::string::npos)
      << run.err;
  // The reasons come before the final error line.
  EXPECT_LT(run.err.find("posbias llm: failed: "), run.err.find("posbias: error: ")) << run.err;
  endpoint.signal(SIGTERM);
  fs::remove_all(dir);
}

TEST(LlmFaults, FailureReasonLinesAreCountedCutAndCapped) {
  using posbias::count_failure_reasons;
  using posbias::failure_reason_lines;
  // The most frequent first; ties in the order first seen.
  const auto reasons = count_failure_reasons({"b", "a", "a", "c", "d", "d", "e", "a"});
  ASSERT_EQ(reasons.size(), 5u);
  EXPECT_EQ(reasons[0].error, "a");
  EXPECT_EQ(reasons[0].prompts, 3);
  EXPECT_EQ(reasons[1].error, "d");
  EXPECT_EQ(reasons[2].error, "b");
  EXPECT_EQ(reasons[3].error, "c");
  EXPECT_EQ(failure_reason_lines(reasons),
            (std::vector<std::string>{"3 prompts: a", "2 prompts: d", "1 prompt: b",
                                      "... and 2 prompts for 2 other reasons (the error column "
                                      "of --db holds each)"}));
  EXPECT_TRUE(failure_reason_lines({}).empty());
  // Long errors are cut (not inside a UTF-8 character), line breaks become spaces and other
  // control bytes are escaped.
  const std::string long_error = "HTTP 400: " + std::string(300, 'x');
  const auto cut = failure_reason_lines(count_failure_reasons({long_error}), 3, 20);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0], "1 prompt: HTTP 400: xxxxxxxxxx...");
  EXPECT_EQ(failure_reason_lines(count_failure_reasons({"ab\xc3\xa9"
                                                        "cd"}),
                                 3, 3)[0],
            "1 prompt: ab...");
  EXPECT_EQ(failure_reason_lines(count_failure_reasons({"a\nb\x1b[31m", ""}))[0],
            "1 prompt: a b\\x1b[31m");
  EXPECT_EQ(failure_reason_lines(count_failure_reasons({"a\nb\x1b[31m", ""}))[1],
            "1 prompt: (no error stored)");
}

// The fault endpoint's log-probability of an answer: its pieces of at most two bytes, each
// -(bytes' sum mod 97) / 100 (piece_logprob in fault_endpoint.cc); and the piece count.
std::pair<double, std::int64_t> endpoint_logprob(const std::string& answer) {
  double sum = 0;
  std::int64_t pieces = 0;
  for (std::size_t i = 0; i < answer.size(); i += 2, ++pieces) {
    int bytes = 0;
    for (unsigned char c : answer.substr(i, 2)) bytes += c;
    sum += -static_cast<double>(bytes % 97) / 100.0;
  }
  return {sum, pieces};
}

struct LogprobRow {
  std::string response;
  bool has_logprob = false, has_tokens = false;
  double logprob = 0;
  std::int64_t tokens = 0;
};

// Every answered row's response, log-probability and token count (NULL: has_* false).
std::vector<LogprobRow> logprob_rows(const fs::path& db) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h,
                               "SELECT response, logprob, completion_tokens FROM results "
                               "WHERE status = 'ok' ORDER BY prompt_hash",
                               -1, &st, nullptr),
            SQLITE_OK);
  std::vector<LogprobRow> out;
  while (sqlite3_step(st) == SQLITE_ROW) {
    LogprobRow r;
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    r.response = p ? p : "";
    r.has_logprob = sqlite3_column_type(st, 1) != SQLITE_NULL;
    r.logprob = sqlite3_column_double(st, 1);
    r.has_tokens = sqlite3_column_type(st, 2) != SQLITE_NULL;
    r.tokens = sqlite3_column_int64(st, 2);
    out.push_back(r);
  }
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

TEST(LlmFaults, StreamedLogprobsAreTheAnswersOwnAndKeyedApart) {
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_stream_logprobs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 10% HTTP 500, 20% bodies cut in half (a stream without its [DONE]), 10% malformed.
  Process endpoint(
      {FAULT_ENDPOINT, (dir / "port").string(), "11", "0.1", "0", "0", "0.2", "0.1", "0"},
      (dir / "endpoint.log").string());
  const int port = wait_for_port(dir / "port");
  ASSERT_GT(port, 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  const fs::path db = dir / "s.db";
  const int prompts = 3 * 4;  // depths × count
  auto run = [&](const std::string& options) {
    const CliResult r =
        run_cli("llm --endpoint " + url +
                " --model m --suite needle --needle-lengths 3 --depths 0,50,100 "
                "--count 4 --jobs 4 --retries 12 --backoff 0 --backoff-cap 0 "
                "--quiet --db " +
                db.string() + " --json " + (dir / "s.json").string() + " " + options);
    EXPECT_EQ(r.code, 0) << options << "\n" << r.err;
    std::ifstream in(dir / "s.json");
    return nlohmann::json::parse(in, nullptr, false);
  };

  // Chat, streamed, with log-probabilities: every row holds its own answer's.
  const nlohmann::json streamed =
      run("--api chat --stream --logprobs --plot " + (dir / "fig").string());
  ASSERT_FALSE(streamed.is_discarded());
  EXPECT_EQ(streamed["requests"], prompts);
  std::vector<LogprobRow> rows = logprob_rows(db);
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(prompts));
  for (const LogprobRow& r : rows) {
    ASSERT_FALSE(r.response.empty());
    const auto [sum, pieces] = endpoint_logprob(r.response);
    ASSERT_TRUE(r.has_logprob) << r.response;
    EXPECT_NEAR(r.logprob, sum, 1e-12) << r.response;
    EXPECT_LT(r.logprob, 0) << r.response;
    ASSERT_TRUE(r.has_tokens);
    EXPECT_EQ(r.tokens, pieces) << r.response;
  }
  const nlohmann::json& depth = streamed["suites"][0]["by_depth"];
  ASSERT_EQ(depth.size(), 3u);
  for (const nlohmann::json& d : depth) {
    EXPECT_EQ(d["logprob_n"], 4) << d.dump();
    EXPECT_TRUE(d["logprob"].is_number()) << d.dump();
    EXPECT_LE(d["logprob_ci"][0].get<double>(), d["logprob"].get<double>()) << d.dump();
  }
  for (const char* ext : {".svg", ".png"})
    EXPECT_TRUE(fs::exists(dir / (std::string("fig_needle_logprob") + ext))) << ext;
  // Cut-short streams were among the faults, and were retried.
  posbias::HttpClient client;
  const nlohmann::json injected =
      nlohmann::json::parse(client.post_json(url + "/stats", "{}", {}, 10).body);
  EXPECT_GT(injected["truncated"].get<long>(), 0) << injected.dump();

  // --stream does not change the answer: the same rows serve a plain rerun.
  EXPECT_EQ(run("--api chat --logprobs")["requests"], 0);
  // Without --logprobs the request differs: keyed apart, asked again, stored without one (the
  // count from the stream's usage chunk), and the summary has no logprob keys.
  const nlohmann::json plain = run("--api chat --stream");
  EXPECT_EQ(plain["requests"], prompts);
  EXPECT_FALSE(plain["suites"][0]["by_depth"][0].contains("logprob")) << plain.dump();
  rows = logprob_rows(db);
  ASSERT_EQ(rows.size(), 2u * prompts);
  int without = 0;
  for (const LogprobRow& r : rows) {
    if (r.has_logprob) continue;
    ++without;
    ASSERT_TRUE(r.has_tokens);
    EXPECT_EQ(r.tokens, endpoint_logprob(r.response).second);
  }
  EXPECT_EQ(without, prompts);
  // The completions API, not streamed: token_logprobs.
  const nlohmann::json completions = run("--api completions --logprobs");
  EXPECT_EQ(completions["requests"], prompts);
  EXPECT_EQ(completions["suites"][0]["by_length"][0]["logprob_n"], prompts);
  endpoint.signal(SIGTERM);
  fs::remove_all(dir);
}

}  // namespace
