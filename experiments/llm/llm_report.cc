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

// Largest |llm - eval| accuracy over every length and hop of one suite (strict scores, the
// same rule as eval's exact match).
double largest_gap(const SuiteSummary& llm, const EvalResult& eval) {
  double gap = 0;
  for (std::size_t i = 0; i < eval.lengths.size(); ++i) {
    const int len = static_cast<int>(eval.lengths[i]);
    const HopAccuracy& acc = eval.accuracy[i];
    std::vector<std::pair<int, double>> cells{{0, acc.all()}};
    for (const auto& [h, n] : acc.total) cells.emplace_back(h, acc.hop(h));
    for (const auto& [h, value] : cells) {
      const double served = llm.accuracy(ScoreRule::kStrict, len, h);
      if (std::isnan(served)) return INFINITY;
      gap = std::max(gap, std::abs(served - value));
    }
  }
  return gap;
}

std::string accuracy_row(const SuiteSummary& suite, const std::vector<int>& lengths) {
  std::string out;
  for (int len : lengths) {
    const double acc = suite.accuracy(ScoreRule::kLenient, len);
    if (std::isnan(acc)) continue;
    out += fmt::format("{}{}: {:.2f}", out.empty() ? "" : ", ", len, acc);
  }
  return out;
}

// The chance level by length (all hops): a uniform guess among the prompts' candidate answers.
std::string chance_row(const SuiteSummary& suite) {
  std::string out;
  for (const AccuracyRow& r : suite.by_length) {
    if (r.hops != 0) continue;
    out += fmt::format("{}{}: {:.3f}", out.empty() ? "" : ", ", r.length, r.chance);
  }
  return out;
}

void add_suite_figures(ReportSection& sec, const SuiteSummary& suite, const std::string& stem,
                       const std::string& who) {
  const std::string& name = suite.suite;
  sec.figures.push_back(
      {stem + "_" + name + "_length", who + ", " + name +
                                          " suite: lenient accuracy against length per hop, "
                                          "with 95% Wilson bands and chance dashed."});
  if (name != "number") {  // Number's answers all sit in its first 8 tokens
    sec.figures.push_back(
        {stem + "_" + name + "_depth", who + ", " + name +
                                           " suite: accuracy against the answer's depth in "
                                           "the context, one curve per length."});
    if (suite.has_logprobs()) {
      sec.figures.push_back(
          {stem + "_" + name + "_logprob",
           who + ", " + name +
               " suite: the log-probability the model gave its own answer (summed over the "
               "completion's tokens), mean over prompts against the answer's depth, one curve "
               "per length, with 95% Student-t bands."});
    }
  }
}

// The mean completion log-probability by length (all hops), where the endpoint returned them.
std::string logprob_row(const SuiteSummary& suite) {
  std::string out;
  for (const AccuracyRow& r : suite.by_length) {
    if (r.hops != 0 || r.logprob_n == 0) continue;
    out += fmt::format("{}{}: {:.3f}", out.empty() ? "" : ", ", r.length, r.logprob);
  }
  return out;
}

}  // namespace

ReportSection llm_report_section(const std::filesystem::path& dir, const LlmPreset& preset,
                                 const HopsSection& hops, const LlmReportOptions& options) {
  ReportSection sec;
  sec.id = "llm";
  sec.title = "Probing LLM endpoints: the same probes through HTTP";
  sec.paragraphs = {
      "posbias llm sends the number, letter and needle probe suites to any OpenAI-compatible "
      "endpoint, keeps every prompt, response, latency and score in SQLite, and reports accuracy "
      "per length, hop and depth with 95% Wilson intervals (strict: the whole reply is the "
      "answer; lenient: the reply's last answer-shaped word is). Here it probes our own two hop "
      "models, served by posbias serve over loopback HTTP exactly as an LLM would be (streamed, "
      "with log-probabilities), and the accuracies are checked against posbias eval on the same "
      "examples.",
      "The needle suite (key-value retrieval at depths 0..100%, after Liu et al. 2023) needs a "
      "language model; give reproduce --endpoint URL --model NAME to run all three suites "
      "against one."};
  const std::filesystem::path out = dir / "llm";
  ensure_directory(out);

  // Our own models behind the OpenAI-compatible server, on a free loopback port.
  std::vector<ServedRun> served_runs;
  for (const HopsRun& run : hops.runs)
    served_runs.push_back({std::string(task_name(run.task)), run.run_dir.string()});
  HopCompleter completer(served_runs, 60);
  ServerOptions so;
  so.port = 0;
  OpenAiServer server(completer, so);
  const int port = server.bind();
  std::thread serving([&server] { server.run(); });
  const std::vector<int>& lengths = preset.served_lengths;
  const std::int64_t count = preset.served_count;
  try {
    for (const HopsRun& run : hops.runs) {
      const std::string task(task_name(run.task));
      LlmOptions o;
      o.endpoint = "http://127.0.0.1:" + std::to_string(port);
      o.model = task;
      o.api = Api::kCompletions;
      o.suites = {task};
      o.probes.lengths = lengths;
      // The run's own hops, so the prompts are the examples eval draws for it.
      o.probes.hops = read_checkpoint_info(list_checkpoints(run.run_dir).back()).config.hops;
      o.probes.count = count;
      o.probes.seed = 1;
      o.jobs = 4;
      // Streamed, with log-probabilities: the whole path an OpenAI client takes.
      o.stream = true;
      o.logprobs = true;
      o.db = (out / "served.db").string();
      o.json = (out / (task + "_served.json")).string();
      o.csv = (out / (task + "_served.csv")).string();
      o.plot = (out / "served").string();
      o.quiet = true;
      const SuiteSummary s = run_llm(o).suites.front();

      EvalOptions e;
      e.run = run.run_dir.string();
      e.lengths.assign(lengths.begin(), lengths.end());
      e.count = count;
      e.seed = 1;
      e.controls = false;
      e.json = (out / (task + "_eval.json")).string();
      const EvalResult ev = run_eval(e).back();  // the run's last checkpoint
      sec.numbers.push_back({task + " model over HTTP: prompts answered / failed",
                             fmt::format("{} / {}", s.answered, s.failed)});
      sec.numbers.push_back(
          {task + " model over HTTP: accuracy by length (all hops)", accuracy_row(s, lengths)});
      sec.numbers.push_back(
          {task + ": chance by length (a uniform guess among the answers)", chance_row(s)});
      sec.numbers.push_back({task + " model over HTTP: mean log-probability of its own answer by "
                                    "length (all hops)",
                             logprob_row(s)});
      sec.numbers.push_back(
          {task + ": largest |HTTP accuracy - posbias eval accuracy| over lengths and hops",
           fmt::format("{:.4f}", largest_gap(s, ev))});
      add_suite_figures(sec, s, "llm/served", task + " model over HTTP");
      sec.data.push_back({"llm/" + task + "_served.json",
                          task + ": accuracy with Wilson intervals by length, hop, depth"});
      sec.data.push_back({"llm/" + task + "_served.csv", task + ": the same as CSV"});
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
    o.probes.lengths = preset.endpoint_lengths;
    o.needle_lengths = preset.endpoint_needle_lengths;
    o.probes.count = preset.endpoint_count;
    o.db = (out / "endpoint.db").string();
    o.json = (out / "endpoint.json").string();
    o.csv = (out / "endpoint.csv").string();
    o.plot = (out / "endpoint").string();
    const LlmResult r = run_llm(o);
    for (const SuiteSummary& s : r.suites) {
      const std::string& name = s.suite;
      sec.numbers.push_back({options.model + ", " + name + ": prompts answered / failed",
                             fmt::format("{} / {}", s.answered, s.failed)});
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
