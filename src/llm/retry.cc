#include "posbias/llm/retry.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace posbias {

bool retriable_status(long status) {
  return status == 0 || status == 408 || status == 409 || status == 429 || status >= 500;
}

double backoff_seconds(const RetryPolicy& policy, int retry, Rng& rng, double retry_after) {
  const double exp = policy.base * std::ldexp(1.0, std::min(std::max(retry, 1) - 1, 60));
  const double jitter = 0.5 + 0.5 * rng.unit();
  double wait = std::min(policy.cap, exp) * jitter;
  if (retry_after >= 0) wait = std::max(wait, retry_after);
  return std::min(wait, policy.cap);
}

void RateLimiter::acquire() {
  if (!(rps_ > 0)) return;
  std::chrono::steady_clock::time_point slot;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    slot = std::max(now, next_);
    next_ = slot + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(1.0 / rps_));
  }
  std::this_thread::sleep_until(slot);
}

}  // namespace posbias
