#include "posbias/llm/http_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <stdexcept>

namespace posbias {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Sink {
  std::string* body;
  bool too_big = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  const std::size_t bytes = size * n;
  if (sink->body->size() + bytes > kMaxResponseBytes) {
    sink->too_big = true;
    return 0;  // aborts the transfer
  }
  sink->body->append(data, bytes);
  return bytes;
}

// Retry-After is delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). Any delay is kept,
// however long: the caller caps the wait and says so, rather than ignoring a server that asked
// for a long pause.
std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  const std::size_t bytes = size * n;
  std::string line(data, bytes);
  std::string lower = line;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.rfind("retry-after:", 0) == 0) {
    const std::size_t begin = line.find_first_not_of(" \t", 12);
    const std::size_t end = line.find_last_not_of(" \t\r\n");
    const std::string value =
        begin == std::string::npos || end < begin ? "" : line.substr(begin, end + 1 - begin);
    double seconds = -1;
    if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
      seconds = value.size() > 15 ? 1e15 : std::stod(value);
    } else if (!value.empty()) {
      const std::time_t at = curl_getdate(value.c_str(), nullptr);
      if (at != -1) seconds = std::max(0.0, std::difftime(at, std::time(nullptr)));
    }
    if (seconds >= 0) *static_cast<double*>(user) = seconds;
  }
  return bytes;
}

}  // namespace

void check_header_value(const std::string& what, const std::string& value) {
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", c);
      throw std::invalid_argument(what + " holds a control character (" + code + ") at byte " +
                                  std::to_string(i + 1) +
                                  "; it would end the HTTP header early. Set it without CR, "
                                  "LF or other control characters");
    }
  }
}

void validate_url(const std::string& url) {
  global_init();
  CURLU* u = curl_url();
  if (u == nullptr) throw std::runtime_error("out of memory parsing a URL");
  const CURLUcode rc = curl_url_set(u, CURLUPART_URL, url.c_str(), 0);
  char* scheme = nullptr;
  char* host = nullptr;
  bool ok = rc == CURLUE_OK && curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
            curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK;
  const std::string s = scheme ? scheme : "";
  ok = ok && (s == "http" || s == "https") && host != nullptr && host[0] != '\0';
  curl_free(scheme);
  curl_free(host);
  curl_url_cleanup(u);
  if (!ok || url.find_first_of(" \t\r\n") != std::string::npos) {
    throw std::invalid_argument("--endpoint '" + redacted_url(url) +
                                "' is not an http:// or https:// URL");
  }
}

std::string redacted_url(const std::string& url) {
  std::string out = url;
  const std::size_t scheme = out.find("://");
  const std::size_t authority = scheme == std::string::npos ? 0 : scheme + 3;
  const std::size_t path = out.find_first_of("/?#", authority);
  const std::size_t at = out.rfind('@', path == std::string::npos ? out.size() : path);
  if (at != std::string::npos && at >= authority) out.replace(authority, at - authority, "***");
  const std::size_t query = out.find('?', authority);
  if (query != std::string::npos) out.replace(query + 1, std::string::npos, "***");
  return out;
}

void check_reachable(const std::string& url, double timeout_seconds) {
  global_init();
  CURL* c = curl_easy_init();
  if (c == nullptr) throw std::runtime_error("cannot start libcurl");
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_CONNECT_ONLY, 1L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_seconds * 1000));
  const CURLcode rc = curl_easy_perform(c);
  curl_easy_cleanup(c);
  if (rc != CURLE_OK) {
    throw std::runtime_error("cannot reach " + redacted_url(url) + ": " + curl_easy_strerror(rc));
  }
}

HttpClient::HttpClient() {
  global_init();
  curl_ = curl_easy_init();
  if (curl_ == nullptr) throw std::runtime_error("cannot start libcurl");
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

HttpResponse HttpClient::post_json(const std::string& url, const std::string& body,
                                   const std::vector<std::string>& headers,
                                   double timeout_seconds) {
  CURL* c = static_cast<CURL*>(curl_);
  HttpResponse r;
  Sink sink{&r.body};
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  for (const std::string& h : headers) {
    const std::size_t colon = h.find(':');
    check_header_value("the " + h.substr(0, std::min<std::size_t>(colon, 40)) + " header", h);
  }
  for (const std::string& h : headers) list = curl_slist_append(list, h.c_str());
  const long ms = std::max(1L, static_cast<long>(timeout_seconds * 1000));
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, std::min(ms, 10000L));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &r.retry_after);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  const auto t0 = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(c);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  curl_slist_free_all(list);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
  if (rc != CURLE_OK) {
    r.error = sink.too_big ? "response larger than 16 MiB" : curl_easy_strerror(rc);
    r.status = 0;
    return r;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  return r;
}

}  // namespace posbias
