// SHA-256 against the FIPS 180-2 test vectors, fed whole and in pieces.
#include "posbias/core/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace posbias {
namespace {

TEST(Sha256, MatchesTheStandardsVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1'000'000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PiecesHashLikeTheWhole) {
  const std::string text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  for (std::size_t cut = 0; cut <= text.size(); cut += 7) {
    Sha256 h;
    h.update(std::string_view(text).substr(0, cut));
    h.update(std::as_bytes(std::span(text.data() + cut, text.size() - cut)));
    EXPECT_EQ(h.hex(), sha256_hex(text)) << "cut at " << cut;
  }
  EXPECT_NE(sha256_hex("abd"), sha256_hex("abc"));
}

}  // namespace
}  // namespace posbias
