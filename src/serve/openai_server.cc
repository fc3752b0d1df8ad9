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
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string_view>
#include <thread>

#include "posbias/core/flag_rows.h"

namespace posbias {

namespace {

// The routes and the method each takes; HEAD is answered wherever GET is.
struct Route {
  const char* path;
  const char* method;
};
// A path ending in '/' is a prefix: it takes one more segment (a model's id).
constexpr Route kRoutes[] = {{"/v1/completions", "POST"},
                             {"/v1/chat/completions", "POST"},
                             {"/v1/models", "GET"},
                             {"/v1/models/", "GET"},
                             {"/health", "GET"}};

bool route_matches(const Route& route, const std::string& path) {
  const std::string_view p = route.path;
  if (p.back() != '/') return path == p;
  return path.size() > p.size() && path.compare(0, p.size(), p) == 0 &&
         path.find('/', p.size()) == std::string::npos;
}

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
struct ErrorInfo {
  int status;
  std::string message, type, param, code;
};

void send_error(httplib::Response& res, const ErrorInfo& e, bool close_connection = false) {
  res.status = e.status;
  const std::string text = error_body(e.message, e.type, e.param, e.code);
  if (!close_connection) {
    res.set_content(text, "application/json");
    return;
  }
  res.set_header("Connection", "close");
  auto body = std::make_shared<const std::string>(text);
  res.set_content_provider(body->size(), "application/json",
                           [body](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             if (offset < body->size())
                               sink.write(body->data() + offset,
                                          std::min(length, body->size() - offset));
                             return false;
                           });
}

void send_error(httplib::Response& res, int status, const std::string& message,
                const std::string& type, bool close_connection = false) {
  send_error(res, {status, message, type, "", ""}, close_connection);
}

// The answer to an exception a request raised: a RequestError's field, a model the server does
// not have, a busy backend (with Retry-After), any other bad input.
ErrorInfo error_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const RequestError& e) {
    return {400, e.what(), "invalid_request_error", e.param, e.code};
  } catch (const std::invalid_argument& e) {
    return {400, e.what(), "invalid_request_error", "", ""};
  } catch (const UnknownModel& e) {
    return {404, e.what(), "invalid_request_error", "model", "model_not_found"};
  } catch (const BackendBusy& e) {
    return {503, e.what(), "server_error", "", "server_busy"};
  } catch (const std::exception& e) {
    return {500, e.what(), "server_error", "", ""};
  } catch (...) {
    return {500, "internal error", "server_error", "", ""};
  }
}

void send_exception(httplib::Response& res, const std::exception_ptr& error) {
  const ErrorInfo e = error_of(error);
  send_error(res, e);
  if (e.status == 503) res.set_header("Retry-After", "1");
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
    if (route_matches(r, req.path)) route = &r;
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

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The events of one streamed answer, passed from the thread that decodes it to the
// connection's thread that writes them.
struct Stream {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::string> events;  // each a whole "data: ...\n\n"
  bool started = false;            // an event was pushed: errors now go into the stream
  bool finished = false;           // the last event is pushed
  std::exception_ptr error;        // a failure before the first event
  std::atomic<bool> cancelled{false};
  std::thread worker;

  ~Stream() {
    cancelled.store(true);
    if (worker.joinable()) worker.join();
  }

  void push(const std::string& data) {
    std::lock_guard<std::mutex> lock(mutex);
    events.push_back("data: " + data + "\n\n");
    started = true;
    changed.notify_all();
  }
  void finish() {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
    changed.notify_all();
  }
};

struct StreamCancelled {};  // the client went away: the decoding stops

nlohmann::json model_object(const std::string& id) {
  return {{"id", id}, {"object", "model"}, {"created", 0}, {"owned_by", "posbias"}};
}

// UnknownModel (404, model_not_found) unless `model` is one of `names`.
void require_served(const std::vector<std::string>& names, const std::string& model) {
  if (std::find(names.begin(), names.end(), model) == names.end()) {
    throw UnknownModel("the model '" + model.substr(0, 100) +
                       "' does not exist; this server serves " + joined(names));
  }
}

}  // namespace

std::size_t stream_sendable(const std::string& text, const std::vector<std::string>& stop) {
  std::size_t keep = text.size();
  for (const std::string& s : stop) {
    for (std::size_t n = std::min(s.size() - 1, text.size()); n > 0; --n) {
      if (text.compare(text.size() - n, n, s, 0, n) == 0) {
        keep = std::min(keep, text.size() - n);
        break;
      }
    }
  }
  // The last character's lead byte, within 3 bytes of the end.
  for (std::size_t back = 1; back <= std::min<std::size_t>(4, keep); ++back) {
    const auto c = static_cast<unsigned char>(text[keep - back]);
    if ((c & 0xC0) == 0x80) continue;  // a continuation byte
    const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (need > back) keep -= back;
    break;
  }
  return keep;
}

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
      resolve(request);
    } catch (...) {
      return send_exception(res, std::current_exception());
    }
    const std::string id =
        (api == Api::kChat ? "chatcmpl-" : "cmpl-") + std::to_string(next_id.fetch_add(1));
    if (request.stream) return stream(api, request, id, res);
    try {
      std::vector<Completion> choices;
      for (int k = 0; k < request.n; ++k)
        choices.push_back(completer.complete(choice(request, k), {}));
      res.set_content(completion_response(api, request, id, choices, request.prompt),
                      "application/json");
      served.fetch_add(1);
    } catch (...) {
      send_exception(res, std::current_exception());
    }
  }

  // The model a request names (empty: the only one served; unknown: 404, never another
  // model's answer), and the seed it samples with.
  void resolve(CompletionRequest& r) const {
    const std::vector<std::string> names = completer.models();
    if (r.model.empty()) {
      if (names.size() != 1)
        throw RequestError("model is required: this server serves " + joined(names), "model");
      r.model = names.front();
    } else {
      require_served(names, r.model);
    }
    if (r.echo && !r.prompt_ids.empty())
      throw RequestError("echo needs a text prompt (a prompt of token ids has no text to echo)",
                         "echo", "unsupported_parameter");
    if (r.temperature > 0 && !r.seed) r.seed = std::random_device{}();
  }

  // Choice k of a request: its own seed.
  static CompletionRequest choice(const CompletionRequest& r, int k) {
    CompletionRequest c = r;
    if (c.seed) *c.seed += static_cast<std::uint64_t>(k);
    return c;
  }

  // Decodes every choice on a thread of its own and sends its events as they come. A failure
  // before the first event is answered as an ordinary error (404, 400, 503); one after it is
  // the stream's last event.
  void stream(Api api, const CompletionRequest& request, const std::string& id,
              httplib::Response& res) {
    auto st = std::make_shared<Stream>();
    st->worker = std::thread(
        [this, api, request, id, raw = st.get()] { decode_stream(api, request, id, *raw); });
    {
      std::unique_lock<std::mutex> lock(st->mutex);
      st->changed.wait(lock, [&] { return st->started || st->finished; });
    }
    if (!st->started) {
      st->worker.join();
      return send_exception(res, st->error);
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [st](std::size_t, httplib::DataSink& sink) {
          std::unique_lock<std::mutex> lock(st->mutex);
          st->changed.wait(lock, [&] { return !st->events.empty() || st->finished; });
          while (!st->events.empty()) {
            const std::string event = std::move(st->events.front());
            st->events.pop_front();
            lock.unlock();
            if (!sink.write(event.data(), event.size())) return false;
            lock.lock();
          }
          if (st->finished) sink.done();
          return true;
        },
        [st](bool) {
          st->cancelled.store(true);
          if (st->worker.joinable()) st->worker.join();
        });
  }

  void decode_stream(Api api, const CompletionRequest& request, const std::string& id, Stream& st) {
    std::int64_t prompt_tokens = 0, completion_tokens = 0;
    try {
      for (int k = 0; k < request.n; ++k) {
        std::string sent;             // the choice's text sent so far
        std::size_t tokens_sent = 0;  // its log-probabilities sent so far
        bool first = true;
        const auto send = [&](const Completion& c, std::size_t upto,
                              std::optional<std::string> finish) {
          StreamDelta d;
          d.index = k;
          d.role = first && api == Api::kChat;
          if (first && request.echo) d.text = request.prompt;
          if (upto > sent.size() && c.text.compare(0, sent.size(), sent) == 0) {
            d.text += c.text.substr(sent.size(), upto - sent.size());
            sent = c.text.substr(0, upto);
          }
          d.logprobs.assign(c.logprobs.begin() + static_cast<std::ptrdiff_t>(tokens_sent),
                            c.logprobs.end());
          tokens_sent = c.logprobs.size();
          d.finish_reason = std::move(finish);
          if (d.text.empty() && d.logprobs.empty() && !d.role && !d.finish_reason) return;
          st.push(stream_chunk(api, request, id, c.model, d));
          first = false;
        };
        const TokenSink on_token = [&](const Completion& so_far) {
          if (st.cancelled.load()) throw StreamCancelled{};
          send(so_far, stream_sendable(so_far.text, request.stop), std::nullopt);
        };
        const Completion c = completer.complete(choice(request, k), on_token);
        send(c, c.text.size(), c.finish_reason);
        prompt_tokens = c.prompt_tokens;
        completion_tokens += c.completion_tokens;
      }
      if (request.include_usage)
        st.push(usage_chunk(api, id, request.model, prompt_tokens, completion_tokens));
      st.push("[DONE]");
      served.fetch_add(1);
    } catch (const StreamCancelled&) {
    } catch (...) {
      // Only this thread writes `started`, so it reads it without the lock.
      if (st.started) {
        const ErrorInfo e = error_of(std::current_exception());
        st.push(error_body(e.message, e.type, e.param, e.code));
      } else {
        std::lock_guard<std::mutex> lock(st.mutex);
        st.error = std::current_exception();
      }
    }
    st.finish();
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
    for (const std::string& m : impl->completer.models()) data.push_back(model_object(m));
    res.set_content(nlohmann::json{{"object", "list"}, {"data", data}}.dump(), "application/json");
  });
  s.Get(R"(/v1/models/([^/]+))", [impl](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.matches[1];
    try {
      require_served(impl->completer.models(), id);
    } catch (const UnknownModel&) {
      return send_exception(res, std::current_exception());
    }
    res.set_content(model_object(id).dump(), "application/json");
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

const std::vector<FieldRow<ServerOptions>>& server_option_fields() {
  using O = ServerOptions;
  static const std::vector<FieldRow<O>> rows = {
      field("host", &O::host, "address to bind", "ADDRESS"),
      integer_field("port", &O::port, "port, 0 = any free port", 0, 65535),
      integer_field("max_body", &O::max_body, "largest request body, bytes", 1024,
                    std::int64_t{1} << 30),
      field("timeout", &O::timeout, "seconds a request may wait for the model (then 503)"),
      field("io_timeout", &O::io_timeout,
            "seconds a socket read or write may make no progress; also the longest a stop "
            "waits for open connections"),
      integer_field("threads", &O::threads,
                    "connection threads: each open connection, a slow one included, holds one", 1,
                    1024),
  };
  return rows;
}

}  // namespace posbias
