#include "posbias/serve/openai_server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

namespace posbias {

struct OpenAiServer::Impl {
  Completer& completer;
  ServerOptions options;
  httplib::Server server;
  std::atomic<std::int64_t> served{0}, next_id{0};
  std::atomic<bool> stop_requested{false};

  Impl(Completer& c, ServerOptions o) : completer(c), options(std::move(o)) {}

  static void send_error(httplib::Response& res, int status, const std::string& message,
                         const std::string& type) {
    res.status = status;
    res.set_content(error_body(message, type), "application/json");
  }

  void complete(Api api, const httplib::Request& req, httplib::Response& res) {
    CompletionRequest request;
    try {
      request = parse_request(api, req.body);
    } catch (const std::invalid_argument& e) {
      return send_error(res, 400, e.what(), "invalid_request_error");
    }
    try {
      const Completion c = completer.complete(request);
      const std::string id =
          (api == Api::kChat ? "chatcmpl-" : "cmpl-") + std::to_string(next_id.fetch_add(1));
      res.set_content(
          completion_response(api, id, c.model, c.text, c.prompt_tokens, c.completion_tokens),
          "application/json");
      served.fetch_add(1);
    } catch (const std::invalid_argument& e) {
      send_error(res, 400, e.what(), "invalid_request_error");
    } catch (const UnknownModel& e) {
      send_error(res, 404, e.what(), "model_not_found");
    } catch (const BackendBusy& e) {
      send_error(res, 503, e.what(), "server_busy");
    }
  }
};

OpenAiServer::OpenAiServer(Completer& completer, ServerOptions options)
    : impl_(std::make_unique<Impl>(completer, std::move(options))) {
  const ServerOptions& o = impl_->options;
  if (o.threads < 1 || o.threads > 1024) {
    throw std::invalid_argument("--threads must be in 1..1024");
  }
  if (o.max_body < 1024) throw std::invalid_argument("--max-body must be at least 1024 bytes");
  if (!(o.timeout > 0) || o.timeout > 3600) {
    throw std::invalid_argument("--timeout must be in (0, 3600] seconds");
  }
  if (!(o.io_timeout >= 0.1) || o.io_timeout > 600) {
    throw std::invalid_argument("--io-timeout must be in [0.1, 600] seconds");
  }
  if (o.port < 0 || o.port > 65535) throw std::invalid_argument("--port must be in 0..65535");
  httplib::Server& s = impl_->server;
  const int threads = o.threads;
  s.new_task_queue = [threads] {
    return new httplib::ThreadPool(static_cast<std::size_t>(threads));
  };
  s.set_payload_max_length(o.max_body);
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which lets a second server
  // bind a port already in use and silently share its traffic.
  s.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  const auto sec = static_cast<time_t>(o.io_timeout);
  const auto usec = static_cast<time_t>((o.io_timeout - static_cast<double>(sec)) * 1e6);
  s.set_read_timeout(sec, usec);
  s.set_write_timeout(sec, usec);
  s.set_keep_alive_timeout(5);
  // Runs after the headers and before the body is read: a body that would be refused for its
  // size, or whose length is ambiguous, is never read; the connection closes after the answer.
  const std::size_t max_body = o.max_body;
  s.set_pre_routing_handler([max_body](const httplib::Request& req, httplib::Response& res) {
    auto refuse = [&res](int status, const char* message) {
      Impl::send_error(res, status, message, "invalid_request_error");
      res.set_header("Connection", "close");
      return httplib::Server::HandlerResponse::Handled;
    };
    const std::size_t lengths = req.get_header_value_count("Content-Length");
    if (lengths == 0) return httplib::Server::HandlerResponse::Unhandled;
    const std::string first = req.get_header_value("Content-Length", 0);
    for (std::size_t i = 1; i < lengths; ++i) {
      if (req.get_header_value("Content-Length", i) != first)
        return refuse(400, "conflicting Content-Length headers");
    }
    if (first.empty() || first.size() > 19 ||
        first.find_first_not_of("0123456789") != std::string::npos)
      return refuse(400, "bad Content-Length");
    if (std::stoull(first) > max_body) return refuse(413, "request body too large");
    return httplib::Server::HandlerResponse::Unhandled;
  });
  Impl* impl = impl_.get();
  // A known route asked with another method: 405 with the method it takes.
  auto wrong_method = [](const char* allow) {
    return [allow](const httplib::Request& req, httplib::Response& res) {
      Impl::send_error(res, 405, req.method + " is not allowed here; use " + allow,
                       "invalid_request_error");
      res.set_header("Allow", allow);
    };
  };
  for (const char* path : {"/v1/completions", "/v1/chat/completions"}) {
    s.Get(path, wrong_method("POST"));
    s.Put(path, wrong_method("POST"));
    s.Patch(path, wrong_method("POST"));
    s.Delete(path, wrong_method("POST"));
  }
  for (const char* path : {"/v1/models", "/health"}) {
    s.Post(path, wrong_method("GET"));
    s.Put(path, wrong_method("GET"));
    s.Patch(path, wrong_method("GET"));
    s.Delete(path, wrong_method("GET"));
  }
  s.Post("/v1/completions", [impl](const httplib::Request& req, httplib::Response& res) {
    impl->complete(Api::kCompletions, req, res);
  });
  s.Post("/v1/chat/completions", [impl](const httplib::Request& req, httplib::Response& res) {
    impl->complete(Api::kChat, req, res);
  });
  s.Get("/v1/models", [impl](const httplib::Request&, httplib::Response& res) {
    nlohmann::json data = nlohmann::json::array();
    for (const std::string& m : impl->completer.models()) {
      data.push_back({{"id", m}, {"object", "model"}, {"owned_by", "posbias"}});
    }
    res.set_content(nlohmann::json{{"object", "list"}, {"data", data}}.dump(), "application/json");
  });
  s.Get("/health", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"status":"ok"})", "application/json");
  });
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        Impl::send_error(res, 500, what, "server_error");
      });
  // Every other error (404 route, 413 body, 400 from the HTTP parser) gets a JSON body too.
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string reason = res.status == 413   ? "request body too large"
                               : res.status == 404 ? "no such route"
                                                   : "bad request";
    res.set_content(error_body(reason, "invalid_request_error"), "application/json");
  });
}

OpenAiServer::~OpenAiServer() { stop(); }

int OpenAiServer::bind() {
  const ServerOptions& o = impl_->options;
  int port = o.port;
  if (port == 0) {
    port = impl_->server.bind_to_any_port(o.host);
    if (port < 0) throw std::runtime_error("cannot bind " + o.host + " to any port");
  } else if (!impl_->server.bind_to_port(o.host, port)) {
    throw std::runtime_error("cannot bind " + o.host + ":" + std::to_string(port) +
                             " (in use, or not an address of this machine)");
  }
  return port;
}

void OpenAiServer::run() {
  // httplib's stop() is lost when it comes before listening starts, so a watcher repeats it
  // until the listen loop has returned.
  std::atomic<bool> returned{false};
  std::thread watcher([this, &returned] {
    while (!returned.load()) {
      if (impl_->stop_requested.load()) impl_->server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  if (!impl_->stop_requested.load()) impl_->server.listen_after_bind();
  returned.store(true);
  watcher.join();
}

void OpenAiServer::stop() {
  if (!impl_) return;
  impl_->stop_requested.store(true);
  impl_->server.stop();
}

std::int64_t OpenAiServer::requests_served() const { return impl_->served.load(); }

}  // namespace posbias
