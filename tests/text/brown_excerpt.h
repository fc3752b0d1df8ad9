// A small Brown-style corpus written by the test (no network): files ca01..caNN of tagged
// sentences drawn from a fixed word list, with a README the reader must skip. ca10 (and
// ca20, ...) is the held-out split. The folder is TMP/NAME_PID: CTest runs each test case as its
// own process, two at a time, so cases of one file must not share (and remove) one folder.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace posbias_test {

inline std::filesystem::path write_brown_excerpt(const std::string& name, int files,
                                                 int sentences = 40) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const char* words[] = {"the/at",      "jury/nn", "said/vbd", "it/pps", "found/vbd",  "no/at",
                         "evidence/nn", "of/in",   "fraud/nn", "in/in",  "Atlanta/np", ",/,"};
  for (int f = 1; f <= files; ++f) {
    char file[16];
    std::snprintf(file, sizeof file, "ca%02d", f);
    std::ofstream out(dir / file);
    for (int s = 0; s < sentences; ++s) {
      out << "\n\n\t";
      for (int w = 0; w < 8 + (s * 7 + f) % 9; ++w) out << words[(s * 5 + w * 3 + f) % 12] << ' ';
      out << "./.\n";
    }
  }
  std::ofstream(dir / "README") << "not a corpus file\n";
  return dir;
}

}  // namespace posbias_test
