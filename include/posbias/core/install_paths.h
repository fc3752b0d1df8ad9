// Where posbias finds what ships with it. The torch and SentencePiece modules sit beside the
// executable, in a build tree and an installed tree alike (`cmake --install` puts the
// executable and its modules in PREFIX/lib/posbias, with PREFIX/bin/posbias a link to it). Data
// (the Brown corpus) is the installed tree's PREFIX/share/posbias when that folder exists
// beside the executable, else the source tree's data/ the build was configured from.
#pragma once

#include <filesystem>
#include <string>

namespace posbias {

// The directory of the running executable (links resolved), or "." when it cannot be read.
std::filesystem::path executable_dir();
// The torch commands' module: posbias-torch.so in executable_dir().
std::filesystem::path torch_plugin_path();
// PREFIX/share/posbias/<name> when it exists for this executable, else data/<name> in the
// source tree.
std::filesystem::path data_path(const std::string& name);

}  // namespace posbias
