// One served model's request queue and the worker thread that answers it in batches. Each
// pass takes every waiting request, groups them by input length and calls the model once per
// group (at most batch_tokens tokens), so concurrent requests share passes instead of taking
// turns. A request whose client stopped waiting before the worker took it is dropped unanswered.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace posbias {

// A model's answer to one input: its most likely next token and the log-probabilities of every
// token (empty when the model gives only the token).
struct NextToken {
  std::int64_t argmax = 0;
  std::vector<float> log_probs;
};

class BatchQueue {
 public:
  using Input = std::vector<std::int64_t>;
  // Answers a batch of inputs of one length, one answer per input, in order. It runs on the
  // worker thread; an exception it throws is every request's of that batch.
  using Model = std::function<std::vector<NextToken>(const std::vector<const Input*>& batch)>;

  BatchQueue(Model model, std::int64_t batch_tokens);
  ~BatchQueue();  // stops the worker after its current pass
  BatchQueue(const BatchQueue&) = delete;
  BatchQueue& operator=(const BatchQueue&) = delete;

  // The model's answer to input, or BackendBusy when it is not ready within timeout seconds.
  NextToken answer(Input input, double timeout);
  // Inputs the model has answered so far.
  std::int64_t answered() const;
  // Requests waiting for the worker to take them (abandoned ones included until it does).
  std::size_t waiting();

 private:
  struct Pending;
  void run();

  Model model_;
  std::int64_t batch_tokens_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Pending>> queue_;
  bool stopping_ = false;
  std::atomic<std::int64_t> answered_{0};
  std::thread worker_;
};

}  // namespace posbias
