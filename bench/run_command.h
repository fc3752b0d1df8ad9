// Runs a peer benchmark command and returns its standard output ("" if it failed).
#pragma once

#include <cstdio>
#include <string>

namespace posbias::bench {

inline std::string run_command(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "";
  std::string out;
  char buf[4096];
  while (fgets(buf, sizeof buf, p) != nullptr) out += buf;
  return pclose(p) == 0 ? out : "";
}

}  // namespace posbias::bench
