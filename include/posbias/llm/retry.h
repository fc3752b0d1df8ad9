// When and how long the harness waits: retries with exponential backoff and jitter, and a
// request rate limit shared by all workers.
#pragma once

#include <chrono>
#include <mutex>

#include "posbias/core/rng.h"

namespace posbias {

struct RetryPolicy {
  int retries = 4;    // attempts after the first
  double base = 1.0;  // seconds before the first retry (before jitter)
  double cap = 30.0;  // longest wait
};

// Transport errors (status 0), 408, 409, 429 and 5xx are worth retrying; other 4xx are not.
bool retriable_status(long status);
// Wait before retry number `retry` (1-based): min(cap, base·2^(retry-1)), scaled by a uniform
// draw in [0.5, 1] (jitter, so workers that failed together do not retry together). A server's
// Retry-After (seconds, >= 0, however large) raises the wait, still at most `cap`: a prompt
// waits at most retries × cap in all.
double backoff_seconds(const RetryPolicy& policy, int retry, Rng& rng, double retry_after = -1);

// At most `rps` requests per second over all threads (0 = no limit): each acquire() takes the
// next free slot of a 1/rps grid and sleeps until it.
class RateLimiter {
 public:
  explicit RateLimiter(double rps) : rps_(rps) {}
  void acquire();

 private:
  double rps_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point next_{};
};

}  // namespace posbias
