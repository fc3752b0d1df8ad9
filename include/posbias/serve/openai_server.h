// An OpenAI-compatible HTTP server (cpp-httplib) in front of any completion backend:
// POST /v1/completions and /v1/chat/completions, GET /v1/models and /health.
//
// Bad requests get a 4xx with an OpenAI-style error body and the server stays up: bodies over
// the size limit 413 (from the Content-Length header, before a byte of the body is read; a
// chunked or compressed body when it passes the limit), conflicting Content-Length headers,
// Content-Length with Transfer-Encoding, or a coding other than chunked 400, malformed JSON
// or fields 400, a multipart body 415 (any other content type is read as JSON), a wrong
// method on a known route 405, an unknown route or model 404, a backend busy past the
// timeout 503. An answer to a request whose body was not read, or whose framing was refused,
// closes the connection right after it is written.
//
// Bursts: the listening socket's backlog is SOMAXCONN (httplib's own is 5), and accepted
// connections wait in the thread pool's queue, so a burst is queued, never reset.
//
// Slow clients: each connection holds one of `threads` connection threads (default 256, so a
// few dozen clients that send nothing hold no thread /health needs), and every socket read or
// write gives up after io_timeout seconds without progress.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/llm/openai.h"

namespace posbias {

struct Completion {
  std::string model, text;
  std::int64_t prompt_tokens = 0, completion_tokens = 0;
};

// The backend. complete() is called from many threads at once. It throws
// std::invalid_argument for a prompt the model cannot read (400), UnknownModel (404) or
// BackendBusy (503).
class Completer {
 public:
  virtual ~Completer() = default;
  virtual std::vector<std::string> models() const = 0;
  virtual Completion complete(const CompletionRequest& request) = 0;
};

struct UnknownModel : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct BackendBusy : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8000;                  // 0 = any free port
  std::size_t max_body = 1u << 20;  // bytes
  double timeout = 30;              // seconds a request waits for the model (then 503)
  double io_timeout = 5;            // seconds a socket read or write may make no progress
  int threads = 256;                // connection threads
};

class OpenAiServer {
 public:
  OpenAiServer(Completer& completer, ServerOptions options);
  ~OpenAiServer();
  OpenAiServer(const OpenAiServer&) = delete;
  OpenAiServer& operator=(const OpenAiServer&) = delete;

  // Binds the socket and returns the port. Throws std::runtime_error when it cannot.
  int bind();
  // Serves until stop(). Call bind() first.
  void run();
  // From any thread, at any time: before run() starts, run() returns at once.
  void stop();
  // After stop(): shuts down (without closing) every connection still open on the server's
  // port, so a client that keeps trickling bytes cannot hold run() past the I/O timeout.
  void cut_connections();
  std::int64_t requests_served() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace posbias
