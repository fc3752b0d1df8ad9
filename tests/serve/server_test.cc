// The OpenAI-compatible server over real HTTP on loopback, with a scripted backend and
// cpp-httplib's client (not the harness's libcurl): the routes, every 4xx/5xx path, that it
// stays up after each, and that requests run concurrently. Raw sockets check what a client
// library would hide: framing (RFC 9112), that a refusal closes its connection at once, and
// that a burst of connections is queued rather than dropped.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "posbias/serve/openai_server.h"

namespace {

using namespace posbias;
using nlohmann::json;

// A loopback TCP connection to `port` (blocking), or -1.
int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

// One HTTP answer read off a raw socket: its status (0 when none came), headers and body, or
// the socket error that cut it.
struct Answer {
  int status = 0;
  std::string headers, body, error;
};

Answer read_answer(int fd, int timeout_seconds = 10) {
  timeval timeout{timeout_seconds, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  Answer a;
  std::string data;
  std::size_t end = std::string::npos, length = 0;
  char buf[4096];
  while (end == std::string::npos || data.size() < end + 4 + length) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0) {
      a.error = std::strerror(errno);
      return a;
    }
    if (n == 0) {
      a.error = "closed before the answer was complete";
      return a;
    }
    data.append(buf, static_cast<std::size_t>(n));
    if (end == std::string::npos && (end = data.find("\r\n\r\n")) != std::string::npos) {
      a.headers = data.substr(0, end);
      std::string lower = a.headers;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::size_t at = lower.find("\r\ncontent-length:");
      if (at != std::string::npos) length = std::stoul(lower.substr(at + 17));
    }
  }
  a.status = data.size() > 12 && data.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(data.c_str() + 9) : 0;
  a.body = data.substr(end + 4, length);
  return a;
}

// Seconds until the server closes `fd` (reads return 0), or `limit` if it has not by then.
double seconds_until_closed(int fd, double limit) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  char buf[256];
  while (elapsed() < limit) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) > 0) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN)) return elapsed();
    }
  }
  return limit;
}

std::string chunked(const std::string& body) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", body.size());
  return size + body + "\r\n0\r\n\r\n";
}

// Echoes the prompt's last word, one character per token (each passed to on_token, cut at a
// stop string as a backend does). Prompts "busy", "bad", "boom" throw; "wait N" blocks until
// N requests are inside complete() at once (or 10 s pass).
class Scripted : public Completer {
 public:
  std::vector<std::string> models() const override { return {"echo", "other"}; }
  Completion complete(const CompletionRequest& r, const TokenSink& on_token) override {
    if (r.prompt == "busy") throw BackendBusy("busy");
    if (r.prompt == "bad") throw std::invalid_argument("the prompt is bad");
    if (r.prompt == "boom") throw std::runtime_error("boom");
    if (r.prompt.rfind("wait ", 0) == 0) {
      const int n = std::stoi(r.prompt.substr(5));
      std::unique_lock<std::mutex> lock(mutex_);
      ++inside_;
      cv_.notify_all();
      const bool met = cv_.wait_for(lock, std::chrono::seconds(10), [&] { return inside_ >= n; });
      Completion c;
      c.model = r.model;
      c.text = met ? "together" : "alone";
      c.prompt_tokens = c.completion_tokens = 1;
      return c;
    }
    const std::string word = r.prompt.substr(r.prompt.rfind(' ') + 1);
    Completion c;
    c.model = r.model;
    c.prompt_tokens = 2;
    for (const char ch : word) {
      c.text += ch;
      ++c.completion_tokens;
      if (r.logprobs >= 0) c.logprobs.push_back({std::string(1, ch), -0.5, {}});
      const bool stopped = cut_at_stop(c.text, r.stop);
      if (on_token) on_token(c);
      if (stopped) break;
    }
    return c;
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
    o.max_body = 65536;
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
  EXPECT_EQ(parse_completion(Api::kCompletions, c->body).text, "z");
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
      {"/v1/completions", R"({"model": "echo", "prompt": "x", "max_tokens": 1000000000})", 400},
      {"/v1/completions", R"({"model": "echo", "prompt": "x", "max_tokens": -1})", 400},
      {"/v1/completions", R"({"model": "echo", "prompt": "bad"})", 400},
      {"/v1/completions", R"({"model": "ghost", "prompt": "x"})", 404},
      {"/v1/completions", R"({"model": "echo", "prompt": "busy"})", 503},
      {"/v1/completions", R"({"model": "echo", "prompt": "boom"})", 500},
      {"/v1/chat/completions", R"({"model": "echo", "messages": 7})", 400},
      {"/v1/nothing", "{}", 404},
      {"/v1/completions", R"({"model": "echo", "prompt": ")" + std::string(70000, 'a') + R"("})",
       413}};
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
      const auto r = post("/v1/completions", R"({"model": "echo", "prompt": "wait 4"})");
      texts[i] = r ? parse_completion(Api::kCompletions, r->body).text : "no response";
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& t : texts) EXPECT_EQ(t, "together");
  EXPECT_EQ(server_->requests_served(), 4);
}

TEST_F(ServerTest, AJsonBodyWithAFormContentTypeIsReadAsJson) {
  // curl -d @body.json sends application/x-www-form-urlencoded. httplib capped such bodies at
  // 8 KiB and answered 413 whatever --max-body said; the body is JSON, read as JSON.
  const std::string body =
      R"({"model": "echo", "prompt": ")" + std::string(8400, 'a') + R"( word"})";
  for (const char* type : {"application/x-www-form-urlencoded", "application/json", "text/plain"}) {
    const auto r = client().Post("/v1/completions", body, type);
    ASSERT_TRUE(r) << type;
    EXPECT_EQ(r->status, 200) << type << ": " << r->body;
    EXPECT_EQ(parse_completion(Api::kCompletions, r->body).text, "word") << type;
  }
  // Over the limit is 413 with any type; a multipart body is 415, naming the type.
  const std::string big = R"({"model": "echo", "prompt": ")" + std::string(70000, 'a') + R"("})";
  const auto over = client().Post("/v1/completions", big, "application/x-www-form-urlencoded");
  ASSERT_TRUE(over);
  EXPECT_EQ(over->status, 413);
  const auto multi = client().Post("/v1/completions", body, "multipart/form-data; boundary=x");
  ASSERT_TRUE(multi);
  EXPECT_EQ(multi->status, 415);
  EXPECT_NE(multi->body.find("multipart/form-data"), std::string::npos) << multi->body;
  expect_up();
}

TEST_F(ServerTest, ContentLengthWithTransferEncodingIsRefused) {
  const std::string head = "POST /v1/completions HTTP/1.1\r\nHost: x\r\n";
  const std::string body = R"({"model": "echo", "prompt": "x y z"})";
  struct Case {
    std::string request;
    int status;
  };
  const std::vector<Case> cases{
      // RFC 9112 section 6.1: both framings is a smuggling attempt, answered 400.
      {head + "Content-Length: " + std::to_string(body.size()) +
           "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(body),
       400},
      {head + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n" + chunked(body), 400},
      {head + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked(body), 400},
      {head + "Transfer-Encoding: identity\r\n\r\n" + body, 400},
      // A body on a GET would be read as the next request.
      {"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", 400},
      // Chunked alone is fine, and bounded by the limit like any body.
      {head + "Transfer-Encoding: chunked\r\n\r\n" + chunked(body), 200},
      {head + "Transfer-Encoding: chunked\r\n\r\n" +
           chunked(R"({"model": "echo", "prompt": ")" + std::string(70000, 'a') + R"("})"),
       413},
      // No Content-Length and no Transfer-Encoding: no body (RFC 9112 section 6.3).
      {head + "\r\n", 400},
      {head + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body, 200}};
  for (const Case& c : cases) {
    const int fd = connect_to(port_);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(send_all(fd, c.request));
    const Answer a = read_answer(fd);
    EXPECT_EQ(a.status, c.status) << c.request.substr(0, 120) << "\n" << a.error << a.body;
    if (a.status == 200) {
      EXPECT_EQ(parse_completion(Api::kCompletions, a.body).text, "z");
    } else if (a.status >= 400) {
      EXPECT_TRUE(json::parse(a.body, nullptr, false)["error"]["message"].is_string()) << a.body;
    }
    ::close(fd);
  }
  expect_up();
}

TEST_F(ServerTest, ARefusalClosesItsConnectionAtOnce) {
  // Each answer says Connection: close, and the server closes the socket right after it
  // instead of holding it for the 5 s keep-alive.
  const std::vector<std::pair<std::string, int>> cases{
      {"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n", 413},
      {"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
       "Transfer-Encoding: chunked\r\n\r\n",
       400},
      {"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3"
       "\r\n\r\n",
       400},
      {"POST /v1/nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", 404},
      {"DELETE /health HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", 405},
      {"NOT A REQUEST\r\n\r\n", 400}};
  for (const auto& [request, status] : cases) {
    const int fd = connect_to(port_);
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(send_all(fd, request));
    const Answer a = read_answer(fd);
    EXPECT_EQ(a.status, status) << request << a.error;
    EXPECT_NE(a.headers.find("Connection: close"), std::string::npos) << a.headers;
    EXPECT_EQ(a.headers.find("Keep-Alive"), std::string::npos) << a.headers;
    EXPECT_LT(seconds_until_closed(fd, 3.0), 1.0) << request << " left the socket open";
    ::close(fd);
  }
  // Control: an answered request keeps its connection for the next one.
  const int fd = connect_to(port_);
  ASSERT_GE(fd, 0);
  const std::string body = R"({"model": "echo", "prompt": "x y"})";
  const std::string request =
      "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
      "\r\n\r\n" + body;
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(send_all(fd, request));
    const Answer a = read_answer(fd);
    EXPECT_EQ(a.status, 200) << a.error;
  }
  EXPECT_GE(seconds_until_closed(fd, 0.5), 0.5) << "a kept-alive connection was closed";
  ::close(fd);
}

// The JSON of each "data: " event of a server-sent-event body, "[DONE]" as the string.
std::vector<json> events_of(const std::string& body) {
  std::vector<json> out;
  std::size_t at = 0;
  for (std::size_t end; (end = body.find("\n\n", at)) != std::string::npos; at = end + 2) {
    const std::string event = body.substr(at, end - at);
    EXPECT_EQ(event.rfind("data: ", 0), 0u) << event;
    const std::string data = event.substr(6);
    out.push_back(data == "[DONE]" ? json("[DONE]") : json::parse(data));
  }
  EXPECT_EQ(at, body.size()) << "a partial event at the end";
  return out;
}

TEST_F(ServerTest, AModelTheServerDoesNotHaveIs404NeverAnotherModelsAnswer) {
  for (const auto& [path, body] : std::vector<std::pair<std::string, std::string>>{
           {"/v1/completions", R"({"model": "nope", "prompt": "x y"})"},
           {"/v1/chat/completions",
            R"({"model": "nope", "messages": [{"role": "user", "content": "x"}]})"}}) {
    const auto r = post(path, body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 404) << path;
    const json e = json::parse(r->body)["error"];
    EXPECT_EQ(e["code"], "model_not_found");
    EXPECT_EQ(e["type"], "invalid_request_error");
    EXPECT_EQ(e["param"], "model");
    EXPECT_NE(e["message"].get<std::string>().find("'nope'"), std::string::npos);
  }
  // Two models served: a request must say which.
  const auto none = post("/v1/completions", R"({"prompt": "x y"})");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 400);
  EXPECT_EQ(json::parse(none->body)["error"]["param"], "model");
  const auto one = client().Get("/v1/models/other");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->status, 200);
  EXPECT_EQ(json::parse(one->body)["id"], "other");
  EXPECT_EQ(json::parse(one->body)["object"], "model");
  const auto missing = client().Get("/v1/models/nope");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(json::parse(missing->body)["error"]["code"], "model_not_found");
  EXPECT_EQ(server_->requests_served(), 0);
}

TEST_F(ServerTest, ErrorsHaveOpenAisShapeAndNameTheField) {
  const std::vector<std::tuple<std::string, int, std::string, std::string>> cases{
      {R"({"model": "echo", "prompt": "x", "presence_penalty": 1})", 400, "presence_penalty",
       "unsupported_parameter"},
      {R"({"model": "echo", "prompt": "x", "best_of": 3})", 400, "best_of",
       "unsupported_parameter"},
      {R"({"model": "echo", "prompt": "x", "frobnicate": 1})", 400, "frobnicate",
       "unrecognized_argument"},
      {R"({"model": "echo", "prompt": "x", "n": 17})", 400, "n", ""},
      {R"({"model": "echo", "prompt": "x", "logprobs": 6})", 400, "logprobs", ""},
      {R"({"model": "echo", "prompt": "x", "logprobs": 1, "echo": true})", 400, "echo",
       "unsupported_parameter"},
      {R"({"model": "echo", "prompt": "x", "temperature": 3})", 400, "temperature", ""},
      {R"({"model": "echo", "prompt": "x", "stream_options": {"include_usage": true}})", 400,
       "stream_options", ""},
      {R"({"model": "echo", "prompt": "busy"})", 503, "", "server_busy"}};
  for (const auto& [body, status, param, code] : cases) {
    const auto r = post("/v1/completions", body);
    ASSERT_TRUE(r) << body;
    EXPECT_EQ(r->status, status) << body;
    const json e = json::parse(r->body)["error"];
    for (const char* key : {"message", "type", "param", "code"})
      EXPECT_TRUE(e.contains(key)) << key << " missing in " << r->body;
    EXPECT_EQ(e["param"], param.empty() ? json(nullptr) : json(param)) << body;
    EXPECT_EQ(e["code"], code.empty() ? json(nullptr) : json(code)) << body;
    if (status == 503) {
      EXPECT_EQ(r->get_header_value("Retry-After"), "1");
    }
  }
  const auto tools = post("/v1/chat/completions",
                          R"({"model": "echo", "messages": [{"role": "user", "content": "x"}],
                              "tools": [{"type": "function"}]})");
  ASSERT_TRUE(tools);
  EXPECT_EQ(tools->status, 400);
  EXPECT_EQ(json::parse(tools->body)["error"]["param"], "tools");
}

TEST_F(ServerTest, NChoicesAndFinishReasons) {
  const auto r =
      post("/v1/completions", R"({"model": "echo", "prompt": "x abcdef", "n": 3, "stop": "de"})");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const json j = json::parse(r->body);
  ASSERT_EQ(j["choices"].size(), 3u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(j["choices"][k]["index"], k);
    EXPECT_EQ(j["choices"][k]["text"], "abc");
    EXPECT_EQ(j["choices"][k]["finish_reason"], "stop");
  }
  EXPECT_EQ(j["usage"]["prompt_tokens"], 2);       // once
  EXPECT_EQ(j["usage"]["completion_tokens"], 15);  // 5 tokens (d and e decoded) per choice
  const auto echo = post("/v1/completions", R"({"model": "echo", "prompt": "p q", "echo": true})");
  ASSERT_TRUE(echo);
  EXPECT_EQ(json::parse(echo->body)["choices"][0]["text"], "p qq");
}

TEST_F(ServerTest, AStreamIsTheAnswerInPiecesEndingWithDone) {
  for (const bool chat : {false, true}) {
    const std::string path = chat ? "/v1/chat/completions" : "/v1/completions";
    const std::string prompt = chat ? R"("messages": [{"role": "user", "content": "x abcdef"}])"
                                    : R"("prompt": "x abcdef")";
    const std::string common = R"({"model": "echo", "stop": ["de", "zz"], )" + prompt;
    const auto whole = post(path, common + "}");
    ASSERT_TRUE(whole);
    const std::string expected =
        parse_completion(chat ? Api::kChat : Api::kCompletions, whole->body).text;
    EXPECT_EQ(expected, "abc");
    const auto r = post(path, common + R"(, "stream": true, "logprobs": )" + (chat ? "true" : "0") +
                                  R"(, "stream_options": {"include_usage": true}})");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
    const std::vector<json> events = events_of(r->body);
    ASSERT_GE(events.size(), 4u) << r->body;
    EXPECT_EQ(events.back(), "[DONE]");
    const json usage = events[events.size() - 2];
    EXPECT_TRUE(usage["choices"].empty());
    EXPECT_EQ(usage["usage"]["completion_tokens"], 5);
    std::string text;
    int tokens = 0;
    for (std::size_t i = 0; i + 2 < events.size(); ++i) {
      const json& c = events[i]["choices"][0];
      EXPECT_EQ(events[i]["object"], chat ? "chat.completion.chunk" : "text_completion");
      if (chat && i == 0) {
        EXPECT_EQ(c["delta"]["role"], "assistant");
      }
      text += chat ? c["delta"].value("content", "") : c["text"].get<std::string>();
      if (!c["logprobs"].is_null())
        tokens += static_cast<int>(chat ? c["logprobs"]["content"].size()
                                        : c["logprobs"]["tokens"].size());
      const bool last = i + 3 == events.size();
      EXPECT_EQ(c["finish_reason"], last ? json("stop") : json(nullptr)) << i;
    }
    // "d" was held back (it begins a stop string) and never sent: the stream is the answer.
    EXPECT_EQ(text, expected);
    EXPECT_EQ(tokens, 5);
    // The harness reads the same stream.
    EXPECT_EQ(parse_completion(chat ? Api::kChat : Api::kCompletions, r->body).text, expected);
  }
  // Errors before the first token keep their status.
  const auto busy =
      post("/v1/completions", R"({"model": "echo", "prompt": "busy", "stream": true})");
  ASSERT_TRUE(busy);
  EXPECT_EQ(busy->status, 503);
  const auto nope = post("/v1/completions", R"({"model": "nope", "prompt": "x", "stream": true})");
  ASSERT_TRUE(nope);
  EXPECT_EQ(nope->status, 404);
  expect_up();
}

TEST(ServerStream, SendableHoldsBackAStopPrefixAndAnUnfinishedCharacter) {
  EXPECT_EQ(stream_sendable("abcd", {"de"}), 3u);
  EXPECT_EQ(stream_sendable("abcd", {"xy"}), 4u);
  EXPECT_EQ(stream_sendable("ab\xc3", {}), 2u);      // é's first byte
  EXPECT_EQ(stream_sendable("ab\xc3\xa9", {}), 4u);  // é whole
  EXPECT_EQ(stream_sendable("a\xe2\x82", {}), 1u);   // € cut after two of three bytes
}

TEST(Server, ABurstOfConnectionsIsQueuedNeverDropped) {
  // 300 clients connect at once before the server accepts any: the kernel completes as many
  // handshakes as the listen backlog holds (httplib's was 5) and drops the rest, which then
  // wait a second or more to retry, or are reset. Each connected client then sends one
  // request; every one gets an answer.
  Scripted backend;
  ServerOptions o;
  o.port = 0;
  o.threads = 8;
  OpenAiServer server(backend, o);
  const int port = server.bind();
  int somaxconn = 4096;
  std::ifstream("/proc/sys/net/core/somaxconn") >> somaxconn;
  const int clients = 300, expected = std::min(clients, somaxconn + 1);
  std::vector<int> fds;
  for (int i = 0; i < clients; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    fds.push_back(fd);
  }
  // Handshakes the kernel completes on its own take microseconds; allow half a second.
  std::vector<bool> connected(fds.size(), false);
  int count = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (count < clients && std::chrono::steady_clock::now() < deadline) {
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (connected[i]) continue;
      pollfd p{fds[i], POLLOUT, 0};
      int error = 0;
      socklen_t size = sizeof error;
      if (::poll(&p, 1, 0) > 0 && ::getsockopt(fds[i], SOL_SOCKET, SO_ERROR, &error, &size) == 0 &&
          error == 0) {
        connected[i] = true;
        ++count;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::thread runner([&server] { server.run(); });
  EXPECT_GE(count, expected) << "connections completed before the server accepted any";
  int answered = 0;
  if (count >= expected) {
    const std::string body = R"({"model": "echo", "prompt": "x y z"})";
    const std::string request =
        "POST /v1/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!connected[i]) continue;
      ::fcntl(fds[i], F_SETFL, ::fcntl(fds[i], F_GETFL) & ~O_NONBLOCK);
      EXPECT_TRUE(send_all(fds[i], request)) << "client " << i << ": " << std::strerror(errno);
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!connected[i]) continue;
      const Answer a = read_answer(fds[i]);
      const bool ok =
          (a.status == 200 && parse_completion(Api::kCompletions, a.body).text == "z") ||
          (a.status == 503 && json::parse(a.body)["error"].is_object());
      EXPECT_TRUE(ok) << "client " << i << ": status " << a.status << " " << a.error;
      answered += ok;
    }
  }
  for (int fd : fds) ::close(fd);
  server.stop();
  runner.join();
  EXPECT_EQ(answered, expected);
  std::printf("burst: %d of %d connections completed before accepting, %d answered\n", count,
              clients, answered);
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
