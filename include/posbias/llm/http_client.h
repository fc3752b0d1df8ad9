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
  double retry_after = -1;  // seconds from a Retry-After header (any size); -1 when absent
  double seconds = 0;       // wall time of the request
};

constexpr std::size_t kMaxResponseBytes = 16u << 20;

// Throws std::invalid_argument unless `url` is an http:// or https:// URL with a host.
void validate_url(const std::string& url);
// The URL as messages may show it: credentials ("user:key@") and the query string, where keys
// also travel, become "***".
std::string redacted_url(const std::string& url);
// Throws std::invalid_argument "WHAT holds a control character ..." when `value` has a byte
// below 0x20 or 0x7f: CR or LF in a header value would start a header of the sender's
// choosing. The message never shows the value (it may be a key).
void check_header_value(const std::string& what, const std::string& value);
// Opens (and closes) a connection to the URL's host and port. Throws std::runtime_error
// "cannot reach URL: reason" when that fails within timeout_seconds.
void check_reachable(const std::string& url, double timeout_seconds);

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // headers: "Name: value" lines besides Content-Type: application/json; one with a control
  // character throws std::invalid_argument (check_header_value). Never throws for network
  // trouble: it is reported in the response.
  HttpResponse post_json(const std::string& url, const std::string& body,
                         const std::vector<std::string>& headers, double timeout_seconds);

 private:
  void* curl_;  // CURL*
};

}  // namespace posbias
