// SHA-256 (OpenSSL's), fed in pieces: checkpoint checksums and the LLM result store's keys.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace posbias {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  Sha256& update(std::span<const std::byte> bytes);
  Sha256& update(std::string_view text);
  // The digest as 64 lowercase hex digits. Finishes the hash: update() may not follow.
  std::string hex();

 private:
  void* context_;  // EVP_MD_CTX
};

// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace posbias
