#include "posbias/serve/batch_queue.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>
#include <string>

#include "posbias/serve/openai_server.h"

namespace posbias {

struct BatchQueue::Pending {
  Input input;
  std::promise<NextToken> answer;
  std::atomic<bool> abandoned{false};  // its client stopped waiting: the worker skips it
};

BatchQueue::BatchQueue(Model model, std::int64_t batch_tokens)
    : model_(std::move(model)), batch_tokens_(batch_tokens) {
  worker_ = std::thread([this] { run(); });
}

BatchQueue::~BatchQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
}

NextToken BatchQueue::answer(Input input, double timeout) {
  auto pending = std::make_shared<Pending>();
  pending->input = std::move(input);
  std::future<NextToken> answer = pending->answer.get_future();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(pending);
  }
  wake_.notify_one();
  if (answer.wait_for(std::chrono::duration<double>(timeout)) != std::future_status::ready) {
    pending->abandoned.store(true);
    throw BackendBusy("the model is busy");
  }
  return answer.get();
}

std::int64_t BatchQueue::answered() const { return answered_.load(); }

std::size_t BatchQueue::waiting() {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

void BatchQueue::run() {
  while (true) {
    std::vector<std::shared_ptr<Pending>> taken;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) break;
      for (auto& p : queue_) {
        if (!p->abandoned.load()) taken.push_back(std::move(p));
      }
      queue_.clear();
    }
    std::stable_sort(taken.begin(), taken.end(), [](const auto& a, const auto& b) {
      return a->input.size() < b->input.size();
    });
    for (std::size_t begin = 0; begin < taken.size();) {
      const auto length = static_cast<std::int64_t>(taken[begin]->input.size());
      std::size_t end = begin;
      while (end < taken.size() && static_cast<std::int64_t>(taken[end]->input.size()) == length &&
             static_cast<std::int64_t>(end - begin + 1) * length <=
                 std::max(batch_tokens_, length)) {
        ++end;
      }
      try {
        std::vector<const Input*> batch;
        for (std::size_t i = begin; i < end; ++i) batch.push_back(&taken[i]->input);
        std::vector<NextToken> answers = model_(batch);
        if (answers.size() != batch.size()) {
          throw std::logic_error("the model gave " + std::to_string(answers.size()) +
                                 " answers to " + std::to_string(batch.size()) + " inputs");
        }
        // Counted before any client can read its answer.
        answered_.fetch_add(static_cast<std::int64_t>(end - begin));
        for (std::size_t i = begin; i < end; ++i)
          taken[i]->answer.set_value(std::move(answers[i - begin]));
      } catch (...) {
        for (std::size_t i = begin; i < end; ++i) {
          taken[i]->answer.set_exception(std::current_exception());
        }
      }
      begin = end;
    }
  }
}

}  // namespace posbias
