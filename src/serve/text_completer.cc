#include "posbias/serve/text_completer.h"

#include <algorithm>

#include "posbias/text/tokenizer.h"
#include "posbias/train/checkpoint.h"
#include "posbias/train/text_run.h"

namespace posbias {

namespace {

// The prompt's ids as the run's text stream holds them: lines joined by the newline id, none
// after the last line.
std::vector<std::int64_t> encode_prompt(const Tokenizer& tokenizer, const std::string& prompt) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t nl; (nl = prompt.find('\n', begin)) != std::string::npos; begin = nl + 1) {
    lines.push_back(prompt.substr(begin, nl - begin));
  }
  lines.push_back(prompt.substr(begin));
  std::vector<std::int32_t> ids = tokenizer.encode(lines);
  ids.pop_back();  // encode ends every line with a newline; the prompt's last line has none
  return {ids.begin(), ids.end()};
}

}  // namespace

TextCompleter::TextCompleter(const std::vector<ServedRun>& runs, double busy_timeout)
    : served_(runs, busy_timeout, [this](const ServedRun& run, const LoadedModel& loaded) {
        const TrainConfig& c = loaded.info.config;
        if (c.task != Task::kText) {
          throw std::invalid_argument("run '" + run.dir + "' is a " +
                                      std::string(task_name(c.task)) +
                                      " run; the text backend serves text runs");
        }
        Tokenizer t = c.tokenizer == TokenizerKind::kBytes
                          ? Tokenizer::bytes()
                          : Tokenizer::load_spm(tokenizer_path(run.dir));
        if (t.vocab_size() != c.vocab()) {
          throw std::runtime_error(tokenizer_path(run.dir).string() + " has " +
                                   std::to_string(t.vocab_size()) + " pieces, the run's config " +
                                   std::to_string(c.vocab()));
        }
        tokenizers_.push_back(std::move(t));
      }) {}

Completion TextCompleter::complete(const CompletionRequest& request) {
  const std::size_t m = served_.find(request.model);
  const Tokenizer& tokenizer = tokenizers_[m];
  BatchQueue::Input ids = request.prompt_ids;
  for (const std::int64_t id : ids) {
    if (id >= tokenizer.vocab_size())
      throw std::invalid_argument("prompt token id " + std::to_string(id) +
                                  " is outside the model's vocabulary (" +
                                  std::to_string(tokenizer.vocab_size()) + " ids)");
  }
  if (ids.empty()) ids = encode_prompt(tokenizer, request.prompt);
  if (ids.empty()) throw std::invalid_argument("the prompt is empty");
  const auto length = static_cast<std::int64_t>(ids.size());
  served_.check_width(m, length, request.max_tokens);
  Completion c;
  c.model = served_.name(m);
  c.prompt_tokens = length;
  std::vector<std::int32_t> produced;
  for (int k = 0; k < request.max_tokens; ++k) {
    const std::int64_t next = served_.next_token(m, ids);
    ++c.completion_tokens;
    produced.push_back(static_cast<std::int32_t>(next));
    c.text = tokenizer.decode(produced);
    if (cut_at_stop(c.text, request.stop)) break;
    ids.push_back(next);
  }
  return c;
}

}  // namespace posbias
