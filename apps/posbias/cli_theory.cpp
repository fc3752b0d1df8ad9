// `posbias theory`, `posbias theory fit`, `posbias theory compare`, `posbias theory shares` and
// `posbias theory design`.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "experiments/theory/compare_command.h"
#include "experiments/theory/design_command.h"
#include "experiments/theory/fit_command.h"
#include "experiments/theory/shares_command.h"
#include "experiments/theory/theory_command.h"
#include "experiments/theory/theory_option_fields.h"
#include "field_flags.h"
#include "parsed_options.h"
#include "posbias/core/query_position.h"

namespace posbias::cli {
namespace {

// How `theory` spells its rows' flags: -L, -H, -a and -q beside --length, --layers, --alpha and
// --query, an unset query shown as the last token; --exact set as the command line is parsed
// (it decides how α and the sink share are read), and a required row's flag required.
FieldFlagWords theory_flag_words() {
  return {{{"length", "-L"}, {"layers", "-H"}, {"alpha", "-a"}, {"query", "-q"}},
          {{"query", query_position_text(std::nullopt)}},
          {"exact"},
          true};
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
  add_path_option(fit, "--profile", f.profile,
                  "CSV with a 'position' column (0..L-1, query last; a file whose positions "
                  "start at 1 is read as 1-based) and an 'influence' column and/or per-seed "
                  "columns named seed*")
      ->required();
  add_field_flags(fit, fit_parsed.get(), fit_option_fields(), f, &f, "fit option",
                  theory_flag_words(),
                  [fit, parsed = fit_parsed.get(), &f](const std::string& name, CLI::Option*) {
                    if (name == "null_sink") add_paths_option(fit, parsed, &f.paths);
                  });
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
  auto lists = std::make_shared<DesignGridFlags>();
  CLI::App* design = cmd->add_subcommand(
      "design",
      "Inverse design at birth: the exact influence row of every operator of a grid (sliding "
      "window, ALiBi, sink share, null sink, α or a per-layer α ramp), ranked by the middle "
      "fifth's share (theory shares' regions), with each one's U test and whether `posbias birth` "
      "can build it (docs/mitigations.md).");
  DesignOptions& o = *options;
  add_field_flags(design, parsed.get(), design_option_fields(), o, &o, "design option",
                  theory_flag_words(),
                  [design, parsed = parsed.get(), lists = lists.get(), &o](const std::string& name,
                                                                           CLI::Option*) {
                    if (name == "query") add_paths_option(design, parsed, &o.paths);
                    if (name != "baseline_alpha") return;
                    add_field_flags(design, parsed, design_grid_flag_fields(), *lists, lists,
                                    "design option", {});
                  });
  add_output_option(design, "--json", o.json,
                    "result file: every operator by rank (default: stdout, or a summary on a "
                    "terminal)");
  add_output_option(design, "--csv", o.csv, "one row per operator: its knobs, shares and U test");
  add_output_option(design, "--plot", o.plot,
                    "figure stem: the best profiles beside the baseline, and the middle share "
                    "one knob at a time");
  design->callback([options, parsed, lists, selected] {
    *selected = [options, parsed, lists] {
      parsed->parse();
      options->grid = parse_design_grid(*lists, options->layers);
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
  add_field_flags(
      cmd, parsed.get(), theory_option_fields(), o, &o, "theory option", theory_flag_words(),
      [cmd, &o](const std::string& name, CLI::Option*) {
        if (name != "format") return;
        add_output_option(cmd, "-o,--out", o.out, "row output file (default: stdout)");
        add_output_option(
            cmd, "--summary", o.summary,
            "write the JSON summary (recency/primacy mass, dead zone, middle-to-ends ratio, "
            "continuum density grid) to this file");
        add_output_option(cmd, "--plot", o.plot,
                          "figure of the profile asked for: writes STEM.svg, STEM.png and STEM.gp");
        add_output_option(cmd, "--plot-sweep", o.plot_sweep,
                          "figure of the profile's depth and α sweeps (H/4, H/2, H, 2H; α "
                          "0.25..1): writes STEM.svg, STEM.png and STEM.gp");
      });
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
  add_path_option(compare, "runs", c.runs, "birth --json results (same length), two or more")
      ->required();
  FieldFlagWords compare_words = theory_flag_words();
  compare_words.lists = {{"labels", ','}};
  add_field_flags(compare, compare_parsed.get(), compare_option_fields(), c, &c, "compare option",
                  compare_words);
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
  add_path_option(shares, "runs", shares_options->runs, "birth --json results, one or more")
      ->required();
  add_path_option(shares, "--baseline", shares_options->baseline,
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
