// Birth benchmark: the exact and Hutchinson (k = 16) influence profiles of a GPT-2-style
// model (12 layers, d = 256, 4 heads, L = 256, float32) by posbias, against the Python
// PyTorch peer doing the same measurement with its fastest exact method (bench/birth_peer.py,
// /usr/bin/python3, Debian's torch 1.13), in the same run. Prints times, ratios, GFLOP/s and
// the fraction of the machine's measured FMA peak.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "posbias/core/machine.h"
#include "posbias/core/process_env.h"
#include "posbias/jacobian/jacobian.h"
#include "posbias/model/torch_setup.h"
#include "run_command.h"
#include "torch_bench_setup.h"

namespace {

using Clock = std::chrono::steady_clock;

// variants: the peer's variants to try ("" = all, which screens them and keeps the fastest).
nlohmann::json run_peer(const std::string& method, const std::string& variants) {
  const std::string cmd =
      "/usr/bin/python3 " + std::string(POSBIAS_SOURCE_DIR) +
      "/bench/birth_peer.py --arch gpt2 --layers 12 --d-model 256 --heads 4 --length 256 "
      "--method " +
      method + " --probes 16 --seed 0 --repeats 1" +
      (variants.empty() ? "" : " --variants " + variants) + " 2>/dev/null";
  const std::string out = posbias::bench::run_command(cmd);
  if (out.empty()) return nullptr;
  return nlohmann::json::parse(out.substr(0, out.find('\n')), nullptr, false);
}

// FLOPs of one forward pass, split into the linear layers and the attention core. One
// cotangent's backward to the input costs the linear part once (dX = dY·W, no weight grads)
// and the core twice (dP, dV, dQ, dK against QKᵀ and PV).
struct Flops {
  double linear, core;
};
Flops forward_flops(const posbias::ModelConfig& c, double length) {
  const double d = static_cast<double>(c.d_model), e = static_cast<double>(c.head_dim());
  const double h = static_cast<double>(c.heads), k = static_cast<double>(c.kv_heads),
               m = static_cast<double>(c.mlp);
  const double layers = static_cast<double>(c.layers);
  return {layers * 2 * length * (d * (h + 2 * k) * e + h * e * d + 2 * d * m),
          layers * 2 * 2 * h * length * length * e};
}

// FLOPs posbias executes for C cotangents, which are fewer than the dense count above: the top
// block differentiates the query row only (its k/v GEMM at every position dominates), dP, dQ
// and dV skip the products above causal blocks of AttentionImpl::kCausalBlock rows, and block by
// block (exact) each MLP half is one D×D map per position, built once (2·D·M·D) and applied to
// every cotangent (2·D²), instead of the MLP's two GEMMs per cotangent.
double executed_flops(const posbias::ModelConfig& c, double length, double cot, bool by_block) {
  const double d = static_cast<double>(c.d_model), e = static_cast<double>(c.head_dim());
  const double h = static_cast<double>(c.heads), k = static_cast<double>(c.kv_heads),
               m = static_cast<double>(c.mlp), below = static_cast<double>(c.layers - 1);
  constexpr auto kBlock = static_cast<double>(posbias::AttentionImpl::kCausalBlock);
  double blocked = 0;  // Σ over query blocks of rows × keys up to the block's end
  for (double i0 = 0; i0 < length; i0 += kBlock)
    blocked += std::min(kBlock, length - i0) * std::min(length, i0 + kBlock);
  const double core = 2 * h * e * (3 * blocked + length * length);  // dP, dQ, dV blocked; dK
  const double attn_linear = 2 * length * (d * h * e + (h + 2 * k) * e * d);
  const double mlp = by_block ? 2 * length * d * d : 2 * length * d * 2 * m;
  const double maps = by_block ? 2 * length * d * m * d : 0;
  const double top = 2 * length * 2 * k * e * d;
  const Flops f = forward_flops(c, length);
  return f.linear + f.core + below * (maps + cot * (core + attn_linear + mlp)) + cot * top;
}

}  // namespace

int main(int, char** argv) {
  using namespace posbias;
  const double peak = bench::setup_torch_bench(argv);

  ModelConfig cfg = model_preset("gpt2");
  cfg.layers = 12, cfg.d_model = 256, cfg.heads = 4, cfg.kv_heads = 4, cfg.mlp = 1024;
  constexpr std::int64_t kL = 256;
  Transformer model(cfg, /*token_embeddings=*/false);
  model->eval();
  auto gen = at::detail::createCPUGenerator(0);
  const auto x = at::normal(0.0, cfg.init_std, {1, kL, cfg.d_model}, gen);
  const Flops f = forward_flops(cfg, kL);

  struct Case {
    const char* name;
    JacobianMethod method;
    std::int64_t cotangents;
  };
  // The host's speed drifts by tens of percent within minutes, so posbias and the peer run in
  // alternating rounds and each side's best time is compared (noise only ever slows a run).
  constexpr int kRounds = 3;
  for (const Case c : {Case{"exact", JacobianMethod::kExact, cfg.d_model},
                       Case{"hutchinson", JacobianMethod::kHutchinson, 16}}) {
    JacobianSpec spec{c.method};
    spec.probes = 16;
    jacobian_profile(model, x, spec);  // warm-up: allocator, thread pool
    double best = INFINITY, peer_best = INFINITY;
    std::string variant, peer_name = "unavailable (needs /usr/bin/python3 with python3-torch)";
    std::vector<double> ratios;
    for (int round = 0; round < kRounds; ++round) {
      const auto t0 = Clock::now();
      jacobian_profile(model, x, spec);
      const double ours = std::chrono::duration<double>(Clock::now() - t0).count();
      best = std::min(best, ours);
      const nlohmann::json peer = run_peer(c.name, variant);
      if (!peer.is_object() || !peer.contains("seconds")) continue;
      variant = peer.value("variant", std::string());
      peer_name = peer.value("peer", std::string("?"));
      const double t = peer["seconds"];
      peer_best = std::min(peer_best, t);
      ratios.push_back(t / ours);
    }
    const double cot = static_cast<double>(c.cotangents);
    const double dense = f.linear + f.core + cot * (f.linear + 2 * f.core);
    const double executed = executed_flops(cfg, kL, cot, c.method == JacobianMethod::kExact);
    std::printf("\n%s profile (gpt2-style, 12 layers, d 256, L 256, %lld cotangents)\n", c.name,
                static_cast<long long>(c.cotangents));
    std::printf("  posbias        %8.3f s  %6.1f GFLOP/s executed, %5.1f%% of peak  (best of %d)\n",
                best, executed / best / 1e9, 100 * executed / best / 1e9 / peak, kRounds);
    std::printf("                 %8s    %6.1f GFLOP/s dense-equivalent (%.0f of %.0f GFLOP run)\n",
                "", dense / best / 1e9, executed / 1e9, dense / 1e9);
    std::printf("  python peer    %8.3f s  (%s)\n", peer_best, peer_name.c_str());
    if (!ratios.empty()) {
      std::printf("  speedup        %8.2fx  best against best; per round", peer_best / best);
      for (const double r : ratios) std::printf(" %.2fx", r);
      std::printf("  (target: exact >= 2x, hutchinson >= 1.5x)\n");
    }
  }
  return 0;
}
