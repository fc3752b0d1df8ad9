#include "posbias/serve/served_models.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "posbias/serve/next_token.h"
#include "posbias/serve/openai_server.h"
#include "posbias/serve/token_pick.h"

namespace posbias {

namespace {

constexpr std::int64_t kBatchTokens = 16384;  // largest batch × length of one forward pass

}  // namespace

struct ServedModels::Served {
  std::string name;
  LoadedModel loaded;
  std::unique_ptr<BatchQueue> queue;  // last: its worker stops before the model goes
};

ServedRun parse_served_run(const std::string& spec) {
  ServedRun r;
  const std::size_t eq = spec.find('=');
  if (eq != std::string::npos) {
    r.name = spec.substr(0, eq);
    r.dir = spec.substr(eq + 1);
  } else {
    r.dir = spec;
    std::filesystem::path p(spec);
    if (!p.has_filename()) p = p.parent_path();
    r.name = p.filename().string();
  }
  if (r.name.empty() || r.dir.empty()) {
    throw std::invalid_argument("--run takes RUN_DIR or NAME=RUN_DIR, got '" + spec + "'");
  }
  return r;
}

std::vector<ServedRun> served_checkpoints(const ServedRun& run,
                                          const CheckpointSelection& selection) {
  const std::vector<RunCheckpoint> chosen = select_checkpoints(run.dir, selection);
  std::vector<ServedRun> out;
  for (const RunCheckpoint& c : chosen) {
    out.push_back(run);
    out.back().checkpoint = c.path.string();
    if (chosen.size() > 1) out.back().name += "@" + std::to_string(c.step);
  }
  return out;
}

ServedModels::ServedModels(const std::vector<ServedRun>& runs, double busy_timeout,
                           const Check& check)
    : busy_timeout_(busy_timeout) {
  if (runs.empty()) throw std::invalid_argument("--run RUN_DIR is required");
  std::set<std::string> names;
  for (const ServedRun& r : runs) {
    if (!names.insert(r.name).second) {
      throw std::invalid_argument("two runs are named '" + r.name + "'; use NAME=RUN_DIR");
    }
    auto s = std::make_unique<Served>();
    s->name = r.name;
    s->loaded = load_trained_model(r.dir, r.checkpoint);
    check(r, s->loaded);
    s->loaded.model->eval();
    served_.push_back(std::move(s));
  }
  for (auto& s : served_) {
    s->queue = std::make_unique<BatchQueue>(
        [m = s.get()](const std::vector<const BatchQueue::Input*>& batch) {
          return next_tokens(m->loaded.model, batch);
        },
        kBatchTokens);
  }
}

ServedModels::~ServedModels() = default;

std::vector<std::string> ServedModels::names() const {
  std::vector<std::string> out;
  for (const auto& s : served_) out.push_back(s->name);
  return out;
}

std::size_t ServedModels::find(const std::string& model) const {
  for (std::size_t i = 0; i < served_.size(); ++i) {
    if (served_[i]->name == model) return i;
  }
  throw UnknownModel("no model named '" + model + "' is served");
}

const std::string& ServedModels::name(std::size_t i) const { return served_.at(i)->name; }

const LoadedModel& ServedModels::loaded(std::size_t i) const { return served_.at(i)->loaded; }

std::int64_t ServedModels::max_width(std::size_t i) const {
  const ModelConfig& m = served_.at(i)->loaded.model->config();
  return std::min<std::int64_t>(m.position_limit().value_or(kMaxServedTokens), kMaxServedTokens);
}

void ServedModels::check_width(std::size_t i, std::int64_t prompt, std::int64_t decoded) const {
  const std::int64_t width = prompt + decoded - 1, limit = max_width(i);
  if (width <= limit) return;
  throw std::invalid_argument("the prompt has " + std::to_string(prompt) + " tokens and decoding " +
                              std::to_string(decoded) + " reads " + std::to_string(width) +
                              "; model '" + name(i) + "' reads at most " + std::to_string(limit) +
                              ": send at most " + std::to_string(limit - decoded + 1) +
                              " prompt tokens, or lower max_tokens");
}

Completion ServedModels::decode(std::size_t i, BatchQueue::Input ids, int natural,
                                const CompletionRequest& request, const Detokenizer& detokenizer,
                                const TokenSink& on_token) const {
  Served& s = *served_.at(i);
  const int steps = natural > 0 ? std::min(request.max_tokens, natural) : request.max_tokens;
  check_width(i, static_cast<std::int64_t>(ids.size()), steps);
  Completion c;
  c.model = s.name;
  c.prompt_tokens = static_cast<std::int64_t>(ids.size());
  std::mt19937_64 rng(request.seed.value_or(0));
  std::vector<std::int64_t> produced;
  std::string before;  // the text of the tokens before this step's
  for (int k = 0; k < steps; ++k) {
    NextToken next;
    try {
      next = s.queue->answer(ids, busy_timeout_);
    } catch (const BackendBusy&) {
      throw BackendBusy("model '" + s.name + "' is busy; try again");
    }
    const TokenPick pick =
        pick_token(next, request.temperature, request.top_p, std::max(request.logprobs, 0), rng);
    produced.push_back(pick.id);
    ++c.completion_tokens;
    const std::string text = detokenizer.text(produced);
    if (request.logprobs >= 0) {
      // What a token adds to the text at this step (a kv token after the first: its space);
      // its own text where decoding would rewrite earlier bytes.
      const auto added = [&](std::int64_t id) {
        std::vector<std::int64_t> with = produced;
        with.back() = id;
        const std::string t = id == pick.id ? text : detokenizer.text(with);
        return t.compare(0, before.size(), before) == 0 ? t.substr(before.size())
                                                        : detokenizer.token(id);
      };
      TokenLogprob t;
      t.token = added(pick.id);
      t.logprob = pick.logprob;
      for (const auto& [id, logprob] : pick.top) t.top.emplace_back(added(id), logprob);
      c.logprobs.push_back(std::move(t));
    }
    before = text;
    c.text = text;
    const bool stopped = cut_at_stop(c.text, request.stop);
    const bool last = stopped || k + 1 == steps;
    c.finish_reason = last && !stopped && steps == request.max_tokens &&
                              (natural == 0 || request.max_tokens < natural)
                          ? "length"
                          : "stop";
    if (on_token) on_token(c);
    if (last) break;
    ids.push_back(pick.id);
  }
  return c;
}

}  // namespace posbias
