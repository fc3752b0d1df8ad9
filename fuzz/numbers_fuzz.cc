// libFuzzer target: command-line number parsers (exact rationals, lists, integers).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "posbias/core/parse.h"
#include "posbias/theory/exact.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const mpq_class q = posbias::parse_rational(text);
    if (q < 0) __builtin_trap();  // the grammar has no sign
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)posbias::parse_number_list(text, "fuzz");
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)posbias::parse_integer(text, "fuzz");
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
