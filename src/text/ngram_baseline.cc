#include "posbias/text/ngram_baseline.h"

#include <cmath>
#include <unordered_map>

#include "posbias/text/text_data.h"

namespace posbias {

NgramBaselines ngram_baselines(const std::vector<std::int32_t>& train,
                               const std::vector<std::int64_t>& windows, std::int64_t length,
                               const std::vector<std::int32_t>& token_bytes) {
  constexpr double kDiscount = 0.75;
  const std::size_t vocab = token_bytes.size();
  std::vector<double> unigram(vocab, 1.0);  // add-one
  std::vector<double> context(vocab, 0.0), successors(vocab, 0.0);
  std::unordered_map<std::uint64_t, double> pair;
  for (std::size_t i = 0; i < train.size(); ++i) {
    unigram[static_cast<std::size_t>(train[i])] += 1;
    if (i == 0) continue;
    const auto v = static_cast<std::uint64_t>(train[i - 1]);
    const auto key = v * vocab + static_cast<std::uint64_t>(train[i]);
    if (pair[key]++ == 0) successors[v] += 1;
    context[v] += 1;
  }
  const double total = static_cast<double>(train.size()) + static_cast<double>(vocab);
  for (double& u : unigram) u /= total;

  double uni_nats = 0, bi_nats = 0;
  const auto row = static_cast<std::size_t>(length + 1);
  for (std::size_t i = 0; i < windows.size(); ++i) {
    if (i % row == 0) continue;
    const auto v = static_cast<std::size_t>(windows[i - 1]);
    const auto w = static_cast<std::size_t>(windows[i]);
    const double pu = unigram[w];
    uni_nats -= std::log(pu);
    double pb = pu;
    if (context[v] > 0) {
      const auto it = pair.find(static_cast<std::uint64_t>(v) * vocab + w);
      const double c = it == pair.end() ? 0.0 : it->second;
      pb = std::max(c - kDiscount, 0.0) / context[v] + kDiscount * successors[v] / context[v] * pu;
    }
    bi_nats -= std::log(pb);
  }
  const double bytes = target_bytes(windows, length, token_bytes);
  return {bits_per_byte(uni_nats, bytes), bits_per_byte(bi_nats, bytes)};
}

}  // namespace posbias
