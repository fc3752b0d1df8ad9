#include "posbias/tasks/retrieval_inputs.h"

#include "posbias/core/enum_names.h"

namespace posbias {
namespace {

constexpr EnumNames<AnswerInputs, 2> kAnswerInputNames{
    {{AnswerInputs::kKv, "kv"}, {AnswerInputs::kPasskey, "passkey"}}};

}  // namespace

AnswerInputs parse_answer_inputs(const std::string& name, const std::string& what) {
  return value_of(kAnswerInputNames, name, what);
}

std::string to_string(AnswerInputs inputs) {
  return std::string(name_of(kAnswerInputNames, inputs));
}

std::string needle_word(AnswerInputs inputs) {
  return inputs == AnswerInputs::kKv ? "pair" : "needle";
}

}  // namespace posbias
