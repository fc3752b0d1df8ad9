// The token streams of a text run and the windows training and evaluation read from them.
//
// A split's stream is its files in name order, each file's sentences encoded by the run's
// tokenizer with a newline after each. Training draws windows of length + 1 ids at uniform
// offsets, keyed by (seed, step, rank) like the hop tasks' batches; held-out evaluation reads
// consecutive windows that do not overlap, so every held-out id after the first is predicted
// exactly once (window k: inputs ids[kL, kL+L), targets ids[kL+1, kL+L]).
#pragma once

#include <cstdint>
#include <vector>

#include "posbias/text/brown_corpus.h"
#include "posbias/text/tokenizer.h"

namespace posbias {

struct TextStreams {
  std::vector<std::int32_t> train, heldout;
};

// Every training sentence (what the SentencePiece model is trained on).
std::vector<std::string> training_lines(const TextCorpus& corpus);
TextStreams encode_corpus(const TextCorpus& corpus, const Tokenizer& tokenizer);
// One split's stream: the files' sentences encoded in order, each followed by a newline.
std::vector<std::int32_t> encode_files(const std::vector<CorpusFile>& files,
                                       const Tokenizer& tokenizer);

// Windows first .. first + count - 1 of step `step`'s batch, each length + 1 ids, row-major
// [count, length + 1], from the stream keyed by (seed, step): a data-parallel rank takes its
// slice of the global batch. The stream must hold more than length + 1 ids (throws
// std::invalid_argument naming the sizes).
std::vector<std::int64_t> sample_windows(const std::vector<std::int32_t>& stream,
                                         std::int64_t length, std::int64_t count,
                                         std::uint64_t seed, std::uint64_t step,
                                         std::int64_t first = 0);
// Consecutive non-overlapping windows from the stream's start; at most `max_windows`
// (0 = every window that fits). Row-major [windows, length + 1].
std::vector<std::int64_t> consecutive_windows(const std::vector<std::int32_t>& stream,
                                              std::int64_t length, std::int64_t max_windows);
std::int64_t window_count(const std::vector<std::int32_t>& stream, std::int64_t length);

// Bits per byte of `nats` of loss over text of `bytes` bytes.
double bits_per_byte(double nats, double bytes);
// UTF-8 bytes of the targets of `windows` (every id of a window but its first).
double target_bytes(const std::vector<std::int64_t>& windows, std::int64_t length,
                    const std::vector<std::int32_t>& token_bytes);

}  // namespace posbias
