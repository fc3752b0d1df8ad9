// The OpenAI-compatible server over real HTTP on loopback, with a scripted backend and
// cpp-httplib's client (not the harness's libcurl): the routes, every 4xx/5xx path, that it
// stays up after each, and that requests run concurrently.
#include <gtest/gtest.h>
#include <httplib.h>

#include <condition_variable>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "posbias/serve/openai_server.h"

namespace {

using namespace posbias;
using nlohmann::json;

// Echoes the prompt's last word. Prompts "busy", "bad", "boom" throw; "wait N" blocks until N
// requests are inside complete() at once (or 10 s pass).
class Scripted : public Completer {
 public:
  std::vector<std::string> models() const override { return {"echo", "other"}; }
  Completion complete(const CompletionRequest& r) override {
    if (r.model == "ghost") throw UnknownModel("no model named 'ghost'");
    if (r.prompt == "busy") throw BackendBusy("busy");
    if (r.prompt == "bad") throw std::invalid_argument("the prompt is bad");
    if (r.prompt == "boom") throw std::runtime_error("boom");
    if (r.prompt.rfind("wait ", 0) == 0) {
      const int n = std::stoi(r.prompt.substr(5));
      std::unique_lock<std::mutex> lock(mutex_);
      ++inside_;
      cv_.notify_all();
      const bool met = cv_.wait_for(lock, std::chrono::seconds(10), [&] { return inside_ >= n; });
      return {r.model, met ? "together" : "alone", 1, 1};
    }
    return {r.model, r.prompt.substr(r.prompt.rfind(' ') + 1), 2, 1};
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int inside_ = 0;
};

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerOptions o;
    o.port = 0;
    o.max_body = 4096;
    o.timeout = 5;
    o.threads = 8;
    server_ = std::make_unique<OpenAiServer>(backend_, o);
    port_ = server_->bind();
    thread_ = std::thread([this] { server_->run(); });
  }
  void TearDown() override {
    server_->stop();
    thread_.join();
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20, 0);
    return c;
  }
  httplib::Result post(const std::string& path, const std::string& body) const {
    return client().Post(path.c_str(), body, "application/json");
  }
  void expect_up() const {
    const auto r = client().Get("/health");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }

  Scripted backend_;
  std::unique_ptr<OpenAiServer> server_;
  int port_ = 0;
  std::thread thread_;
};

TEST_F(ServerTest, RoutesAnswerLikeOpenAi) {
  expect_up();
  const auto models = client().Get("/v1/models");
  ASSERT_TRUE(models);
  EXPECT_EQ(json::parse(models->body)["data"][1]["id"], "other");
  const auto c =
      post("/v1/completions", R"({"model": "echo", "prompt": "x y z", "max_tokens": 1})");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->status, 200);
  const json cj = json::parse(c->body);
  EXPECT_EQ(cj["object"], "text_completion");
  EXPECT_EQ(cj["choices"][0]["text"], "z");
  EXPECT_EQ(parse_completion(Api::kCompletions, c->body), "z");
  const auto chat = post("/v1/chat/completions",
                         R"({"model": "echo", "messages": [{"role": "user", "content": "a b"}]})");
  ASSERT_TRUE(chat);
  EXPECT_EQ(chat->status, 200);
  EXPECT_EQ(json::parse(chat->body)["choices"][0]["message"]["content"], "b");
  EXPECT_EQ(json::parse(chat->body)["usage"]["total_tokens"], 3);
}

TEST_F(ServerTest, BadRequestsGetAFourHundredAndTheServerStaysUp) {
  const std::vector<std::tuple<std::string, std::string, int>> cases{
      {"/v1/completions", "{not json", 400},
      {"/v1/completions", R"({"prompt": "x", "max_tokens": 1000000000})", 400},
      {"/v1/completions", R"({"prompt": "x", "max_tokens": -1})", 400},
      {"/v1/completions", R"({"prompt": "bad"})", 400},
      {"/v1/completions", R"({"model": "ghost", "prompt": "x"})", 404},
      {"/v1/completions", R"({"prompt": "busy"})", 503},
      {"/v1/completions", R"({"prompt": "boom"})", 500},
      {"/v1/chat/completions", R"({"messages": 7})", 400},
      {"/v1/nothing", "{}", 404},
      {"/v1/completions", R"({"prompt": ")" + std::string(8000, 'a') + R"("})", 413}};
  for (const auto& [path, body, status] : cases) {
    const auto r = post(path, body);
    ASSERT_TRUE(r) << body.substr(0, 60);
    EXPECT_EQ(r->status, status) << body.substr(0, 60);
    const json j = json::parse(r->body, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r->body;
    EXPECT_TRUE(j["error"]["message"].is_string()) << r->body;
    expect_up();
  }
  EXPECT_EQ(server_->requests_served(), 0);
}

TEST_F(ServerTest, RequestsRunConcurrently) {
  // Each request waits inside the backend until all four are there: only concurrent
  // handling lets them meet.
  std::vector<std::thread> threads;
  std::vector<std::string> texts(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      const auto r = post("/v1/completions", R"({"prompt": "wait 4"})");
      texts[i] = r ? parse_completion(Api::kCompletions, r->body) : "no response";
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& t : texts) EXPECT_EQ(t, "together");
  EXPECT_EQ(server_->requests_served(), 4);
}

TEST(Server, AStopBeforeRunIsNotLost) {
  Scripted backend;
  ServerOptions o;
  o.port = 0;
  OpenAiServer server(backend, o);
  server.bind();
  server.stop();
  auto ran = std::async(std::launch::async, [&server] { server.run(); });
  EXPECT_EQ(ran.wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(Server, ABusyPortAndBadOptionsAreErrors) {
  Scripted backend;
  ServerOptions o;
  o.port = 0;
  OpenAiServer a(backend, o);
  o.port = a.bind();
  OpenAiServer b(backend, o);
  EXPECT_THROW(b.bind(), std::runtime_error);
  o.threads = 0;
  EXPECT_THROW(OpenAiServer(backend, o), std::invalid_argument);
  o.threads = 4;
  o.max_body = 10;
  EXPECT_THROW(OpenAiServer(backend, o), std::invalid_argument);
}

}  // namespace
