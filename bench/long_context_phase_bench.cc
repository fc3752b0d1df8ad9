// The phases of one block of a long-context Hutchinson profile (`birth --method hutchinson` on
// the checkpointed blockwise plan), timed one by one: the block's forward (run twice per
// profile: the forward pass and the recompute in the backward), its attention core alone, the
// attention entropy and branch strengths birth reads off the recomputed block, and the block's
// backward with C cotangents (its MLP half, its attention half, the attention core alone). Each
// phase prints seconds, GFLOP/s and the fraction of the measured FMA peak; the last line is
// the per-layer sum and the time it extrapolates to for a model of --layers blocks.
//
//   long_context_phase_bench [--arch qwen2-0.5b] [--length 16384] [--cotangents 4]
//                            [--stay-probes 8] [--layers 24] [--reps 1]
// Threads: OMP_NUM_THREADS (default: every core).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>

#include "posbias/model/blockwise_attention.h"
#include "posbias/model/branch_strength.h"
#include "posbias/model/transformer.h"
#include "torch_bench_setup.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string arch = "qwen2-0.5b";
  std::int64_t length = 16384, cotangents = 4, layers = 24;
  int stay_probes = 8, reps = 1;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--arch")
      o.arch = v;
    else if (k == "--length")
      o.length = std::stoll(v);
    else if (k == "--cotangents")
      o.cotangents = std::stoll(v);
    else if (k == "--layers")
      o.layers = std::stoll(v);
    else if (k == "--stay-probes")
      o.stay_probes = std::stoi(v);
    else if (k == "--reps")
      o.reps = std::stoi(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  return o;
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The CPU seconds (all threads) of the last best_of's best run: on a shared machine, the
// time this process was given, which a loaded host stretches less than the wall time.
double g_cpu = 0;

// Best wall seconds of reps runs of f.
double best_of(int reps, const std::function<void()>& f) {
  double best = INFINITY;
  for (int r = 0; r < reps; ++r) {
    const double c0 = process_cpu_seconds();
    const auto t0 = Clock::now();
    f();
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    if (wall < best) best = wall, g_cpu = process_cpu_seconds() - c0;
  }
  return best;
}

// Score entries the causal tiles compute per head: Σ over query tiles of rows × keys up to the
// tile's end (the tiles of kAttentionTile a blockwise pass visits).
double causal_tile_entries(double length) {
  const double t = static_cast<double>(posbias::kAttentionTile);
  double n = 0;
  for (double i0 = 0; i0 < length; i0 += t)
    n += std::min(t, length - i0) * std::min(length, i0 + t);
  return n;
}

std::string loadavg() {
  std::ifstream f("/proc/loadavg");
  std::string line;
  std::getline(f, line);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace posbias;
  const double peak = bench::setup_torch_bench(argv);
  const Options o = parse(argc, argv);
  torch::NoGradGuard no_grad;

  ModelConfig cfg = model_preset(o.arch);
  cfg.layers = 1;
  Transformer model(cfg, /*token_embeddings=*/false);
  model->init_weights(0);
  model->eval();
  model->set_attention(AttentionPath::kBlockwise);
  const std::int64_t l = o.length, d = cfg.d_model, h = cfg.heads, e = cfg.head_dim();
  auto gen = at::detail::createCPUGenerator(0);
  const auto x = at::normal(0.0, cfg.init_std, {1, l, d}, gen);
  const double dl = static_cast<double>(l), dd = static_cast<double>(d);
  const double m_fc = static_cast<double>(cfg.gated_mlp() ? 2 * cfg.mlp : cfg.mlp);
  const double linear =
      2 * dl *
      (dd * static_cast<double>((h + 2 * cfg.kv_heads) * e) + static_cast<double>(h * e) * dd +
       dd * (m_fc + static_cast<double>(cfg.mlp)));
  const double mlp_back = 2 * dl * dd * (m_fc + static_cast<double>(cfg.mlp));
  const double product = causal_tile_entries(dl) * 2 * static_cast<double>(e * h);  // one QKᵀ
  const double cot = static_cast<double>(o.cotangents);

  std::printf("%s, one block, L %lld, %lld cotangents, %d stay probes, threads %d, load %s\n",
              o.arch.c_str(), static_cast<long long>(l), static_cast<long long>(o.cotangents),
              o.stay_probes, torch::get_num_threads(), loadavg().c_str());
  double per_layer = 0;
  // seconds: the best run's wall time times `times` (how often the profile runs the phase)
  auto report = [&](const char* name, double times, double best, double flops, bool counted) {
    const double seconds = times * best, cpu = times * g_cpu;
    std::printf("  %-34s %9.3f s (cpu %8.3f s)  %8.1f GFLOP  %6.1f GFLOP/s  %5.1f%% of peak%s\n",
                name, seconds, cpu, flops / 1e9, flops / seconds / 1e9,
                100 * flops / seconds / 1e9 / peak, counted ? "" : "  (inside the row above)");
    if (counted) per_layer += seconds;
  };

  Block block = model->layers[0];  // a holder copy: its forward runs non-const
  PositionContext pos = make_position_context(cfg, l, torch::kFloat32, AttentionPath::kBlockwise);
  BlockCache bc;
  const double t_fwd = best_of(o.reps, [&] { block->forward(x, pos, &bc); });
  report("block forward (x2: pass + recompute)", 2, t_fwd, 2 * (linear + 2 * product), true);
  const double scale = 1.0 / std::sqrt(static_cast<double>(e));
  const double t_core = best_of(
      o.reps, [&] { blockwise_attention(bc.attn.q, bc.attn.k, bc.attn.v, pos.score, scale); });
  report("  attention core forward (x2)", 2, t_core, 2 * 2 * product, false);
  const double t_ent = best_of(o.reps, [&] { attention_entropy_ratio_sum(bc, pos); });
  report("attention entropy (float64)", 1, t_ent, product, true);
  BranchStrength strength;
  const double t_branch =
      best_of(o.reps, [&] { read_branch_strength(*block, bc, 0, 1, strength, o.stay_probes); });
  report("branch strengths (stay probes)", 1, t_branch, o.stay_probes * mlp_back, true);

  const auto dy = at::normal(0.0, 1.0, {o.cotangents, 1, l, d}, gen);
  const double t_back = best_of(o.reps, [&] { block->backward(bc, dy, pos); });
  const double core_back = product * (1 + 4 * cot);
  report("block backward", 1, t_back, cot * linear + core_back, true);
  torch::Tensor half;
  const double t_mlp = best_of(o.reps, [&] { half = block->mlp_half_sliced(bc, dy); });
  report("  MLP half", 1, t_mlp, cot * mlp_back, false);
  const double t_attn = best_of(o.reps, [&] { block->attn->backward(bc.attn, half, pos); });
  report("  attention half", 1, t_attn, cot * (linear - mlp_back) + core_back, false);
  const auto dz = at::normal(0.0, 1.0, {o.cotangents, 1, h, l, e}, gen);
  const auto z = bc.attn.z.view({1, l, h, e}).transpose(1, 2);
  const double t_core_back = best_of(o.reps, [&] {
    blockwise_attention_backward(bc.attn.q, bc.attn.k, bc.attn.v, z, bc.attn.lse, dz, pos.score,
                                 scale);
  });
  report("    attention core backward", 1, t_core_back, core_back, false);
  const double layers = static_cast<double>(o.layers);
  std::printf("  per layer %.1f s; x %lld layers = %.0f s (%.1f min), load %s\n", per_layer,
              static_cast<long long>(o.layers), per_layer * layers, per_layer * layers / 60,
              loadavg().c_str());
  return 0;
}
