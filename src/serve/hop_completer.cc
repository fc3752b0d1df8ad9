#include "posbias/serve/hop_completer.h"

#include "posbias/llm/probe.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

HopCompleter::HopCompleter(const std::vector<ServedRun>& runs, double busy_timeout)
    : served_(runs, busy_timeout, [](const ServedRun&, const LoadedModel& loaded) {
        require_hop_task(loaded.info.config.task, "serve");
      }) {}

Completion HopCompleter::complete(const CompletionRequest& request, const TokenSink& on_token) {
  require_text_prompt(request, "a hop model");
  const std::size_t m = served_.find(request.model);
  const Task task = served_.loaded(m).info.config.task;
  const Vocabulary& vocab = Vocabulary::of(task);
  const std::vector<std::string> tokens = extract_task_input(request.prompt, vocab);
  const int length = static_cast<int>(tokens.size());
  if (length > kMaxServedTokens) {
    throw std::invalid_argument("the task input has " + std::to_string(length) +
                                " tokens; a served model reads at most " +
                                std::to_string(kMaxServedTokens));
  }
  validate_model_length(task, length);
  const auto token = [&vocab](std::int64_t id) { return vocab.token(id); };
  const Detokenizer answer{
      [&token](const std::vector<std::int64_t>& produced) { return token(produced.front()); },
      token};
  return served_.decode(m, vocab.encode(tokens), 1, request, answer, on_token);
}

}  // namespace posbias
