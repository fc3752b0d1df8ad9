#include "experiments/llm/llm_command.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "experiments/llm/llm_record.h"
#include "posbias/core/atomic_file.h"
#include "posbias/core/printable.h"
#include "posbias/core/progress.h"
#include "posbias/llm/answer.h"
#include "posbias/llm/http_client.h"
#include "posbias/llm/llm_summary.h"
#include "posbias/llm/openai.h"
#include "posbias/llm/result_store.h"
#include "posbias/tasks/passkey_task.h"

namespace posbias {
namespace {

struct Job {
  const Probe* probe;
  std::string hash;
  int max_tokens;
};

void validate(const LlmOptions& o) {
  if (o.endpoint.empty()) throw std::invalid_argument("--endpoint URL is required");
  validate_url(o.endpoint);
  if (o.model.empty()) throw std::invalid_argument("--model NAME is required");
  check_header_value("--model", o.model);
  // The key goes into a header: checked here, before the store is opened or a request sent.
  if (const char* key = std::getenv(o.api_key_env.c_str()); key != nullptr) {
    check_header_value("the API key in $" + o.api_key_env, key);
  }
  if (o.suites.empty()) throw std::invalid_argument("--suite is empty");
  for (std::size_t i = 0; i < o.suites.size(); ++i) {
    validate_suite(o.suites[i]);
    for (std::size_t j = 0; j < i; ++j) {
      if (o.suites[j] == o.suites[i]) {
        throw std::invalid_argument("--suite lists '" + o.suites[i] + "' twice");
      }
    }
  }
  if (o.jobs < 1 || o.jobs > 256) {
    throw std::invalid_argument("--jobs must be in 1..256, got " + std::to_string(o.jobs));
  }
  // Below one request per 1000 s a run would sit for hours between requests.
  if (!(o.rps == 0 || (o.rps >= 1e-3 && o.rps <= 1e6))) {
    throw std::invalid_argument("--rps must be 0 (no limit) or in 0.001..1000000");
  }
  if (!(o.timeout > 0) || o.timeout > 3600) {
    throw std::invalid_argument("--timeout must be in (0, 3600] seconds");
  }
  if (o.retry.retries < 0 || o.retry.retries > 20) {
    throw std::invalid_argument("--retries must be in 0..20");
  }
  if (!(o.retry.base >= 0) || !(o.retry.cap >= o.retry.base) || o.retry.cap > 3600) {
    throw std::invalid_argument("--backoff must be >= 0 and at most --backoff-cap (<= 3600 s)");
  }
  if (o.max_tokens < 0 || o.max_tokens > 100000) {
    throw std::invalid_argument("--max-tokens must be in 1..100000");
  }
  if (o.db.empty()) throw std::invalid_argument("--db FILE is required");
  const bool passkey = std::find(o.suites.begin(), o.suites.end(), "passkey") != o.suites.end();
  if (o.prompt_ids && !passkey)
    throw std::invalid_argument("--prompt-ids belongs to --suite passkey");
  if (o.prompt_ids && o.api != Api::kCompletions)
    throw std::invalid_argument("--prompt-ids needs --api completions (chat takes text)");
  if (!o.probes.run.empty() && !passkey)
    throw std::invalid_argument("--run belongs to --suite passkey");
}

std::string snippet(const std::string& body) {
  std::string s = body.substr(0, 200);
  for (char& c : s) c = (c == '\n' || c == '\r') ? ' ' : c;
  return s;
}

// One prompt through its attempts; the stored row.
ResultRow ask(const Job& job, const LlmOptions& o, Api api, const std::string& url,
              const std::vector<std::string>& headers, HttpClient& client, RateLimiter& limiter,
              Rng& rng, std::atomic<bool>& told_capped) {
  const Probe& p = *job.probe;
  ResultRow row;
  row.suite = p.suite;
  row.model = o.model;
  row.prompt_hash = job.hash;
  row.probe_id = p.id;
  row.length = p.length;
  row.hops = p.hops;
  row.depth = p.depth;
  row.prompt = p.prompt;
  row.answer = p.answer;
  const std::string body = request_body(api, o.model, p.prompt, job.max_tokens,
                                        o.prompt_ids ? p.prompt_ids : std::vector<std::int32_t>{},
                                        RequestOptions{.stream = o.stream, .logprobs = o.logprobs});
  for (int attempt = 1;; ++attempt) {
    limiter.acquire();
    const HttpResponse r = client.post_json(url, body, headers, o.timeout);
    row.attempts = attempt;
    row.http_status = r.status;
    row.latency_ms = r.seconds * 1000;
    bool retry = true;
    if (r.status == 200) {
      try {
        ParsedCompletion c = parse_completion(api, r.body);
        row.response = std::move(c.text);
        row.logprob = c.logprob;
        row.completion_tokens = c.tokens;
        const Score s = score_answer(p.suite, row.response, p.answer);
        row.ok = true;
        row.error.clear();
        row.strict = s.strict;
        row.lenient = s.lenient;
        return row;
      } catch (const std::runtime_error& e) {
        row.error = e.what();  // truncated or malformed body: worth another try
      }
    } else if (r.status == 0) {
      row.error = r.error;
    } else {
      row.error = "HTTP " + std::to_string(r.status) + ": " + snippet(r.body);
      // A refused key, a forbidden model or a wrong URL fails every prompt alike: stop the run.
      if (r.status == 401 || r.status == 403 || r.status == 404) {
        throw std::runtime_error("the endpoint answered " + row.error +
                                 (r.status == 404 ? " (check --endpoint and --model)"
                                                  : " (check the key in $" + o.api_key_env + ")"));
      }
      retry = retriable_status(r.status);
    }
    if (!retry || attempt > o.retry.retries) return row;
    const double wait = backoff_seconds(o.retry, attempt, rng, r.retry_after);
    if (r.retry_after > o.retry.cap && !told_capped.exchange(true)) {
      std::fprintf(stderr,
                   "posbias llm: the endpoint asked to wait %.0f s (Retry-After); waiting "
                   "--backoff-cap %g s instead, at most %d times per prompt\n",
                   r.retry_after, o.retry.cap, o.retry.retries);
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  }
}

}  // namespace

LlmResult measure_llm(const LlmOptions& o) {
  validate(o);
  const Api api = o.api;
  const std::string url = request_url(o.endpoint, api);
  validate_url(url);

  // Every suite's probes and their keys.
  std::map<std::string, std::vector<Probe>> probes;
  std::map<std::string, std::vector<std::string>> hashes;
  std::map<std::string, int> max_tokens;
  for (const std::string& suite : o.suites) {
    SuiteOptions so = o.probes;
    if (suite == "needle") so.lengths = o.needle_lengths;
    probes[suite] = make_probes(suite, so);
    max_tokens[suite] = o.max_tokens         ? o.max_tokens
                        : suite == "needle"  ? 64
                        : suite == "kv"      ? kKvValueTokens
                        : suite == "passkey" ? kPasskeyDigits
                                             : 16;
    // The key holds what changes the stored row besides the prompt. Ids and text are different
    // requests: keyed apart (the text is the decoded ids). A request with --logprobs asks for
    // more than one without, so its rows are keyed apart too: a rerun with --logprobs must not
    // skip prompts whose stored rows have no log-probability. --stream changes only how the same
    // answer travels, so it keeps the key: a streamed rerun reuses what a plain run stored.
    std::string api_key = to_string(api) + (o.prompt_ids && suite == "passkey" ? "+ids" : "");
    if (o.logprobs) api_key += "+logprobs";
    for (const Probe& p : probes[suite]) {
      hashes[suite].push_back(prompt_hash(api_key, max_tokens[suite], p.prompt));
    }
  }

  ResultStore store(o.db);
  std::vector<Job> jobs;
  for (const std::string& suite : o.suites) {
    const auto done = store.statuses(suite, o.model);
    for (std::size_t i = 0; i < probes[suite].size(); ++i) {
      const auto it = done.find(hashes[suite][i]);
      if (it == done.end() || !it->second) {
        jobs.push_back({&probes[suite][i], hashes[suite][i], max_tokens[suite]});
      }
    }
  }

  std::vector<std::string> headers;
  if (const char* key = std::getenv(o.api_key_env.c_str()); key != nullptr && key[0] != '\0') {
    headers.push_back(std::string("Authorization: Bearer ") + key);
  }
  if (!jobs.empty()) {
    check_reachable(url, std::min(o.timeout, 10.0));
    RateLimiter limiter(o.rps);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> told_capped{false};
    std::mutex progress_mutex;
    std::int64_t finished = 0;
    std::unique_ptr<Progress> progress;
    if (!o.quiet)
      progress = std::make_unique<Progress>("llm", static_cast<std::int64_t>(jobs.size()));
    std::exception_ptr error;
    auto worker = [&](std::uint64_t index) {
      try {
        HttpClient client;
        Rng rng = Rng::stream(0x6c6c6d, index);
        for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
          const ResultRow row =
              ask(jobs[i], o, api, url, headers, client, limiter, rng, told_capped);
          store.put(row);
          std::lock_guard<std::mutex> lock(progress_mutex);
          ++finished;
          if (progress) progress->update(finished);
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (!error) error = std::current_exception();
        next.store(jobs.size());  // the others stop after their current request
      }
    };
    std::vector<std::thread> threads;
    const int n = std::min<int>(o.jobs, static_cast<int>(jobs.size()));
    for (int t = 0; t < n; ++t) threads.emplace_back(worker, static_cast<std::uint64_t>(t));
    for (std::thread& t : threads) t.join();
    if (progress) progress->finish();
    if (error) std::rethrow_exception(error);
  }

  LlmResult result;
  result.model = o.model;
  result.api = o.api;
  result.requests = static_cast<std::int64_t>(jobs.size());
  std::vector<std::string> errors;  // of the failed prompts, every suite
  for (const std::string& suite : o.suites) {
    std::map<std::string, ResultRow> rows;
    for (ResultRow& r : store.rows(suite, o.model)) rows.emplace(r.prompt_hash, std::move(r));
    result.suites.push_back(summarize_suite(suite, o.model, probes[suite], hashes[suite], rows));
    result.failed += result.suites.back().failed;
    for (const std::string& hash : hashes[suite]) {
      const auto it = rows.find(hash);
      if (it != rows.end() && !it->second.ok) errors.push_back(it->second.error);
    }
  }
  result.failure_reasons = count_failure_reasons(errors);
  return result;
}

std::vector<FailureReason> count_failure_reasons(const std::vector<std::string>& errors) {
  std::vector<FailureReason> reasons;
  std::map<std::string, std::size_t> index;
  for (const std::string& e : errors) {
    const auto [it, added] = index.emplace(e, reasons.size());
    if (added) reasons.push_back({e, 0});
    ++reasons[it->second].prompts;
  }
  std::stable_sort(
      reasons.begin(), reasons.end(),
      [](const FailureReason& a, const FailureReason& b) { return a.prompts > b.prompts; });
  return reasons;
}

std::vector<std::string> failure_reason_lines(const std::vector<FailureReason>& reasons,
                                              std::size_t max_reasons, std::size_t max_chars) {
  std::vector<std::string> lines;
  std::int64_t rest = 0;
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    if (i >= max_reasons) {
      rest += reasons[i].prompts;
      continue;
    }
    std::string error = reasons[i].error.empty() ? "(no error stored)" : reasons[i].error;
    for (char& c : error) c = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (error.size() > max_chars) {
      std::size_t cut = max_chars;  // not inside a UTF-8 sequence
      while (cut > 0 && (static_cast<unsigned char>(error[cut]) & 0xC0) == 0x80) --cut;
      error = error.substr(0, cut) + "...";
    }
    error = printable(error);
    lines.push_back(std::to_string(reasons[i].prompts) + " prompt" +
                    (reasons[i].prompts == 1 ? "" : "s") + ": " + error);
  }
  if (reasons.size() > max_reasons) {
    const std::size_t others = reasons.size() - max_reasons;
    lines.push_back("... and " + std::to_string(rest) + " prompt" + (rest == 1 ? "" : "s") +
                    " for " + std::to_string(others) + " other reason" + (others == 1 ? "" : "s") +
                    " (the error column of --db holds each)");
  }
  return lines;
}

nlohmann::json to_json(const LlmResult& r) { return to_json(llm_record(r)); }

LlmResult run_llm(const LlmOptions& o) {
  LlmResult result = measure_llm(o);
  write_output(o.json, to_json(result).dump(2) + "\n");
  if (!o.csv.empty()) write_file_atomic(o.csv, summary_csv(result.suites));
  if (!o.plot.empty()) {
    for (const SuiteSummary& s : result.suites) plot_summary(s, o.plot, o.score);
  }
  return result;
}

}  // namespace posbias
