#include "posbias/train/passkey_batch.h"

#include <stdexcept>

#include "posbias/core/rng.h"

namespace posbias {
namespace {

constexpr std::uint64_t kNeedleStream = 0x9EED1E5ull;  // training windows' needle streams
constexpr std::uint64_t kHeldOutStream = 0x9EED1E5ull ^ 0x5EED0E7A1ull;

}  // namespace

std::int64_t add_training_needles(std::vector<std::int64_t>& windows, std::int64_t count,
                                  const TrainConfig& c, const PasskeyCodec& codec,
                                  std::uint64_t step, std::int64_t first) {
  const std::int64_t row = c.length + 1;
  if (static_cast<std::int64_t>(windows.size()) != count * row)
    throw std::invalid_argument("add_training_needles: windows are not count x (length + 1)");
  if (c.needle_fraction <= 0) return 0;
  const DepthPrior prior = c.depth_prior;
  std::int64_t carried = 0;
  std::vector<std::int32_t> brown(static_cast<std::size_t>(row));
  for (std::int64_t b = 0; b < count; ++b) {
    Rng rng = Rng::stream(c.seed ^ kNeedleStream, step, static_cast<std::uint64_t>(first + b));
    if (!(rng.unit() < c.needle_fraction)) continue;
    const auto at = windows.begin() + b * row;
    std::copy(at, at + row, brown.begin());
    const PasskeyExample ex =
        draw_passkey_example(codec, brown.data(), c.length, c.needles, prior, rng);
    std::copy(ex.ids.begin(), ex.ids.end(), at);
    ++carried;
  }
  return carried;
}

std::vector<PasskeyExample> heldout_passkey_examples(const TrainConfig& c,
                                                     const PasskeyCodec& codec,
                                                     const std::vector<std::int64_t>& windows) {
  const std::int64_t row = c.length + 1;
  std::vector<PasskeyExample> out;
  std::vector<std::int32_t> brown(static_cast<std::size_t>(row));
  for (std::int64_t w = 0; w * row < static_cast<std::int64_t>(windows.size()); ++w) {
    std::copy(windows.begin() + w * row, windows.begin() + (w + 1) * row, brown.begin());
    Rng rng = Rng::stream(c.seed ^ kHeldOutStream, static_cast<std::uint64_t>(w));
    out.push_back(
        draw_passkey_example(codec, brown.data(), c.length, c.needles, DepthPrior::kUniform, rng));
  }
  return out;
}

std::vector<bool> passkey_exact_matches(Transformer& model,
                                        const std::vector<PasskeyExample>& examples,
                                        std::int64_t batch) {
  std::vector<bool> out;
  if (examples.empty()) return out;
  const std::int64_t length = examples.front().length();
  const bool was_training = model->is_training();
  model->eval();
  torch::NoGradGuard no_grad;
  for (std::size_t b0 = 0; b0 < examples.size(); b0 += static_cast<std::size_t>(batch)) {
    const std::size_t b1 = std::min(examples.size(), b0 + static_cast<std::size_t>(batch));
    const auto rows = static_cast<std::int64_t>(b1 - b0);
    std::vector<std::int64_t> ids, where, want;  // ids [B, L]; the digits' positions, their ids
    for (std::size_t e = b0; e < b1; ++e) {
      const PasskeyExample& ex = examples[e];
      if (ex.length() != length)
        throw std::invalid_argument("passkey_exact_matches: the examples differ in length");
      ids.insert(ids.end(), ex.ids.begin(), ex.ids.end() - 1);
      for (int d = 0; d < kPasskeyDigits; ++d) {
        where.push_back(ex.answer_start - 1 + d);  // the logits that predict digit d
        want.push_back(ex.ids[static_cast<std::size_t>(ex.answer_start + d)]);
      }
    }
    const torch::Tensor x = torch::from_blob(ids.data(), {rows, length}, torch::kInt64);
    const torch::Tensor pos = torch::from_blob(where.data(), {rows, kPasskeyDigits}, torch::kInt64);
    const torch::Tensor logits = model->forward(x);  // [B, L, V]
    const torch::Tensor picked =
        logits.gather(1, pos.unsqueeze(2).expand({rows, kPasskeyDigits, logits.size(2)}));
    const torch::Tensor right =  // [B]
        picked.argmax(2)
            .eq(torch::from_blob(want.data(), {rows, kPasskeyDigits}, torch::kInt64))
            .all(1);
    for (std::int64_t r = 0; r < rows; ++r) out.push_back(right[r].item<bool>());
  }
  if (was_training) model->train();
  return out;
}

}  // namespace posbias
