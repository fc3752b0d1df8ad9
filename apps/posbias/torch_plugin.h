// The torch commands live in a shared library beside the executable (posbias-torch.so), which
// `posbias` loads with dlopen only when one of them runs. Two reasons:
// - start-up: `posbias --version`, `theory`, `tasks` and `llm` never load libtorch's 289 shared
//   libraries (about a second);
// - environment: OpenBLAS and OpenMP read OPENBLAS_CORETYPE and OMP_WAIT_POLICY when they load,
//   so `posbias` sets them first (prepare_torch_environment) and libtorch loads once, with them.
#pragma once

#include "posbias/core/doctor.h"

namespace posbias::cli {

struct TorchPlugin {
  // Runs a torch command line ("posbias birth ..."); returns the exit code (run_cli's contract).
  int (*run)(int argc, char** argv);
  // Doctor's torch part; throws what the measurement throws (the caller's run_cli reports it).
  void (*doctor)(DoctorReport* report);
};

// Prepares the environment, loads the plugin once and returns its entry points; throws
// std::runtime_error naming the library when it cannot be loaded.
const TorchPlugin& load_torch_plugin();

}  // namespace posbias::cli

// The plugin's one exported symbol.
extern "C" const posbias::cli::TorchPlugin* posbias_torch_plugin();
