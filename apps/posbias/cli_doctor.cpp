// `posbias doctor`: the machine part at once, then the torch part from the torch plugin.
#include <cstdio>

#include "commands.h"
#include "posbias/core/doctor.h"
#include "posbias/core/process_env.h"
#include "torch_plugin.h"

namespace posbias::cli {

void register_doctor(CLI::App& app, Action* selected) {
  CLI::App* cmd = app.add_subcommand(
      "doctor",
      "Check this machine for fast libtorch work: the BLAS actually loaded (warns on the "
      "reference BLAS and openblas-pthread), torch threads, fp32 GEMM GFLOP/s against the "
      "measured FMA peak.");
  cmd->callback([selected] {
    *selected = [] {
      prepare_torch_environment();  // report the environment torch commands run with
      DoctorReport report = machine_doctor();
      std::fputs(format_machine_doctor(report).c_str(), stdout);
      std::fflush(stdout);
      load_torch_plugin().doctor(&report);
      add_doctor_warnings(report);
      std::fputs(format_torch_doctor(report).c_str(), stdout);
    };
  });
}

}  // namespace posbias::cli
