#include "posbias/mech/constructions.h"

#include <charconv>
#include <cmath>
#include <numbers>

#include "posbias/core/enum_names.h"

namespace posbias {

namespace {

constexpr EnumNames<Construction, 3> kConstructionNames{{{Construction::kIndex, "index"},
                                                         {Construction::kRetrieval, "retrieval"},
                                                         {Construction::kReflexive, "reflexive"}}};

}  // namespace

Construction parse_construction(const std::string& name) {
  return value_of(kConstructionNames, name, "--function");
}

std::string_view construction_name(Construction c) { return name_of(kConstructionNames, c); }

Task construction_task(Construction c) {
  return c == Construction::kRetrieval ? Task::kLetter : Task::kNumber;
}

Attention make_construction_layer(Construction c) {
  ModelConfig cfg;
  cfg.family = Family::kGpt2;  // fused qkv with bias
  cfg.d_model = 4;
  cfg.heads = cfg.kv_heads = 1;
  cfg.pos = PosEncoding::kRope;
  cfg.rotary_dim = 2;
  Attention attn(cfg);
  attn->to(torch::kFloat64);
  attn->eval();
  torch::NoGradGuard no_grad;
  auto w = attn->qkv->weight;  // [12, 4]: rows q 0..3, k 4..7, v 8..11
  auto b = attn->qkv->bias;
  w.zero_();
  b.zero_();
  w[0][2] = 2.0;  // q = 2·(query phase)
  w[1][3] = 2.0;
  if (c == Construction::kReflexive) {
    b[0] = 2.0;  // the query is (1, 0) at every position: "go back 0"
    b[4] = 1.0;  // and so is every key
  } else if (c == Construction::kIndex) {
    b[4] = 1.0;  // every key is (1, 0): position alone decides
  } else {
    w[4][0] = 1.0;  // k = key phase
    w[5][1] = 1.0;
  }
  for (int i = 0; i < 4; ++i) w[8 + i][i] = 1.0;  // v = the input
  attn->out->weight.copy_(torch::eye(4, torch::kFloat64));
  attn->out->bias.zero_();
  return attn;
}

PositionContext construction_positions(std::int64_t length, double theta) {
  ModelConfig cfg;
  cfg.family = Family::kGpt2;
  cfg.d_model = 4;
  cfg.heads = cfg.kv_heads = 1;
  cfg.pos = PosEncoding::kRope;
  cfg.rotary_dim = 2;
  // The score rule without its [L, L] tensor: only the query's row is ever computed.
  PositionContext ctx =
      make_position_context(cfg, length, torch::kFloat64, AttentionPath::kBlockwise);
  const auto angles = torch::arange(length, torch::kFloat64).unsqueeze(1).mul(theta).repeat({1, 2});
  ctx.cos = angles.cos();
  ctx.sin = angles.sin();
  return ctx;
}

namespace {

int integer_token(const std::string& t) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return ec == std::errc() && ptr == t.data() + t.size() ? v : 0;  // 0: a letter
}

}  // namespace

torch::Tensor construction_inputs(Construction c, const std::vector<Example>& examples,
                                  double theta, double omega) {
  const std::int64_t b = static_cast<std::int64_t>(examples.size());
  const std::int64_t n = examples.empty() ? 0 : examples[0].length();
  auto x = torch::zeros({b, n, 4}, torch::kFloat64);
  auto acc = x.accessor<double, 3>();
  for (std::int64_t e = 0; e < b; ++e) {
    const Example& ex = examples[static_cast<std::size_t>(e)];
    if (ex.length() != n) throw std::invalid_argument("construction inputs must share one length");
    if (ex.task != construction_task(c)) {
      throw std::invalid_argument("the " + std::string(construction_name(c)) +
                                  " construction reads " +
                                  std::string(task_name(construction_task(c))) + " examples");
    }
    // Reflexive: the query and keys come from the biases, so the input (the value) stays zero.
    if (c == Construction::kReflexive) continue;
    for (std::int64_t p = 0; p < n; ++p) {
      const std::string& t = ex.tokens[static_cast<std::size_t>(p)];
      if (c == Construction::kIndex) {
        const int k = integer_token(t);
        if (k > 0) {
          acc[e][p][2] = std::cos(-k * theta);
          acc[e][p][3] = std::sin(-k * theta);
        }
      } else {  // "l:r" or "l:digit"
        const double key = (t[0] - 'a') * omega;
        acc[e][p][0] = std::cos(key);
        acc[e][p][1] = std::sin(key);
        if (t.size() == 3 && t[2] >= 'a' && t[2] <= 'h') {
          const double query = (t[2] - 'a') * omega;
          acc[e][p][2] = std::cos(query);
          acc[e][p][3] = std::sin(query);
        }
      }
    }
  }
  return x;
}

ConstructionResult run_construction(Construction c, const std::vector<Example>& examples,
                                    double theta, double omega) {
  torch::NoGradGuard no_grad;
  ConstructionResult r;
  if (examples.empty()) return r;
  const std::int64_t n = examples[0].length();
  Attention layer = make_construction_layer(c);
  const PositionContext ctx = construction_positions(n, theta);
  const auto x = construction_inputs(c, examples, theta, omega);
  const auto scores = layer->query_scores(x, ctx, n - 1).select(1, 0);  // [B, n]
  const auto [top, where] = scores.topk(2, -1);
  for (std::int64_t e = 0; e < scores.size(0); ++e) {
    const double gap = top[e][0].item<double>() - top[e][1].item<double>();
    r.discrepancy.push_back(gap);
    // The index and retrieval heads find the first look-up's target; the reflexive head the
    // query itself.
    const std::int64_t target =
        c == Construction::kReflexive ? n - 1 : examples[static_cast<std::size_t>(e)].chain[0];
    r.correct.push_back(gap > 0 && where[e][0].item<std::int64_t>() == target);
  }
  return r;
}

double construction_bytes(std::int64_t count, std::int64_t length) {
  // Per position of an example: its token string (32 bytes, short strings inline) and about 12
  // double-precision vectors of 4 (the input, q, k, v, their rotations and temporaries).
  return static_cast<double>(count) * static_cast<double>(length) * (32.0 + 12 * 4 * 8);
}

double construction_bound(Construction c, std::int64_t length, double theta, double omega) {
  const double n = static_cast<double>(length);
  if (c != Construction::kRetrieval) {
    double rival = -1.0;  // the largest logit of a key m = 1 … n − 1 positions off the target
    for (std::int64_t m = 1; m < length; ++m) {
      rival = std::max(rival, std::cos(static_cast<double>(m) * theta));
    }
    return length > 1 ? 1.0 - rival : 0.0;
  }
  // Meaningful while the rotation has not closed the symbol gap (nθ < ω); 0 after.
  return n * std::abs(theta) < omega ? 1.0 - std::cos(omega - n * std::abs(theta)) : 0.0;
}

}  // namespace posbias
