// Runs a fuzz target without libFuzzer (any compiler): every corpus file, then a fixed
// number of deterministic random mutations of them. CTest uses it as a regression test;
// `make fuzz` builds the real libFuzzer binaries with clang.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR MUTATIONS\n", argv[0]);
    return 2;
  }
  std::vector<std::string> corpus;
  for (const auto& e : std::filesystem::directory_iterator(argv[1])) {
    std::ifstream in(e.path(), std::ios::binary);
    corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (corpus.empty()) corpus.emplace_back();
  for (const auto& c : corpus)
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(c.data()), c.size());
  std::mt19937_64 rng(12345);
  const long mutations = std::stol(argv[2]);
  const std::string alphabet = "0123456789.,eE+-/#\n\r \tnaifx:position,influence,seed";
  for (long m = 0; m < mutations; ++m) {
    std::string s = corpus[rng() % corpus.size()];
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < edits; ++k) {
      const std::size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
      switch (rng() % 4) {
        case 0:
          s.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 1:
          if (!s.empty() && pos < s.size()) s.erase(pos, 1);
          break;
        case 2:
          if (!s.empty() && pos < s.size()) s[pos] = static_cast<char>(rng() % 256);
          break;
        default:
          s.insert(pos, s.substr(0, rng() % (s.size() + 1)));
          break;
      }
    }
    if (s.size() > (1u << 16)) s.resize(1u << 16);
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
  std::printf("replayed %zu corpus files and %ld mutations\n", corpus.size(), mutations);
  return 0;
}
