#include "posbias/serve/token_pick.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace posbias {
namespace {

// Token ids by descending log-probability (ties: the lower id first), the first `count` only.
std::vector<std::int64_t> most_likely(const std::vector<float>& log_probs, std::size_t count) {
  std::vector<std::int64_t> ids(log_probs.size());
  std::iota(ids.begin(), ids.end(), 0);
  count = std::min(count, ids.size());
  const auto higher = [&](std::int64_t a, std::int64_t b) {
    const float la = log_probs[static_cast<std::size_t>(a)];
    const float lb = log_probs[static_cast<std::size_t>(b)];
    return la > lb || (la == lb && a < b);
  };
  std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(count), ids.end(),
                    higher);
  ids.resize(count);
  return ids;
}

// A draw from softmax(log_probs / temperature) restricted to the smallest set of most likely
// tokens whose probability (at that temperature) reaches top_p.
std::int64_t sample(const std::vector<float>& log_probs, double temperature, double top_p,
                    std::mt19937_64& rng) {
  const std::vector<std::int64_t> order = most_likely(log_probs, log_probs.size());
  const double best = log_probs[static_cast<std::size_t>(order.front())];
  std::vector<double> weights;
  double total = 0;
  for (const std::int64_t id : order) {
    const double w = std::exp((log_probs[static_cast<std::size_t>(id)] - best) / temperature);
    weights.push_back(w);
    total += w;
  }
  double mass = 0;
  std::size_t kept = 0;
  while (kept < weights.size() && (kept == 0 || mass < top_p * total)) mass += weights[kept++];
  std::discrete_distribution<std::size_t> draw(weights.begin(),
                                               weights.begin() + static_cast<std::ptrdiff_t>(kept));
  return order[draw(rng)];
}

}  // namespace

TokenPick pick_token(const NextToken& next, double temperature, double top_p, int top,
                     std::mt19937_64& rng) {
  TokenPick pick;
  if (next.log_probs.empty()) {
    if (temperature > 0 || top > 0)
      throw std::logic_error("sampling or alternatives need the model's log-probabilities");
    pick.id = next.argmax;
    return pick;
  }
  pick.id = temperature > 0 ? sample(next.log_probs, temperature, top_p, rng) : next.argmax;
  pick.logprob = next.log_probs.at(static_cast<std::size_t>(pick.id));
  for (const std::int64_t id : most_likely(next.log_probs, static_cast<std::size_t>(top))) {
    pick.top.emplace_back(id, next.log_probs[static_cast<std::size_t>(id)]);
  }
  return pick;
}

}  // namespace posbias
