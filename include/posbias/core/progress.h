// A progress bar with ETA on stderr for work longer than a few seconds. On a terminal it
// redraws one line; otherwise (CI logs) it prints a line every 10%. Quiet for short work. A
// status (training: the last logged loss and held-out metric) follows the ETA.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace posbias {

class Progress {
 public:
  // already_done: work finished before this process started (a resumed run); the ETA uses
  // only this process's pace.
  Progress(std::string label, std::int64_t total, std::int64_t already_done = 0);
  ~Progress();
  void update(std::int64_t done);
  // Shown after the ETA from the next draw on ("loss 0.93, held-out accuracy 0.41").
  void set_status(std::string status);
  void finish();

 private:
  std::string label_, status_;
  std::int64_t total_, already_done_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  int last_decile_ = -1;
  bool tty_ = false, drawn_ = false, finished_ = false;
};

}  // namespace posbias
