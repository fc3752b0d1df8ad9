// `posbias llm` against `posbias serve` over real HTTP on loopback, as a user runs them: two
// tiny trained runs (Number and Letter) behind one server; the number and letter suites'
// accuracies equal `posbias eval` on the same examples, through both APIs; a re-run sends
// nothing; bad input gets one line with exit 1 or 2, and the server answers hostile requests
// with a 4xx and stays up.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <sys/socket.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "../cli_run.h"
#include "../process.h"
#include "posbias/llm/http_client.h"

namespace {

using namespace posbias_test;
namespace fs = std::filesystem;
using nlohmann::json;

fs::path dir() {
  static const fs::path d = [] {
    const fs::path p =
        fs::temp_directory_path() / ("posbias_llm_cli_" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// Trains a tiny run once per test binary.
fs::path tiny_run(const std::string& task) {
  const fs::path run = dir() / task;
  if (!fs::exists(run / "train.json")) {
    const CliResult r = run_cli("train --task " + task +
                                    " --layers 2 --hops 1 --steps 200 --warmup 50 --lr 3e-3 "
                                    "--dropout 0 --eval-every 100 --eval-per-hop 32 "
                                    "--checkpoint-every 200 "
                                    "--out " +
                                    run.string(),
                                300);
    EXPECT_EQ(r.code, 0) << r.err;
  }
  return run;
}

std::size_t distinct_responses(const fs::path& db) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(h, "SELECT COUNT(DISTINCT response) FROM results WHERE status = 'ok'", -1, &st,
                     nullptr);
  const std::size_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

class Served : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const fs::path number = tiny_run("number"), letter = tiny_run("letter");
    server_ = new Process(
        {POSBIAS_BIN, "serve", "--run", number.string(), "--run", letter.string(), "--port", "0",
         "--port-file", (dir() / "port").string(), "--max-body", "65536"},
        (dir() / "serve.log").string());
    port_ = wait_for_port(dir() / "port");
  }
  static void TearDownTestSuite() {
    server_->signal(SIGTERM);
    EXPECT_EQ(server_->wait(), 0) << "serve did not stop cleanly on SIGTERM";
    delete server_;
  }
  static std::string url() { return "http://127.0.0.1:" + std::to_string(port_); }
  static Process* server_;
  static int port_;
};
Process* Served::server_ = nullptr;
int Served::port_ = 0;

TEST_F(Served, SuitesEqualEvalOnTheSameExamples) {
  ASSERT_GT(port_, 0) << slurp(dir() / "serve.log");
  for (const std::string task : {"number", "letter"}) {
    const std::string api = task == "number" ? "completions" : "chat";
    const fs::path db = dir() / (task + ".db"), out = dir() / (task + "_llm.json");
    const std::string args =
        "llm --endpoint " + url() + " --model " + task + " --api " + api + " --suite " + task +
        " --lengths 17,24 --hops 1 --count 40 "
        "--seed 5 --jobs 4 --db " +
        db.string() + " --json " + out.string() + " --csv " + (dir() / (task + ".csv")).string() +
        " --plot " + (dir() / task).string();
    const CliResult r = run_cli(args);
    ASSERT_EQ(r.code, 0) << r.err;
    const json llm = json::parse(slurp(out));
    EXPECT_EQ(llm["requests"], 80);
    const json& suite = llm["suites"][0];
    EXPECT_EQ(suite["answered"], 80);
    EXPECT_EQ(suite["failed"], 0);

    const fs::path eval_out = dir() / (task + "_eval.json");
    const CliResult e =
        run_cli("eval --run " + (dir() / task).string() +
                " --lengths 17,24 --count 40 --seed 5 --no-controls --json " + eval_out.string());
    ASSERT_EQ(e.code, 0) << e.err;
    const json eval = json::parse(slurp(eval_out));
    EXPECT_EQ(suite["strict"], eval["accuracy"]) << task;
    EXPECT_EQ(suite["lenient"], eval["accuracy"]) << task;
    // The tiny Letter run learns 1-hop look-ups (chance is 1/80), so equal accuracies there are
    // equal answers; the tiny Number run barely learns, but its answers must vary.
    if (task == "letter") {
      EXPECT_GE(eval["accuracy"]["17"]["all"].get<double>(), 0.5);
    }
    EXPECT_GE(distinct_responses(db), 5u) << task << ": the served model answers a constant";
    for (const char* figure : {"_length.png", "_length.svg", "_depth.png", "_depth.svg"}) {
      EXPECT_TRUE(fs::exists(dir() / (task + "_" + task + figure))) << figure;
    }
    const std::string csv = slurp(dir() / (task + ".csv"));
    EXPECT_EQ(csv.rfind("suite,model,group,length,hops,depth,n,strict,", 0), 0u);

    // A re-run sends nothing and reports the same numbers.
    const CliResult again = run_cli(args);
    ASSERT_EQ(again.code, 0) << again.err;
    const json llm2 = json::parse(slurp(out));
    EXPECT_EQ(llm2["requests"], 0);
    EXPECT_EQ(llm2["suites"][0]["strict"], suite["strict"]);
  }
}

TEST_F(Served, HostileRequestsGetAFourHundredAndServeStaysUp) {
  ASSERT_GT(port_, 0);
  posbias::HttpClient client;
  const std::string c = url() + "/v1/completions";
  std::string tokens;
  for (int i = 0; i < 9000; ++i) tokens += "a:b ";
  const std::vector<std::pair<std::string, long>> cases{
      {std::string(70000, '{'), 413},  // oversized body
      {"{\"prompt\": ", 400},          // bad JSON
      {R"({"model": "letter", "prompt": "a:1", "max_tokens": 99999999})", 400},
      {R"({"model": "letter", "prompt": "hello there"})", 400},        // no task tokens
      {R"({"model": "letter", "prompt": ")" + tokens + R"("})", 400},  // 9000 tokens
      {R"({"model": "number", "prompt": ")" + std::string(2000, '1') + R"("})", 400},
      {R"({"model": "nobody", "prompt": "a:1"})", 404}};
  for (const auto& [body, status] : cases) {
    const posbias::HttpResponse r = client.post_json(c, body, {}, 30);
    EXPECT_EQ(r.status, status) << body.substr(0, 80) << " -> " << r.body;
    const posbias::HttpResponse ok =
        client.post_json(c, R"({"model": "letter", "prompt": "b:3 a:b", "max_tokens": 1})", {}, 30);
    ASSERT_EQ(ok.status, 200) << "serve went down after " << body.substr(0, 80);
  }
}

TEST_F(Served, AnUnknownModelStopsTheRunWithOneLine) {
  ASSERT_GT(port_, 0);
  expect_error("llm --endpoint " + url() +
                   " --model nobody --suite letter --lengths 17 --hops 1 "
                   "--count 2 --db " +
                   (dir() / "nobody.db").string(),
               "HTTP 404", 1);
}

// A loopback TCP connection that has sent `bytes` and stays open.
int open_connection(int port, const std::string& bytes) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(bytes.size()));
  return fd;
}

// The status code of the answer on `fd` (0 when none came within 5 s).
int status_of(int fd) {
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  char buf[64] = {};
  const ssize_t n = ::recv(fd, buf, sizeof buf - 1, 0);
  return n > 12 ? std::atoi(buf + 9) : 0;
}

TEST(LlmCli, SlowClientsCannotLockServeAndAStopIsBounded) {
  const fs::path letter = tiny_run("letter");
  const fs::path port_file = dir() / "slow_port";
  Process server({POSBIAS_BIN, "serve", "--run", letter.string(), "--port", "0", "--port-file",
                  port_file.string(), "--io-timeout", "2"},
                 (dir() / "slow.log").string());
  const int port = wait_for_port(port_file);
  ASSERT_GT(port, 0) << slurp(dir() / "slow.log");
  // 64 clients that stop inside their headers and keep trickling a header line, and 64 that
  // announce a 10 GB body and send none of it.
  std::vector<int> slow;
  for (int i = 0; i < 64; ++i) slow.push_back(open_connection(port, "GET /health HTTP/1.1\r\n"));
  for (int i = 0; i < 64; ++i) {
    slow.push_back(open_connection(
        port, "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n"));
  }
  std::atomic<bool> trickling{true};
  std::thread trickle([&] {
    while (trickling.load()) {
      for (int i = 0; i < 64; ++i)
        ::send(slow[static_cast<std::size_t>(i)], "X-A: b\r\n", 8, MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  for (int round = 0; round < 3; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    const int fd = open_connection(port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(status_of(fd), 200);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(seconds, 1.0) << "/health with 128 slow connections open";
    ::close(fd);
  }
  // The announced 10 GB got its 413 without a byte of body; two lengths that disagree get 400;
  // a known route asked with the wrong method gets 405.
  EXPECT_EQ(status_of(slow[64]), 413);
  const int twice = open_connection(port,
                                    "POST /v1/completions HTTP/1.1\r\nHost: x\r\n"
                                    "Content-Length: 2\r\nContent-Length: 7\r\n\r\n{}");
  EXPECT_EQ(status_of(twice), 400);
  const int wrong = open_connection(port, "DELETE /health HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status_of(wrong), 405);
  // SIGTERM with the tricklers still open: out within the I/O timeout and a second (plus slack
  // for a loaded machine), the port file gone.
  const auto t0 = std::chrono::steady_clock::now();
  server.signal(SIGTERM);
  while (server.running() && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const double stop_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(server.running());
  EXPECT_LT(stop_seconds, 2 + 1 + 3.0);
  EXPECT_FALSE(fs::exists(port_file));
  EXPECT_NE(slurp(dir() / "slow.log").find("posbias serve: stopped"), std::string::npos);
  trickling.store(false);
  trickle.join();
  for (int fd : slow) ::close(fd);
  ::close(twice);
  ::close(wrong);
}

TEST(LlmCli, BadInputIsOneLine) {
  const std::string db = (dir() / "bad.db").string();
  expect_error(
      "llm --endpoint http://127.0.0.1:1 --model m --suite letter --lengths 17 --count 1 "
      "--db " +
          db,
      "cannot reach", 1);
  expect_usage_error("llm --endpoint ftp://example.com --model m --db " + db, "not an http");
  expect_usage_error("llm --endpoint 'http://exa mple.com' --model m --db " + db, "not an http");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --suite bogus --db " + db,
                     "unknown suite 'bogus'");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --suite letter,letter --db " + db,
                     "twice");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --db " + db + " --jobs 0",
                     "--jobs");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --db " + db, "--model");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --db " + db + " --jobs 2,3",
                     "--jobs must be an integer");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --suite letter", "--db");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --db " + db + " --rps 1e-9",
                     "--rps must be 0 (no limit) or in 0.001..1000000");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --db " + db + " --jobs 1e20",
                     "--jobs must be in");
  // Credentials in the URL are never echoed.
  const CliResult secret = run_cli(
      "llm --endpoint http://user:sekrit@127.0.0.1:1/v1?key=sekrit2 --model m --suite letter "
      "--lengths 17 --count 1 --db " +
      db);
  EXPECT_EQ(secret.code, 1);
  EXPECT_NE(secret.err.find("cannot reach http://***@127.0.0.1:1"), std::string::npos)
      << secret.err;
  EXPECT_EQ(secret.err.find("sekrit"), std::string::npos) << secret.err;
  // Control bytes in a value come back escaped, on one line.
  const CliResult escaped = run_cli("llm --endpoint http://127.0.0.1:1 --model m --db " + db +
                                    " --suite \"$(printf 'bo\\033[2Jgus')\"");
  EXPECT_EQ(escaped.code, 2);
  EXPECT_NE(escaped.err.find("bo\\x1b[2Jgus"), std::string::npos) << escaped.err;
  EXPECT_EQ(escaped.err.find('\x1b'), std::string::npos);
  EXPECT_EQ(lines(escaped.err), 1);
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model m --timeout nan --db " + db,
                     "--timeout");
  // CR or LF in the API key would start headers of its own: refused in one line that does
  // not show the key, before the store is made or a request sent. A clean key gets as far as
  // the unreachable endpoint.
  const fs::path fresh = dir() / "key.db";
  const std::string keyed = "llm --endpoint http://127.0.0.1:1 --model m --suite letter "
                            "--lengths 17 --count 1 --api-key-env POSBIAS_TEST_KEY --db " +
                            fresh.string();
  for (const char* key : {"sk-abc\r\nX-Injected: 1", "sk-abc\n", "sk-\x01" "abc"}) {
    ::setenv("POSBIAS_TEST_KEY", key, 1);
    const CliResult injected = run_cli(keyed);
    EXPECT_EQ(injected.code, 2) << injected.err;
    EXPECT_EQ(lines(injected.err), 1) << injected.err;
    EXPECT_NE(injected.err.find("the API key in $POSBIAS_TEST_KEY holds a control character"),
              std::string::npos)
        << injected.err;
    EXPECT_EQ(injected.err.find("sk-"), std::string::npos) << injected.err;
    EXPECT_FALSE(fs::exists(fresh));
  }
  ::setenv("POSBIAS_TEST_KEY", "sk-abc", 1);
  expect_error(keyed, "cannot reach", 1);
  ::unsetenv("POSBIAS_TEST_KEY");
  expect_usage_error("llm --endpoint http://127.0.0.1:1 --model \"$(printf 'm\\r\\nX: y')\" --db " +
                         db,
                     "--model holds a control character");
  const fs::path text = dir() / "text.db";
  std::ofstream(text) << std::string(2000, 'z');
  expect_usage_error(
      "llm --endpoint http://127.0.0.1:1 --model m --suite letter --db " + text.string(),
      "not an SQLite database");
  expect_error("serve --run " + (dir() / "no_such_run").string() + " --port 0", "no_such_run", 1);
  expect_usage_error("serve --run x --port 70000", "--port");
}

}  // namespace
