// The harness's result store: one SQLite table of every prompt, response, latency and score,
// keyed by (suite, model, prompt hash). Each finished request is its own transaction in WAL
// mode, so killing the process at any moment loses at most the requests in flight and never
// corrupts the file. A row that was answered is never replaced; a failed one is replaced when
// a later run answers it. Thread-safe (one connection behind a mutex).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace posbias {

struct ResultRow {
  std::string suite, model, prompt_hash, probe_id;
  int length = 0, hops = 0;
  double depth = 0;
  std::string prompt, answer;
  bool ok = false;       // answered (scored) or failed after its retries
  std::string response;  // the endpoint's text (ok rows)
  std::string error;     // the last error (failed rows)
  long http_status = 0;  // of the last attempt; 0 = no HTTP response
  int attempts = 0;
  double latency_ms = 0;  // of the last attempt
  bool strict = false, lenient = false;
  // The log-probability the model gave its own answer, summed over the completion's tokens
  // (ok rows of a --logprobs run whose endpoint returned them), and the completion's token
  // count (those tokens, else the response's usage.completion_tokens). NULL in the table when
  // empty.
  std::optional<double> logprob;
  std::optional<std::int64_t> completion_tokens;
};

// SHA-256 (hex) of what decides the answer besides the model: the API, max_tokens, the prompt.
std::string prompt_hash(const std::string& api, int max_tokens, const std::string& prompt);

class ResultStore {
 public:
  // Creates the file and table when missing, marked with posbias llm's application id. Throws
  // std::invalid_argument when the path is not a regular file (a device, FIFO, directory or
  // dangling symlink; a symlink is followed), the file is not an SQLite database, is another
  // application's (another application id, or tables besides `results`), is read-only, or
  // holds a `results` table of another shape; a `results` table of an older posbias llm (without
  // the logprob and completion_tokens columns) is upgraded in place, its rows kept, after every
  // check has passed; std::runtime_error when it fails SQLite's integrity
  // check or cannot be opened or written. All of it before any request is sent, and every check
  // before the first write: a refused file is left byte for byte as it was.
  explicit ResultStore(const std::string& path);
  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  // prompt hash -> answered (true) or failed (false), for one suite and model.
  std::unordered_map<std::string, bool> statuses(const std::string& suite,
                                                 const std::string& model);
  void put(const ResultRow& row);
  std::vector<ResultRow> rows(const std::string& suite, const std::string& model);
  std::int64_t count();  // all rows

 private:
  void exec(const char* sql);
  std::string path_;
  sqlite3* db_ = nullptr;
  std::mutex mutex_;
};

}  // namespace posbias
