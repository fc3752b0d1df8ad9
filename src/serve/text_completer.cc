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

Completion TextCompleter::complete(const CompletionRequest& request, const TokenSink& on_token) {
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
  const Detokenizer pieces{
      [&tokenizer](const std::vector<std::int64_t>& produced) {
        return tokenizer.decode(std::vector<std::int32_t>(produced.begin(), produced.end()));
      },
      [&tokenizer](std::int64_t id) {
        return tokenizer.decode(std::vector<std::int32_t>{static_cast<std::int32_t>(id)});
      }};
  return served_.decode(m, std::move(ids), 0, request, pieces, on_token);
}

}  // namespace posbias
