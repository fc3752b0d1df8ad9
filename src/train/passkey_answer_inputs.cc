#include "posbias/train/passkey_answer_inputs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/runfiles/train_config.h"
#include "posbias/train/passkey_batch.h"
#include "posbias/train/text_run.h"
#include "posbias/train/trainer.h"

namespace posbias {

AnswerInput passkey_answer_input(const PasskeyExample& example) {
  AnswerInput in;
  in.ids.assign(example.ids.begin(), example.ids.begin() + example.length());
  in.answer.assign(example.ids.begin() + example.answer_start,
                   example.ids.begin() + example.answer_start + kPasskeyDigits);
  in.from = example.answer_start - 1;
  for (std::size_t k = 0; k < example.needles.size(); ++k) {
    const PasskeyNeedle& n = example.needles[k];
    const TokenSpan span{n.position, n.position + n.size};
    if (static_cast<int>(k) == example.queried) {
      in.needle = span;
    } else {
      in.distractors.push_back(span);
    }
  }
  in.depth = example.target().depth;
  return in;
}

AnswerInputSet passkey_answer_inputs(const AnswerInfluenceOptions& o, const RunHeader& header) {
  const TrainConfig& c = header.config;
  if (c.task != Task::kText || c.needle_fraction <= 0) {
    throw std::invalid_argument(
        "--inputs passkey needs a passkey run (`posbias train --task text --needle-fraction F`); "
        "'" +
        o.run + "' is a " + std::string(task_name(c.task)) + " run without needles");
  }
  AnswerInputSet set;
  set.length = o.length == 0 ? c.length : o.length;
  set.needles = c.needles;
  const ModelConfig m = c.model_config();
  if (m.position_limit() && set.length > *m.position_limit()) {
    throw std::invalid_argument(
        fmt::format("-L {} is past the run's learned position table ({} positions); give -L of at "
                    "most {}",
                    set.length, m.max_positions, m.max_positions));
  }
  if (set.length < 2 || set.length > 1'000'000)
    throw std::invalid_argument(fmt::format("-L must be in 2..1000000 tokens, got {}", set.length));
  const int length = static_cast<int>(set.length);
  const TextRunData text =
      prepare_text_run(c, o.run, /*fresh=*/false, header.corpus_fingerprint.value_or(""));
  const PasskeyCodec codec(text.tokenizer);
  codec.check_fits(length, set.needles);
  if (static_cast<std::int64_t>(text.streams.heldout.size()) <= set.length + 1)
    throw std::invalid_argument(fmt::format("-L {} is longer than the held-out text ({} ids)",
                                            set.length, text.streams.heldout.size()));
  std::vector<PasskeyExample> examples;
  for (int d : o.depths) {
    for (int e = 0; e < o.per_depth; ++e) {
      examples.push_back(
          passkey_depth_example(codec, text.streams.heldout, length, set.needles, d, e, o.seed));
      set.inputs.push_back(passkey_answer_input(examples.back()));
    }
  }
  set.exact_matches = [examples = std::move(examples)](Transformer& model) {
    return passkey_exact_matches(model, examples, 32);
  };
  return set;
}

}  // namespace posbias
