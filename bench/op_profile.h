// A per-op profile for the benchmarks: while an OpProfile lives, every function libtorch records
// (ATen ops, autograd nodes as "autograd::engine::evaluate_function: XBackward0", custom
// autograd Functions, RECORD_FUNCTION scopes of posbias's own kernels) adds its wall time to a
// row of its name on the thread that ran it: total (with the functions it called) and self
// (without them). Self times of all rows plus the time outside any recorded function add up to
// the wall time of what ran. Each row also names its outermost recorded function (`scope`: a
// RECORD_USER_SCOPE around a phase, say), so one function is counted per phase. The callbacks cost
// ~0.2 µs a function; nothing is recorded when no OpProfile lives.
#pragma once

#include <ATen/record_function.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace posbias::bench {

class OpProfile {
 public:
  struct Row {
    std::string scope, name;     // the outermost recorded function around it (itself if none)
    double self = 0, total = 0;  // seconds
    std::int64_t calls = 0;
  };

  OpProfile() {
    handle_ = at::addGlobalCallback(
        at::RecordFunctionCallback(&OpProfile::enter, &OpProfile::leave).needsInputs(false));
  }
  ~OpProfile() { at::removeCallback(handle_); }
  OpProfile(const OpProfile&) = delete;
  OpProfile& operator=(const OpProfile&) = delete;

  // The rows recorded so far, largest self time first; clear() starts over.
  static std::vector<Row> rows() {
    const std::lock_guard<std::mutex> lock(state().mutex);
    std::vector<Row> out;
    for (const auto& [name, row] : state().rows) out.push_back(row);
    std::sort(out.begin(), out.end(), [](const Row& a, const Row& b) { return a.self > b.self; });
    return out;
  }
  // Wall time inside outermost recorded functions (of every thread) since clear().
  static double recorded_seconds() {
    const std::lock_guard<std::mutex> lock(state().mutex);
    return state().outermost;
  }
  static void clear() {
    const std::lock_guard<std::mutex> lock(state().mutex);
    state().rows.clear();
    state().outermost = 0;
  }

 private:
  using Clock = std::chrono::steady_clock;
  struct Frame {
    Clock::time_point start;
    double children = 0;
    std::string name;
  };
  struct State {
    std::mutex mutex;
    std::map<std::string, Row> rows;  // by scope and name
    double outermost = 0;
  };
  static State& state() {
    static State s;
    return s;
  }
  static std::vector<Frame>& stack() {
    thread_local std::vector<Frame> frames;
    return frames;
  }

  static std::unique_ptr<at::ObserverContext> enter(const at::RecordFunction& fn) {
    stack().push_back({Clock::now(), 0, fn.name()});
    return nullptr;
  }
  static void leave(const at::RecordFunction&, at::ObserverContext*) {
    auto& frames = stack();
    if (frames.empty()) return;  // entered before the profile began
    const Frame f = std::move(frames.back());
    frames.pop_back();
    const double total = std::chrono::duration<double>(Clock::now() - f.start).count();
    if (!frames.empty()) frames.back().children += total;
    const std::lock_guard<std::mutex> lock(state().mutex);
    const std::string& scope = frames.empty() ? f.name : frames.front().name;
    Row& row = state().rows[scope + '\n' + f.name];
    if (row.name.empty()) row.scope = scope, row.name = f.name;
    row.self += total - f.children;
    row.total += total;
    ++row.calls;
    if (frames.empty()) state().outermost += total;
  }

  at::CallbackHandle handle_;
};

}  // namespace posbias::bench
