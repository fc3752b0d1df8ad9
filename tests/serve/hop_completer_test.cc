// The trained-model backend of `posbias serve`: a request whose client was told the model is
// busy (503) leaves the queue, so the model never computes answers nobody reads.
#include "posbias/serve/hop_completer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include "../cli_run.h"

namespace {

using namespace posbias;
namespace fs = std::filesystem;

TEST(HopCompleter, RequestsAbandonedAfterABusyAnswerAreNotComputed) {
  const fs::path run =
      fs::temp_directory_path() / ("posbias_hop_completer_" + std::to_string(::getpid()));
  fs::remove_all(run);
  const posbias_test::CliResult trained = posbias_test::run_cli(
      "train --task letter --layers 2 --d-model 64 --mlp 128 --rotary-dim 8 --hops 1 --steps 2 "
      "--warmup 1 --eval-every 2 --eval-per-hop 8 --dropout 0 --out " +
      run.string());
  ASSERT_EQ(trained.code, 0) << trained.err;
  // Every request is told "busy" at once. The first, 8000 tokens long, keeps the worker in
  // its forward pass while 200 short ones queue and are abandoned behind it.
  HopCompleter completer({{"letter", run.string()}}, 1e-9);
  std::string long_prompt, short_prompt = "b:3 a:b";
  for (int i = 0; i < 4000; ++i) long_prompt += "c:d b:3 ";
  long_prompt += "a:b";
  auto busy = [&](const std::string& prompt) {
    CompletionRequest r;
    r.model = "letter";
    r.prompt = prompt;
    try {
      completer.complete(r);
      return false;
    } catch (const BackendBusy&) {
      return true;
    }
  };
  EXPECT_TRUE(busy(long_prompt));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  int told_busy = 0;
  for (int i = 0; i < 200; ++i) told_busy += busy(short_prompt);
  EXPECT_EQ(told_busy, 200);
  // The worker finishes the long pass (up to a minute on a loaded machine), then takes the
  // queue: one short batch when nothing is dropped.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (completer.answers_computed() == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_GE(completer.answers_computed(), 1) << "the long pass never finished";
  std::this_thread::sleep_for(std::chrono::seconds(2));
  // The long request (taken before it was abandoned) and at most a few short ones raced in;
  // without the drop all 201 are computed.
  EXPECT_LE(completer.answers_computed(), 11);
  fs::remove_all(run);
}

}  // namespace
