// The queue behind each served model: requests of one length share a pass, a pass holds at
// most batch_tokens tokens, a request whose client stopped waiting is never computed, and a
// failing pass fails only its own requests. The model here is a function the test holds
// closed, so what is queued when it runs is decided by the test, not by timing.
#include "posbias/serve/batch_queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "posbias/serve/openai_server.h"

namespace {

using namespace posbias;
using Input = BatchQueue::Input;

// A model that answers each input with its sum, records every batch's size and length, and
// blocks while the gate is closed.
class GatedModel {
 public:
  BatchQueue::Model function() {
    return [this](const std::vector<const Input*>& batch) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        batches_.push_back({batch.size(), batch.front()->size()});
        ++entered_;
        entered_changed_.notify_all();
        open_changed_.wait(lock, [this] { return open_; });
      }
      if (batch.front()->front() < 0) throw std::runtime_error("a negative token");
      std::vector<NextToken> sums;
      for (const Input* input : batch) {
        std::int64_t sum = 0;
        for (std::int64_t t : *input) sum += t;
        sums.push_back({sum, {}});
      }
      return sums;
    };
  }
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    open_changed_.notify_all();
  }
  void wait_entered(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    entered_changed_.wait(lock, [&] { return entered_ >= n; });
  }
  std::vector<std::pair<std::size_t, std::size_t>> batches() {
    std::lock_guard<std::mutex> lock(mutex_);
    return batches_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable entered_changed_, open_changed_;
  bool open_ = false;
  int entered_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> batches_;  // (inputs, length) per pass
};

// Waits until `count` requests are queued behind the model's current pass.
void wait_waiting(BatchQueue& queue, std::size_t count) {
  while (queue.waiting() < count) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

constexpr double kPatient = 600;  // seconds: a client that waits for its answer

TEST(BatchQueue, RequestsAbandonedBeforeTheWorkerTakesThemAreNeverComputed) {
  GatedModel model;
  BatchQueue queue(model.function(), 1024);
  auto first = std::async(std::launch::async, [&] {
    return queue.answer({1, 2, 3}, kPatient).argmax;
  });
  model.wait_entered(1);
  int told_busy = 0;
  for (int i = 0; i < 200; ++i) {
    try {
      (void)queue.answer({4, 5}, 0);
    } catch (const BackendBusy&) {
      ++told_busy;
    }
  }
  EXPECT_EQ(told_busy, 200);
  EXPECT_EQ(queue.waiting(), 200u);
  model.open();
  EXPECT_EQ(first.get(), 6);
  EXPECT_EQ(queue.answer({7}, kPatient).argmax, 7);
  // Without the drop the 200 short ones would be a pass of their own: 201 answers.
  EXPECT_EQ(queue.answered(), 2);
  for (const auto& [inputs, length] : model.batches()) EXPECT_NE(length, 2u);
}

TEST(BatchQueue, WaitingRequestsShareOnePassPerLengthWithinTheTokenBudget) {
  GatedModel model;
  BatchQueue queue(model.function(), 10);
  auto blocker = std::async(std::launch::async, [&] { return queue.answer({1}, kPatient).argmax; });
  model.wait_entered(1);
  std::vector<std::future<std::int64_t>> answers;
  for (std::int64_t i = 0; i < 5; ++i) {  // five of length 3: passes of 3 and 2 (10 tokens)
    answers.push_back(std::async(std::launch::async, [&, i] {
      return queue.answer({i, i, i}, kPatient).argmax;
    }));
  }
  for (std::int64_t i = 0; i < 2; ++i) {  // two of length 5: one pass
    answers.push_back(std::async(std::launch::async, [&, i] {
      return queue.answer({i, 0, 0, 0, 1}, kPatient).argmax;
    }));
  }
  wait_waiting(queue, 7);
  model.open();
  EXPECT_EQ(blocker.get(), 1);
  std::vector<std::int64_t> got;
  for (auto& a : answers) got.push_back(a.get());
  EXPECT_EQ(got, (std::vector<std::int64_t>{0, 3, 6, 9, 12, 1, 2}));
  const std::vector<std::pair<std::size_t, std::size_t>> expected = {
      {1, 1}, {3, 3}, {2, 3}, {2, 5}};
  EXPECT_EQ(model.batches(), expected);
  EXPECT_EQ(queue.answered(), 8);
}

TEST(BatchQueue, AnInputLongerThanTheBudgetStillGetsAPassOfItsOwn) {
  GatedModel model;
  model.open();
  BatchQueue queue(model.function(), 2);
  EXPECT_EQ(queue.answer({1, 1, 1, 1}, kPatient).argmax, 4);
}

TEST(BatchQueue, AFailingPassFailsOnlyItsOwnRequests) {
  GatedModel model;
  BatchQueue queue(model.function(), 1024);
  auto blocker = std::async(std::launch::async, [&] { return queue.answer({1}, kPatient).argmax; });
  model.wait_entered(1);
  auto bad = std::async(std::launch::async, [&] { return queue.answer({-1, 0}, kPatient).argmax; });
  auto good = std::async(std::launch::async, [&] {
    return queue.answer({2, 3, 4}, kPatient).argmax;
  });
  wait_waiting(queue, 2);
  model.open();
  EXPECT_EQ(blocker.get(), 1);
  EXPECT_THROW(bad.get(), std::runtime_error);
  EXPECT_EQ(good.get(), 9);
  EXPECT_EQ(queue.answer({5}, kPatient).argmax, 5);  // the worker serves on
}

TEST(BatchQueue, AModelGivingTheWrongNumberOfAnswersFailsItsRequests) {
  BatchQueue queue([](const std::vector<const Input*>&) { return std::vector<NextToken>{}; }, 1024);
  EXPECT_THROW(queue.answer({1}, kPatient).argmax, std::logic_error);
}

TEST(BatchQueue, DestroyingItEndsTheWorkerAfterItsPass) {
  GatedModel model;
  auto queue = std::make_unique<BatchQueue>(model.function(), 1024);
  auto first = std::async(std::launch::async, [&] { return queue->answer({1}, kPatient).argmax; });
  model.wait_entered(1);
  EXPECT_THROW(queue->answer({2, 2}, 0).argmax, BackendBusy);
  model.open();
  EXPECT_EQ(first.get(), 1);
  queue.reset();
  EXPECT_EQ(model.batches().size(), 1u);
}

}  // namespace
