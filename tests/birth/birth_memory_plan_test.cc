// Tests that could fail: a checkpointed birth holds its memory plan as peak RSS. posbias serves
// every allocation from a heap it never trims (core/process_env.h); a plan close to its budget
// must get large blocks from their own mmaps again, or the heap's holes stay resident (a
// 24-layer Qwen2-0.5B profile at 16k tokens planned 7.46 GB and peaked at 12.2 GB when birth
// lost that switch).
#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "experiments/birth/birth.h"
#include "posbias/core/memory.h"
#include "posbias/core/process_env.h"
#include "posbias/model/memory_plan.h"

namespace posbias {
namespace {

// Whether a fresh block of `bytes` more than the heap has free comes from its own mmap (glibc
// counts those in hblkhd); a smaller one could be cut from a free chunk whatever the setting.
// Its pages are never touched, so it costs no memory.
bool mapped(std::size_t bytes) {
  const std::size_t before = mallinfo2().hblkhd;
  bytes += mallinfo2().fordblks;
  void* volatile block = std::malloc(bytes);  // volatile: the compiler may not elide the pair
  const bool own_map = mallinfo2().hblkhd >= before + bytes;
  std::free(block);
  return own_map;
}

// This process's peak RSS since the last reset_peak(), in bytes (VmHWM).
double peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kib = 0;
      status >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

BirthOptions checkpointed_profile() {
  BirthOptions o;
  o.arch = "qwen2";
  o.layers = 16;
  o.d_model = 64;
  o.heads = 4;
  o.kv_heads = 2;
  o.length = 1024;
  o.method = JacobianMethod::kHutchinson;
  o.probes = 4;
  o.seeds = 1;
  o.bootstrap = 0;
  // A budget that the plans without checkpointing pass: the plan with the fewest bytes (always
  // checkpointed) and a little slack, on top of what this process holds.
  const JacobianPlan fewest =
      plan_jacobian(birth_model_config(o), o.length, o.probes, at::get_num_threads(),
                    /*token_embeddings=*/false, /*budget=*/1.0);
  o.memory_budget_gb = (fewest.bytes + 16e6 + static_cast<double>(resident_bytes())) / 1e9;
  return o;
}

TEST(BirthMemoryPlan, CheckpointedPlanMapsLargeBlocksAndHoldsItsPeak) {
  configure_allocator();  // as posbias starts: no mmap, no trimming
  ASSERT_FALSE(mapped(8 << 20));
  const BirthOptions o = checkpointed_profile();
  const double resident = static_cast<double>(resident_bytes());
  reset_peak();
  const BirthResult r = measure_birth(o);
  ASSERT_TRUE(r.plan.pass.checkpoint) << "the budget should have asked for checkpointing";
  EXPECT_TRUE(mapped(8 << 20)) << "a checkpointed birth must hand large blocks back";
  const double peak = peak_rss_bytes();
  ASSERT_GT(peak, 0);
  EXPECT_LE(peak - resident, r.plan.bytes)
      << "peak " << peak / 1e6 << " MB, " << resident / 1e6 << " MB resident before, plan "
      << r.plan.bytes / 1e6 << " MB";
}

}  // namespace
}  // namespace posbias
