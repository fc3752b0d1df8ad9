// rank_env_from_variables (dist/rank_env.h): the torchrun variables (and Gloo's interface) as
// the command line hands them down, read into a RankEnv, or refused in one line naming the
// variable.
#include "posbias/dist/rank_env.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "../shipped_records.h"

namespace posbias {
namespace {

using Variables = std::map<std::string, std::string>;

const Variables kTwoRanks{{"RANK", "1"},
                          {"WORLD_SIZE", "2"},
                          {"LOCAL_RANK", "1"},
                          {"MASTER_ADDR", "10.0.0.7"},
                          {"MASTER_PORT", "29500"}};

std::string refusal(const Variables& v) {
  return posbias_test::refusal_of([&] { rank_env_from_variables(v); });
}

TEST(RankEnv, ReadsEveryVariableOfARank) {
  const std::optional<RankEnv> env = rank_env_from_variables(kTwoRanks);
  ASSERT_TRUE(env.has_value());
  EXPECT_EQ(env->rank, 1);
  EXPECT_EQ(env->world_size, 2);
  EXPECT_EQ(env->local_rank, 1);
  EXPECT_EQ(env->master_addr, "10.0.0.7");
  EXPECT_EQ(env->master_port, 29500);
  EXPECT_EQ(env->gloo_interface, "");
  Variables v = kTwoRanks;
  v.erase("LOCAL_RANK");  // torchrun sets it, srun need not
  v["GLOO_SOCKET_IFNAME"] = "eth1";
  EXPECT_EQ(rank_env_from_variables(v)->local_rank, 0);
  EXPECT_EQ(rank_env_from_variables(v)->gloo_interface, "eth1");
}

TEST(RankEnv, OneProcessWithoutWorldSizeOrWithWorldSizeOne) {
  EXPECT_FALSE(rank_env_from_variables({}).has_value());
  EXPECT_FALSE(rank_env_from_variables({{"WORLD_SIZE", ""}, {"RANK", "3"}}).has_value());
  EXPECT_FALSE(rank_env_from_variables({{"WORLD_SIZE", "1"}, {"RANK", "0"}}).has_value());
}

TEST(RankEnv, AMissingOrMalformedVariableIsNamed) {
  Variables v = kTwoRanks;
  v["RANK"] = "5";
  EXPECT_EQ(refusal(v), "RANK is 5; it must be in 0..1");
  v = kTwoRanks;
  v.erase("MASTER_ADDR");
  EXPECT_EQ(refusal(v), "MASTER_ADDR is not set; rank 0's host name or address is needed");
  v = kTwoRanks;
  v["MASTER_PORT"] = "";
  EXPECT_EQ(refusal(v),
            "MASTER_PORT is not set; a data-parallel rank needs RANK, WORLD_SIZE, MASTER_ADDR "
            "and MASTER_PORT (posbias launch sets them)");
  v = kTwoRanks;
  v["MASTER_PORT"] = "70000";
  EXPECT_EQ(refusal(v), "MASTER_PORT is 70000; it must be in 1..65535");
  v = kTwoRanks;
  v["WORLD_SIZE"] = "two";
  EXPECT_NE(refusal(v).find("WORLD_SIZE"), std::string::npos) << refusal(v);
}

}  // namespace
}  // namespace posbias
