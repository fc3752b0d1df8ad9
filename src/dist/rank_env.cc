#include "posbias/dist/rank_env.h"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

#include "posbias/core/parse.h"

namespace posbias {
namespace {

const std::string* variable(const std::map<std::string, std::string>& variables, const char* name) {
  const auto it = variables.find(name);
  return it != variables.end() && !it->second.empty() ? &it->second : nullptr;
}

int integer_variable(const std::map<std::string, std::string>& variables, const char* name,
                     std::int64_t low, std::int64_t high) {
  const std::string* v = variable(variables, name);
  if (v == nullptr) {
    throw std::invalid_argument(std::string(name) +
                                " is not set; a data-parallel rank needs RANK, WORLD_SIZE, "
                                "MASTER_ADDR and MASTER_PORT (posbias launch sets them)");
  }
  const std::int64_t x = parse_integer(*v, name);
  if (x < low || x > high) {
    throw std::invalid_argument(fmt::format("{} is {}; it must be in {}..{}", name, x, low, high));
  }
  return static_cast<int>(x);
}

}  // namespace

std::optional<RankEnv> rank_env_from_variables(
    const std::map<std::string, std::string>& variables) {
  if (variable(variables, "WORLD_SIZE") == nullptr) return std::nullopt;
  RankEnv env;
  env.world_size = integer_variable(variables, "WORLD_SIZE", 1, 1 << 20);
  if (env.world_size == 1) return std::nullopt;
  env.rank = integer_variable(variables, "RANK", 0, env.world_size - 1);
  env.local_rank =
      variable(variables, "LOCAL_RANK") ? integer_variable(variables, "LOCAL_RANK", 0, 1 << 20) : 0;
  const std::string* addr = variable(variables, "MASTER_ADDR");
  if (addr == nullptr) {
    throw std::invalid_argument("MASTER_ADDR is not set; rank 0's host name or address is needed");
  }
  env.master_addr = *addr;
  env.master_port = integer_variable(variables, "MASTER_PORT", 1, 65535);
  if (const std::string* ifname = variable(variables, "GLOO_SOCKET_IFNAME"))
    env.gloo_interface = *ifname;
  return env;
}

}  // namespace posbias
