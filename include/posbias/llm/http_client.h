// HTTP for the LLM harness, through libcurl: JSON POSTs with a total timeout and a bounded
// response size, URL checks, and a reachability check before a run starts. One HttpClient
// per thread (it keeps its connection alive between requests).
#pragma once

#include <string>
#include <vector>

namespace posbias {

struct HttpResponse {
  long status = 0;  // HTTP status; 0 when no response arrived (see error)
  std::string body;
  std::string error;        // transport error (connection refused, timeout, ...), else empty
  double retry_after = -1;  // seconds from a Retry-After header; -1 when absent
  double seconds = 0;       // wall time of the request
};

constexpr std::size_t kMaxResponseBytes = 16u << 20;

// Throws std::invalid_argument unless `url` is an http:// or https:// URL with a host.
void validate_url(const std::string& url);
// The URL as messages may show it: credentials ("user:key@") and the query string, where keys
// also travel, become "***".
std::string redacted_url(const std::string& url);
// Opens (and closes) a connection to the URL's host and port. Throws std::runtime_error
// "cannot reach URL: reason" when that fails within timeout_seconds.
void check_reachable(const std::string& url, double timeout_seconds);

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // headers: "Name: value" lines besides Content-Type: application/json. Never throws for
  // network trouble: it is reported in the response.
  HttpResponse post_json(const std::string& url, const std::string& body,
                         const std::vector<std::string>& headers, double timeout_seconds);

 private:
  void* curl_;  // CURL*
};

}  // namespace posbias
