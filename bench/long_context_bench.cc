// Long-context benchmark: the cost of one Hutchinson influence profile (`posbias birth
// --method hutchinson`) against the length L, on the dense attention path and the blockwise
// one, each length in a process of its own so that its peak RSS is its own. Prints a table
// (seconds, peak RSS, the blockwise/dense time ratio where both fit) and the exponents of
// time and memory in L fitted by least squares on log-log points; with --out STEM writes
// STEM.json, STEM.csv and the figure STEM.svg/.png. --redraw FILE.json --out STEM draws the
// figure of a stored STEM.json again, measuring nothing.
//
// --report-16k DIR measures nothing either: it prints the 16k Qwen2-0.5B profile's plan as this
// build makes it (`birth --arch qwen2-0.5b --length 16384 --method hutchinson --probes 4
// --memory-budget 8`: attention path, checkpointing, cotangents per pass, planned bytes) and
// the time of each whole run of it recorded in DIR's JSON files (`make bench`'s line; a run takes
// tens of minutes, so the bench reads the record instead of running it).
//
// Usage: long_context_bench [--posbias BIN] [--arch A] [--layers N] [--d-model D]
//        [--heads H] [--probes K] [--lengths 1024,2048,...] [--dense-max L] [--out STEM]
//        long_context_bench --redraw FILE.json --out STEM
//        long_context_bench --report-16k DIR
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "posbias/arch/config.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/memory.h"
#include "posbias/core/plot.h"
#include "posbias/model/memory_plan.h"
#include "posbias/model/torch_setup.h"
#include "run_command.h"

namespace {

struct Options {
  std::string posbias = POSBIAS_BIN, arch = "gpt2", out, redraw, report_16k;
  std::string layers = "4", d_model = "256", heads = "4", probes = "4";
  std::vector<long> lengths = {1024, 2048, 4096, 8192, 16384};
  long dense_max = 8192;  // longest dense run (its [H, L, L] per layer grows as L²)
};

struct Point {
  long length = 0;
  bool ok = false;
  double seconds = 0, peak_rss_mb = 0, planned_mb = 0;  // planned: the memory plan's estimate
  bool checkpoint = false;                              // the plan kept only block inputs
  std::string note;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "long_context_bench: %s needs a value\n", a.c_str());
      std::exit(2);
    }
    const std::string v = argv[++i];
    if (a == "--posbias")
      o.posbias = v;
    else if (a == "--arch")
      o.arch = v;
    else if (a == "--layers")
      o.layers = v;
    else if (a == "--d-model")
      o.d_model = v;
    else if (a == "--heads")
      o.heads = v;
    else if (a == "--probes")
      o.probes = v;
    else if (a == "--dense-max")
      o.dense_max = std::atol(v.c_str());
    else if (a == "--out")
      o.out = v;
    else if (a == "--redraw")
      o.redraw = v;
    else if (a == "--report-16k")
      o.report_16k = v;
    else if (a == "--lengths") {
      o.lengths.clear();
      std::stringstream s(v);
      for (std::string t; std::getline(s, t, ',');) o.lengths.push_back(std::atol(t.c_str()));
    } else {
      std::fprintf(stderr, "long_context_bench: unknown option %s\n", a.c_str());
      std::exit(2);
    }
  }
  return o;
}

Point measure(const Options& o, const std::string& path, long length) {
  Point p;
  p.length = length;
  const auto json = std::filesystem::temp_directory_path() /
                    ("posbias_long_context_" + path + "_" + std::to_string(length) + ".json");
  const std::string cmd = o.posbias + " birth --arch " + o.arch + " --layers " + o.layers +
                          " --d-model " + o.d_model + " --heads " + o.heads + " --length " +
                          std::to_string(length) + " --method hutchinson --probes " + o.probes +
                          " --seeds 1 --bootstrap 0 --attention " + path + " --json " +
                          json.string() + " 2>&1";
  const std::string out = posbias::bench::run_command(cmd);
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  std::filesystem::remove(json);
  if (j.is_discarded() || !j.contains("seconds")) {
    p.note = out.substr(0, out.find('\n'));
    return p;
  }
  p.ok = true;
  p.seconds = j["seconds"].get<double>();
  p.peak_rss_mb = j["peak_rss_mb"].get<double>();
  p.planned_mb = j["measurement"]["planned_bytes"].get<double>() / 1e6;
  p.checkpoint = j["measurement"]["activation_checkpointing"].get<bool>();
  return p;
}

// Least-squares slope of log y against log x.
double exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// The exponent p of y = a + b·x^p (least squares in y; a and b solved for each p on a grid of
// 0.001 over [0.25, 3]): the growth of memory above what does not depend on L (the process,
// libtorch, the weights), without the bias of fitting y − y(x₀) against x.
double exponent_with_intercept(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double best = NAN, best_sse = INFINITY;
  for (int k = 250; k <= 3000; ++k) {
    const double p = k / 1000.0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double u = std::pow(x[i], p);
      sx += u, sy += y[i], sxx += u * u, sxy += u * y[i];
    }
    const double b = (n * sxy - sx * sy) / (n * sxx - sx * sx), a = (sy - b * sx) / n;
    double sse = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double r = y[i] - a - b * std::pow(x[i], p);
      sse += r * r;
    }
    if (b > 0 && sse < best_sse) best = p, best_sse = sse;
  }
  return best;
}

// Time and peak RSS against L, one line per attention path, from the result as STEM.json holds
// it (log-log; each legend outside its panel).
posbias::Figure cost_figure(const nlohmann::json& result) {
  posbias::Figure fig;
  fig.width = 1100;
  posbias::Panel time, memory;
  time.title = "time of one profile";
  memory.title = "peak RSS";
  time.xlabel = memory.xlabel = "L (tokens)";
  time.ylabel = "seconds";
  memory.ylabel = "MB";
  time.log_x = memory.log_x = true;
  time.log10_y = memory.log10_y = true;
  for (const auto& [path, pj] : result.at("paths").items()) {
    posbias::Series ts, ms;
    ts.title = ms.title = path;
    ts.style = ms.style = "linespoints";
    const auto l = pj.at("lengths").get<std::vector<double>>();
    const auto s = pj.at("seconds").get<std::vector<double>>();
    const auto m = pj.at("peak_rss_mb").get<std::vector<double>>();
    for (std::size_t i = 0; i < l.size() && i < s.size() && i < m.size(); ++i) {
      ts.x.push_back(l[i]), ts.y.push_back(std::log10(s[i]));
      ms.x.push_back(l[i]), ms.y.push_back(std::log10(m[i]));
    }
    time.series.push_back(ts);
    memory.series.push_back(ms);
  }
  fig.panels = {time, memory};
  return fig;
}

// The 16k profile's settings: the command docs/birth.md shows, issue 40's target time.
constexpr std::int64_t k16kLength = 16384, k16kProbes = 4;
constexpr double k16kBudgetGb = 8, k16kTargetSeconds = 45 * 60;

std::string plan_words(const std::string& attention, bool checkpoint, std::int64_t per_pass,
                       double bytes) {
  char gb[32];
  std::snprintf(gb, sizeof gb, "%.2f GB", bytes / 1e9);
  return attention + " attention, " +
         (checkpoint
              ? "activation checkpointing, " + std::to_string(per_pass) + " cotangents per pass"
              : std::string("no checkpointing")) +
         ", " + gb + " planned";
}

// A whole 16k Qwen2-0.5B Hutchinson run's record (birth --json), or discarded JSON.
bool is_16k_record(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("seconds") || !j.contains("measurement") ||
      !j.contains("config"))
    return false;
  const auto& m = j["measurement"];
  const auto& c = j["config"];
  return m.value("length", 0L) == k16kLength && m.value("method", "") == "hutchinson" &&
         m.value("probes", 0L) == k16kProbes && c.value("model_type", "") == "qwen2" &&
         c.value("num_hidden_layers", 0L) == 24 && c.value("hidden_size", 0L) == 896;
}

// `make bench`'s 16k line: this build's plan, then every recorded whole run in dir.
int report_16k(const std::string& dir) {
  using namespace posbias;
  configure_torch();  // threads as posbias runs them: the plan's chunks are per thread
  const ModelConfig cfg = model_preset("qwen2-0.5b");
  const JacobianPlan plan =
      plan_jacobian(cfg, k16kLength, k16kProbes, at::get_num_threads(),
                    /*token_embeddings=*/false, memory_budget_bytes(k16kBudgetGb));
  std::printf(
      "\n16k profile: posbias birth --arch qwen2-0.5b --length %lld --method hutchinson "
      "--probes %lld --seeds 1 --memory-budget %.0f\n",
      static_cast<long long>(k16kLength), static_cast<long long>(k16kProbes), k16kBudgetGb);
  std::printf(
      "  plan of this build (%d threads): %s\n", at::get_num_threads(),
      plan_words(to_string(plan.pass.attention), plan.pass.checkpoint, plan.in_flight, plan.bytes)
          .c_str());
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir)) {
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  int found = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!is_16k_record(j)) continue;
    ++found;
    const auto& m = j["measurement"];
    const double seconds = j["seconds"].get<double>();
    const std::string machine = j.contains("machine")
                                    ? j["machine"].value("cpu", std::string("?")) + ", " +
                                          std::to_string(j["machine"].value("cores", 0)) + " cores"
                                    : std::string("machine not recorded");
    std::printf(
        "  recorded whole run: %.0f s (%.1f min; target <= %.0f min), peak RSS %.0f MB, in %s (%s; "
        "%s)\n",
        seconds, seconds / 60, k16kTargetSeconds / 60, j.value("peak_rss_mb", 0.0),
        f.filename().c_str(), machine.c_str(),
        plan_words(m.value("attention", std::string("?")),
                   m.value("activation_checkpointing", false), m.value("cotangents_per_pass", 0L),
                   m.value("planned_bytes", 0.0))
            .c_str());
  }
  if (found == 0)
    std::printf("  no recorded whole run in %s (the bench does not run one)\n", dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (!o.report_16k.empty()) return report_16k(o.report_16k);
  if (!o.redraw.empty()) {
    if (o.out.empty()) {
      std::fprintf(stderr, "long_context_bench: --redraw needs --out STEM\n");
      return 2;
    }
    std::ifstream in(o.redraw);
    const nlohmann::json stored = nlohmann::json::parse(in, nullptr, false);
    if (stored.is_discarded() || !stored.contains("paths")) {
      std::fprintf(stderr, "long_context_bench: '%s' is not a long_context_bench result\n",
                   o.redraw.c_str());
      return 1;
    }
    posbias::render_figure(cost_figure(stored), o.out);
    return 0;
  }
  std::map<std::string, std::vector<Point>> points;
  nlohmann::json result{{"arch", o.arch},        {"layers", o.layers},
                        {"d_model", o.d_model},  {"heads", o.heads},
                        {"probes", o.probes},    {"paths", nlohmann::json::object()},
                        {"method", "hutchinson"}};
  std::string csv = "path,length,seconds,peak_rss_mb,planned_mb,activation_checkpointing\n";
  for (const std::string path : {"blockwise", "dense"}) {
    std::vector<double> l, s, m, planned;
    for (long length : o.lengths) {
      if (path == "dense" && length > o.dense_max) continue;
      const Point p = measure(o, path, length);
      std::printf("%-9s L %6ld  %s\n", path.c_str(), length,
                  p.ok ? (std::to_string(p.seconds) + " s, peak RSS " +
                          std::to_string(static_cast<long>(p.peak_rss_mb)) + " MB (planned " +
                          std::to_string(static_cast<long>(p.planned_mb)) + " MB" +
                          (p.checkpoint ? ", checkpointed)" : ")"))
                             .c_str()
                       : ("not run: " + p.note).c_str());
      std::fflush(stdout);
      points[path].push_back(p);
      if (!p.ok) continue;
      l.push_back(static_cast<double>(length));
      s.push_back(p.seconds);
      m.push_back(p.peak_rss_mb);
      planned.push_back(p.planned_mb);
      csv += path + "," + std::to_string(length) + "," + std::to_string(p.seconds) + "," +
             std::to_string(p.peak_rss_mb) + "," + std::to_string(p.planned_mb) + "," +
             (p.checkpoint ? "true" : "false") + "\n";
    }
    nlohmann::json pj{{"lengths", l}, {"seconds", s}, {"peak_rss_mb", m}, {"planned_mb", planned}};
    if (l.size() >= 2) {
      pj["time_exponent"] = exponent(l, s);
      pj["memory_exponent"] = exponent(l, m);
      if (l.size() >= 3) pj["memory_exponent_with_intercept"] = exponent_with_intercept(l, m);
      std::printf("%-9s time ∝ L^%.2f, peak RSS ∝ L^%.2f, peak RSS = a + b·L^%.2f\n", path.c_str(),
                  exponent(l, s), exponent(l, m),
                  l.size() >= 3 ? exponent_with_intercept(l, m) : NAN);
    }
    result["paths"][path] = pj;
  }
  // blockwise / dense time where both ran
  nlohmann::json ratios = nlohmann::json::object();
  for (const Point& d : points["dense"]) {
    for (const Point& b : points["blockwise"]) {
      if (d.ok && b.ok && d.length == b.length) {
        ratios[std::to_string(d.length)] = b.seconds / d.seconds;
        std::printf("L %6ld  blockwise / dense time %.2f, memory %.2f\n", d.length,
                    b.seconds / d.seconds, b.peak_rss_mb / d.peak_rss_mb);
      }
    }
  }
  result["blockwise_over_dense_time"] = ratios;
  if (!o.out.empty()) {
    posbias::write_file_atomic(o.out + ".json", result.dump(2) + "\n");
    posbias::write_file_atomic(o.out + ".csv", csv);
    posbias::render_figure(cost_figure(result), o.out);
  }
  return 0;
}
