// `posbias theory`, `posbias theory fit`, `posbias theory compare`, `posbias theory shares` and
// `posbias theory design`.
#include <functional>
#include <memory>
#include <optional>

#include "commands.h"
#include "experiments/theory/compare_command.h"
#include "experiments/theory/design_command.h"
#include "experiments/theory/fit_command.h"
#include "experiments/theory/shares_command.h"
#include "experiments/theory/theory_command.h"
#include "parsed_options.h"

namespace posbias::cli {
namespace {

// `parse_sink` reads --sink's text into its options (theory reads it for its engine, fit as a
// number).
void add_operator_options(
    CLI::App* cmd, ParsedOptions* parsed, std::int64_t* window, std::vector<double>* alibi_slopes,
    std::function<void(const std::string& text, const std::string& name)> parse_sink,
    std::optional<double>* null_sink) {
  parsed->add(cmd, "--window", window,
              "sliding-window attention: each query sees its last W keys (0 = all earlier keys)");
  parsed->add_parsed(cmd, "--alibi",
                     "ALiBi slopes: one slope m (expected attention ∝ exp(-m·distance)), a list "
                     "m1,m2,... averaged over heads, or heads:N for the standard 2^(-8h/N) slopes",
                     "", "SLOPES", [alibi_slopes](const std::string& text, const std::string&) {
                       *alibi_slopes = parse_alibi(text);
                     });
  parsed->add_parsed(cmd, "--sink",
                     "attention-sink share: each query puts this fraction of its mass on "
                     "position 0 (the first token), in [0, 1]",
                     "0", "NUMBER", std::move(parse_sink));
  parsed->add(cmd, "--null-sink", null_sink,
              "a null sink of logit b in every head (softmax off by one): each query's "
              "normalizer gains e^b and the sink carries no value, so uniform attention becomes "
              "1/(i + e^b); --exact takes the double nearest e^b as an exact rational");
}

// `theory fit`.
void add_fit_command(CLI::App* cmd, Action* selected) {
  auto fit_options = std::make_shared<FitOptions>();
  auto fit_parsed = std::make_shared<ParsedOptions>();
  CLI::App* fit = cmd->add_subcommand(
      "fit",
      "Fit α and a gain to a measured profile (log-space least squares) and report Spearman, "
      "log-space R², Wasserstein-1 and a bootstrap CI for α over seeds.");
  FitOptions& f = *fit_options;
  fit->add_option("--profile", f.profile,
                  "CSV with a 'position' column (0..L-1, query last; a file whose positions "
                  "start at 1 is read as 1-based) and an 'influence' column and/or per-seed "
                  "columns named seed*")
      ->required();
  fit_parsed->add(fit, "-H,--layers", &f.layers, "layers H of the theory (the model's depth)")
      ->required();
  add_operator_options(
      fit, fit_parsed.get(), &f.window, &f.alibi_slopes,
      [fo = fit_options.get()](const std::string& text, const std::string& name) {
        fo->sink = parse_number(text, name);
      },
      &f.null_sink);
  add_paths_option(fit, fit_parsed.get(), &f.paths);
  fit_parsed->add(fit, "--bootstrap", &f.bootstrap, "bootstrap resamples over seeds for the α CI");
  fit_parsed->add(fit, "--seed", &f.seed, "bootstrap RNG seed");
  add_output_option(fit, "--json", f.json, "result file (default: stdout)");
  add_output_option(fit, "--plot", f.plot, "figure stem: theory against the measured profile");
  fit->callback([fit_options, fit_parsed, selected] {
    *selected = [fit_options, fit_parsed] {
      fit_parsed->parse();
      run_fit(*fit_options);
    };
  });
}

// `theory design`.
void add_design_command(CLI::App* cmd, Action* selected) {
  auto options = std::make_shared<DesignOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* design = cmd->add_subcommand(
      "design",
      "Inverse design at birth: the exact influence row of every operator of a grid (sliding "
      "window, ALiBi, sink share, null sink, α or a per-layer α ramp), ranked by the middle "
      "fifth's share (theory shares' regions), with each one's U test and whether `posbias birth` "
      "can build it (docs/mitigations.md).");
  DesignOptions& o = *options;
  parsed->add(design, "-L,--length", &o.length, "sequence length L in tokens");
  parsed->add(design, "-H,--layers", &o.layers, "number of layers H (>= 1)");
  parsed->add(design, "-q,--query", &o.query,
              "the query's position, 0..L-1 (positions count from 0), or last");
  add_paths_option(design, parsed.get(), &o.paths);
  parsed->add(design, "--baseline-alpha", &o.baseline_alpha,
              "the baseline's α (every layer), in [0, 1]; added to --alphas when missing, and the "
              "only α birth can build an operator at");
  design->add_option("--windows", o.windows, "sliding windows W, >= 0 (0: none; always searched)")
      ->capture_default_str()
      ->type_name("LIST");
  design
      ->add_option("--alibis", o.alibis,
                   "ALiBi settings: none (always searched), a slope m >= 0, or heads:N for the "
                   "standard 2^(-8h/N) slopes")
      ->capture_default_str()
      ->type_name("LIST");
  design
      ->add_option("--sinks", o.sinks,
                   "attention-sink shares on position 0, in [0, 1] (0 always searched)")
      ->capture_default_str()
      ->type_name("LIST");
  design
      ->add_option("--null-sinks", o.null_sinks,
                   "null-sink logits b, |b| <= 700, or none (always searched)")
      ->capture_default_str()
      ->type_name("LIST");
  design->add_option("--alphas", o.alphas, "one α for every layer, each in [0, 1]")
      ->capture_default_str()
      ->type_name("LIST");
  design
      ->add_option("--ramps", o.ramps,
                   "per-layer α ramps a1:aH, linear from layer 1 to layer H, each in [0, 1]; "
                   "none for no ramp")
      ->capture_default_str()
      ->type_name("LIST");
  parsed->add(design, "--top", &o.top, "the best profiles drawn beside the baseline, 0..10");
  add_output_option(design, "--json", o.json,
                    "result file: every operator by rank (default: stdout, or a summary on a "
                    "terminal)");
  add_output_option(design, "--csv", o.csv, "one row per operator: its knobs, shares and U test");
  add_output_option(design, "--plot", o.plot,
                    "figure stem: the best profiles beside the baseline, and the middle share "
                    "one knob at a time");
  design->callback([options, parsed, selected] {
    *selected = [options, parsed] {
      parsed->parse();
      run_design(*options);
    };
  });
}

}  // namespace

void register_theory(CLI::App& app, Action* selected) {
  auto options = std::make_shared<TheoryOptions>();
  auto parsed = std::make_shared<ParsedOptions>();
  CLI::App* cmd = app.add_subcommand(
      "theory",
      "Exact influence profile at initialization: row q of Nᴴ, N = (1-α)I + αA (docs/theory.md).\n"
      "Writes CSV (position,influence,log10_influence) or JSON to stdout or --out.");
  TheoryOptions& o = *options;
  // α and the sink for the engine --exact chooses (a flag, set before these are parsed).
  auto theory_numbers = [opts = options.get()](TheoryNumbers TheoryOptions::*member, bool list) {
    return [opts, member, list](const std::string& text, const std::string& name) {
      opts->*member = parse_theory_numbers(text, name, opts->exact, list);
    };
  };
  parsed->add(cmd, "-L,--length", &o.length,
              "sequence length L in tokens (integer, 1e5 notation ok)");
  parsed->add(cmd, "-H,--layers", &o.layers, "number of layers H (>= 0)");
  parsed->add_parsed(
      cmd, "-a,--alpha",
      "residual weight α of the attention branch, in [0, 1]; or one value per layer a1,a2,...",
      "0.5", "NUMBER|LIST", theory_numbers(&TheoryOptions::alpha, true));
  parsed->add(cmd, "-q,--query", &o.query,
              "the query's position, 0..L-1 (positions count from 0), or last");
  add_operator_options(cmd, parsed.get(), &o.window, &o.alibi_slopes,
                       theory_numbers(&TheoryOptions::sink, false), &o.null_sink);
  cmd->add_flag(
      "--exact", o.exact,
      "exact rationals with GMP (q up to 20000; α and sink read as exact decimals or a/b), "
      "printed as fractions");
  parsed->add_choice(cmd, "--format", &o.format,
                     "row output format: csv or json (json includes the summary)", parse_row_format,
                     [](RowFormat f) { return to_string(f); });
  add_output_option(cmd, "-o,--out", o.out, "row output file (default: stdout)");
  add_output_option(
      cmd, "--summary", o.summary,
      "write the JSON summary (recency/primacy mass, dead zone, middle-to-ends ratio, "
      "continuum density grid) to this file");
  add_output_option(cmd, "--plot", o.plot,
                    "figure of the profile asked for: writes STEM.svg, STEM.png and STEM.gp");
  add_output_option(cmd, "--plot-sweep", o.plot_sweep,
                    "figure of the profile's depth and α sweeps (H/4, H/2, H, 2H; α 0.25..1): "
                    "writes STEM.svg, STEM.png and STEM.gp");
  parsed->add(cmd, "--epsilon", &o.epsilon, "primacy window as a fraction of q, in (0, 1]");
  parsed->add(cmd, "--grid", &o.grid, "points of the continuum density grid");
  cmd->callback([options, parsed, selected, cmd] {
    if (cmd->get_subcommands().empty()) {
      *selected = [options, parsed] {
        parsed->parse();
        run_theory(*options);
      };
    }
  });

  add_fit_command(cmd, selected);

  auto compare_options = std::make_shared<CompareOptions>();
  auto compare_parsed = std::make_shared<ParsedOptions>();
  CLI::App* compare = cmd->add_subcommand(
      "compare",
      "Score every measured profile of `posbias birth` results against every run's no-fit "
      "prediction (median |log10 error|), and say whether each profile is closest to its own: "
      "the discrimination test across depths, operators or init scales.");
  CompareOptions& c = *compare_options;
  compare->add_option("runs", c.runs, "birth --json results (same length), two or more")
      ->required();
  compare->add_option("--labels", c.labels, "one label per run (default: file stems)")
      ->delimiter(',');
  compare_parsed->add(compare, "--bootstrap", &c.bootstrap,
                      "bootstrap resamples of each run's seeds for its assignment");
  compare_parsed->add(compare, "--seed", &c.seed, "bootstrap RNG seed");
  add_output_option(compare, "--json", c.json, "result file (default: stdout)");
  add_output_option(compare, "--csv", c.csv,
                    "the error matrix with assignments and dead-zone depths");
  add_output_option(compare, "--plot", c.plot, "figure stem: the error matrix as a heatmap");
  compare->callback([compare_options, compare_parsed, selected] {
    *selected = [compare_options, compare_parsed] {
      compare_parsed->parse();
      run_compare(*compare_options);
    };
  });

  auto shares_options = std::make_shared<SharesOptions>();
  CLI::App* shares = cmd->add_subcommand(
      "shares",
      "Stored `posbias birth` results by their parts, from their per-seed profiles: the "
      "share of the influence in primacy (positions 0..7), the middle fifth, recency (the 8 "
      "positions before the query) and the query, with 95% t intervals over seeds, and the U "
      "test, which leaves the query out and can say \"no U\" (docs/birth.md).");
  shares->add_option("runs", shares_options->runs, "birth --json results, one or more")->required();
  shares->add_option("--baseline", shares_options->baseline,
                     "a birth --json result to pair every run with by seed: each region's change "
                     "log10(run / baseline) with its 95% t interval, and the verdict on the "
                     "middle fifth's share (helps, no effect, hurts; docs/mitigations.md)");
  add_output_option(shares, "--json", shares_options->json, "result file (default: stdout)");
  shares->callback([shares_options, selected] {
    *selected = [shares_options] { run_shares(*shares_options); };
  });

  add_design_command(cmd, selected);
}

}  // namespace posbias::cli
