#include "posbias/mech/head_search.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "posbias/core/enum_names.h"
#include "posbias/core/rng.h"

namespace posbias {

namespace {

constexpr EnumNames<SearchFrequencies, 2> kFrequencyNames{
    {{SearchFrequencies::kFree, "free"}, {SearchFrequencies::kRope, "rope"}}};

}  // namespace

SearchFrequencies parse_search_frequencies(const std::string& name) {
  return value_of(kFrequencyNames, name, "--frequencies");
}

std::string_view search_frequencies_name(SearchFrequencies f) {
  return name_of(kFrequencyNames, f);
}

void validate(const HeadSearchOptions& o) {
  if (o.head_dim < 2 || o.head_dim > 256 || o.head_dim % 2 != 0) {
    throw std::invalid_argument("--head-dim must be even and in 2..256, got " +
                                std::to_string(o.head_dim));
  }
  if (!(o.rope_theta > 1) || !std::isfinite(o.rope_theta)) {
    throw std::invalid_argument("--rope-theta must be a finite number above 1");
  }
  if (!std::isfinite(o.omega)) throw std::invalid_argument("--omega must be a finite number");
  if (o.symbols < 2 || o.symbols > 64) {
    throw std::invalid_argument("--symbols must be in 2..64, got " + std::to_string(o.symbols));
  }
  if (o.starts < 0 || o.starts > 1000) {
    throw std::invalid_argument("--starts must be in 0..1000, got " + std::to_string(o.starts));
  }
  if (o.steps < 1 || o.steps > 100000) {
    throw std::invalid_argument("--steps must be in 1..100000, got " + std::to_string(o.steps));
  }
}

torch::Tensor rope_frequencies(int head_dim, double rope_theta) {
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  return torch::pow(rope_theta, -torch::arange(0, head_dim, 2, opts) / head_dim);
}

namespace {

torch::Tensor unit_rows(const torch::Tensor& x) {  // [R, F, 2] → each row of 2F numbers unit
  return x / x.flatten(1).norm(2, 1).clamp_min(1e-300).view({-1, 1, 1});
}

// The logits of every query against every key at every distance Δ = 0..n−1:
// [Q, K, n], logit = cos(Δθ)·(q0k0 + q1k1) − sin(Δθ)·(q1k0 − q0k1) summed over pairs.
torch::Tensor head_logits(const SearchHead& h, std::int64_t n) {
  const auto q = unit_rows(h.query), k = unit_rows(h.key);
  const auto q0 = q.select(2, 0).unsqueeze(1), q1 = q.select(2, 1).unsqueeze(1);  // [Q, 1, F]
  const auto k0 = k.select(2, 0).unsqueeze(0), k1 = k.select(2, 1).unsqueeze(0);  // [1, K, F]
  const auto zc = q0 * k0 + q1 * k1, zs = q1 * k0 - q0 * k1;                      // [Q, K, F]
  const auto angles = torch::outer(torch::arange(n, torch::kFloat64), h.theta);   // [n, F]
  return torch::matmul(zc, angles.cos().t()) - torch::matmul(zs, angles.sin().t());
}

// Index: row k − 1 of logits [n − 1, n] targets Δ = k.
torch::Tensor index_targets(std::int64_t n) { return torch::arange(1, n, torch::kLong); }

double hard_gap(Construction f, const torch::Tensor& logits) {
  torch::NoGradGuard no_grad;
  const std::int64_t n = logits.size(-1);
  if (f == Construction::kIndex) {
    const auto l = logits.select(1, 0);  // [n − 1, n]
    const auto rows = torch::arange(n - 1, torch::kLong), targets = index_targets(n);
    const auto target = l.index({rows, targets});
    auto others = l.clone();
    others.index_put_({rows, targets}, -INFINITY);
    return (target - std::get<0>(others.max(1))).min().item<double>();
  }
  const std::int64_t s = logits.size(0);
  double worst = INFINITY;
  for (std::int64_t r = 0; r < s; ++r) {
    const auto row = logits[r];  // [S, n]
    const auto match = row[r];
    auto distractors = row.clone();
    distractors[r].fill_(-INFINITY);
    const auto best_per_position = std::get<0>(distractors.max(0));  // [n]
    const auto [top, where] = best_per_position.topk(std::min<std::int64_t>(2, n));
    // A distractor cannot share the match's position: at Δ* = where[0] the runner-up counts.
    auto rival = top[0].expand({n}).clone();
    if (n > 1) rival[where[0].item<std::int64_t>()] = top[1];
    worst = std::min(worst, (match - rival).min().item<double>());
  }
  return worst;
}

// The smoothed gap (log-sum-exp at temperature tau for every max and min).
torch::Tensor soft_gap(Construction f, const torch::Tensor& logits, double tau) {
  const auto smax = [tau](const torch::Tensor& x, std::int64_t dim) {
    return tau * torch::logsumexp(x / tau, dim);
  };
  const std::int64_t n = logits.size(-1);
  if (f == Construction::kIndex) {
    const auto l = logits.select(1, 0);
    const auto rows = torch::arange(n - 1, torch::kLong), targets = index_targets(n);
    const auto target = l.index({rows, targets});
    const auto mask = torch::zeros_like(l).index_put_({rows, targets}, -INFINITY);
    const auto gaps = target - smax(l + mask, 1);
    return -smax(-gaps, 0);
  }
  const std::int64_t s = logits.size(0);
  const auto eye = torch::eye(s, torch::kBool);
  const auto match = logits.index({eye});  // [S, n]: logit(r, r, Δ)
  const auto mask =
      torch::zeros({s, s, 1}, torch::kFloat64).masked_fill_(eye.unsqueeze(2), -INFINITY);
  const auto rival = smax((logits + mask).flatten(1), 1);  // [S]
  const auto gaps = -smax(-match, 1) - rival;
  return -smax(-gaps, 0);
}

// The rotation R(−kθ) applied to each pair of `key` ([F, 2]) for k = 1..n−1: the queries that
// read the key at distance k (a matched filter).
torch::Tensor matched_queries(const torch::Tensor& key, const torch::Tensor& theta,
                              std::int64_t n) {
  const auto angles = torch::outer(torch::arange(1, n, torch::kFloat64), theta);  // [n − 1, F]
  const auto c = angles.cos(), s = angles.sin();
  const auto k0 = key.select(1, 0), k1 = key.select(1, 1);
  return torch::stack({c * k0 + s * k1, -s * k0 + c * k1}, -1);  // R(−φ)(k0, k1)
}

std::int64_t nearest_pair(const torch::Tensor& frequencies, double theta) {
  return (frequencies - theta).abs().argmin().item<std::int64_t>();
}

}  // namespace

double head_gap(Construction f, const SearchHead& head, std::int64_t length) {
  torch::NoGradGuard no_grad;
  return hard_gap(f, head_logits(head, length));
}

SearchHead design_head(Construction f, std::int64_t n, int head_dim, double theta, double omega,
                       int symbols, const torch::Tensor& frequencies) {
  const std::int64_t pairs = head_dim / 2;
  SearchHead h;
  std::int64_t pair = 0;
  if (frequencies.defined()) {
    h.theta = frequencies.clone();
    pair = nearest_pair(frequencies, theta);
    theta = frequencies[pair].item<double>();
  } else {
    h.theta = torch::zeros({pairs}, torch::kFloat64);
    h.theta[0] = theta;
  }
  if (f == Construction::kIndex) {
    h.key = torch::zeros({1, pairs, 2}, torch::kFloat64);
    h.key[0][pair][0] = 1.0;
    h.query = torch::zeros({n - 1, pairs, 2}, torch::kFloat64);
    h.query.select(1, pair).copy_(
        matched_queries(h.key[0].narrow(0, pair, 1), h.theta.narrow(0, pair, 1), n).select(1, 0));
    return h;
  }
  h.key = torch::zeros({symbols, pairs, 2}, torch::kFloat64);
  const auto phases = torch::arange(symbols, torch::kFloat64) * omega;
  h.key.select(1, pair).select(1, 0).copy_(phases.cos());
  h.key.select(1, pair).select(1, 1).copy_(phases.sin());
  h.query = h.key.clone();
  return h;
}

double head_search_bytes(const HeadSearchOptions& o, std::int64_t n) {
  const double pairs = o.head_dim / 2.0;
  const double cells = o.function == Construction::kIndex
                           ? static_cast<double>(n - 1) * static_cast<double>(n)
                           : static_cast<double>(o.symbols) * o.symbols * static_cast<double>(n);
  const double queries = o.function == Construction::kIndex ? static_cast<double>(n) : o.symbols;
  // About 12 [Q, K, n] temporaries of the forward and backward, the [n, F] angle tables, and the
  // query tensors with their Adam moments and the best copy.
  return 8.0 * (12.0 * cells + 6.0 * static_cast<double>(n) * pairs + 10.0 * queries * pairs * 2);
}

namespace {

// The designed starts: the construction (and, for index, the one-frequency head), then the
// warm start, fitted to n (and, free frequencies, also stretched to it).
std::vector<SearchHead> search_designs(const HeadSearchOptions& o, std::int64_t n,
                                       const SearchHead* warm, const torch::Tensor& schedule) {
  const Construction f = o.function;
  const bool free = o.frequencies == SearchFrequencies::kFree;
  const double pi = std::numbers::pi, length = static_cast<double>(n);
  std::vector<SearchHead> designs;
  if (f == Construction::kIndex) {
    designs.push_back(design_head(f, n, o.head_dim, pi / length, o.omega, o.symbols, schedule));
    designs.push_back(design_head(f, n, o.head_dim, 2 * pi / length, o.omega, o.symbols, schedule));
  } else {
    const double slowest = free ? 0.0 : schedule[schedule.size(0) - 1].item<double>();
    designs.push_back(design_head(f, n, o.head_dim, slowest, o.omega, o.symbols, schedule));
  }
  if (warm == nullptr) return designs;
  SearchHead w{warm->theta.detach().clone(), warm->query.detach().clone(),
               warm->key.detach().clone()};
  if (w.theta.size(0) != o.head_dim / 2) {
    throw std::invalid_argument("search_head: the warm start has another head dim");
  }
  if (f == Construction::kIndex) {
    const std::int64_t kept = std::min(w.query.size(0), n - 1);
    auto query = matched_queries(w.key[0], w.theta, n);
    query.narrow(0, 0, kept).copy_(w.query.narrow(0, 0, kept));
    if (free) {
      // The same head stretched to the new length: every frequency scaled by n_warm / n, so
      // the positions it told apart map onto the new range (for one frequency, 2π/n_warm
      // becomes 2π/n, the even spacing again).
      const double stretch = static_cast<double>(w.query.size(0) + 1) / length;
      const auto theta = w.theta * stretch;
      designs.push_back({theta, matched_queries(w.key[0], theta, n), w.key.clone()});
    }
    w.query = query;
  }
  designs.push_back(w);
  return designs;
}

// Start s: design s with a little noise (so the unused pairs can grow), or a random head.
SearchHead start_head(const HeadSearchOptions& o, std::int64_t n, int s,
                      const std::vector<SearchHead>& designs, const torch::Tensor& schedule) {
  const Construction f = o.function;
  const bool free = o.frequencies == SearchFrequencies::kFree;
  const double pi = std::numbers::pi, length = static_cast<double>(n);
  const std::int64_t pairs = o.head_dim / 2;
  Rng stream = Rng::stream(o.seed, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(s));
  at::Generator gen = at::detail::createCPUGenerator(stream.next());
  const auto opts = torch::TensorOptions().dtype(torch::kFloat64);
  SearchHead h;
  if (s < static_cast<int>(designs.size())) {
    const SearchHead& d = designs[static_cast<std::size_t>(s)];
    h.theta = d.theta.clone();
    h.key = d.key + 1e-3 * torch::randn(d.key.sizes(), gen, opts);
    h.query = d.query + 1e-3 * torch::randn(d.query.sizes(), gen, opts);
    return h;
  }
  if (free) {  // log-uniform in [π/n, π]
    const auto u = torch::rand({pairs}, gen, opts);
    h.theta = torch::exp(std::log(pi / length) + u * std::log(length));
  } else {
    h.theta = schedule.clone();
  }
  if (f == Construction::kIndex) {
    h.key = torch::randn({1, pairs, 2}, gen, opts);
    h.query =
        matched_queries(h.key[0], h.theta, n) + 0.1 * torch::randn({n - 1, pairs, 2}, gen, opts);
  } else {
    h.key = torch::randn({o.symbols, pairs, 2}, gen, opts);
    h.query = h.key + 0.1 * torch::randn(h.key.sizes(), gen, opts);
  }
  return h;
}

// Adam on the smoothed gap from h; every hard gap seen (after each step and the last) that
// beats best_gap replaces best. Returns the best hard gap of this start.
double optimise_head(const HeadSearchOptions& o, std::int64_t n, SearchHead h, double& best_gap,
                     SearchHead& best) {
  const Construction f = o.function;
  const bool free = o.frequencies == SearchFrequencies::kFree;
  h.theta.set_requires_grad(free);
  h.key.set_requires_grad(true);
  h.query.set_requires_grad(true);
  std::vector<torch::Tensor> params{h.key, h.query};
  if (free) params.push_back(h.theta);
  constexpr double kLr = 0.01;
  torch::optim::Adam adam(params, torch::optim::AdamOptions(kLr));
  double start_best = -INFINITY;
  auto keep = [&](double g) {
    if (g > start_best) start_best = g;
    if (g > best_gap) {
      best_gap = g;
      best = {h.theta.detach().clone(), h.query.detach().clone(), h.key.detach().clone()};
    }
  };
  for (int step = 0; step < o.steps; ++step) {
    const auto logits = head_logits(h, n);
    const double g = hard_gap(f, logits);
    keep(g);
    // The temperature follows the gap, so the smoothing stays below the scale being optimised.
    const double tau = std::clamp(0.3 * std::abs(g), 1e-12, 0.05);
    adam.zero_grad();
    (-soft_gap(f, logits, tau)).backward();
    for (auto& group : adam.param_groups()) {
      static_cast<torch::optim::AdamOptions&>(group.options())
          .lr(kLr * (1.0 - static_cast<double>(step) / o.steps) + 1e-4 * kLr);
    }
    adam.step();
  }
  torch::NoGradGuard no_grad;
  keep(head_gap(f, h, n));  // after the last step
  return start_best;
}

}  // namespace

HeadSearchPoint search_head(const HeadSearchOptions& o, std::int64_t n, SearchHead* best_out,
                            const SearchHead* warm, const std::function<void(int, int)>& progress) {
  validate(o);
  if (n < 2) throw std::invalid_argument("the head search needs lengths of at least 2");
  const Construction f = o.function;
  const torch::Tensor schedule = o.frequencies == SearchFrequencies::kFree
                                     ? torch::Tensor()
                                     : rope_frequencies(o.head_dim, o.rope_theta);
  HeadSearchPoint point;
  point.length = n;
  const std::vector<SearchHead> designs = search_designs(o, n, warm, schedule);
  // Each design's exact gap, once: the construction's and the one-frequency head's are reported.
  std::vector<double> design_gaps;
  for (const SearchHead& d : designs) design_gaps.push_back(head_gap(f, d, n));
  point.construction_gap = design_gaps[0];
  point.single_frequency_gap = f == Construction::kIndex ? design_gaps[1] : NAN;
  const auto first_best = std::max_element(design_gaps.begin(), design_gaps.end());
  double best_gap = *first_best;
  SearchHead best = designs[static_cast<std::size_t>(first_best - design_gaps.begin())];
  const int total = static_cast<int>(designs.size()) + o.starts;
  for (int s = 0; s < total; ++s) {
    const double start_best =
        optimise_head(o, n, start_head(o, n, s, designs, schedule), best_gap, best);
    if (s >= static_cast<int>(designs.size()))
      point.start_gaps.push_back(start_best);  // the random starts' own
    if (progress) progress(s + 1, total);
  }
  point.best_gap = best_gap;
  const auto theta = best.theta.detach().contiguous();
  point.theta.assign(theta.data_ptr<double>(), theta.data_ptr<double>() + theta.numel());
  if (best_out != nullptr) *best_out = best;
  return point;
}

}  // namespace posbias
