#include "experiments/llm/llm_report.h"

#include <fmt/format.h>

#include <cmath>
#include <thread>

#include "experiments/hops/eval_command.h"
#include "experiments/llm/llm_command.h"
#include "posbias/core/atomic_file.h"
#include "posbias/serve/hop_completer.h"
#include "posbias/train/checkpoint.h"

namespace posbias {
namespace {

// Largest |llm - eval| accuracy over every length and hop of one suite.
double largest_gap(const nlohmann::json& llm, const nlohmann::json& eval) {
  double gap = 0;
  for (const auto& [len, hops] : eval["accuracy"].items()) {
    for (const auto& [h, acc] : hops.items()) {
      if (!llm.contains(len) || !llm[len].contains(h)) return INFINITY;
      gap = std::max(gap, std::abs(llm[len][h].get<double>() - acc.get<double>()));
    }
  }
  return gap;
}

std::string accuracy_row(const nlohmann::json& suite, const std::vector<int>& lengths) {
  std::string out;
  for (int len : lengths) {
    const std::string k = std::to_string(len);
    if (!suite["lenient"].contains(k)) continue;
    out += fmt::format("{}{}: {:.2f}", out.empty() ? "" : ", ", len,
                       suite["lenient"][k]["all"].get<double>());
  }
  return out;
}

void add_suite_figures(ReportSection& sec, const nlohmann::json& suite, const std::string& stem,
                       const std::string& who) {
  const std::string name = suite["suite"].get<std::string>();
  sec.figures.push_back(
      {stem + "_" + name + "_length", who + ", " + name +
                                          " suite: lenient accuracy against length per hop, "
                                          "with 95% Wilson bands."});
  if (name != "number") {  // Number's answers all sit in its first 8 tokens
    sec.figures.push_back(
        {stem + "_" + name + "_depth", who + ", " + name +
                                           " suite: accuracy against the answer's depth in "
                                           "the context, one curve per length."});
  }
}

}  // namespace

ReportSection llm_report_section(const std::filesystem::path& dir, bool full,
                                 const LlmReportOptions& options) {
  ReportSection sec;
  sec.id = "llm";
  sec.title = "Probing LLM endpoints: the same probes through HTTP";
  sec.paragraphs = {
      "posbias llm sends the number, letter and needle probe suites to any OpenAI-compatible "
      "endpoint, keeps every prompt, response, latency and score in SQLite, and reports accuracy "
      "per length, hop and depth with 95% Wilson intervals (strict: the whole reply is the "
      "answer; lenient: the reply's last answer-shaped word is). Here it probes our own two hop "
      "models, served by posbias serve over loopback HTTP exactly as an LLM would be, and the "
      "accuracies are checked against posbias eval on the same examples.",
      "The needle suite (key-value retrieval at depths 0..100%, after Liu et al. 2023) needs a "
      "language model; give reproduce --endpoint URL --model NAME to run all three suites "
      "against one."};
  const std::filesystem::path hop = dir / "hop", out = dir / "llm";
  ensure_directory(out);

  // Our own models behind the OpenAI-compatible server, on a free loopback port.
  HopCompleter completer(
      {{"number", (hop / "number").string()}, {"letter", (hop / "letter").string()}}, 60);
  ServerOptions so;
  so.port = 0;
  OpenAiServer server(completer, so);
  const int port = server.bind();
  std::thread serving([&server] { server.run(); });
  const std::vector<int> lengths =
      full ? std::vector<int>{17, 32, 64, 128, 256, 512} : std::vector<int>{17, 32, 64, 128};
  const std::int64_t count = full ? 50 : 20;
  std::vector<nlohmann::json> served;
  try {
    for (const char* task : {"number", "letter"}) {
      LlmOptions o;
      o.endpoint = "http://127.0.0.1:" + std::to_string(port);
      o.model = task;
      o.api = "completions";
      o.suites = {task};
      o.probes.lengths = lengths;
      // The run's own hops, so the prompts are the examples eval draws for it.
      o.probes.hops = read_checkpoint_info(list_checkpoints(hop / task).back()).config.hops;
      o.probes.count = count;
      o.probes.seed = 1;
      o.jobs = 4;
      o.db = (out / "served.db").string();
      o.json = (out / (std::string(task) + "_served.json")).string();
      o.csv = (out / (std::string(task) + "_served.csv")).string();
      o.plot = (out / "served").string();
      o.quiet = true;
      const nlohmann::json r = run_llm(o);
      served.push_back(r["suites"][0]);

      EvalOptions e;
      e.run = (hop / task).string();
      std::string ls;
      for (int len : lengths) {
        if (!ls.empty()) ls += ',';
        ls += std::to_string(len);
      }
      e.lengths = ls;
      e.count = count;
      e.seed = 1;
      e.controls = false;
      e.json = (out / (std::string(task) + "_eval.json")).string();
      const nlohmann::json ev = run_eval(e);
      const nlohmann::json& s = served.back();
      sec.numbers.push_back({std::string(task) + " model over HTTP: prompts answered / failed",
                             fmt::format("{} / {}", s["answered"].get<std::int64_t>(),
                                         s["failed"].get<std::int64_t>())});
      sec.numbers.push_back({std::string(task) + " model over HTTP: accuracy by length (all hops)",
                             accuracy_row(s, lengths)});
      sec.numbers.push_back(
          {std::string(task) +
               ": largest |HTTP accuracy - posbias eval accuracy| over lengths and hops",
           fmt::format("{:.4f}", largest_gap(s["strict"], ev))});
      add_suite_figures(sec, s, "llm/served", std::string(task) + " model over HTTP");
      sec.data.push_back(
          {"llm/" + std::string(task) + "_served.json",
           std::string(task) + ": accuracy with Wilson intervals by length, hop, depth"});
      sec.data.push_back(
          {"llm/" + std::string(task) + "_served.csv", std::string(task) + ": the same as CSV"});
    }
  } catch (...) {
    server.stop();
    serving.join();
    throw;
  }
  server.stop();
  serving.join();
  sec.data.push_back({"llm/served.db", "every prompt, response, latency and score (SQLite)"});

  if (!options.endpoint.empty()) {
    LlmOptions o;
    o.endpoint = options.endpoint;
    o.model = options.model;
    o.api = options.api;
    o.api_key_env = options.api_key_env;
    o.probes.lengths = {16, 32, 64, 100, 200};
    o.needle_lengths = {10, 30, 75};
    o.probes.count = full ? 20 : 5;
    o.db = (out / "endpoint.db").string();
    o.json = (out / "endpoint.json").string();
    o.csv = (out / "endpoint.csv").string();
    o.plot = (out / "endpoint").string();
    const nlohmann::json r = run_llm(o);
    for (const nlohmann::json& s : r["suites"]) {
      const std::string name = s["suite"].get<std::string>();
      sec.numbers.push_back({options.model + ", " + name + ": prompts answered / failed",
                             fmt::format("{} / {}", s["answered"].get<std::int64_t>(),
                                         s["failed"].get<std::int64_t>())});
      sec.numbers.push_back(
          {options.model + ", " + name + ": lenient accuracy by length (all hops or depths)",
           accuracy_row(s, name == "needle" ? o.needle_lengths : o.probes.lengths)});
      add_suite_figures(sec, s, "llm/endpoint", options.model);
    }
    sec.data.push_back({"llm/endpoint.json", options.model + ": accuracy by length, hop, depth"});
    sec.data.push_back({"llm/endpoint.csv", options.model + ": the same as CSV"});
    sec.data.push_back({"llm/endpoint.db", options.model + ": every prompt and response (SQLite)"});
  }
  return sec;
}

}  // namespace posbias
