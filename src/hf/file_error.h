// A Hugging Face file's problem as one line naming the file: "<source>: <what>".
#pragma once

#include <stdexcept>
#include <string>

namespace posbias::hf_file {

[[noreturn]] inline void fail(const std::string& source, const std::string& what) {
  throw std::runtime_error(source + ": " + what);
}

}  // namespace posbias::hf_file
