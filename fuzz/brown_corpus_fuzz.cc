// libFuzzer target: a Brown corpus file (`train --task text --corpus DIR` reads every file
// there) must become untagged sentences for any bytes without crashing: each sentence is one
// non-empty line of single-space-separated words, with no tag left on a word that had one.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "posbias/text/brown_corpus.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t words = 0;
  for (const std::string& s : posbias::strip_brown_tags(text)) {
    if (s.empty() || s.front() == ' ' || s.back() == ' ' || s.find('\n') != std::string::npos ||
        s.find("  ") != std::string::npos || s.find('\t') != std::string::npos)
      __builtin_trap();
    words += 1;
  }
  if (words > size) __builtin_trap();
  (void)posbias::brown_heldout(text.substr(0, 8));
  return 0;
}
