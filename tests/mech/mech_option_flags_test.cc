// heads' and discrepancy's options tables through their commands' own flags (registered from the
// tables as the commands register them, parsed by CLI11 and each row's parser): the defaults give
// no flag; options with every field of the table set give each row's flag, in the table's order,
// and parse back to the same options.
#include "apps/posbias/mech_option_flags.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "../parse_flags.h"
#include "posbias/core/flag_text.h"
#include "posbias/mech/head_name.h"

namespace posbias {
namespace {

// `options` as a command line, parsed back through the command's flags; each row's flag given.
template <class Options, class AddFlags>
void expect_round_trip(const std::vector<FieldRow<Options>>& rows, const Options& options,
                       AddFlags add_flags) {
  EXPECT_EQ(fields_to_flags(rows, Options{}, Options{}), "");
  const std::string flags = fields_to_flags(rows, options, Options{});
  const Options parsed = posbias_test::parse_flags<Options>(
      flags, [&](CLI::App* app, cli::ParsedOptions* p, Options* o) {
        add_flags(app, p, o, [](const std::string&, CLI::Option*) {});
      });
  EXPECT_EQ(fields_to_json(rows, parsed), fields_to_json(rows, options)) << flags;
  std::size_t at = 0;
  for (const FieldRow<Options>& row : rows) {
    const std::size_t next = flags.find(row.flag + (row.type == "BOOL" ? "" : " "), at);
    EXPECT_NE(next, std::string::npos) << row.flag << " missing or out of order: " << flags;
    if (next != std::string::npos) at = next;
  }
}

TEST(MechOptionFlags, EveryHeadsFieldParsesBackInTheTablesOrder) {
  HeadsOptions o;
  o.run = "runs/number";
  o.checkpoints = parse_checkpoint_selection("500,1000");
  o.config = "hf/config.json";
  o.weights = "hf/model.safetensors";
  o.tokens = "tokens.txt";
  o.text = "lines with spaces.txt";
  o.tokenizer = "hf";
  o.length = 64;
  o.samples = 12;
  o.seed = 9'007'199'254'740'992ULL;  // 2^53
  o.tau = 2.5e-5;
  o.at_init = true;
  o.qk_scale = 0.25;
  o.rank_timeout = 30;
  o.causal = {true, true, {17, 24}, 8, 0, {0, 2}, true};
  expect_round_trip(heads_option_fields(), o, cli::add_heads_option_flags);
}

TEST(MechOptionFlags, EveryDiscrepancyFieldParsesBackInTheTablesOrder) {
  DiscrepancyCommandOptions o;
  o.function = Construction::kRetrieval;
  o.theta = 0.125;
  o.omega = 0.5;
  o.lengths = {9, 16};
  o.count = 3;
  o.seed = 7;
  o.search = "optimized";
  o.head_search.head_dim = 16;
  o.head_search.frequencies = SearchFrequencies::kRope;
  o.head_search.rope_theta = 500;
  o.head_search.starts = 0;
  o.head_search.steps = 5;
  o.run = "runs/letter";
  o.checkpoints = parse_checkpoint_selection("40");
  o.heads = {{0, 1}, {1, 0}};
  o.variant = Variant::kSeenJumps;
  expect_round_trip(discrepancy_option_fields(), o, cli::add_discrepancy_option_flags);
  // auto: unset θ and the auto heads, as --help shows them.
  const auto parsed = posbias_test::parse_flags<DiscrepancyCommandOptions>(
      "--theta auto --heads auto",
      [](CLI::App* app, cli::ParsedOptions* p, DiscrepancyCommandOptions* d) {
        cli::add_discrepancy_option_flags(app, p, d, [](const std::string&, CLI::Option*) {});
      });
  EXPECT_FALSE(parsed.theta.has_value());
  EXPECT_TRUE(parsed.heads.empty());
}

}  // namespace
}  // namespace posbias
