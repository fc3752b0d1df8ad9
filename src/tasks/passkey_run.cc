#include "posbias/tasks/passkey_run.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "posbias/core/json_read.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"

namespace posbias {

PasskeyRun open_passkey_run(const std::filesystem::path& run) {
  const std::filesystem::path file = run / "train.json";
  std::ifstream in(file);
  if (!in)
    throw std::invalid_argument("--run '" + run.string() +
                                "' is not a training run (no train.json)");
  const nlohmann::json header = parse_json(in, file.string());
  const nlohmann::json& c = header.at("config");
  if (c.value("task", std::string()) != "text")
    throw std::invalid_argument("--run '" + run.string() +
                                "' is not a text run (train --task text)");
  PasskeyRun r;
  r.length = c.at("length").get<int>();
  r.needles = c.value("needles", 1);
  if (c.value("pos", std::string()) == "learned") r.max_length = r.length;
  r.tokenizer = c.value("tokenizer", std::string("spm")) == "bytes"
                    ? Tokenizer::bytes()
                    : Tokenizer::load_spm(run / "tokenizer.model");
  const std::filesystem::path corpus_dir = header.value("corpus", std::string());
  const TextCorpus corpus =
      read_brown_corpus(corpus_dir.empty() ? default_corpus_dir() : corpus_dir);
  const std::string hex = fingerprint_hex(corpus.fingerprint);
  if (header.value("corpus_fingerprint", hex) != hex)
    throw std::runtime_error("the corpus at '" + corpus_dir.string() +
                             "' is not the one the run was trained on");
  r.heldout = encode_files(corpus.heldout, r.tokenizer);
  return r;
}

}  // namespace posbias
