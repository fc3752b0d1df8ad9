// An OpenAI-compatible HTTP server (cpp-httplib) in front of any completion backend:
// POST /v1/completions and /v1/chat/completions (answered whole, or streamed as server-sent
// events with stream: true), GET /v1/models, /v1/models/{id} and /health. Requests are read
// as openai_request.h says; n choices are decoded one after another (choice k with seed + k;
// without a seed, sampling draws one per request).
//
// Every error answer has OpenAI's body {"error": {"message", "type", "param", "code"}}.
// Bad requests get a 4xx with an OpenAI-style error body and the server stays up: bodies over
// the size limit 413 (from the Content-Length header, before a byte of the body is read; a
// chunked or compressed body when it passes the limit), conflicting Content-Length headers,
// Content-Length with Transfer-Encoding, or a coding other than chunked 400, malformed JSON
// or fields 400 (param names the field; an option serve does not implement has code
// unsupported_parameter), a multipart body 415 (any other content type is read as JSON), a
// wrong method on a known route 405, an unknown route 404, a model the server does not serve
// 404 with code model_not_found (never another model's answer), a backend busy past the
// timeout 503 with Retry-After. An error after a stream has started is sent as a last event
// {"error": {...}} before the stream ends. An answer to a request whose body was not read, or whose
// framing was refused, closes the connection right after it is written.
//
// Bursts: the listening socket's backlog is SOMAXCONN (httplib's own is 5), and accepted
// connections wait in the thread pool's queue, so a burst is queued, never reset.
//
// Slow clients: each connection holds one of `threads` connection threads (default 256, so a
// few dozen clients that send nothing hold no thread /health needs), and every socket read or
// write gives up after io_timeout seconds without progress.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "posbias/core/field_table.h"
#include "posbias/llm/openai_response.h"

namespace posbias {

// Called after each decoded token with the choice so far (its text cut at a stop string).
using TokenSink = std::function<void(const Completion& so_far)>;

// The backend. complete() is called from many threads at once, with a request whose model is
// one of models() and whose seed is set when it samples. It throws std::invalid_argument for a
// prompt the model cannot read (400), UnknownModel (404) or BackendBusy (503). on_token (may
// be empty) is called after every decoded token; an exception it throws ends the decoding.
class Completer {
 public:
  virtual ~Completer() = default;
  virtual std::vector<std::string> models() const = 0;
  virtual Completion complete(const CompletionRequest& request, const TokenSink& on_token) = 0;
};

// How much of a streamed choice's text may be sent now: all of it but a tail that could begin
// one of the stop strings (it would be cut if the string completes) or an unfinished UTF-8
// character (its next bytes are still to come).
std::size_t stream_sendable(const std::string& text, const std::vector<std::string>& stop);

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
// The server's options as one field table (core/field_table.h), in the order `posbias serve
// --help` lists them: its flags with their help, type, default and range come from it.
const std::vector<FieldRow<ServerOptions>>& server_option_fields();

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
