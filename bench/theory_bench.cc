// Theory benchmark. In one run it times:
//   1. the influence row at L = 1e6, H = 96 (extended range, the path `posbias theory` uses),
//      alone, with its CSV written to /dev/null, and as a whole `posbias theory` process
//      (start-up, parsing, CSV to /dev/null), against a plain C loop doing the same passes
//      (double, uncompensated, one thread);
//   2. the start-up of `posbias --version` and `posbias theory -L 10 -H 2`;
//   3. the row at L = 2048, H = 24 against the peer a user would reach for: dense
//      torch.linalg.matrix_power in Python PyTorch (bench/theory_peer.py, /usr/bin/python3).
// It prints times, ratios, and GFLOP/s as a fraction of the machine's measured FMA peak.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "experiments/theory/theory_command.h"
#include "posbias/core/machine.h"
#include "posbias/theory/influence.h"
#include "run_command.h"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double best_of(int repeats, F&& f) {
  double best = INFINITY;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

// What a user would write by hand: the same recurrence in plain doubles.
double plain_loop(long length, int layers, double alpha) {
  std::vector<double> r(static_cast<std::size_t>(length), 0.0);
  r.back() = 1.0;
  for (int l = 0; l < layers; ++l) {
    double acc = 0;
    for (long j = length; j >= 1; --j) {
      acc += r[j - 1] / static_cast<double>(j);
      r[j - 1] = (1 - alpha) * r[j - 1] + alpha * acc;
    }
  }
  return r[0];
}

nlohmann::json run_peer(long length, int layers) {
  const std::string cmd = "/usr/bin/python3 " + std::string(POSBIAS_SOURCE_DIR) +
                          "/bench/theory_peer.py --length " + std::to_string(length) +
                          " --layers " + std::to_string(layers) + " --repeats 2 2>/dev/null";
  const std::string out = posbias::bench::run_command(cmd);
  if (out.empty()) return nullptr;
  return nlohmann::json::parse(out, nullptr, false);
}

}  // namespace

int main() {
  using namespace posbias;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const double peak = measure_fma_peak_gflops(cores);
  std::printf("machine: %d cores, measured FP32 FMA peak %.1f GFLOP/s\n\n", cores, peak);

  constexpr long kL = 1000000;
  constexpr int kH = 96;
  InfluenceSpec spec;
  spec.length = kL;
  spec.layers = kH;
  spec.alpha = {0.5};
  volatile double sink = 0;
  const double t_plain = best_of(3, [&] { sink = plain_loop(kL, kH, 0.5); });
  const double t_ext = best_of(3, [&] { sink = influence_row(spec)[0].log10(); });
  const double t_dbl = best_of(3, [&] { sink = influence_row_double(spec)[0]; });
  const double t_cli = best_of(3, [&] {
    const std::string csv = row_csv(influence_row(spec));
    FILE* f = std::fopen("/dev/null", "w");
    std::fwrite(csv.data(), 1, csv.size(), f);
    std::fclose(f);
  });
  const std::string process = std::string(POSBIAS_BIN) + " theory --layers " + std::to_string(kH) +
                              " --length " + std::to_string(kL) +
                              " --alpha 0.5 --format csv > /dev/null";
  bool process_ok = true;
  const double t_process =
      best_of(3, [&] { process_ok = process_ok && std::system(process.c_str()) == 0; });
  const double flops = 4.0 * kL * kH;  // divide, add, two multiply-adds per entry per layer
  std::printf("influence row, L = %ld, H = %d (best of 3)\n", kL, kH);
  std::printf("  plain C loop (double, 1 thread)      %7.3f s  %5.2f GFLOP/s  %.2f%% of peak\n",
              t_plain, flops / t_plain / 1e9, 100 * flops / t_plain / 1e9 / peak);
  std::printf("  posbias double engine                %7.3f s  ratio %.2fx the plain loop\n", t_dbl,
              t_dbl / t_plain);
  std::printf("  posbias extended-range engine        %7.3f s  ratio %.2fx\n", t_ext,
              t_ext / t_plain);
  std::printf("  posbias theory, CSV rows to /dev/null %7.3f s  ratio %.2fx\n", t_cli,
              t_cli / t_plain);
  if (process_ok) {
    std::printf("  `posbias theory` as a whole process  %7.3f s  ratio %.2fx  (target <= 4x)\n",
                t_process, t_process / t_plain);
  } else {
    std::printf("  `posbias theory` as a process failed: %s\n", process.c_str());
  }

  // Start-up: commands that need no libtorch must not load it (target <= 50 ms of wall time).
  std::printf("\nstart-up, whole process (best of 10)\n");
  for (const char* args : {"--version", "theory -L 10 -H 2"}) {
    const std::string cmd = std::string(POSBIAS_BIN) + " " + args + " > /dev/null";
    bool ok = true;
    const double t = best_of(10, [&] { ok = ok && std::system(cmd.c_str()) == 0; });
    std::printf("  posbias %-24s %7.1f ms%s  (target <= 50 ms)\n", args, 1000 * t,
                ok ? "" : " (failed)");
  }

  constexpr long kSmallL = 2048;
  constexpr int kSmallH = 24;
  spec.length = kSmallL;
  spec.layers = kSmallH;
  const double t_small = best_of(5, [&] { sink = influence_row(spec)[0].log10(); });
  const nlohmann::json peer = run_peer(kSmallL, kSmallH);
  std::printf("\ninfluence row, L = %ld, H = %d\n", kSmallL, kSmallH);
  std::printf("  posbias extended-range engine        %9.6f s\n", t_small);
  if (peer.is_object()) {
    const double t_peer = peer["seconds"];
    const double gflops = peer["gflops"];
    std::printf(
        "  torch.linalg.matrix_power (float64)  %9.6f s  %.1f GFLOP/s = %.1f%% of FP32 peak\n",
        t_peer, gflops, 100 * gflops / peak);
    std::printf("  speedup of posbias over the dense peer: %.0fx\n", t_peer / t_small);
    const double diff_first =
        std::fabs(peer["row_log10_first"].get<double>() - influence_row(spec)[0].log10());
    std::printf("  |log10 r_1 (peer) - log10 r_1 (posbias)| = %.2e\n", diff_first);
  } else {
    std::printf("  peer unavailable: /usr/bin/python3 with torch (python3-torch) is needed\n");
  }
  (void)sink;
  return 0;
}
