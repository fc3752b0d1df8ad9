// The command line as a user meets it: outputs, and bad input that must give one line on
// stderr and exit 2 (bad usage) or 1 (failed run), never a crash or a hang.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../cli_run.h"
#include "posbias/hf/safetensors.h"

namespace {

using namespace posbias_test;

TEST(Cli, TheoryCsvMatchesHandValues) {
  const CliResult r = run_cli("theory -L 3 -H 1 -a 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "position,influence,log10_influence");
  // e_3ᵀ N = (1/6, 1/6, 2/3), at positions 0, 1, 2
  EXPECT_NE(r.out.find("\n0,0.16666666666666666,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2,0.6666666666666666,"), std::string::npos) << r.out;
  const CliResult e = run_cli("theory -L 3 -H 1 -a 1/2 --exact");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("\n2,2/3,"), std::string::npos) << e.out;
}

TEST(Cli, TheoryJsonCarriesSummaryAndTinyValues) {
  const CliResult r = run_cli("theory -L 100000 -H 300 -a 0.99 --format json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["log10_influence"].size(), 100000u);
  double smallest = 0;
  for (const auto& v : j["log10_influence"]) smallest = std::min(smallest, v.get<double>());
  EXPECT_LT(smallest, -308);  // below double, still finite
  const auto& s = j["summary"];
  EXPECT_NEAR(s["discrete"]["log10_last"].get<double>(), j["log10_influence"].back().get<double>(),
              1e-12);
  EXPECT_LT(s["discrete"]["log10_last"].get<double>(), -590);  // (1-α)^H = 1e-600 plus O(1/L) paths
  EXPECT_GT(s["discrete"]["dead_zone"]["position"].get<int>(), 1);
  EXPECT_TRUE(s["continuum"]["primacy"]["mass"].is_number());
  EXPECT_TRUE(s["continuum"]["middle_to_ends"].is_number());
}

TEST(Cli, TheoryWritesFilesAndFigure) {
  const auto dir = scratch_path("posbias_cli_files", "d");  // a folder outside must exist
  std::filesystem::create_directories(dir);
  const CliResult r =
      run_cli("theory -L 512 -H 12 -a 0.5 --out " + (dir / "row.csv").string() + " --summary " +
              (dir / "s.json").string() + " --plot " + (dir / "fig").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines(slurp(dir / "row.csv")), 513);
  EXPECT_TRUE(nlohmann::json::parse(slurp(dir / "s.json")).contains("machine"));
  EXPECT_TRUE(std::filesystem::file_size(dir / "fig.png") > 1000);
  EXPECT_TRUE(std::filesystem::file_size(dir / "fig.svg") > 1000);
  std::filesystem::remove_all(dir);
}

TEST(Cli, FitRecoversTheoryProfile) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("posbias_cli_fit_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ASSERT_EQ(run_cli("theory -L 200 -H 10 -a 0.35 --out " + (dir / "p.csv").string()).code, 0);
  const CliResult r =
      run_cli("theory fit --profile " + (dir / "p.csv").string() + " -H 10 --json " +
              (dir / "fit.json").string() + " --plot " + (dir / "fit").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir / "fit.json"));
  EXPECT_NEAR(j["alpha"].get<double>(), 0.35, 1e-6);
  EXPECT_NEAR(j["spearman"].get<double>(), 1.0, 1e-9);
  EXPECT_TRUE(std::filesystem::exists(dir / "fit.png"));
  std::filesystem::remove_all(dir);
}

TEST(Cli, BadInputIsOneLineExitTwo) {
  expect_usage_error("theory -L 0", "length");
  expect_usage_error("theory -L -4", "length");
  expect_usage_error("theory -L abc", "--length");
  expect_usage_error("theory -L 2.5", "--length");
  expect_usage_error("theory -H -1", "layers");
  expect_usage_error("theory -a 1.5", "alpha");
  expect_usage_error("theory -a nan", "alpha");
  expect_usage_error("theory -a x", "--alpha");
  expect_usage_error("theory -L 10 -q 11", "query");
  expect_usage_error("theory -L 1e15", "memory");
  expect_usage_error("theory -L 1e300", "--length");
  expect_usage_error("theory --window -3", "window");
  expect_usage_error("theory --sink 2", "sink");
  expect_usage_error("theory --alibi -1", "ALiBi");
  expect_usage_error("theory --format xml", "--format");
  expect_usage_error("theory --exact --alibi 0.5", "irrational");
  expect_usage_error("theory --exact -L 30000", "exact");
  // Planned from the spec before any number is built: one line, exit 2.
  expect_usage_error(
      "theory --exact -L 20000 --layers 100",
      "theory --exact at query position 19999, H = 100 (numbers of up to 2882101 bits) needs "
      "about");
  expect_usage_error("theory --bogus", "bogus");
  expect_usage_error("nosuchcommand", "nosuchcommand");
  expect_usage_error("theory fit -H 3", "profile");
  // A flag takes no value but a bool: both ways a table's BOOL row is registered refuse one.
  expect_usage_error("theory --exact=maybe -L 4", "--exact");
  expect_usage_error("eval --run x --no-controls=maybe", "--no-controls");
  expect_usage_error("llm --quiet=maybe", "--quiet");
  // A list flag of a table is read when the action runs: what the command checks before then
  // goes by whether it was given (sweep collect's --metric beside --redraw).
  expect_usage_error("sweep collect --redraw c.json --plot p --metric m", "nothing else");
  // A table's list row of type INT is converted as the command line is parsed, as CLI11's typed
  // list is: its message, before any other flag's value is read.
  expect_usage_error("birth --depths 1,x", "Could not convert: --depths = 1,x");
  expect_usage_error("birth --length y --depths 1,x", "Could not convert: --depths = 1,x");
  // sweep run's --index from its table: required, an int.
  expect_usage_error("sweep run d", "--index is required");
  expect_usage_error("sweep run d --index 1e10", "--index must be in -2147483648..2147483647");
}

// `theory design`: its best operator's shares are those of the row `theory` prints for that
// operator alone, and its bad grids are one line, exit 2.
TEST(Cli, TheoryDesignRanksByTheSharesOfTheRowTheoryPrints) {
  const auto dir = scratch_path("posbias_cli_design", "d");
  std::filesystem::create_directories(dir);
  const CliResult r = run_cli(
      "theory design -L 80 -H 5 --windows 0,24 --alibis none,0.03 --sinks 0,0.1 --null-sinks "
      "none,2 --alphas 0.3,0.7 --ramps none --json " +
      (dir / "d.json").string() + " --csv " + (dir / "d.csv").string() + " --plot " +
      (dir / "d").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "d.png"));
  EXPECT_EQ(lines(slurp(dir / "d.csv")), 2 * 2 * 2 * 2 * 3 + 1);
  const auto j = nlohmann::json::parse(slurp(dir / "d.json"));
  for (const auto& op : {j["operators"][0], j["operators"][j["baseline_rank"].get<int>() - 1]}) {
    std::string args = "theory -L 80 -H 5 -a " + op["alpha"].get<std::string>() + " --window " +
                       std::to_string(op["window"].get<int>()) + " --sink " + op["sink"].dump();
    if (op["alibi"] != "none") args += " --alibi " + op["alibi"].get<std::string>();
    if (op["null_sink"] != "none") args += " --null-sink " + op["null_sink"].get<std::string>();
    const CliResult t = run_cli(args);
    ASSERT_EQ(t.code, 0) << args << "\n" << t.err;
    std::vector<double> row;
    std::istringstream in(t.out);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      const auto a = line.find(','), b = line.find(',', a + 1);
      row.push_back(std::stod(line.substr(a + 1, b - a - 1)));
    }
    ASSERT_EQ(row.size(), 80u);
    double total = 0, middle = 0, primacy = 0, recency = 0;
    for (double v : row) total += v;
    for (int p = 2 * 79 / 5; p < 3 * 79 / 5; ++p) middle += row[p];
    for (int p = 0; p < 8; ++p) primacy += row[p];
    for (int p = 71; p < 79; ++p) recency += row[p];
    EXPECT_NEAR(op["middle"].get<double>(), middle / total, 1e-12) << args;
    EXPECT_NEAR(op["primacy"].get<double>(), primacy / total, 1e-12) << args;
    EXPECT_NEAR(op["recency"].get<double>(), recency / total, 1e-12) << args;
    EXPECT_NEAR(op["query"].get<double>(), row.back() / total, 1e-12) << args;
  }
  EXPECT_EQ(j["operators"][j["baseline_rank"].get<int>() - 1]["baseline"], true);
  std::filesystem::remove_all(dir);
}

TEST(Cli, TheoryDesignBadInputIsOneLineExitTwo) {
  expect_usage_error("theory design --windows 0,-3", "--windows");
  expect_usage_error("theory design --alphas 1.5", "[0, 1]");
  expect_usage_error("theory design --ramps 0.2:1.5", "[0, 1]");
  expect_usage_error("theory design --ramps 0.2", "a1:aH");
  expect_usage_error("theory design --alibis -0.1", ">= 0");
  expect_usage_error("theory design --sinks 2", "[0, 1]");
  expect_usage_error("theory design --sinks ,", "one or more");
  expect_usage_error("theory design --null-sinks 800", "700");
  expect_usage_error("theory design --baseline-alpha -0.5", "[0, 1]");
  expect_usage_error("theory design -L 30", "middle fifth");
  expect_usage_error("theory design -L 1e15", "memory");
  std::string windows = "0";
  for (int w = 1; w < 4000; ++w) windows += "," + std::to_string(w);
  expect_usage_error("theory design --windows " + windows, "operators, more than");
}

TEST(Cli, FailedRunIsOneLineExitOne) {
  const CliResult r = run_cli("theory fit --profile /nonexistent.csv -H 3");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  const CliResult w = run_cli("theory -L 10 -H 2 --out /proc/version");
  EXPECT_EQ(w.code, 1) << w.err;
  EXPECT_EQ(lines(w.err), 1) << w.err;
}

// An output's missing folder is created inside the working directory and refused outside it,
// in one line and exit 2 as the command line is parsed, by every option that names an output,
// before any work; an existing folder outside is used.
TEST(Cli, OutputFoldersAreCreatedOnlyInsideTheWorkingDirectory) {
  namespace fs = std::filesystem;
  const fs::path dir = scratch_path("posbias_cli_folders", "d");
  fs::create_directories(dir / "work");
  fs::create_directories(dir / "outside");
  const std::string in_work = "cd " + (dir / "work").string() + " && timeout 60 " + POSBIAS_BIN;
  CliResult r = run_shell(in_work + " theory -L 10 -H 1 --out sub/row.csv --summary s/s.json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(slurp(dir / "work" / "sub" / "row.csv")), 11);
  EXPECT_TRUE(fs::is_regular_file(dir / "work" / "s" / "s.json"));
  r = run_shell(in_work + " theory -L 10 -H 1 --out ../outside/row.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(dir / "outside" / "row.csv"));

  const std::string missing = (dir / "outside" / "missing").string();
  const std::string refused =
      "' does not exist; create it first (posbias creates missing "
      "folders only inside the working directory)\n";
  r = run_shell(in_work + " theory -L 10 -H 1 --out " + missing + "/row.csv");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err,
            "posbias: error: --out " + missing + "/row.csv: the folder '" + missing + refused);
  // Refused before the work: a run that would train for hours stops at once.
  const auto start = std::chrono::steady_clock::now();
  r = run_shell(in_work + " train --task number --steps 1000000 --out " + missing + "/run");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err, "posbias: error: --out " + missing + "/run: the folder '" + missing + refused);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  // Every option that names an output, in every command.
  for (const std::string command : {"theory --out",
                                    "theory --summary",
                                    "theory --plot",
                                    "theory --plot-sweep",
                                    "theory fit --json",
                                    "theory fit --plot",
                                    "theory compare --json",
                                    "theory compare --csv",
                                    "theory compare --plot",
                                    "theory shares --json",
                                    "theory design --json",
                                    "theory design --csv",
                                    "theory design --plot",
                                    "tasks -o",
                                    "llm --db",
                                    "llm --json",
                                    "llm --csv",
                                    "llm --plot",
                                    "llm --write-templates",
                                    "seeds --json",
                                    "seeds --csv",
                                    "seeds --plot",
                                    "sweep plan -o",
                                    "sweep status --json",
                                    "sweep collect --json",
                                    "sweep collect --csv",
                                    "sweep collect --plot",
                                    "birth --json",
                                    "birth --csv",
                                    "birth --plot",
                                    "train --out",
                                    "eval --json",
                                    "eval --csv",
                                    "eval --plot",
                                    "heads --json",
                                    "heads --plot",
                                    "discrepancy --json",
                                    "discrepancy --plot",
                                    "serve --port-file",
                                    "reproduce -o"}) {
    r = run_shell(in_work + " " + command + " " + missing + "/x");
    EXPECT_EQ(r.code, 2) << command << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(refused), std::string::npos) << command << "\n" << r.err;
    // --help, before or after, prints the help: nothing would be written.
    r = run_shell(in_work + " " + command + " " + missing + "/x --help");
    EXPECT_EQ(r.code, 0) << command << "\n" << r.err;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << command << "\n" << r.out;
  }
  EXPECT_FALSE(fs::exists(missing));
}

// --stay-probes: the default count written out gives the same result; more probes change the
// positions prediction (not the measured profile); a re-score takes the count too.
TEST(Cli, StayProbesSetTheMonteCarloOfThePositionsGains) {
  const std::string birth =
      "birth --arch gpt2 --layers 2 --d-model 32 --heads 4 --length 24 --seeds 2 --bootstrap 0";
  auto nofit = [](const CliResult& r) {
    EXPECT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    return std::pair{j["nofit"]["profile"], j["profile"]};
  };
  const auto plain = nofit(run_cli(birth));
  const auto eight = nofit(run_cli(birth + " --stay-probes 8"));
  const auto more = nofit(run_cli(birth + " --stay-probes 64"));
  EXPECT_EQ(plain, eight);
  EXPECT_EQ(plain.second, more.second);  // the same measured profile
  EXPECT_NE(plain.first, more.first);    // another Monte Carlo estimate of the gains
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("posbias_cli_probes_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "b.json").string();
  ASSERT_EQ(run_cli(birth + " --json " + file).code, 0);
  const auto rescored = nofit(run_cli("birth --rescore " + file + " --stay-probes 64"));
  EXPECT_EQ(rescored.first, more.first);
  std::filesystem::remove_all(dir);
}

TEST(Cli, BirthMeasuresAndFits) {
  const auto dir = scratch_path("posbias_cli_birth", "d");  // a folder outside must exist
  std::filesystem::create_directories(dir);
  const CliResult r =
      run_cli("birth --arch gpt2 --layers 4 --d-model 32 --heads 4 --length 24 --seeds 3 --json " +
              (dir / "b.json").string() + " --csv " + (dir / "b.csv").string() + " --plot " +
              (dir / "b").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir / "b.json"));
  ASSERT_EQ(j["profile"].size(), 24u);
  ASSERT_EQ(j["profile_seeds"].size(), 3u);
  for (const char* key : {"spearman", "log_r2", "w1", "alpha", "attention_entropy_ratio"}) {
    EXPECT_TRUE(j[key].is_number()) << key;
  }
  EXPECT_EQ(j["alpha_ci"].size(), 2u);
  // Both path sums are fitted; the headline is --paths (quadrature by default).
  EXPECT_EQ(j["theory"]["paths"], "quadrature");
  EXPECT_EQ(j["path_sums"]["quadrature"]["log_r2"], j["log_r2"]);
  EXPECT_TRUE(j["path_sums"]["linear"]["log_r2"].is_number());
  EXPECT_NE(j["path_sums"]["linear"]["alpha"], j["alpha"]);
  EXPECT_GT(j["attention_entropy_ratio"].get<double>(), 0.99);  // uniform attention at init
  EXPECT_GT(j["profile"][0].get<double>(), j["profile"][12].get<double>());  // primacy
  EXPECT_GT(j["profile"][23].get<double>(), j["profile"][0].get<double>());  // recency anchor
  // Predictions with nothing fitted: per-layer α̂, unit-sum profiles over every position,
  // scores, and the held-out comparison of five models.
  for (const char* key : {"nofit", "rollout"}) {
    ASSERT_TRUE(j[key].is_object()) << key;
    EXPECT_EQ(j[key]["alpha"].size(), 4u) << key;
    ASSERT_EQ(j[key]["profile"].size(), 24u) << key;
    double sum = 0;
    for (const auto& v : j[key]["profile"]) sum += v.get<double>();
    EXPECT_NEAR(sum, 1.0, 1e-9) << key;
    EXPECT_TRUE(j[key]["median_abs_log10_error"].is_number()) << key;
    EXPECT_EQ(j[key]["median_abs_log10_error_ci"].size(), 2u) << key;
    EXPECT_TRUE(j[key]["argmin_measured"].is_number_integer()) << key;
    EXPECT_TRUE(j[key]["argmin_predicted"].is_number_integer()) << key;
  }
  EXPECT_EQ(j["nofit"]["estimator"], "positions");
  EXPECT_EQ(j["nofit"]["paths"], "quadrature");
  EXPECT_EQ(j["nofit_variants"].size(), 12u);  // 3 estimators × 2 path sums × theory, rollout
  EXPECT_TRUE(j["operator_control"].is_null());
  ASSERT_EQ(j["comparison"].size(), 5u);
  for (const auto& m : j["comparison"]) {
    EXPECT_TRUE(m["heldout_median_abs_log10_error"].is_number()) << m;
    EXPECT_EQ(m["free_params"].get<int>(),
              m["model"] == "theory_fit" || m["model"] == "power_law" || m["model"] == "exponential"
                  ? 2
                  : 0);
  }
  // The U by its parts, per seed, against sums taken here: at L = 24 the two end windows
  // (1..8, 16..23) and the query, no middle (it needs L >= 40) and so no U verdict.
  for (std::size_t s = 0; s < 3; ++s) {
    const auto& p = j["profile_seeds"][s];
    double total = 0, first8 = 0, last8 = 0;
    for (std::size_t i = 0; i < 24; ++i) total += p[i].get<double>();
    for (std::size_t i = 0; i < 8; ++i) first8 += p[i].get<double>();
    for (std::size_t i = 15; i < 23; ++i) last8 += p[i].get<double>();
    EXPECT_NEAR(j["shares"]["primacy"]["values"][s].get<double>(), first8 / total, 1e-12);
    EXPECT_NEAR(j["shares"]["recency"]["values"][s].get<double>(), last8 / total, 1e-12);
    EXPECT_NEAR(j["shares"]["query"]["values"][s].get<double>(), p[23].get<double>() / total,
                1e-12);
  }
  EXPECT_TRUE(j["shares"]["primacy"]["low"].is_number());
  EXPECT_FALSE(j["shares"].contains("middle"));
  EXPECT_NE(j["shares"]["unavailable"]["middle"].get<std::string>().find("L >= 40"),
            std::string::npos);
  EXPECT_EQ(j["u_test"]["verdict"], "not testable");
  // theory shares reads the stored result and gives the same shares without measuring.
  const CliResult stored = run_cli("theory shares " + (dir / "b.json").string());
  ASSERT_EQ(stored.code, 0) << stored.err;
  const auto js = nlohmann::json::parse(stored.out);
  EXPECT_EQ(js["runs"][0]["shares"], j["shares"]);
  EXPECT_EQ(js["runs"][0]["seeds"], 3);
  const CliResult bad = run_cli("theory shares " + (dir / "b.csv").string());
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  // At L = 48 the middle (18..27) exists and the test gives a verdict with both differences.
  const CliResult m = run_cli(
      "birth --arch gpt2 --layers 2 --d-model 32 --heads 4 --length 48 "
      "--seeds 2 --bootstrap 0");
  ASSERT_EQ(m.code, 0) << m.err;
  const auto jm = nlohmann::json::parse(m.out);
  EXPECT_EQ(jm["shares"]["regions"]["middle"], (std::vector<int>{18, 27}));
  const std::string verdict = jm["u_test"]["verdict"].get<std::string>();
  EXPECT_TRUE(verdict == "U" || verdict == "no U") << verdict;
  EXPECT_EQ(jm["u_test"]["middle_vs_recency"]["values"].size(), 2u);
  EXPECT_NE(m.err.find("birth: U test"), std::string::npos) << m.err;
  // The CSV feeds `theory fit` directly.
  const CliResult f = run_cli("theory fit --profile " + (dir / "b.csv").string() + " -H 4");
  EXPECT_EQ(f.code, 0) << f.err;
  // Without GPT-2's 1/sqrt(2·layers) residual scaling the attention branch is stronger: the
  // middle keeps more influence relative to the query's own position.
  const CliResult u = run_cli(
      "birth --arch gpt2 --layers 4 --d-model 32 --heads 4 --length 24 --seeds 3 "
      "--init unscaled --json " +
      (dir / "u.json").string());
  ASSERT_EQ(u.code, 0) << u.err;
  const auto ju = nlohmann::json::parse(slurp(dir / "u.json"));
  EXPECT_EQ(j["measurement"]["init"], "hf");
  EXPECT_EQ(ju["measurement"]["init"], "unscaled");
  auto middle_share = [](const nlohmann::json& p) {
    return p["profile"][12].get<double>() / p["profile"][23].get<double>();
  };
  EXPECT_GT(middle_share(ju), 1.5 * middle_share(j));
  std::filesystem::remove_all(dir);
}

TEST(Cli, BirthBadInput) {
  expect_usage_error("birth --arch nope", "nope");
  // A name that is neither a preset nor a family: the line lists both kinds and suggests.
  expect_usage_error("birth --arch qwen2-1.5b", "a preset: gpt2, gpt2-medium, qwen2-0.5b");
  expect_usage_error("birth --arch tinyllama", "did you mean 'tinyllama-1.1b'?");
  expect_usage_error("birth --arch gpt2 --d-model 30 --heads 4 --layers 1", "divide");
  expect_usage_error("birth --length 0", "--length");
  expect_usage_error("birth --length -3", "--length");
  expect_usage_error("birth --seeds 0", "--seeds");
  expect_usage_error("birth --method magic", "magic");
  expect_usage_error("birth --paths cubic", "cubic");
  expect_usage_error("birth --init xavier", "xavier");
  expect_usage_error("birth --pos sideways", "sideways");
  expect_usage_error("birth --weights x.safetensors", "--config");
  expect_usage_error("birth --window 0", "--window");
  expect_usage_error("birth --window -4", "--window");
  expect_usage_error("birth --arch gpt2 --layers 2 --d-model 32 --heads 4 --length 24 --window 4",
                     "reaches 6 keys back");
  expect_usage_error("birth --stay-probes 0", "--stay-probes");
  expect_usage_error("birth --attn-init-scale 0", "--attn-init-scale");
  expect_usage_error("birth --attn-init-scale -1", "--attn-init-scale");
  expect_usage_error("birth --attn-init-scale nan", "--attn-init-scale");
  expect_usage_error("birth --attn-init-scale inf", "--attn-init-scale");
  // the flag's earlier name is refused, naming the new one
  expect_usage_error("birth --attn-scale 4", "is now --attn-init-scale");
  // positions count from 0: the last token of L = 8 is 7, and 8 is past it
  expect_usage_error("birth -L 8 -q 8", "0..7");
  expect_usage_error("theory -L 8 -q 8", "0..7");
  expect_usage_error("theory -L 8 -q -1", "--query");
  expect_usage_error("birth --alpha-estimator guess", "guess");
  // Memory is planned before anything is allocated: one line naming the bytes, exit 2.
  expect_usage_error("birth --arch qwen2-0.5b --length 65536", "available");
  expect_usage_error("birth --arch gpt2 --length 20000 --attention dense",
                     "(dense attention) needs about");
  expect_usage_error("birth --arch gpt2 --length 4096 --memory-budget 0.5", "--memory-budget");
  expect_usage_error("birth --memory-budget -1", "--memory-budget");
  // Token files: a line without end is refused at its limit, and --seeds beside --tokens (which
  // measures every line) is an error, not silently ignored.
  expect_error("birth --arch gpt2 --length 16 --tokens /dev/zero", "/dev/zero line 1 is longer", 1);
  expect_usage_error("birth --arch gpt2 --length 16 --tokens /dev/null --seeds 3", "drop --seeds");
  expect_usage_error("birth --layers 1e20", "--layers must be in");
  expect_usage_error("birth --attention sparse", "auto, dense or blockwise");
  expect_usage_error("birth --length 10000000", "--length");
  expect_usage_error("birth --arch gpt2 --length 1000000 --method hutchinson --memory-budget 8",
                     "needs about");
  expect_usage_error("birth --resume", "--resume needs --json");
  const auto dir = std::filesystem::temp_directory_path() /
                   ("posbias_cli_hostile_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string cfg = std::string(POSBIAS_SOURCE_DIR) + "/tests/golden/models/gpt2/config.json";
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  };
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"empty.safetensors", ""},
           {"huge.safetensors", std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}"},
           {"badjson.safetensors", std::string("\x05\0\0\0\0\0\0\0{oops", 13)},
           {"nothing.safetensors", std::string("\x02\0\0\0\0\0\0\0{}", 10)}}) {
    const CliResult r = run_cli("birth --config " + cfg + " --weights " + write(name, bytes) +
                                " --length 6 --seeds 1");
    EXPECT_EQ(r.code, 1) << name << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << name << ": " << r.err;
  }
  const CliResult bad_cfg =
      run_cli("birth --config " + write("c.json", "{\"model_type\": \"gpt2\", \"n_embd\": -4}") +
              " --weights " + write("w.safetensors", "x") + " --length 6");
  EXPECT_NE(bad_cfg.code, 0);
  EXPECT_EQ(lines(bad_cfg.err), 1) << bad_cfg.err;
  std::filesystem::remove_all(dir);
}

// A Llama checkpoint measured from its one file and from two shards and their index gives the
// same profile; a missing shard, a shard outside the index's folder and a Llama feature posbias
// does not build are each one line naming it.
TEST(Cli, BirthReadsLlamaAndShardedCheckpoints) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("posbias_cli_shards_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path golden = fs::path(POSBIAS_SOURCE_DIR) / "tests/golden/models/llama";
  const posbias::SafetensorsFile whole =
      posbias::SafetensorsFile::open(golden / "model.safetensors");
  std::vector<posbias::OwnedTensor> first, second;
  nlohmann::json map = nlohmann::json::object();
  const std::vector<std::string> names = whole.names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const posbias::TensorView& v = whole.get(names[i]);
    const bool in_first = i % 2 == 0;
    (in_first ? first : second).push_back({names[i], v.shape, posbias::to_float32(v)});
    map[names[i]] =
        in_first ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
  }
  posbias::write_safetensors(dir / "model-00001-of-00002.safetensors", first);
  posbias::write_safetensors(dir / "model-00002-of-00002.safetensors", second);
  auto write_index = [&](const std::string& file, const nlohmann::json& weight_map) {
    std::ofstream(dir / file) << nlohmann::json{{"weight_map", weight_map}}.dump();
    return (dir / file).string();
  };
  const std::string index = write_index("model.safetensors.index.json", map);
  std::ofstream(dir / "tokens.txt") << "1 5 9 2 30 7 11 4 16 3 8 12\n3 3 20 1 0 36 5 5 9 10 2 1\n";
  const std::string measure = "birth --config " + (golden / "config.json").string() + " --tokens " +
                              (dir / "tokens.txt").string() + " --length 12 --method exact";
  const CliResult one = run_cli(measure + " --weights " + (golden / "model.safetensors").string() +
                                " --json " + (dir / "one.json").string());
  ASSERT_EQ(one.code, 0) << one.err;
  const CliResult sharded =
      run_cli(measure + " --weights " + index + " --json " + (dir / "sharded.json").string());
  ASSERT_EQ(sharded.code, 0) << sharded.err;
  const auto profile = [&](const std::string& file) {
    std::ifstream in(dir / file);
    return nlohmann::json::parse(in).at("profile").get<std::vector<double>>();
  };
  EXPECT_EQ(profile("one.json"), profile("sharded.json"));
  EXPECT_EQ(profile("one.json").size(), 12u);

  nlohmann::json missing = map;
  missing["model.norm.weight"] = "model-00003-of-00003.safetensors";
  expect_error(measure + " --weights " + write_index("missing.index.json", missing),
               "shard 'model-00003-of-00003.safetensors' does not exist", 1);
  nlohmann::json escaping = map;
  escaping["model.norm.weight"] = "../model-00001-of-00002.safetensors";
  expect_error(measure + " --weights " + write_index("escaping.index.json", escaping),
               "holds a path separator", 1);
  nlohmann::json moved = map;
  moved["model.norm.weight"] = map["model.norm.weight"] == "model-00001-of-00002.safetensors"
                                   ? "model-00002-of-00002.safetensors"
                                   : "model-00001-of-00002.safetensors";
  expect_error(measure + " --weights " + write_index("moved.index.json", moved),
               "tensor 'model.norm.weight' is listed in shard", 1);
  std::ofstream(dir / "broken.index.json") << "{\"weight_map\": {";
  expect_error(measure + " --weights " + (dir / "broken.index.json").string(), "not valid JSON", 1);

  // A Llama 3 config (rope_scaling llama3) is refused by its field, before any weight is read.
  std::ifstream in(golden / "config.json");
  nlohmann::json llama3 = nlohmann::json::parse(in);
  llama3["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", 32.0}};
  std::ofstream(dir / "llama3.json") << llama3.dump();
  const CliResult refused =
      run_cli("birth --config " + (dir / "llama3.json").string() + " --weights " + index +
              " --tokens " + (dir / "tokens.txt").string() + " --length 12");
  EXPECT_NE(refused.code, 0);
  EXPECT_EQ(lines(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("rope_scaling"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("'llama3'"), std::string::npos) << refused.err;
  fs::remove_all(dir);
}

// `posbias` itself links no libtorch: the commands that need none start without loading it.
// `theory compare` on two hand-made birth results: each profile is its own prediction
// rescaled, so both are assigned to themselves; bad input is one line.
TEST(Cli, TheoryCompareAssignsAndRefusesBadRuns) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("posbias_cli_compare_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto run_json = [&](const std::string& name, const std::vector<double>& p, int layers) {
    std::vector<double> twice = p;
    for (double& v : twice) v *= 2;
    nlohmann::json j = {{"profile", p},
                        {"profile_seeds", {p, twice}},
                        {"nofit", {{"alpha", std::vector<double>(layers, 0.2)}, {"profile", p}}}};
    const auto file = dir / name;
    std::ofstream(file) << j.dump();
    return file.string();
  };
  const std::string a = run_json("a.json", {9, 3, 1, 2, 20}, 2);
  const std::string b = run_json("b.json", {9, 1, 0.2, 0.3, 20}, 4);
  const CliResult r =
      run_cli("theory compare " + a + " " + b + " --labels A,B --csv " + (dir / "c.csv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["correct"], 2);
  EXPECT_EQ(j["runs"][1]["assigned"], "B");
  EXPECT_GT(j["runs"][0]["margin"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["runs"][1]["dead_zone"]["one_over_h_minus_1_factorial"].get<double>(),
                   1.0 / 6);
  EXPECT_NE(slurp(dir / "c.csv").find("\"vs A\""), std::string::npos);
  // On a terminal without --json: each run's assignment and where the JSON is.
  const CliResult tty = run_shell("script -qec '" + std::string(POSBIAS_BIN) + " theory compare " +
                                  a + " " + b + " --labels A,B' /dev/null");
  ASSERT_EQ(tty.code, 0) << tty.out;
  EXPECT_NE(tty.out.find("theory compare: 2 of 2 measured profiles closest to their own"),
            std::string::npos)
      << tty.out;
  EXPECT_NE(tty.out.find("  B: closest to its own (margin "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("is not printed on a terminal"), std::string::npos) << tty.out;
  expect_usage_error("theory compare " + a, "2..");
  expect_usage_error("theory compare " + a + " " + b + " --labels A", "--labels");
  const std::string short_run = run_json("s.json", {9, 3, 1, 20}, 2);
  expect_usage_error("theory compare " + a + " " + short_run, "one length");
  std::ofstream(dir / "bad.json") << R"({"profile": [1, -2, 3]})";
  for (const std::string& bad : {(dir / "bad.json").string(), (dir / "none.json").string()}) {
    const CliResult f = run_cli("theory compare " + a + " " + bad);
    EXPECT_EQ(f.code, 1) << f.err;
    EXPECT_EQ(std::count(f.err.begin(), f.err.end(), '\n'), 1) << f.err;
  }
  std::filesystem::remove_all(dir);
}

TEST(Cli, ExecutableLinksNoTorch) {
  const CliResult r = run_shell(std::string("ldd ") + POSBIAS_BIN);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("libc.so"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libtorch"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("libgomp"), std::string::npos) << r.out;  // OpenMP reads its env at load
  EXPECT_EQ(r.out.find("openblas"), std::string::npos) << r.out;
}

// The torch commands run with OMP_WAIT_POLICY=PASSIVE and every core, unless the user said
// otherwise: a user's own OMP_WAIT_POLICY and OMP_NUM_THREADS win.
TEST(Cli, TorchEnvironmentKeepsTheUsersChoice) {
  const CliResult plain = run_shell("env -u OMP_WAIT_POLICY -u OMP_NUM_THREADS " +
                                    std::string(POSBIAS_BIN) + " doctor");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.out.find("OpenMP waits:   PASSIVE"), std::string::npos) << plain.out;
  const CliResult user = run_shell("env OMP_WAIT_POLICY=ACTIVE OMP_NUM_THREADS=1 " +
                                   std::string(POSBIAS_BIN) + " doctor");
  ASSERT_EQ(user.code, 0) << user.err;
  EXPECT_NE(user.out.find("OpenMP waits:   ACTIVE"), std::string::npos) << user.out;
  EXPECT_NE(user.out.find("torch threads:  1 "), std::string::npos) << user.out;
}

TEST(Cli, HelpExplainsOptions) {
  const CliResult r = run_cli("theory --help");
  EXPECT_EQ(r.code, 0);
  for (const char* opt : {"--length", "--layers", "--alpha", "--query", "--window", "--alibi",
                          "--sink", "--exact", "--format", "--out", "--plot", "--summary"}) {
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
  }
}

// --help names a number's type: no option whose default is a number (or a list of numbers)
// shows as TEXT (train showed `--length TEXT=17`); train's fields show INT, NUMBER or LIST.
TEST(Cli, HelpNamesNumericTypes) {
  const std::regex text_number(R"(TEXT=[-.0-9])");
  for (const char* command : {"theory", "birth", "train", "eval", "heads", "tasks", "seeds", "llm",
                              "serve", "launch", "discrepancy", "reproduce", "sweep"}) {
    const CliResult r = run_cli(std::string(command) + " --help");
    ASSERT_EQ(r.code, 0) << command << "\n" << r.err;
    std::istringstream lines_in(r.out);
    for (std::string line; std::getline(lines_in, line);)
      EXPECT_FALSE(std::regex_search(line, text_number)) << command << ": " << line;
  }
  const CliResult train = run_cli("train --help");
  for (const char* shown : {"-L,--length INT=17", "--lr NUMBER=0.001", "--hops LIST=1,2,3,4",
                            "--task NAME=number", "--corpus PATH"})
    EXPECT_NE(train.out.find(shown), std::string::npos) << shown << "\n" << train.out;
}

// --help names the type of a value that is not free text: a named choice NAME, a number or
// auto NUMBER|auto, a comma list LIST, an address ADDRESS (these showed as TEXT).
TEST(Cli, HelpNamesChoiceTypes) {
  const std::vector<std::pair<std::string, std::string>> shown = {
      {"discrepancy", "--function NAME=index"},
      {"discrepancy", "--theta NUMBER|auto=auto"},
      {"discrepancy", "--search NAME"},
      {"discrepancy", "--frequencies NAME=free"},
      {"discrepancy", "--heads auto|LIST=auto"},
      {"discrepancy", "--variant NAME=standard"},
      {"birth", "--target NAME"},
      {"birth", "--inputs NAME=text"},
      {"llm", "--suite LIST=number,letter,needle"},
      {"llm", "--score NAME=lenient"},
      {"llm", "--endpoint URL"},
      {"llm", "--model NAME"},
      {"llm", "--api-key-env NAME=OPENAI_API_KEY"},
      {"sweep collect", "--metric NAME"},
      {"seeds", "--compare LABEL=PATHS"},
      {"serve", "--run PATH|NAME=PATH"},
      {"launch", "--master-addr ADDRESS"}};
  for (const auto& [command, option] : shown) {
    const CliResult r = run_cli(command + " --help");
    ASSERT_EQ(r.code, 0) << command << "\n" << r.err;
    const std::string flag = option.substr(0, option.find(' ') + 1);
    const std::size_t at = r.out.find("  " + flag);
    ASSERT_NE(at, std::string::npos) << command << ": " << flag << "\n" << r.out;
    EXPECT_EQ(r.out.compare(at + 2, option.size(), option), 0)
        << command << ": " << r.out.substr(at, r.out.find('\n', at) - at);
  }
}

// TEXT is left for free text: no option of any command or subcommand (found from each --help's
// Subcommands list) shows it but those below; a file, folder or figure stem shows PATH (about 80
// of them showed TEXT), an endpoint URL, a model's or a variable's name NAME.
TEST(Cli, HelpShowsTextOnlyForFreeText) {
  const std::vector<std::string> free_text = {"launch command", "theory compare --labels"};
  const std::regex option_line(R"(^  (?:-\w,)?(\S+) TEXT\b)");
  std::vector<std::string> commands = {""}, text_options;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const CliResult r = run_cli(commands[i] + " --help");
    ASSERT_EQ(r.code, 0) << commands[i] << "\n" << r.err;
    std::istringstream lines_in(r.out);
    bool in_subcommands = false;
    for (std::string line; std::getline(lines_in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, option_line))
        text_options.push_back(commands[i] + " " + m[1].str());
      if (line.rfind(' ', 0) != 0) in_subcommands = line == "Subcommands:";  // a heading
      if (!in_subcommands || line.rfind("  ", 0) != 0 || line[2] == ' ') continue;
      const std::string name = line.substr(2, line.find(' ', 2) - 2);
      commands.push_back(commands[i].empty() ? name : commands[i] + " " + name);
    }
  }
  EXPECT_GT(commands.size(), 20u);  // the commands and theory's, tasks' and sweep's subcommands
  std::sort(text_options.begin(), text_options.end());
  EXPECT_EQ(text_options, free_text);
}

// Results that cannot reach stdout fail the run in one line (`> /dev/full` exited 0).
TEST(Cli, StdoutWriteErrorsFailInOneLine) {
  const auto dir = scratch_path("posbias_cli_full", "d");
  std::filesystem::create_directories(dir);
  const std::string good = (dir / "good.jsonl").string();
  ASSERT_EQ(run_cli("tasks --task number --hops 1 -L 20 --count 3 -o " + good).code, 0);
  for (const std::string& args :
       {std::string("theory -L 100 -H 2"), std::string("theory -L 100 -H 2 --format json"),
        std::string("tasks --task number --hops 1 -L 20 --count 3"), "tasks check " + good,
        std::string("theory --help")}) {
    const CliResult r =
        run_shell("(timeout 60 " + std::string(POSBIAS_BIN) + " " + args + " >/dev/full)");
    EXPECT_EQ(r.code, 1) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("cannot write the result to stdout"), std::string::npos) << r.err;
  }
  const CliResult to_file = run_cli("theory -L 100 -H 2 --out /dev/full");
  EXPECT_EQ(to_file.code, 1) << to_file.err;
  EXPECT_NE(to_file.err.find("/dev/full"), std::string::npos) << to_file.err;
  const CliResult ok = run_cli("theory -L 100 -H 2");  // the same run to a pipe works
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(lines(ok.out), 101);
}

// Outputs follow a symbolic link to the file it names (the link survives), write through a
// FIFO, a device and /dev/stdout, and refuse a dangling link or a folder, changing nothing.
TEST(Cli, OutputsFollowLinksAndWriteThroughDevices) {
  namespace fs = std::filesystem;
  const auto dir = scratch_path("posbias_cli_outputs", "d");
  fs::create_directories(dir / "elsewhere");
  const std::string d = dir.string();
  std::ofstream(dir / "elsewhere" / "row.csv") << "old";
  fs::create_symlink(dir / "elsewhere" / "row.csv", dir / "row.csv");
  std::ofstream(dir / "elsewhere" / "fig.svg") << "old";
  fs::create_symlink(dir / "elsewhere" / "fig.svg", dir / "fig.svg");
  CliResult r = run_cli("theory -L 100 -H 2 --out " + d + "/row.csv --plot " + d + "/fig");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "row.csv"));
  EXPECT_EQ(lines(slurp(dir / "elsewhere" / "row.csv")), 101);
  EXPECT_TRUE(fs::is_symlink(dir / "fig.svg"));
  EXPECT_NE(slurp(dir / "elsewhere" / "fig.svg").find("<svg"), std::string::npos);
  EXPECT_TRUE(fs::is_regular_file(dir / "fig.png"));
  // --plot draws the profile asked for (its minimum marked); --plot-sweep its sweeps.
  const std::string profile = slurp(dir / "fig.gp");
  EXPECT_NE(profile.find("L = 100, H = 2, α = 0.5"), std::string::npos) << profile;
  EXPECT_NE(profile.find("minimum, position 98"), std::string::npos) << profile;
  EXPECT_EQ(profile.find("varying depth"), std::string::npos) << profile;
  r = run_cli("theory -L 100 -H 2 --out " + d + "/row2.csv --plot-sweep " + d + "/sweep");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(slurp(dir / "sweep.gp").find("varying depth"), std::string::npos);
  r = run_cli("theory -L 10 -H 2 --exact --plot " + d + "/exact");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  for (const auto& e : fs::directory_iterator(dir))  // the figure's work folder is gone
    EXPECT_EQ(e.path().filename().string().find(".plot"), std::string::npos) << e.path();

  fs::create_symlink(dir / "missing.csv", dir / "dangling.csv");
  for (const std::string& out : {d + "/dangling.csv", d + "/elsewhere"}) {
    r = run_cli("theory -L 100 -H 2 --out " + out);
    EXPECT_EQ(r.code, 1) << out << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("refusing to write '" + out + "'"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_symlink(dir / "dangling.csv"));
  EXPECT_FALSE(fs::exists(dir / "missing.csv"));
  EXPECT_TRUE(fs::is_directory(dir / "elsewhere"));

  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0600), 0);
  r = run_shell("cat " + d + "/pipe > " + d + "/piped.txt & timeout 60 " +
                std::string(POSBIAS_BIN) + " tasks --task letter --hops 1 -L 20 --count 2 -o " + d +
                "/pipe; code=$?; wait; exit $code");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(slurp(dir / "piped.txt")), 2);
  struct stat st {};
  ASSERT_EQ(::lstat((dir / "pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));

  r = run_cli("theory -L 100 -H 2 --out /dev/stdout");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 101);
  // Our own null device node (never the system's /dev/null); needs CAP_MKNOD.
  if (::mknod((dir / "null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    r = run_cli("theory -L 100 -H 2 --format json --out " + d + "/null");
    EXPECT_EQ(r.code, 0) << r.err;
    ASSERT_EQ(::lstat((dir / "null").c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
  }
}

// α = 2^-1074, the smallest subnormal double: to first order in α each layer gives every
// position j < q the mass α/q, so H = 1 gives α/q and H = 2 gives 2α/q (q = 100). It was 0.
TEST(Cli, TheorySubnormalAlphaDoesNotUnderflow) {
  const double log10_alpha = -1074 * std::log10(2.0);
  for (const auto& [layers, expected] :
       {std::pair{1, log10_alpha - 2}, std::pair{2, std::log10(2.0) + log10_alpha - 2}}) {
    const CliResult r = run_cli("theory -L 100 -H " + std::to_string(layers) + " -a 4.9e-324");
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream rows(r.out);
    std::string line;
    std::getline(rows, line);  // header
    int checked = 0;
    double worst = 0;
    while (std::getline(rows, line)) {
      const auto a = line.find(','), b = line.rfind(',');
      if (std::stoi(line.substr(0, a)) == 99) continue;  // the query keeps 1 - O(α)
      EXPECT_NE(line.substr(a + 1, 2), "0,") << line;
      worst = std::max(worst, std::fabs(std::stod(line.substr(b + 1)) - expected));
      ++checked;
    }
    EXPECT_EQ(checked, 99);
    EXPECT_LT(worst, 1e-12) << "H = " << layers << ": worst log10 error " << worst;
  }
}

// `tasks check` reads regular files only (/dev/urandom ran forever), refuses a file without
// examples (it said "all 0 examples are correct"), and says when a number is out of range.
TEST(Cli, TasksCheckRefusesDevicesEmptyFilesAndSaysOutOfRange) {
  const auto dir = scratch_path("posbias_cli_tasks", "d");
  std::filesystem::create_directories(dir);
  const std::string d = dir.string();
  CliResult r = run_cli("tasks check /dev/urandom", 20);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  std::ofstream(dir / "empty.jsonl").close();
  std::ofstream(dir / "blank.jsonl") << "\n  \n";
  for (const char* name : {"empty.jsonl", "blank.jsonl"}) {
    r = run_cli("tasks check " + d + "/" + name);
    EXPECT_EQ(r.code, 1) << name << "\n" << r.out;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("holds no examples"), std::string::npos) << r.err;
  }
  ASSERT_EQ(run_cli("tasks --task number --hops 1 -L 20 --count 3 -o " + d + "/good.jsonl").code,
            0);
  r = run_cli("tasks check " + d + "/good.jsonl");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("all 3 examples are correct"), std::string::npos) << r.out;
  std::string text = slurp(dir / "good.jsonl");
  text = text.substr(0, text.find('\n') + 1);
  text.replace(text.find("\"length\":20"), 11, "\"length\":2000000");
  std::ofstream(dir / "long.jsonl") << text;
  r = run_cli("tasks check " + d + "/long.jsonl");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'length' is 2000000, out of range: it must be in 0..1000000"),
            std::string::npos)
      << r.err;
}

// Deep JSON is refused in one line naming the file, never a crash: a grid axis 100 000 deep
// (sweep plan crashed copying it), a 50 000-deep sweep result (sweep collect crashed in its
// recursive flatten) and a deep task line.
TEST(Cli, DeeplyNestedJsonIsOneLineNotACrash) {
  const auto dir = scratch_path("posbias_cli_deep", "d");
  std::filesystem::create_directories(dir);
  const std::string d = dir.string();
  const std::string deep_array = std::string(100000, '[') + std::string(100000, ']');
  std::string deep_object;
  for (int i = 0; i < 50000; ++i) deep_object += "{\"a\":";
  deep_object += "1" + std::string(50000, '}');
  const std::string kDeep = "JSON nested deeper than 128 levels";
  std::ofstream(dir / "deep_grid.json")
      << R"({"command": ["theory", "--out", "{run}/r.csv"], "grid": {"--layers": [)" << deep_array
      << "]}}";
  CliResult r = run_cli("sweep plan " + d + "/deep_grid.json --out " + d + "/s1");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(d + "/deep_grid.json: " + kDeep), std::string::npos) << r.err;

  std::ofstream(dir / "grid.json") << R"({"command": ["theory", "-L", "10", "--format", "json",
    "--out", "{run}/r.json"], "grid": {"--layers": [1]}, "result": "{run}/r.json"})";
  ASSERT_EQ(run_cli("sweep plan " + d + "/grid.json --out " + d + "/s2").code, 0);
  ASSERT_EQ(run_cli("sweep run " + d + "/s2 --index 0").code, 0);
  r = run_cli("sweep collect " + d + "/s2 --metric summary.discrete.log10_last");
  ASSERT_EQ(r.code, 0) << r.err;  // the run's own result collects
  std::ofstream(dir / "s2" / "runs" / "0000" / "r.json") << deep_object;
  r = run_cli("sweep collect " + d + "/s2 --metric summary.discrete.log10_last");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(d + "/s2/runs/0000/r.json: " + kDeep), std::string::npos) << r.err;

  std::ofstream(dir / "deep.jsonl") << deep_array << "\n";
  r = run_cli("tasks check " + d + "/deep.jsonl");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("line 1: " + kDeep), std::string::npos) << r.err;
}

}  // namespace
