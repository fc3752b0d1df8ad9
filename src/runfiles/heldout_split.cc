#include "posbias/runfiles/heldout_split.h"

#include <nlohmann/json.hpp>

#include "posbias/arch/arch_codecs.h"
#include "posbias/tasks/task_codecs.h"
#include "posbias/text/tokenizer_codec.h"

namespace posbias {

const std::vector<FieldRow<TextEvaluation>>& text_evaluation_fields() {
  using E = TextEvaluation;
  static const std::vector<FieldRow<E>> rows = {
      required(field("loss_per_position", &E::loss_per_position,
                     "mean next-token loss (nats) at positions 0..length-1")),
      field("loss", &E::loss, "mean next-token loss (nats) per target token"),
      required(
          field("bits_per_byte", &E::bits_per_byte, "total bits over the targets' UTF-8 bytes")),
      field("windows", &E::windows, "windows evaluated"),
      field("tokens", &E::tokens, "target tokens evaluated"),
      field("bytes", &E::bytes, "UTF-8 bytes of the target tokens"),
  };
  return rows;
}

const std::vector<FieldRow<HeldoutSplit>>& heldout_split_fields() {
  using H = HeldoutSplit;
  static const std::vector<FieldRow<H>> rows = [] {
    std::vector<FieldRow<H>> r = inherited_fields<H>(text_evaluation_fields());
    r.push_back(required(field("unigram_bits_per_byte", &H::unigram_bits_per_byte,
                               "bits per byte of the training split's token frequencies")));
    r.push_back(required(field("bigram_bits_per_byte", &H::bigram_bits_per_byte,
                               "bits per byte of the training split's bigram counts")));
    r.push_back(field("train_tokens", &H::train_tokens, "tokens in the training split"));
    r.push_back(field("heldout_tokens", &H::heldout_tokens, "tokens in the held-out split"));
    r.push_back(field("tokenizer", &H::tokenizer, "the tokenizer's kind"));
    r.push_back(field("vocab", &H::vocab, "the tokenizer's vocabulary size"));
    return r;
  }();
  return rows;
}

const std::vector<FieldRow<TextEvalResult>>& text_eval_result_fields() {
  using T = TextEvalResult;
  static const std::vector<FieldRow<T>> rows = [] {
    std::vector<FieldRow<T>> r = inherited_fields<T>(heldout_split_fields());
    r.push_back(field("run", &T::run, "the run folder", "PATH"));
    r.push_back(field("checkpoint", &T::checkpoint, "the checkpoint read", "PATH"));
    r.push_back(field("step", &T::step, "the checkpoint's step"));
    r.push_back(field("task", &T::task, "text"));
    r.push_back(field("arch", &T::arch, "the run's model family"));
    r.push_back(field("pos", &T::pos, "the run's positional encoding"));
    r.push_back(field("length", &T::length, "the window length (the run's training length)"));
    r.push_back(optional_field("attention", &T::attention, "the attention path evaluated with"));
    return r;
  }();
  return rows;
}

nlohmann::json to_json(const TextEvalResult& r) {
  return fields_to_json(text_eval_result_fields(), r);
}

TextEvalResult text_eval_result_from_json(const nlohmann::json& j) {
  const TextEvalResult empty;
  return fields_from_json(text_eval_result_fields(), j, empty, "eval field");
}

}  // namespace posbias
