// `theory --exact --format json` (ExactTheoryRecord, experiments/theory/theory_record.h): what
// the command writes reads back and writes out byte for byte, fields deep inside are refused by
// their dotted path; and α and the sink share are parsed once, at the command line, for the
// engine that runs (TheoryNumbers, experiments/theory/theory_command.h), accepting what each
// engine accepted before.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli_run.h"
#include "experiments/theory/theory_command.h"
#include "experiments/theory/theory_record.h"

namespace posbias {
namespace {

using nlohmann::json;
using posbias_test::run_cli;

std::string exact_json(const std::string& args) {
  const auto out = posbias_test::scratch_path("posbias_exact_record", "row.json");
  const auto r = run_cli("theory " + args + " --exact --format json --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.err;
  return posbias_test::slurp(out);
}

TEST(ExactTheoryRecordFields, WhatTheCommandWritesReadsBackByteForByte) {
  for (const std::string args :
       {"-L 40 -H 3 -a 0.3,1/3,1 --sink 1/10 --window 8", "-L 12 -H 2 -q 7", "-L 1 -H 0"}) {
    const std::string bytes = exact_json(args);
    const ExactTheoryRecord r = exact_theory_record_from_json(json::parse(bytes));
    EXPECT_EQ(to_json(r).dump(1) + "\n", bytes) << args;
    EXPECT_EQ(r.position.size(), r.fraction.size()) << args;
  }
  const ExactTheoryRecord r =
      exact_theory_record_from_json(json::parse(exact_json("-L 40 -H 3 -a 0.3,1/3,1 --sink 0.1")));
  EXPECT_EQ(r.config.alpha, (std::vector<std::string>{"3/10", "1/3", "1"}));
  EXPECT_EQ(r.config.sink, "1/10");
  EXPECT_TRUE(r.config.exact);
  EXPECT_FALSE(r.config.null_sink.has_value());
  // A null sink: its logit and the exact weight e^b taken (b = 0: exactly 1).
  const std::string sink_bytes = exact_json("-L 30 -H 2 --null-sink 0");
  const ExactTheoryRecord sink = exact_theory_record_from_json(json::parse(sink_bytes));
  EXPECT_EQ(to_json(sink).dump(1) + "\n", sink_bytes);
  EXPECT_EQ(sink.config.null_sink, 0.0);
  EXPECT_EQ(sink.config.null_sink_weight, "1");
  // A position of no influence (beyond the window's reach) is exactly 0, its log10 null.
  const ExactTheoryRecord windowed =
      exact_theory_record_from_json(json::parse(exact_json("-L 40 -H 1 --window 4")));
  EXPECT_EQ(windowed.fraction.front(), "0");
  EXPECT_TRUE(std::isnan(windowed.log10_influence.front()));
}

std::string message_of(const json& j) {
  try {
    exact_theory_record_from_json(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ExactTheoryRecordFields, FieldsDeepInsideAreRefusedByTheirPath) {
  const json good = json::parse(exact_json("-L 20 -H 2 -a 1/3"));
  json bad = good;
  bad["config"]["alpha"][0] = 0.5;  // exact values are text
  EXPECT_NE(message_of(bad).find("theory field 'config.alpha.0' must be a string"),
            std::string::npos)
      << message_of(bad);
  bad = good;
  bad["config"]["beta"] = "1";
  EXPECT_NE(message_of(bad).find("unknown theory field 'config.beta'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["config"].erase("layers");
  EXPECT_NE(message_of(bad).find("missing theory field 'config.layers'"), std::string::npos)
      << message_of(bad);
  bad = good;
  bad["fraction"][3] = 1;
  EXPECT_NE(message_of(bad).find("theory field 'fraction.3' must be a string"), std::string::npos)
      << message_of(bad);
}

TEST(TheoryNumbers, EachEngineReadsWhatItReadBefore) {
  const TheoryNumbers f = parse_theory_numbers("0.3, 0.5,1", "--alpha", false, true);
  EXPECT_EQ(f.values, (std::vector<double>{0.3, 0.5, 1}));
  EXPECT_TRUE(f.exact.empty());
  const TheoryNumbers e = parse_theory_numbers("0.3,1/3, 2.5e-1", "--alpha", true, true);
  ASSERT_EQ(e.exact.size(), 3u);
  EXPECT_EQ(e.exact[0], mpq_class(3, 10));
  EXPECT_EQ(e.exact[1], mpq_class(1, 3));
  EXPECT_EQ(e.exact[2], mpq_class(1, 4));
  EXPECT_TRUE(e.values.empty());
  EXPECT_EQ(parse_theory_numbers("1/7", "--sink", true, false).exact,
            (std::vector<mpq_class>{mpq_class(1, 7)}));
  EXPECT_EQ(parse_theory_numbers("0.25", "--sink", false, false).values,
            (std::vector<double>{0.25}));
  auto message = [](const std::string& text, bool exact, bool list) {
    try {
      parse_theory_numbers(text, list ? "--alpha" : "--sink", exact, list);
    } catch (const std::invalid_argument& err) {
      return std::string(err.what());
    }
    return std::string();
  };
  EXPECT_EQ(message("1/3", false, true),
            "--alpha must be a number or a comma-separated list, got '1/3'");
  EXPECT_EQ(message("0.1,0.2", false, false), "--sink must be one finite number, got '0.1,0.2'");
  EXPECT_EQ(message("-0.5", true, true),
            "'-0.5' is not a number (use a decimal like 0.18 or a fraction like 1/3)");
  EXPECT_EQ(message("0.1,0.2", true, false),
            "'0.1,0.2' is not a number (use a decimal like 0.18 or a fraction like 1/3)");
}

TEST(TheoryNumbers, TheCommandLineParsesThemForItsEngine) {
  // A fraction is exact mode's alone; the float engine refuses it in one line (exit 2).
  EXPECT_EQ(run_cli("theory -L 8 -H 2 -a 1/3 --exact").code, 0);
  const auto fraction = run_cli("theory -L 8 -H 2 -a 1/3");
  EXPECT_EQ(fraction.code, 2);
  EXPECT_NE(fraction.err.find("--alpha must be a number or a comma-separated list, got '1/3'"),
            std::string::npos)
      << fraction.err;
  const auto sink = run_cli("theory -L 8 -H 2 --sink 1/10");
  EXPECT_EQ(sink.code, 2);
  EXPECT_NE(sink.err.find("--sink must be a number or a comma-separated list, got '1/10'"),
            std::string::npos)
      << sink.err;
  EXPECT_EQ(run_cli("theory -L 8 -H 2 --sink 1/10 --exact").code, 0);
  // The defaults (α = 0.5, sink 0) serve both engines, and --help shows them as before.
  EXPECT_EQ(run_cli("theory -L 8 -H 2 --exact").out,
            run_cli("theory -L 8 -H 2 -a 1/2 --sink 0 --exact").out);
  const auto help = run_cli("theory --help");
  EXPECT_NE(help.out.find("-a,--alpha NUMBER|LIST=0.5"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--sink NUMBER=0 "), std::string::npos) << help.out;
  const auto fit = run_cli("theory fit --profile x.csv -H 2 --sink 1/10");
  EXPECT_EQ(fit.code, 2);
  EXPECT_NE(fit.err.find("--sink must be a number or a comma-separated list, got '1/10'"),
            std::string::npos)
      << fit.err;
}

}  // namespace
}  // namespace posbias
