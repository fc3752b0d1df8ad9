// configure_torch(), which every torch command calls first: all cores, and denormal floats
// flushed to zero (a decaying model otherwise runs several times slower on x86).
#include "posbias/model/torch_setup.h"

#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cfloat>

TEST(ConfigureTorch, UsesEveryCoreAndFlushesDenormals) {
  const torch::Tensor tiny = torch::full({64}, FLT_MIN / 8);  // a denormal float
  at::globalContext().setFlushDenormal(false);
  EXPECT_GT((tiny * 2.0f).max().item<float>(), 0.0f);
  posbias::configure_torch();
  EXPECT_EQ(torch::get_num_threads(), static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)));
  EXPECT_EQ((tiny * 2.0f).max().item<float>(), 0.0f);  // denormals in, zero out
  EXPECT_EQ((torch::full({64}, FLT_MIN) * 0.25f).max().item<float>(), 0.0f);  // and none made
  EXPECT_EQ((torch::full({64}, 1e-30f) * 2.0f).max().item<float>(), 2e-30f);  // normals stay
}

// The build compiles posbias with OpenMP: its own at::parallel_for calls reach every thread.
TEST(ConfigureTorch, ParallelForReachesEveryThread) {
  posbias::configure_torch();
  EXPECT_EQ(posbias::parallel_for_threads(), torch::get_num_threads());
}
