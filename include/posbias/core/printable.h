// Untrusted text made safe for a one-line message: control bytes (a newline, an escape
// sequence from a hostile file name or value) become \xNN; every other byte is kept.
#pragma once

#include <string>
#include <string_view>

namespace posbias {

std::string printable(std::string_view text);

}  // namespace posbias
