#include "posbias/serve/openai_server.h"

#include <dirent.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

namespace posbias {

namespace {

// The routes and the method each takes; HEAD is answered wherever GET is.
struct Route {
  const char* path;
  const char* method;
};
constexpr Route kRoutes[] = {{"/v1/completions", "POST"},
                             {"/v1/chat/completions", "POST"},
                             {"/v1/models", "GET"},
                             {"/health", "GET"}};

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trimmed(const std::string& s) {
  const std::size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") + 1 - begin);
}

// An OpenAI-style error answer. With close_connection the answer ends the connection: a body
// left unread, or framing we refused, would otherwise be read as the next request. httplib
// keeps a connection open after any answer whose write succeeded (a "Connection: close"
// header on the response alone changes nothing), so the body goes out through a content
// provider that writes all of it and then reports failure, which makes httplib close the
// socket at once instead of waiting out the keep-alive timeout.
void send_error(httplib::Response& res, int status, const std::string& message,
                const std::string& type, bool close_connection = false) {
  res.status = status;
  if (!close_connection) {
    res.set_content(error_body(message, type), "application/json");
    return;
  }
  res.set_header("Connection", "close");
  auto body = std::make_shared<const std::string>(error_body(message, type));
  res.set_content_provider(body->size(), "application/json",
                           [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             if (offset < body->size())
                               sink.write(body->data() + offset,
                                          std::min(length, body->size() - offset));
                             return false;
                           });
}

// Everything decided from the request line and headers, before a byte of body is read:
// framing (RFC 9112 section 6), size, route, method and content type. Returns true when it
// has answered the request itself.
bool screen(const httplib::Request& req, httplib::Response& res, std::size_t max_body) {
  const std::size_t lengths = req.get_header_value_count("Content-Length");
  const std::size_t codings = req.get_header_value_count("Transfer-Encoding");
  const bool chunked = codings > 0;
  auto refuse = [&res](int status, const std::string& message) {
    send_error(res, status, message, "invalid_request_error", /*close_connection=*/true);
    return true;
  };
  // Both framings at once is how requests are smuggled past a proxy: refused, never guessed.
  if (chunked && lengths > 0) {
    return refuse(400,
                  "a request may not carry both Content-Length and Transfer-Encoding; "
                  "send one of them");
  }
  if (chunked) {
    const std::string coding = trimmed(req.get_header_value("Transfer-Encoding"));
    if (codings > 1 || lowercase(coding) != "chunked") {
      return refuse(400, "Transfer-Encoding '" + coding.substr(0, 40) +
                             "' is not supported; send Content-Length or chunked alone");
    }
  }
  std::uint64_t length = 0;
  if (lengths > 0) {
    const std::string first = req.get_header_value("Content-Length", 0);
    for (std::size_t i = 1; i < lengths; ++i) {
      if (req.get_header_value("Content-Length", i) != first)
        return refuse(400, "conflicting Content-Length headers");
    }
    if (first.empty() || first.size() > 19 ||
        first.find_first_not_of("0123456789") != std::string::npos)
      return refuse(400, "bad Content-Length");
    length = std::stoull(first);
    if (length > max_body) return refuse(413, "request body too large");
  }
  const bool has_body = chunked || length > 0;
  const Route* route = nullptr;
  for (const Route& r : kRoutes) {
    if (req.path == r.path) route = &r;
  }
  if (route == nullptr) {
    send_error(res, 404, "no such route", "invalid_request_error", has_body);
    return true;
  }
  const bool get = std::string(route->method) == "GET";
  if (req.method != route->method && !(get && req.method == "HEAD")) {
    send_error(res, 405, req.method + " is not allowed here; use " + route->method,
               "invalid_request_error", has_body);
    res.set_header("Allow", route->method);
    return true;
  }
  // RFC 9110 section 9.3.1: a body on a GET may be refused for its potential in request
  // smuggling; it would otherwise be read as the next request.
  if (get && has_body) return refuse(400, "a " + req.method + " request carries no body");
  // Any other content type is read as JSON, as OpenAI's API does (curl -d sends a form
  // type); httplib would parse a multipart body itself.
  const std::string type = lowercase(req.get_header_value("Content-Type"));
  if (type.rfind("multipart/", 0) == 0) {
    return refuse(415, "Content-Type " + type.substr(0, 40) +
                           " is not supported; send the body as application/json");
  }
  return false;
}

}  // namespace

struct OpenAiServer::Impl {
  Completer& completer;
  ServerOptions options;
  httplib::Server server;
  std::atomic<std::int64_t> served{0}, next_id{0};
  std::atomic<bool> stop_requested{false};
  int listen_socket = -1;  // the socket httplib binds (seen by its socket-options hook)
  int port = -1;           // its port, once bound (stop() closes the socket)

  Impl(Completer& c, ServerOptions o) : completer(c), options(std::move(o)) {}

  // Reads the body through `reader`, at most options.max_body bytes after any decoding.
  // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 section 6.3).
  void complete(Api api, const httplib::Request& req, httplib::Response& res,
                const httplib::ContentReader& reader) {
    std::string body;
    if (req.has_header("Content-Length") || req.has_header("Transfer-Encoding")) {
      bool too_big = false;
      const std::size_t max_body = options.max_body;
      const bool read = reader([&](const char* data, std::size_t n) {
        if (n > max_body - body.size()) {
          too_big = true;
          return false;
        }
        body.append(data, n);
        return true;
      });
      if (too_big) {
        return send_error(res, 413, "request body too large", "invalid_request_error", true);
      }
      if (!read) {
        return send_error(res, 400, "the request body is cut short or badly framed",
                          "invalid_request_error", true);
      }
    }
    CompletionRequest request;
    try {
      request = parse_request(api, body);
    } catch (const std::invalid_argument& e) {
      return send_error(res, 400, e.what(), "invalid_request_error");
    }
    try {
      Completion c = completer.complete(request);
      cut_at_stop(c.text, request.stop);  // a backend that decodes one token ignores stop
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
  Impl* impl = impl_.get();
  const int threads = o.threads;
  // Connections wait in the pool's queue (unbounded) for a thread, never refused.
  s.new_task_queue = [threads] {
    return new httplib::ThreadPool(static_cast<std::size_t>(threads));
  };
  s.set_payload_max_length(o.max_body);
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which lets a second server
  // bind a port already in use and silently share its traffic.
  s.set_socket_options([impl](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    impl->listen_socket = sock;
  });
  const auto sec = static_cast<time_t>(o.io_timeout);
  const auto usec = static_cast<time_t>((o.io_timeout - static_cast<double>(sec)) * 1e6);
  s.set_read_timeout(sec, usec);
  s.set_write_timeout(sec, usec);
  s.set_keep_alive_timeout(5);
  // Runs after the headers and before the body is read: a body that would be refused for its
  // size, or whose framing is ambiguous, is never read, and the connection closes after the
  // answer. A client that sent "Expect: 100-continue" gets the refusal instead of the 100.
  const std::size_t max_body = o.max_body;
  s.set_pre_routing_handler([max_body](const httplib::Request& req, httplib::Response& res) {
    return screen(req, res, max_body) ? httplib::Server::HandlerResponse::Handled
                                      : httplib::Server::HandlerResponse::Unhandled;
  });
  s.set_expect_100_continue_handler(
      [max_body](const httplib::Request& req, httplib::Response& res) {
        return screen(req, res, max_body) ? res.status : 100;
      });
  // A response that closes the connection does not also announce keep-alive.
  s.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.get_header_value("Connection") == "close") res.headers.erase("Keep-Alive");
  });
  // The bodies are read by the handlers themselves (bounded by max_body after decoding):
  // httplib's own reading caps form-typed bodies at 8 KiB with a wrong 413 and bounds no
  // chunked body at all.
  s.Post("/v1/completions", [impl](const httplib::Request& req, httplib::Response& res,
                                   const httplib::ContentReader& reader) {
    impl->complete(Api::kCompletions, req, res, reader);
  });
  s.Post("/v1/chat/completions", [impl](const httplib::Request& req, httplib::Response& res,
                                        const httplib::ContentReader& reader) {
    impl->complete(Api::kChat, req, res, reader);
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
        send_error(res, 500, what, "server_error");
      });
  // Every error httplib answers itself (a request line or header it cannot parse, a URI too
  // long) gets a JSON body too, and ends the connection: what follows is not a request.
  s.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty() || res.content_provider_) return;
    const std::string reason = res.status == 413   ? "request body too large"
                               : res.status == 414 ? "request URI too long"
                               : res.status == 404 ? "no such route"
                                                   : "bad request";
    send_error(res, res.status, reason, "invalid_request_error", /*close_connection=*/true);
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
  // httplib listens with a backlog of 5, so a burst of connections overflowed the kernel's
  // accept queue and some were dropped or reset. Listening again on the same socket only
  // raises the backlog (to the kernel's net.core.somaxconn at most).
  if (impl_->listen_socket < 0 || ::listen(impl_->listen_socket, SOMAXCONN) != 0) {
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(port) + ": " +
                             std::strerror(errno));
  }
  impl_->port = port;
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

namespace {

// The port of an IPv4 or IPv6 socket address, or -1.
int port_of(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET)
    return ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port);
  if (address.ss_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port);
  return -1;
}

// The local port of a connected socket, or -1 for anything else (a listening socket, a file).
int connected_port(int fd) {
  struct stat st {};
  sockaddr_storage local{}, peer{};
  socklen_t local_size = sizeof local, peer_size = sizeof peer;
  if (::fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &local_size) != 0 ||
      ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0)
    return -1;
  return port_of(local);
}

}  // namespace

// httplib keeps no list of its connections, so they are found among this process's descriptors:
// connected sockets on the port bind() took (a connection accepted on a wildcard address
// has a specific local address, so only the port is compared). shutdown() wakes the thread
// blocked on each; httplib still closes the descriptor itself, so none is reused under it.
void OpenAiServer::cut_connections() {
  const int port = impl_->port;
  DIR* fds = port < 0 ? nullptr : ::opendir("/proc/self/fd");
  if (fds == nullptr) return;
  while (const dirent* entry = ::readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name || fd > INT_MAX) continue;
    if (connected_port(static_cast<int>(fd)) == port) ::shutdown(static_cast<int>(fd), SHUT_RDWR);
  }
  ::closedir(fds);
}

std::int64_t OpenAiServer::requests_served() const { return impl_->served.load(); }

}  // namespace posbias
