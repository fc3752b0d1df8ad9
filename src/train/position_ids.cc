#include "posbias/train/position_ids.h"

#include <stdexcept>

namespace posbias {

std::vector<std::int64_t> random_position_ids(std::int64_t length, std::int64_t range, Rng& rng) {
  if (length < 1 || length > range)
    throw std::invalid_argument("random position ids need 1 <= length <= range");
  std::vector<std::int64_t> ids;
  ids.reserve(static_cast<std::size_t>(length));
  std::int64_t needed = length;
  for (std::int64_t i = 0; i < range && needed > 0; ++i) {
    if (rng.below(range - i) < needed) {
      ids.push_back(i);
      --needed;
    }
  }
  return ids;
}

PoseChunks pose_chunks(std::int64_t length, std::int64_t range, Rng& rng) {
  if (length < 2 || length > range)
    throw std::invalid_argument("PoSE position ids need 2 <= length <= range");
  PoseChunks c;
  c.first = rng.between(1, (length + 1) / 2);
  c.skip = rng.between(0, range - length);
  return c;
}

std::vector<std::int64_t> pose_position_ids(std::int64_t length, std::int64_t range, Rng& rng) {
  const PoseChunks c = pose_chunks(length, range, rng);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(length));
  for (std::int64_t t = 0; t < length; ++t)
    ids[static_cast<std::size_t>(t)] = t < c.first ? t : t + c.skip;
  return ids;
}

torch::Tensor training_position_ids(const TrainConfig& c, std::int64_t batch, std::int64_t length,
                                    std::uint64_t step, std::int64_t first) {
  if (!c.random_positions && !c.pose) return {};
  // A key of its own: the data (seed, step, example) and the dropout masks draw other streams.
  constexpr std::uint64_t kPositionsKey = 0x706f736974696f6eull;  // "position"
  torch::Tensor out = torch::empty({batch, length}, torch::kInt64);
  auto rows = out.accessor<std::int64_t, 2>();
  for (std::int64_t b = 0; b < batch; ++b) {
    Rng rng = Rng::stream(c.seed ^ kPositionsKey, step, static_cast<std::uint64_t>(first + b));
    const std::vector<std::int64_t> ids =
        c.random_positions ? random_position_ids(length, *c.random_positions, rng)
                           : pose_position_ids(length, *c.pose, rng);
    for (std::int64_t t = 0; t < length; ++t) rows[b][t] = ids[static_cast<std::size_t>(t)];
  }
  return out;
}

}  // namespace posbias
