#include "posbias/core/progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace posbias {
namespace {
constexpr double kQuietSeconds = 1.5;  // never draw for work shorter than this
}

Progress::Progress(std::string label, std::int64_t total, std::int64_t already_done)
    : label_(std::move(label)),
      total_(total > 0 ? total : 1),
      already_done_(already_done < total ? already_done : 0),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_),
      tty_(isatty(2) != 0) {}

Progress::~Progress() { finish(); }

void Progress::update(std::int64_t done) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < kQuietSeconds) return;
  const double frac = static_cast<double>(done) / static_cast<double>(total_);
  // ETA from this session's pace (a resumed run has `already_done` work behind it).
  const double session = static_cast<double>(done - already_done_);
  const double eta = session > 0 ? elapsed * static_cast<double>(total_ - done) / session : 0.0;
  if (tty_) {
    if (std::chrono::duration<double>(now - last_draw_).count() < 0.2) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(frac * kWidth);
    std::fprintf(stderr, "\r%s [%.*s%*s] %5.1f%%  %.1fs elapsed, ETA %.1fs%s%s\033[K",
                 label_.c_str(), filled, "##############################", kWidth - filled, "",
                 100 * frac, elapsed, eta, status_.empty() ? "" : "  ", status_.c_str());
  } else {
    const int decile = static_cast<int>(frac * 10);
    if (decile == last_decile_) return;
    last_decile_ = decile;
    std::fprintf(stderr, "%s: %3.0f%%  %.1fs elapsed, ETA %.1fs%s%s\n", label_.c_str(), 100 * frac,
                 elapsed, eta, status_.empty() ? "" : "  ", status_.c_str());
  }
  std::fflush(stderr);
  last_draw_ = now;
  drawn_ = true;
}

void Progress::set_status(std::string status) { status_ = std::move(status); }

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (drawn_) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "%s%s: done in %.1fs\n", tty_ ? "\r\033[K" : "", label_.c_str(), elapsed);
  }
}

}  // namespace posbias
