#include "posbias/train/text_run.h"

#include <cstdio>
#include <stdexcept>

#include "posbias/text/brown_corpus.h"

namespace posbias {

std::filesystem::path tokenizer_path(const std::filesystem::path& run_dir) {
  return run_dir / "tokenizer.model";
}

TextRunData prepare_text_run(const TrainConfig& c, const std::filesystem::path& run_dir, bool fresh,
                             const std::string& expected_fingerprint) {
  TextRunData d;
  d.corpus_dir = c.corpus.empty() ? default_corpus_dir() : std::filesystem::path(c.corpus);
  const TextCorpus corpus = read_brown_corpus(d.corpus_dir);
  d.corpus_fingerprint = corpus.fingerprint;
  if (!expected_fingerprint.empty() &&
      expected_fingerprint != fingerprint_hex(corpus.fingerprint)) {
    throw std::runtime_error("the corpus at '" + d.corpus_dir.string() +
                             "' is not the one this run was trained on (fingerprint " +
                             fingerprint_hex(corpus.fingerprint) + ", run " + expected_fingerprint +
                             ")");
  }
  if (c.tokenizer == TokenizerKind::kBytes) {
    d.tokenizer = Tokenizer::bytes();
  } else if (fresh) {
    std::fprintf(stderr, "posbias train: training a SentencePiece BPE tokenizer (%d pieces)\n",
                 c.vocab_size);
    d.tokenizer = Tokenizer::train_spm(training_lines(corpus), c.vocab_size);
    if (!run_dir.empty()) d.tokenizer.save(tokenizer_path(run_dir));
  } else {
    d.tokenizer = Tokenizer::load_spm(tokenizer_path(run_dir));
    if (d.tokenizer.vocab_size() != c.vocab()) {
      throw std::runtime_error(tokenizer_path(run_dir).string() + " has " +
                               std::to_string(d.tokenizer.vocab_size()) +
                               " pieces, the run's config " + std::to_string(c.vocab()));
    }
  }
  d.streams = encode_corpus(corpus, d.tokenizer);
  for (const auto* s : {&d.streams.train, &d.streams.heldout}) {
    if (static_cast<std::int64_t>(s->size()) <= c.length + 1) {
      throw std::runtime_error("the corpus at '" + d.corpus_dir.string() + "' has a split of " +
                               std::to_string(s->size()) + " tokens, too short for length " +
                               std::to_string(c.length));
    }
  }
  return d;
}

std::vector<std::int64_t> logged_windows(const TrainConfig& c, const TextStreams& streams) {
  const std::vector<std::int64_t> all = consecutive_windows(streams.heldout, c.length, 0);
  const std::int64_t row = c.length + 1;
  const std::int64_t n = static_cast<std::int64_t>(all.size()) / row;
  const std::int64_t take = std::min<std::int64_t>(c.eval_windows, n);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(take * row));
  for (std::int64_t k = 0; k < take; ++k) {
    const std::int64_t w = k * n / take;
    out.insert(out.end(), all.begin() + w * row, all.begin() + (w + 1) * row);
  }
  return out;
}

}  // namespace posbias
