// Command registration for the posbias CLI. Each register_* adds one subcommand to the
// app and returns the action to run after parsing succeeds (parsing itself never runs work).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

namespace posbias::cli {

using Action = std::function<void()>;

// The selected subcommand's action is stored into *selected by the subcommand callback.
void register_theory(CLI::App& app, Action* selected);
void register_reproduce(CLI::App& app, Action* selected);
void register_doctor(CLI::App& app, Action* selected);
void register_birth(CLI::App& app, Action* selected);
void register_tasks(CLI::App& app, Action* selected);
void register_train(CLI::App& app, Action* selected);
void register_eval(CLI::App& app, Action* selected);
void register_heads(CLI::App& app, Action* selected);
void register_discrepancy(CLI::App& app, Action* selected);
void register_llm(CLI::App& app, Action* selected);
void register_serve(CLI::App& app, Action* selected);

// --paths, shared by `theory fit` and `birth`: how the fitted theory combines the paths.
inline CLI::Option* add_paths_option(CLI::App* cmd, std::string* paths) {
  return cmd
      ->add_option("--paths", *paths,
                   "how paths through different layer sets combine in the fitted theory: linear "
                   "(the paper's r = e_qᵀNᴴ) or quadrature (independent random path matrices add "
                   "in Frobenius norm; docs/birth.md)")
      ->capture_default_str();
}

}  // namespace posbias::cli
