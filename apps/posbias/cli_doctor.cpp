// `posbias doctor`: BLAS, threads, GEMM speed against the FMA peak.
#include <cstdio>

#include "commands.h"
#include "posbias/core/doctor.h"

namespace posbias::cli {

void register_doctor(CLI::App& app, Action* selected) {
  CLI::App* cmd = app.add_subcommand(
      "doctor",
      "Check this machine for fast libtorch work: the BLAS actually loaded (warns on the "
      "reference BLAS and openblas-pthread), torch threads, fp32 GEMM GFLOP/s against the "
      "measured FMA peak.");
  cmd->callback([selected] {
    *selected = [] {
      const std::string text = format_doctor(run_doctor());
      std::fputs(text.c_str(), stdout);
    };
  });
}

}  // namespace posbias::cli
