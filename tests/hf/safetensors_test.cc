// The safetensors reader and writer: a Python-written golden file (tests/golden/
// safetensors_seeds.py, struct's IEEE half encoder), F16/BF16 bit patterns, write -> read round
// trips, checksums that catch a flipped byte anywhere in the file, and every hostile header the
// reader must refuse, each with a message naming the file and the problem.
#include "posbias/hf/safetensors.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "posbias/core/sha256.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

fs::path temp_dir(const std::string& tag) {
  auto dir = fs::temp_directory_path() /
             ("posbias_safetensors_test_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// u64 little-endian length, header text, then `data_bytes` data bytes (0, 1, 2, ...).
std::vector<std::byte> make_file(const std::string& header, std::size_t data_bytes = 0,
                                 std::optional<std::uint64_t> length = std::nullopt) {
  const std::uint64_t n = length.value_or(header.size());
  std::vector<std::byte> out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>((n >> (8 * i)) & 0xff));
  for (const char c : header) out.push_back(static_cast<std::byte>(c));
  for (std::size_t i = 0; i < data_bytes; ++i) out.push_back(static_cast<std::byte>(i & 0xff));
  return out;
}

std::string entry(const std::string& dtype, const std::string& shape, const std::string& offsets) {
  return R"({"dtype":)" + dtype + R"(,"shape":)" + shape + R"(,"data_offsets":)" + offsets + "}";
}

void write_bytes(const fs::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// The parse must throw std::runtime_error whose one-line message names the file and contains
// `needle`.
void expect_rejected(const std::vector<std::byte>& bytes, const std::string& needle) {
  SCOPED_TRACE("expecting an error containing \"" + needle + "\"");
  try {
    const SafetensorsFile f = SafetensorsFile::parse(bytes, "bad.safetensors");
    ADD_FAILURE() << "accepted a hostile file with " << f.tensors().size() << " tensors";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(needle), std::string::npos) << message;
    EXPECT_EQ(message.rfind("bad.safetensors: ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

std::uint32_t bits(float f) { return std::bit_cast<std::uint32_t>(f); }

TEST(Safetensors, F16BitPatterns) {
  // Values by hand from the binary16 definition: (-1)^s * 2^(e-15) * 1.m, subnormal 2^-14 * 0.m.
  EXPECT_EQ(f16_to_float(0x3C00), 1.0f);
  EXPECT_EQ(f16_to_float(0xC000), -2.0f);
  EXPECT_EQ(f16_to_float(0x7BFF), 65504.0f);                  // largest finite
  EXPECT_EQ(f16_to_float(0x0400), std::ldexp(1.0f, -14));     // smallest normal
  EXPECT_EQ(f16_to_float(0x0001), std::ldexp(1.0f, -24));     // smallest subnormal
  EXPECT_EQ(f16_to_float(0x03FF), std::ldexp(1023.0f, -24));  // largest subnormal
  EXPECT_EQ(f16_to_float(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(f16_to_float(0x3555), 0.333251953125f);
  EXPECT_EQ(bits(f16_to_float(0x0000)), 0x00000000u);
  EXPECT_EQ(bits(f16_to_float(0x8000)), 0x80000000u);  // -0 keeps its sign
  EXPECT_EQ(f16_to_float(0x7C00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(f16_to_float(0xFC00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(f16_to_float(0x7E00)));
  EXPECT_TRUE(std::isnan(f16_to_float(0x7C01)));       // signalling payload stays a NaN
  EXPECT_EQ(bits(f16_to_float(0xFE00)), 0xFFC00000u);  // sign and payload preserved
  // Every finite half survives float -> half by the round-trip definition: exponent and
  // mantissa bits land where binary32 expects them.
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const float f = f16_to_float(static_cast<std::uint16_t>(h));
    if ((h & 0x7C00) == 0x7C00) continue;
    const int e = static_cast<int>((h >> 10) & 0x1f);
    const float expected =
        (e == 0 ? std::ldexp(static_cast<float>(h & 0x3ff), -24)
                : std::ldexp(1.0f + static_cast<float>(h & 0x3ff) / 1024.0f, e - 15)) *
        ((h & 0x8000) ? -1.0f : 1.0f);
    ASSERT_EQ(bits(f), bits(expected)) << "half bits " << h;
  }
}

TEST(Safetensors, Bf16BitPatterns) {
  EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_to_float(0xC000), -2.0f);
  EXPECT_EQ(bf16_to_float(0x3EAB), 0.333984375f);
  EXPECT_EQ(bf16_to_float(0x7F7F), 3.3895313892515355e38f);  // largest finite
  EXPECT_EQ(bf16_to_float(0x0001), std::ldexp(1.0f, -133));  // smallest subnormal
  EXPECT_EQ(bf16_to_float(0x7F80), std::numeric_limits<float>::infinity());
  EXPECT_EQ(bf16_to_float(0xFF80), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(bf16_to_float(0x7FC0)));
  EXPECT_EQ(bits(bf16_to_float(0x8000)), 0x80000000u);
}

// mixed.safetensors was written by Python's struct module; values are in the generator.
TEST(Safetensors, ReadsPythonWrittenGoldenFile) {
  const SafetensorsFile f = SafetensorsFile::open(fs::path(POSBIAS_SOURCE_DIR) /
                                                  "fuzz/corpus/safetensors/mixed.safetensors");
  EXPECT_EQ(f.names(), (std::vector<std::string>{"bf16", "empty", "f16", "f32", "f64", "flags",
                                                 "i64", "scalar"}));
  EXPECT_EQ(f.metadata().at("format"), "pt");
  EXPECT_EQ(f.metadata().size(), 2u);

  const TensorView& f32 = f.get("f32");
  EXPECT_EQ(f32.dtype, DType::F32);
  EXPECT_EQ(f32.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(f32.numel(), 6);
  EXPECT_EQ(f32.bytes, 24u);
  const std::vector<float> v32 = to_float32(f32);
  const std::vector<float> want32 = {1.0f, -2.5f, 0.125f, 3.0e38f, -0.0f, 0x1p-149f};
  ASSERT_EQ(v32.size(), want32.size());
  for (std::size_t i = 0; i < v32.size(); ++i) EXPECT_EQ(bits(v32[i]), bits(want32[i])) << i;

  const std::vector<float> v16 = to_float32(f.get("f16"));
  EXPECT_EQ(v16, (std::vector<float>{1.0f, -2.0f, 65504.0f, 0x1p-14f, 0x1p-24f, 0.333251953125f}));
  const std::vector<float> vbf = to_float32(f.get("bf16"));
  EXPECT_EQ(f.get("bf16").shape, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(vbf, (std::vector<float>{1.0f, -2.0f, 0.333984375f, 0x1p-133f}));
  const std::vector<float> v64 = to_float32(f.get("f64"));
  ASSERT_EQ(v64.size(), 4u);
  EXPECT_EQ(v64[0], 0.1f);  // rounded to nearest
  EXPECT_EQ(v64[1], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(v64[2], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v64[3], 0x1p-149f);

  const TensorView& i64 = f.get("i64");
  std::int64_t ints[3];
  ASSERT_EQ(i64.bytes, sizeof(ints));
  std::memcpy(ints, i64.data, sizeof(ints));
  EXPECT_EQ(ints[0], -1);
  EXPECT_EQ(ints[2], std::int64_t{1} << 62);
  try {
    (void)to_float32(i64);
    ADD_FAILURE() << "to_float32 accepted an I64 tensor";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("dtype I64"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)to_float32(f.get("flags")), std::runtime_error);
  EXPECT_EQ(std::to_integer<int>(f.get("flags").data[0]), 1);

  EXPECT_EQ(f.get("empty").numel(), 0);
  EXPECT_TRUE(to_float32(f.get("empty")).empty());
  EXPECT_TRUE(f.get("scalar").shape.empty());
  EXPECT_EQ(to_float32(f.get("scalar")), std::vector<float>{7.5f});
}

// Weights must be finite. NaN and +-inf are found in every float dtype, F64 values that round
// beyond float32's range count too (to_float32, the independent reference here, makes them
// +-inf), integer bit patterns never do, and require_finite() names the file and the tensor.
TEST(Safetensors, NonFiniteValuesAreCountedInEveryFloatDtype) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const double float_max = std::numeric_limits<float>::max();
  auto raw = [](auto... values) {  // little-endian bytes of the values, back to back
    std::vector<std::byte> out;
    for (const auto v : {values...}) {
      const auto* p = reinterpret_cast<const std::byte*>(&v);
      out.insert(out.end(), p, p + sizeof v);
    }
    return out;
  };
  struct Case {
    std::string dtype;
    std::size_t item;  // bytes per element
    std::vector<std::byte> data;
    std::int64_t count, first;
  };
  const std::vector<Case> cases = {
      {"F32", 4, raw(1.0f, nan, 3.4e38f, -inf, 0x1p-149f, inf), 3, 1},
      {"F32", 4, raw(1.0f, -0.0f, 3.4e38f, 0x1p-149f), 0, -1},
      {"F16", 2,
       raw(std::uint16_t{0x3C00}, std::uint16_t{0x7BFF}, std::uint16_t{0x7C00},
           std::uint16_t{0xFE00}),
       2, 2},
      {"BF16", 2, raw(std::uint16_t{0x7F7F}, std::uint16_t{0xFF80}, std::uint16_t{0x7FC1}), 2, 1},
      // FLT_MAX, the midpoint above it (rounds to inf), just below that midpoint, NaN, -1e300.
      {"F64", 8, raw(float_max, 0x1.ffffffp+127, 0x1.fffffefffffffp+127, std::nan(""), -1e300), 3,
       1},
      {"I64", 8, raw(std::uint64_t{0x7ff8000000000000}, std::uint64_t{0xfff0000000000000}), 0, -1},
      {"I32", 4, raw(std::uint32_t{0x7fc00000}), 0, -1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dtype + " with " + std::to_string(c.count) + " non-finite");
    const std::size_t n = c.data.size() / c.item;
    std::vector<std::byte> bytes =
        make_file(R"({"w":)" +
                  entry("\"" + c.dtype + "\"", "[" + std::to_string(n) + "]",
                        "[0," + std::to_string(c.data.size()) + "]") +
                  "}");
    bytes.insert(bytes.end(), c.data.begin(), c.data.end());
    const SafetensorsFile f = SafetensorsFile::parse(bytes, "w.safetensors");
    const NonFinite found = find_non_finite(f.get("w"));
    EXPECT_EQ(found.count, c.count);
    EXPECT_EQ(found.first, c.first);
    if (c.dtype[0] == 'F') {  // the reference: what a loader would get
      const std::vector<float> values = to_float32(f.get("w"));
      std::int64_t count = 0, first = -1;
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::isfinite(values[i])) continue;
        if (count++ == 0) first = static_cast<std::int64_t>(i);
      }
      EXPECT_EQ(found.count, count);
      EXPECT_EQ(found.first, first);
      if (first >= 0) {
        EXPECT_EQ(std::isnan(found.value), std::isnan(values[first]));
      }
    }
    if (c.count == 0) {
      EXPECT_NO_THROW(f.require_finite());
      continue;
    }
    try {
      f.require_finite();
      ADD_FAILURE() << "require_finite accepted non-finite weights";
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("w.safetensors: tensor 'w' holds " + std::to_string(c.count) +
                                  " non-finite values (",
                              0),
                0u)
          << message;
      EXPECT_NE(
          message.find("at element " + std::to_string(c.first) + " of " + std::to_string(n) + ")"),
          std::string::npos)
          << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  // The golden file's F64 tensor holds -1e300 and 1e300; its F32 tensor is finite.
  const SafetensorsFile golden = SafetensorsFile::open(fs::path(POSBIAS_SOURCE_DIR) /
                                                       "fuzz/corpus/safetensors/mixed.safetensors");
  EXPECT_EQ(find_non_finite(golden.get("f64")).count, 2);
  EXPECT_EQ(find_non_finite(golden.get("f64")).value, -1e300);
  EXPECT_NO_THROW(golden.require_finite(golden.get("f32")));
  EXPECT_THROW(golden.require_finite(golden.get("f64")), std::runtime_error);
}

TEST(Safetensors, MissingTensorNamesTheFile) {
  const auto bytes = make_file(R"({"a":)" + entry(R"("F32")", "[1]", "[0,4]") + "}", 4);
  const SafetensorsFile f = SafetensorsFile::parse(bytes, "model.safetensors");
  EXPECT_EQ(f.find("b"), nullptr);
  ASSERT_NE(f.find("a"), nullptr);
  try {
    (void)f.get("b");
    ADD_FAILURE() << "get of a missing tensor did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("tensor 'b' is missing from model.safetensors", 0), 0u)
        << e.what();
  }
}

TEST(Safetensors, AcceptsEdgeCases) {
  // Empty header object, no data.
  EXPECT_TRUE(SafetensorsFile::parse(make_file("{}"), "x").tensors().empty());
  // Padding spaces, a zero-element tensor with an empty data buffer.
  const auto empty = SafetensorsFile::parse(
      make_file(R"({"z":)" + entry(R"("BF16")", "[0,7]", "[0,0]") + "}      "), "x");
  EXPECT_EQ(empty.get("z").bytes, 0u);
  EXPECT_EQ(empty.get("z").numel(), 0);
  // A gap between tensors, a zero-length tensor inside another's range, trailing bytes.
  const auto gappy =
      SafetensorsFile::parse(make_file(R"({"a":)" + entry(R"("U8")", "[2]", "[0,2]") + R"(,"b":)" +
                                           entry(R"("I16")", "[2]", "[4,8]") + R"(,"c":)" +
                                           entry(R"("F64")", "[0]", "[5,5]") + "}",
                                       /*data_bytes=*/12),
                             "x");
  EXPECT_EQ(gappy.tensors().size(), 3u);
  EXPECT_EQ(std::to_integer<int>(gappy.get("b").data[0]), 4);  // data byte i holds i
}

TEST(Safetensors, RejectsBadLengths) {
  expect_rejected(std::vector<std::byte>(5), "5 bytes, shorter than the 8-byte header length");
  expect_rejected(make_file("", 0, 0), "header length is 0");
  expect_rejected(make_file("{}", 4, 100'000'001), "header length 100000001 exceeds the limit");
  expect_rejected(make_file("{}", 0, std::uint64_t{1} << 63), "exceeds the limit");
  expect_rejected(make_file("{}", 0, 3), "header length 3 runs past the end of the file (2 bytes");
}

TEST(Safetensors, RejectsBadJson) {
  expect_rejected(make_file("{not json"), "header is not valid JSON");
  expect_rejected(make_file("{} trailing"), "header is not valid JSON");
  expect_rejected(make_file("{\"\xff\":1}"), "header is not valid JSON");  // not UTF-8
  expect_rejected(make_file(std::string("{\"a\0\":1}", 8)), "header is not valid JSON");
  expect_rejected(make_file(R"({"a":{"dtype":"F32","shape":[1e400]}})"), "not valid JSON");
  expect_rejected(make_file("[1,2]"), "header is not a JSON object (it is an array)");
  expect_rejected(make_file("42"), "header is not a JSON object (it is number)");
  expect_rejected(make_file("\"str\""), "header is not a JSON object (it is string)");
  expect_rejected(make_file("null"), "header is not a JSON object (it is null)");
}

TEST(Safetensors, RejectsBadEntries) {
  expect_rejected(make_file(R"({"a":5})"), "entry 'a' is number, not an object");
  expect_rejected(make_file(R"({"a":[1]})"), "entry 'a' is an array, not an object");
  expect_rejected(make_file(R"({"a":null})"), "entry 'a' is null, not an object");
  // Control bytes in names are escaped so messages stay on one line.
  expect_rejected(make_file(R"({"a\nb":5})"), "entry 'a\\x0ab' is number");
  expect_rejected(
      make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"extra":1}})", 4),
      "tensor 'a' has an unknown field 'extra'");
  expect_rejected(make_file(R"({"a":{"shape":[1],"data_offsets":[0,4]}})", 4),
                  "tensor 'a' has no dtype");
  expect_rejected(make_file(R"({"a":{"dtype":"F32","data_offsets":[0,4]}})", 4),
                  "tensor 'a' has no shape");
  expect_rejected(make_file(R"({"a":{"dtype":"F32","shape":[1]}})", 4),
                  "tensor 'a' has no data_offsets");
}

TEST(Safetensors, RejectsBadDtypes) {
  expect_rejected(make_file(R"({"a":)" + entry(R"("F8")", "[1]", "[0,1]") + "}", 1),
                  "tensor 'a' has unknown dtype 'F8'");
  expect_rejected(make_file(R"({"a":)" + entry(R"("f32")", "[1]", "[0,4]") + "}", 4),
                  "unknown dtype 'f32'");
  expect_rejected(make_file(R"({"a":)" + entry("5", "[1]", "[0,4]") + "}", 4),
                  "tensor 'a': dtype 5 is not a string");
  expect_rejected(make_file(R"({"a":)" + entry("[\"F32\"]", "[1]", "[0,4]") + "}", 4),
                  "dtype [\"F32\"] is not a string");
}

TEST(Safetensors, RejectsBadShapes) {
  const auto with_shape = [](const std::string& shape, const std::string& offsets = "[0,4]") {
    return make_file(R"({"a":)" + entry(R"("F32")", shape, offsets) + "}", 16);
  };
  expect_rejected(with_shape("\"x\""), "tensor 'a': shape \"x\" is not an array of integers");
  expect_rejected(with_shape("4"), "shape 4 is not an array");
  expect_rejected(with_shape("[-1]"), "tensor 'a': shape[0] = -1 is not a non-negative integer");
  expect_rejected(with_shape("[1, 1.5]"), "shape[1] = 1.5 is not a non-negative integer");
  expect_rejected(with_shape("[1.0]"), "shape[0] = 1.0 is not a non-negative integer");
  expect_rejected(with_shape("[\"2\"]"), "shape[0] = \"2\" is not a non-negative integer");
  expect_rejected(with_shape("[true]"), "shape[0] = true is not a non-negative integer");
  expect_rejected(with_shape("[1,1,1,1,1,1,1,1,1]"), "tensor 'a' has a shape of rank > 8");
  expect_rejected(with_shape("[[1]]"), "tensor 'a': shape contains an array (nesting too deep)");
  expect_rejected(with_shape("{\"d\":1}"), "tensor 'a': shape is an object");
  expect_rejected(with_shape("[9223372036854775808]"),
                  "shape[0] = 9223372036854775808 exceeds the int64 range");
  expect_rejected(with_shape("[4294967296,4294967296,4294967296]"), "element count that overflows");
  expect_rejected(with_shape("[4611686018427387904]"),  // 2^62 elements * 4 bytes
                  "shape [4611686018427387904] of F32 has a byte size that overflows");
}

TEST(Safetensors, RejectsBadOffsets) {
  const auto with_offsets = [](const std::string& offsets, const std::string& shape = "[2]") {
    return make_file(R"({"a":)" + entry(R"("F32")", shape, offsets) + "}", 16);
  };
  expect_rejected(with_offsets("[0]"), "tensor 'a': data_offsets [0] is not [begin, end]");
  expect_rejected(with_offsets("[0,4,8]"), "data_offsets [0,4,8] is not [begin, end]");
  expect_rejected(with_offsets("\"0-8\""), "is not [begin, end]");
  expect_rejected(with_offsets("[0,1,2,3,4,5,6,7,8]"), "data_offsets has more than 8 entries");
  expect_rejected(with_offsets("[-8,0]"), "data_offsets [-8,0] are not non-negative integers");
  expect_rejected(with_offsets("[0,8.0]"), "are not non-negative integers");
  expect_rejected(with_offsets("[0,null]"), "are not non-negative integers");
  expect_rejected(with_offsets("[8,0]"), "tensor 'a': data_offsets [8, 0] has begin > end");
  expect_rejected(with_offsets("[8,24]"),
                  "data_offsets [8, 24] end past the data buffer (16 bytes)");
  expect_rejected(with_offsets("[0,18446744073709551615]"), "end past the data buffer");
  expect_rejected(with_offsets("[0,4]"),
                  "data_offsets [0, 4] hold 4 bytes but shape [2] of F32 needs 8");
  expect_rejected(with_offsets("[0,4]", "[0,2]"), "hold 4 bytes but shape [0, 2] of F32 needs 0");
}

TEST(Safetensors, RejectsOverlapsAndDuplicates) {
  expect_rejected(make_file(R"({"a":)" + entry(R"("F32")", "[4]", "[0,16]") + R"(,"b":)" +
                                entry(R"("F32")", "[4]", "[8,24]") + "}",
                            24),
                  "tensors 'a' [0, 16) and 'b' [8, 24) overlap");
  expect_rejected(make_file(R"({"a":)" + entry(R"("U8")", "[4]", "[4,8]") + R"(,"b":)" +
                                entry(R"("U8")", "[4]", "[4,8]") + "}",
                            8),
                  "tensors 'a' [4, 8) and 'b' [4, 8) overlap");
  expect_rejected(make_file(R"({"a":)" + entry(R"("U8")", "[1]", "[0,1]") + R"(,"a":)" +
                                entry(R"("U8")", "[1]", "[1,2]") + "}",
                            2),
                  "duplicate key 'a' in the header");
  expect_rejected(
      make_file(R"({"a":{"dtype":"U8","dtype":"F32","shape":[1],"data_offsets":[0,1]}})", 1),
      "tensor 'a' has the field 'dtype' twice");
  expect_rejected(make_file(R"({"__metadata__":{},"__metadata__":{}})"),
                  "duplicate key '__metadata__'");
}

TEST(Safetensors, RejectsBadMetadata) {
  expect_rejected(make_file(R"({"__metadata__":[1]})"), "__metadata__ is an array");
  expect_rejected(make_file(R"({"__metadata__":"x"})"), "__metadata__ is string, not an object");
  expect_rejected(make_file(R"({"__metadata__":{"k":1}})"),
                  "__metadata__ value for 'k' is number 1, not a string");
  expect_rejected(make_file(R"({"__metadata__":{"k":null}})"), "value for 'k' is null");
  expect_rejected(make_file(R"({"__metadata__":{"k":{"x":"y"}}})"),
                  "__metadata__ value for 'k' is an object, not a string");
  expect_rejected(make_file(R"({"__metadata__":{"k":["y"]}})"), "is an array, not a string");
  expect_rejected(make_file(R"({"__metadata__":{"k":"v","k":"w"}})"),
                  "__metadata__ has the field 'k' twice");
  const auto ok = SafetensorsFile::parse(make_file(R"({"__metadata__":{"k":"v","":""}})"), "x");
  EXPECT_EQ(ok.metadata().at("k"), "v");
  EXPECT_EQ(ok.metadata().size(), 2u);
}

TEST(Safetensors, OpenRejectsBadFiles) {
  const fs::path dir = temp_dir("open");
  try {
    (void)SafetensorsFile::open(dir / "missing.safetensors");
    ADD_FAILURE() << "opened a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.safetensors: cannot open"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)SafetensorsFile::open(dir), std::runtime_error);  // a directory
  write_bytes(dir / "short.safetensors", std::vector<std::byte>(3));
  try {
    (void)SafetensorsFile::open(dir / "short.safetensors");
    ADD_FAILURE() << "opened a 3-byte file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("file is 3 bytes, shorter"), std::string::npos)
        << e.what();
  }
  write_bytes(dir / "empty.safetensors", {});
  EXPECT_THROW((void)SafetensorsFile::open(dir / "empty.safetensors"), std::runtime_error);
  write_bytes(dir / "lie.safetensors", make_file("{}", 0, 1000));
  EXPECT_THROW((void)SafetensorsFile::open(dir / "lie.safetensors"), std::runtime_error);
  fs::remove_all(dir);
}

TEST(Safetensors, WriteReadRoundTrip) {
  const fs::path dir = temp_dir("roundtrip");
  const fs::path path = dir / "sub" / "ckpt.safetensors";
  std::vector<OwnedTensor> tensors = {
      {"h.0.attn.weight", {2, 3}, {1.0f, -2.0f, 0.5f, 1e-40f, 3.4e38f, -0.0f}},
      {"scalar", {}, {42.0f}},
      {"empty", {0, 5}, {}},
      {"special",
       {3},
       {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
        -std::numeric_limits<float>::infinity()}},
  };
  const std::map<std::string, std::string> metadata = {{"step", "100"}, {"format", "pt"}};
  write_safetensors(path, {{"stale", {1}, {0.0f}}});  // overwritten below
  write_safetensors(path, tensors, metadata);

  {
    SafetensorsFile opened = SafetensorsFile::open(path);
    const SafetensorsFile f = std::move(opened);  // views stay valid across a move
    EXPECT_EQ(f.names(),
              (std::vector<std::string>{"empty", "h.0.attn.weight", "scalar", "special"}));
    EXPECT_EQ(f.metadata(), metadata);
    for (const OwnedTensor& t : tensors) {
      const TensorView& v = f.get(t.name);
      EXPECT_EQ(v.dtype, DType::F32);
      EXPECT_EQ(v.shape, t.shape);
      const std::vector<float> got = to_float32(v);
      ASSERT_EQ(got.size(), t.data.size());
      for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(bits(got[i]), bits(t.data[i])) << t.name << "[" << i << "]";
      if (v.bytes > 0) {
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data) % 4, 0u) << t.name;
      }
    }
    EXPECT_EQ(f.find("stale"), nullptr);
  }

  // File layout: header length is a multiple of 8 and the file ends with the last tensor.
  std::ifstream in(path, std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::uint64_t n = 0;
  std::memcpy(&n, raw.data(), 8);
  EXPECT_EQ(n % 8, 0u);
  EXPECT_EQ(raw.size(), 8 + n + (6 + 1 + 0 + 3) * 4);
  // Nothing but the checkpoint is left in the directory (no temporary files).
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir / "sub")) {
    ++files;
    EXPECT_EQ(e.path().filename(), "ckpt.safetensors");
  }
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}

TEST(Safetensors, WriterProducesTheReferenceLayout) {
  // Header by the format's definition: sorted keys, data offsets in name order, space padding.
  const fs::path dir = temp_dir("layout");
  write_safetensors(dir / "x.safetensors", {{"b", {1}, {2.0f}}, {"a", {2}, {1.0f, 0.5f}}});
  std::ifstream in(dir / "x.safetensors", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string header = R"({"a":{"data_offsets":[0,8],"dtype":"F32","shape":[2]},)"
                       R"("b":{"data_offsets":[8,12],"dtype":"F32","shape":[1]}})";
  header.append((8 - header.size() % 8) % 8, ' ');
  ASSERT_GE(raw.size(), 8 + header.size());
  EXPECT_EQ(static_cast<unsigned char>(raw[0]), header.size());
  EXPECT_EQ(raw.substr(1, 7), std::string(7, '\0'));
  EXPECT_EQ(raw.substr(8, header.size()), header);
  const float want[3] = {1.0f, 0.5f, 2.0f};
  ASSERT_EQ(raw.size(), 8 + header.size() + sizeof(want));
  EXPECT_EQ(std::memcmp(raw.data() + 8 + header.size(), want, sizeof(want)), 0);
  fs::remove_all(dir);
}

std::string slurp_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::byte> bytes_of(const std::string& s) {
  const auto b = std::as_bytes(std::span(s.data(), s.size()));
  return {b.begin(), b.end()};
}

TEST(Safetensors, ChecksumIsTheFilesSha256WithItsDigitsReadAsZero) {
  const fs::path dir = temp_dir("checksum");
  const fs::path path = dir / "c.safetensors";
  write_safetensors(path, {{"w", {2, 2}, {1.0f, 2.0f, 3.0f, 4.0f}}, {"b", {2}, {0.5f, -1.0f}}},
                    {{"step", "7"}}, Checksum::kSha256);
  const std::string raw = slurp_file(path);
  const SafetensorsFile f = SafetensorsFile::open(path);
  ASSERT_TRUE(f.has_checksum());
  EXPECT_EQ(f.metadata().size(), 2u);
  const std::string digits = f.metadata().at(std::string(kChecksumKey));
  // The definition, computed here from the raw bytes with the core hash alone.
  std::string zeroed = raw;
  const std::size_t at = zeroed.find(digits);
  ASSERT_NE(at, std::string::npos);
  zeroed.replace(at, digits.size(), std::string(64, '0'));
  EXPECT_EQ(sha256_hex(zeroed), digits);
  EXPECT_NO_THROW(f.verify_checksum());
  // Parsing a buffer verifies the same way.
  const std::vector<std::byte> buffer = bytes_of(raw);
  EXPECT_NO_THROW(SafetensorsFile::parse(buffer, "buffer").verify_checksum());
  fs::remove_all(dir);
}

TEST(Safetensors, AFlippedByteAnywhereIsDetected) {
  const fs::path dir = temp_dir("flip");
  const fs::path path = dir / "f.safetensors";
  write_safetensors(path, {{"w", {3, 2}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}}, {"s", {}, {9.0f}}},
                    {{"format", "x"}}, Checksum::kSha256);
  const std::string raw = slurp_file(path);
  int refused_by_parse = 0, refused_by_checksum = 0;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    for (const int mask : {0x01, 0x20, 0x80, 0xff}) {
      std::string damaged = raw;
      damaged[i] = static_cast<char>(static_cast<unsigned char>(damaged[i]) ^ mask);
      const std::vector<std::byte> bytes = bytes_of(damaged);
      try {
        const SafetensorsFile f = SafetensorsFile::parse(bytes, "d.safetensors");
        try {
          f.verify_checksum();
          ADD_FAILURE() << "byte " << i << " ^ " << mask << " went unnoticed";
        } catch (const std::runtime_error& e) {
          ++refused_by_checksum;
          EXPECT_EQ(std::string(e.what()).rfind("d.safetensors: ", 0), 0u) << e.what();
        }
      } catch (const std::runtime_error&) {
        ++refused_by_parse;
      }
    }
  }
  EXPECT_EQ(refused_by_parse + refused_by_checksum, static_cast<int>(4 * raw.size()));
  // Every flip in the 28 data bytes parses, so the checksum alone catches those.
  EXPECT_GE(refused_by_checksum, 4 * 28);
  // Truncated or extended, the file fails too.
  std::vector<std::byte> longer = bytes_of(raw + std::string(1, '\0'));
  EXPECT_THROW(SafetensorsFile::parse(longer, "l").verify_checksum(), std::runtime_error);
  fs::remove_all(dir);
}

TEST(Safetensors, ChecksumIsOptInAndReserved) {
  const fs::path dir = temp_dir("optin");
  write_safetensors(dir / "n.safetensors", {{"a", {1}, {1.0f}}});
  const SafetensorsFile plain = SafetensorsFile::open(dir / "n.safetensors");
  EXPECT_FALSE(plain.has_checksum());
  try {
    plain.verify_checksum();
    ADD_FAILURE() << "verified a file without a checksum";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("has no checksum"), std::string::npos) << e.what();
  }
  EXPECT_THROW(write_safetensors(dir / "r.safetensors", {{"a", {1}, {1.0f}}},
                                 {{std::string(kChecksumKey), "0"}}, Checksum::kSha256),
               std::invalid_argument);
  fs::remove_all(dir);
}

TEST(Safetensors, WriterRejectsBadTensors) {
  const fs::path dir = temp_dir("writer");
  const fs::path p = dir / "w.safetensors";
  const auto expect_invalid = [&](const std::vector<OwnedTensor>& t, const std::string& needle,
                                  const std::map<std::string, std::string>& meta = {}) {
    SCOPED_TRACE(needle);
    try {
      write_safetensors(p, t, meta);
      ADD_FAILURE() << "wrote invalid tensors";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_invalid({{"", {1}, {1.0f}}}, "tensor #0 has an empty name");
  expect_invalid({{"__metadata__", {1}, {1.0f}}}, "reserved for metadata");
  expect_invalid({{"a", {1}, {1.0f}}, {"a", {1}, {1.0f}}}, "tensor #1 'a' appears twice");
  expect_invalid({{"a", {-1}, {}}}, "negative dimension in shape [-1]");
  expect_invalid({{"a", {2, 2}, {1.0f}}}, "shape [2, 2] holds 4 values but data has 1");
  expect_invalid({{"a", std::vector<std::int64_t>(9, 1), {1.0f}}}, "has rank 9 > 8");
  expect_invalid({{"a\xff", {1}, {1.0f}}}, "not valid UTF-8");
  expect_invalid({{"a", {1}, {1.0f}}}, "not valid UTF-8", {{"k", "\xc3"}});
  EXPECT_FALSE(fs::exists(p));
  // A parent that is a regular file cannot hold the checkpoint.
  std::ofstream(dir / "plain") << "x";
  EXPECT_THROW(write_safetensors(dir / "plain" / "w.safetensors", {{"a", {1}, {1.0f}}}),
               std::runtime_error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace posbias
