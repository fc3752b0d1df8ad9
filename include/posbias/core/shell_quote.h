// A string as one shell word: in single quotes, each ' written as '\''.
#pragma once

#include <string>

namespace posbias {

std::string shell_quote(const std::string& s);

}  // namespace posbias
