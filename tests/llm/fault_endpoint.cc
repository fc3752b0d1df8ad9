// A fault-injecting OpenAI-compatible endpoint for the harness's fault test. Each request,
// independently: HTTP 500 (or $FAULT_ENDPOINT_ERROR_STATUS), HTTP 429 (with Retry-After:
// $FAULT_ENDPOINT_RETRY_AFTER, else 0), a stall past the client's timeout, a 200 whose JSON is
// cut in half, a 200 of malformed JSON, or a correct answer. A correct answer's text is the
// prompt's last word, so the test can check that no response was given to another prompt.
// POST /stats counts what was injected, and the requests that carried "Authorization: Bearer
// $FAULT_ENDPOINT_KEY".
//
// A request with "logprobs" gets them: the answer's tokens are its pieces of at most two bytes,
// each with the log-probability piece_logprob() below. A request with "stream": true is answered
// with server-sent events, one chunk per piece (chat: a role chunk first), a usage chunk when
// stream_options.include_usage is set, and `data: [DONE]`; truncation cuts that body in half.
//
// fault_endpoint PORT_FILE SEED P500 P429 PSTALL PTRUNCATE PMALFORMED STALL_SECONDS
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

// The log-probability of one answer piece: -(its bytes' sum mod 97) / 100, so a sum says which
// answer it belongs to.
double piece_logprob(const std::string& piece) {
  int sum = 0;
  for (unsigned char c : piece) sum += c;
  return -static_cast<double>(sum % 97) / 100.0;
}

int main(int argc, char** argv) {
  if (argc != 9) {
    std::fprintf(stderr,
                 "usage: fault_endpoint PORT_FILE SEED P500 P429 PSTALL PTRUNC PMALF STALL\n");
    return 2;
  }
  const std::string port_file = argv[1];
  std::mt19937_64 rng(std::strtoull(argv[2], nullptr, 10));
  const double p[5] = {std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]),
                       std::atof(argv[6]), std::atof(argv[7])};
  const double stall = std::atof(argv[8]);
  std::mutex mutex;
  std::atomic<long> counts[6] = {};  // 500, 429, stall, truncated, malformed, ok
  std::atomic<long> with_key{0};     // requests that carried "Bearer $FAULT_ENDPOINT_KEY"
  const char* key = std::getenv("FAULT_ENDPOINT_KEY");
  const std::string bearer = std::string("Bearer ") + (key ? key : "");
  const char* retry_after_env = std::getenv("FAULT_ENDPOINT_RETRY_AFTER");
  const std::string retry_after = retry_after_env ? retry_after_env : "0";
  // The status of the first fault (default 500): 400 makes it one the harness never retries.
  const char* error_status_env = std::getenv("FAULT_ENDPOINT_ERROR_STATUS");
  const int error_status = error_status_env ? std::atoi(error_status_env) : 500;
  httplib::Server server;
  server.new_task_queue = [] { return new httplib::ThreadPool(48); };
  auto handler = [&](const httplib::Request& req, httplib::Response& res) {
    double u;
    {
      std::lock_guard<std::mutex> lock(mutex);
      u = std::uniform_real_distribution<double>(0, 1)(rng);
    }
    int kind = 5;
    for (int k = 0; k < 5; ++k) {
      if (u < p[k]) {
        kind = k;
        break;
      }
      u -= p[k];
    }
    counts[kind].fetch_add(1);
    if (key && req.get_header_value("Authorization") == bearer) with_key.fetch_add(1);
    const bool chat = req.path.find("chat") != std::string::npos;
    std::string prompt;
    const auto body = nlohmann::json::parse(req.body, nullptr, false);
    if (!body.is_discarded()) {
      prompt = chat ? body["messages"][0]["content"].get<std::string>()
                    : body["prompt"].get<std::string>();
    }
    std::istringstream words(prompt);
    std::string last;
    for (std::string w; words >> w;) last = w;
    const bool stream = !body.is_discarded() && body.value("stream", false);
    const bool usage = stream && body.contains("stream_options") &&
                       body["stream_options"].value("include_usage", false);
    const bool with_logprobs = !body.is_discarded() && body.contains("logprobs") &&
                               !body["logprobs"].is_null() && body["logprobs"] != false;
    std::vector<std::string> pieces;
    for (std::size_t i = 0; i < last.size(); i += 2) pieces.push_back(last.substr(i, 2));
    // The logprobs object of `list` (completions: token_logprobs; chat: content entries).
    auto logprobs_of = [&](const std::vector<std::string>& list) {
      if (!with_logprobs) return nlohmann::json(nullptr);
      nlohmann::json lp = chat ? nlohmann::json{{"content", nlohmann::json::array()}}
                               : nlohmann::json{{"tokens", nlohmann::json::array()},
                                                {"token_logprobs", nlohmann::json::array()}};
      for (const std::string& t : list) {
        if (chat) {
          lp["content"].push_back({{"token", t},
                                   {"logprob", piece_logprob(t)},
                                   {"top_logprobs", nlohmann::json::array()}});
        } else {
          lp["tokens"].push_back(t);
          lp["token_logprobs"].push_back(piece_logprob(t));
        }
      }
      return lp;
    };
    nlohmann::json choice{{"index", 0}, {"finish_reason", "stop"}};
    if (chat) {
      choice["message"] = {{"role", "assistant"}, {"content", last}};
    } else {
      choice["text"] = last;
    }
    choice["logprobs"] = logprobs_of(pieces);
    std::string ok = nlohmann::json{{"choices", {choice}}}.dump();
    if (stream) {
      auto event = [](const nlohmann::json& j) { return "data: " + j.dump() + "\n\n"; };
      auto delta = [&](const std::string& text, bool role, const std::vector<std::string>& list,
                       bool finish) {
        nlohmann::json c{
            {"index", 0},
            {"finish_reason", finish ? nlohmann::json("stop") : nlohmann::json(nullptr)}};
        if (chat) {
          c["delta"] = nlohmann::json::object();
          if (role) c["delta"]["role"] = "assistant";
          if (role || !text.empty()) c["delta"]["content"] = text;
        } else {
          c["text"] = text;
        }
        c["logprobs"] = list.empty() ? nlohmann::json(nullptr) : logprobs_of(list);
        return event(
            {{"object", chat ? "chat.completion.chunk" : "text_completion"}, {"choices", {c}}});
      };
      ok.clear();
      if (chat) ok += delta("", true, {}, false);
      for (const std::string& piece : pieces) ok += delta(piece, false, {piece}, false);
      ok += delta("", false, {}, true);
      if (usage)
        ok += event({{"choices", nlohmann::json::array()},
                     {"usage", {{"prompt_tokens", 1}, {"completion_tokens", pieces.size()}}}});
      ok += "data: [DONE]\n\n";
    }
    const char* type = stream ? "text/event-stream" : "application/json";
    switch (kind) {
      case 0:
        res.status = error_status;
        res.set_content(R"({"error":{"message":"injected"}})", "application/json");
        break;
      case 1:
        res.status = 429;
        res.set_header("Retry-After", retry_after);
        res.set_content(R"({"error":{"message":"slow down"}})", "application/json");
        break;
      case 2:
        std::this_thread::sleep_for(std::chrono::duration<double>(stall));
        res.set_content(ok, type);
        break;
      case 3:
        res.set_content(ok.substr(0, ok.size() / 2), type);
        break;
      case 4:
        res.set_content("<html>502 Bad Gateway</html>", "application/json");
        break;
      default:
        res.set_content(ok, type);
    }
  };
  server.Post("/v1/chat/completions", handler);
  server.Post("/v1/completions", handler);
  server.Post("/stats", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(nlohmann::json{{"500", counts[0].load()},
                                   {"429", counts[1].load()},
                                   {"stall", counts[2].load()},
                                   {"truncated", counts[3].load()},
                                   {"malformed", counts[4].load()},
                                   {"ok", counts[5].load()},
                                   {"with_key", with_key.load()}}
                        .dump(),
                    "application/json");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  if (port < 0) return 1;
  { std::ofstream(port_file + ".tmp") << port << "\n"; }
  std::rename((port_file + ".tmp").c_str(), port_file.c_str());
  server.listen_after_bind();
  return 0;
}
