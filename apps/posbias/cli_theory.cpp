// `posbias theory` and `posbias theory fit`.
#include <memory>

#include "commands.h"
#include "experiments/theory/fit_command.h"
#include "experiments/theory/theory_command.h"
#include "posbias/core/parse.h"

namespace posbias::cli {
namespace {

struct TheoryArgs {
  std::string length = "1024", layers = "24", query = "0", window = "0";
  TheoryOptions options;
};

struct FitArgs {
  std::string layers, window = "0", bootstrap = "200", seed = "0";
  FitOptions options;
};

void add_operator_options(CLI::App* cmd, std::string* window, std::string* alibi,
                          std::string* sink) {
  cmd->add_option(
         "--window", *window,
         "sliding-window attention: each query sees its last W keys (0 = all earlier keys)")
      ->capture_default_str();
  cmd->add_option("--alibi", *alibi,
                  "ALiBi slopes: one slope m (expected attention ∝ exp(-m·distance)), a list "
                  "m1,m2,... averaged over heads, or heads:N for the standard 2^(-8h/N) slopes");
  cmd->add_option("--sink", *sink,
                  "attention-sink share: each query puts this fraction of its mass on "
                  "position 1, in [0, 1]")
      ->capture_default_str();
}

}  // namespace

void register_theory(CLI::App& app, Action* selected) {
  auto args = std::make_shared<TheoryArgs>();
  CLI::App* cmd = app.add_subcommand(
      "theory",
      "Exact influence profile at initialization: row q of Nᴴ, N = (1-α)I + αA (DESIGN.md §1).\n"
      "Writes CSV (position,influence,log10_influence) or JSON to stdout or --out.");
  TheoryOptions& o = args->options;
  cmd->add_option("-L,--length", args->length,
                  "sequence length L in tokens (integer, 1e5 notation ok)")
      ->capture_default_str();
  cmd->add_option("-H,--layers", args->layers, "number of layers H (>= 0)")->capture_default_str();
  cmd->add_option(
         "-a,--alpha", o.alpha,
         "residual weight α of the attention branch, in [0, 1]; or one value per layer a1,a2,...")
      ->capture_default_str();
  cmd->add_option("-q,--query", args->query, "query position q, 1..L (0 = the last position)")
      ->capture_default_str();
  add_operator_options(cmd, &args->window, &o.alibi, &o.sink);
  cmd->add_flag(
      "--exact", o.exact,
      "exact rationals with GMP (q up to 20000; α and sink read as exact decimals or a/b), "
      "printed as fractions");
  cmd->add_option("--format", o.format,
                  "row output format: csv or json (json includes the summary)")
      ->capture_default_str();
  cmd->add_option("-o,--out", o.out, "row output file (default: stdout)");
  cmd->add_option("--summary", o.summary,
                  "write the JSON summary (recency/primacy mass, dead zone, middle-to-ends ratio, "
                  "continuum density grid) to this file");
  cmd->add_option("--plot", o.plot, "figure path stem: writes STEM.svg, STEM.png and STEM.gp");
  cmd->add_option("--epsilon", o.epsilon, "primacy window as a fraction of q, in (0, 1]")
      ->capture_default_str();
  cmd->add_option("--grid", o.grid, "points of the continuum density grid")->capture_default_str();
  cmd->callback([args, selected, cmd] {
    if (cmd->get_subcommands().empty()) {
      *selected = [args] {
        TheoryOptions opt = args->options;
        opt.length = parse_integer(args->length, "--length");
        opt.layers = parse_integer(args->layers, "--layers");
        opt.query = parse_integer(args->query, "--query");
        opt.window = parse_integer(args->window, "--window");
        run_theory(opt);
      };
    }
  });

  auto fargs = std::make_shared<FitArgs>();
  CLI::App* fit = cmd->add_subcommand(
      "fit",
      "Fit α and a gain to a measured profile (log-space least squares) and report Spearman, "
      "log-space R², Wasserstein-1 and a bootstrap CI for α over seeds.");
  FitOptions& f = fargs->options;
  fit->add_option("--profile", f.profile,
                  "CSV with a 'position' column (1..L, query at L) and an 'influence' column "
                  "and/or per-seed columns named seed*")
      ->required();
  fit->add_option("-H,--layers", fargs->layers, "layers H of the theory (the model's depth)")
      ->required();
  add_operator_options(fit, &fargs->window, &f.alibi, &f.sink);
  add_paths_option(fit, &f.paths);
  fit->add_option("--bootstrap", fargs->bootstrap, "bootstrap resamples over seeds for the α CI")
      ->capture_default_str();
  fit->add_option("--seed", fargs->seed, "bootstrap RNG seed")->capture_default_str();
  fit->add_option("--json", f.json, "result file (default: stdout)");
  fit->add_option("--plot", f.plot, "figure stem: theory against the measured profile");
  fit->callback([fargs, selected] {
    *selected = [fargs] {
      FitOptions opt = fargs->options;
      opt.layers = parse_integer(fargs->layers, "--layers");
      opt.window = parse_integer(fargs->window, "--window");
      const std::int64_t boot = parse_integer(fargs->bootstrap, "--bootstrap");
      if (boot < 0 || boot > 100000)
        throw std::invalid_argument("--bootstrap must be in 0..100000");
      opt.bootstrap = static_cast<int>(boot);
      opt.seed = parse_seed(fargs->seed);
      run_fit(opt);
    };
  });
}

}  // namespace posbias::cli
