// A fault-injecting OpenAI-compatible endpoint for the harness's fault test. Each request,
// independently: HTTP 500, HTTP 429 (with Retry-After: $FAULT_ENDPOINT_RETRY_AFTER, else 0),
// a stall past the client's timeout, a 200 whose JSON is cut in half, a 200 of malformed JSON,
// or a correct answer. A correct answer's text is the prompt's last word, so the test can check
// that no response was given to another prompt. POST /stats counts what was injected, and the
// requests that carried "Authorization: Bearer $FAULT_ENDPOINT_KEY".
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
    nlohmann::json choice{{"index", 0}, {"finish_reason", "stop"}};
    if (chat) {
      choice["message"] = {{"role", "assistant"}, {"content", last}};
    } else {
      choice["text"] = last;
    }
    const std::string ok = nlohmann::json{{"choices", {choice}}}.dump();
    switch (kind) {
      case 0:
        res.status = 500;
        res.set_content(R"({"error":{"message":"injected"}})", "application/json");
        break;
      case 1:
        res.status = 429;
        res.set_header("Retry-After", retry_after);
        res.set_content(R"({"error":{"message":"slow down"}})", "application/json");
        break;
      case 2:
        std::this_thread::sleep_for(std::chrono::duration<double>(stall));
        res.set_content(ok, "application/json");
        break;
      case 3:
        res.set_content(ok.substr(0, ok.size() / 2), "application/json");
        break;
      case 4:
        res.set_content("<html>502 Bad Gateway</html>", "application/json");
        break;
      default:
        res.set_content(ok, "application/json");
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
