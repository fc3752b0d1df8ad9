#include "posbias/text/text_data.h"

#include <cmath>
#include <stdexcept>

#include "posbias/core/rng.h"

namespace posbias {

std::vector<std::string> training_lines(const TextCorpus& corpus) {
  std::vector<std::string> lines;
  for (const CorpusFile& f : corpus.train)
    lines.insert(lines.end(), f.sentences.begin(), f.sentences.end());
  return lines;
}

std::vector<std::int32_t> encode_files(const std::vector<CorpusFile>& files,
                                       const Tokenizer& tokenizer) {
  std::vector<std::int32_t> stream;
  for (const CorpusFile& f : files) {
    const auto ids = tokenizer.encode(f.sentences);
    stream.insert(stream.end(), ids.begin(), ids.end());
  }
  return stream;
}

TextStreams encode_corpus(const TextCorpus& corpus, const Tokenizer& tokenizer) {
  return {encode_files(corpus.train, tokenizer), encode_files(corpus.heldout, tokenizer)};
}

std::int64_t window_count(const std::vector<std::int32_t>& stream, std::int64_t length) {
  const auto n = static_cast<std::int64_t>(stream.size());
  return n > length ? (n - 1) / length : 0;
}

std::vector<std::int64_t> sample_windows(const std::vector<std::int32_t>& stream,
                                         std::int64_t length, std::int64_t count,
                                         std::uint64_t seed, std::uint64_t step,
                                         std::int64_t first) {
  const auto n = static_cast<std::int64_t>(stream.size());
  if (length < 1 || n <= length + 1) {
    throw std::invalid_argument("a window of " + std::to_string(length + 1) +
                                " tokens does not fit a stream of " + std::to_string(n));
  }
  if (first < 0 || count < 0) throw std::invalid_argument("sample_windows: negative slice");
  Rng rng = Rng::stream(seed, step, 0);
  for (std::int64_t b = 0; b < first; ++b) rng.below(n - length);  // the windows before `first`
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(count * (length + 1)));
  for (std::int64_t b = 0; b < count; ++b) {
    const std::int64_t start = rng.below(n - length);
    for (std::int64_t i = 0; i <= length; ++i)
      out.push_back(stream[static_cast<std::size_t>(start + i)]);
  }
  return out;
}

std::vector<std::int64_t> consecutive_windows(const std::vector<std::int32_t>& stream,
                                              std::int64_t length, std::int64_t max_windows) {
  std::int64_t windows = window_count(stream, length);
  if (max_windows > 0) windows = std::min(windows, max_windows);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(windows * (length + 1)));
  for (std::int64_t k = 0; k < windows; ++k) {
    for (std::int64_t i = 0; i <= length; ++i) {
      out.push_back(stream[static_cast<std::size_t>(k * length + i)]);
    }
  }
  return out;
}

double bits_per_byte(double nats, double bytes) { return nats / std::log(2.0) / bytes; }

double target_bytes(const std::vector<std::int64_t>& windows, std::int64_t length,
                    const std::vector<std::int32_t>& token_bytes) {
  double bytes = 0;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    if (i % static_cast<std::size_t>(length + 1) != 0) {
      bytes += token_bytes[static_cast<std::size_t>(windows[i])];
    }
  }
  return bytes;
}

}  // namespace posbias
