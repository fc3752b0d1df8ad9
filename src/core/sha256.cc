#include "posbias/core/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace posbias {
namespace {

EVP_MD_CTX* ctx(void* p) { return static_cast<EVP_MD_CTX*>(p); }

}  // namespace

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (context_ == nullptr || EVP_DigestInit_ex(ctx(context_), EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(ctx(context_));
    throw std::runtime_error("SHA-256 is unavailable (OpenSSL refused to start it)");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx(context_)); }

Sha256& Sha256::update(std::span<const std::byte> bytes) {
  if (!bytes.empty() && EVP_DigestUpdate(ctx(context_), bytes.data(), bytes.size()) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  return *this;
}

Sha256& Sha256::update(std::string_view text) {
  return update(std::as_bytes(std::span(text.data(), text.size())));
}

std::string Sha256::hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx(context_), digest, &len) != 1)
    throw std::runtime_error("SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) { return Sha256().update(data).hex(); }

}  // namespace posbias
