// This process's slot among data-parallel ranks, from the torchrun variables (RANK, WORLD_SIZE,
// LOCAL_RANK, MASTER_ADDR, MASTER_PORT) that torchrun, `srun` or `posbias launch` set, and the
// network interface Gloo uses (GLOO_SOCKET_IFNAME). The command line reads them from its
// environment (apps/posbias/torchrun_env.h) and passes the RankEnv down; the library reads no
// environment.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>

namespace posbias {

struct RankEnv {
  int rank = 0, world_size = 1, local_rank = 0;
  std::string master_addr;
  int master_port = 0;
  std::string gloo_interface;  // GLOO_SOCKET_IFNAME; empty: the loopback device for a loopback
                               // master, else Gloo's default
};

// The variables' names: torchrun's and GLOO_SOCKET_IFNAME.
inline constexpr std::array<const char*, 6> kTorchrunVariables{
    "RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "GLOO_SOCKET_IFNAME"};

// The slot the variables name (name → value; a variable that is unset or empty is absent).
// nullopt when WORLD_SIZE is absent or 1 (one process, no group). Throws std::invalid_argument
// naming the variable that is missing or malformed (RANK outside 0..WORLD_SIZE-1, a port
// outside 1..65535).
std::optional<RankEnv> rank_env_from_variables(const std::map<std::string, std::string>& variables);

}  // namespace posbias
