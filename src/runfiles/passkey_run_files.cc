#include "posbias/runfiles/passkey_run_files.h"

#include <stdexcept>
#include <string>
#include <system_error>

#include "posbias/runfiles/run_header.h"
#include "posbias/text/brown_corpus.h"
#include "posbias/text/text_data.h"

namespace posbias {

PasskeyRun open_passkey_run(const std::filesystem::path& run) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(run / "train.json", ec))
    throw std::invalid_argument("--run '" + run.string() +
                                "' is not a training run (no train.json)");
  const RunHeader header = read_run_header(run);
  const TrainConfig& c = header.config;
  if (c.task != Task::kText)
    throw std::invalid_argument("--run '" + run.string() +
                                "' is not a text run (train --task text)");
  PasskeyRun r;
  r.length = c.length;
  r.needles = c.needles;
  if (traits(*c.pos).table) r.max_length = r.length;  // finalize() set the family's pos
  r.tokenizer = c.tokenizer == TokenizerKind::kBytes ? Tokenizer::bytes()
                                                     : Tokenizer::load_spm(run / "tokenizer.model");
  const std::filesystem::path corpus_dir = header.corpus.value_or("");
  const TextCorpus corpus =
      read_brown_corpus(corpus_dir.empty() ? default_corpus_dir() : corpus_dir);
  const std::string hex = fingerprint_hex(corpus.fingerprint);
  if (header.corpus_fingerprint.value_or(hex) != hex)
    throw std::runtime_error("the corpus at '" + corpus_dir.string() +
                             "' is not the one the run was trained on");
  r.heldout = encode_files(corpus.heldout, r.tokenizer);
  return r;
}

}  // namespace posbias
