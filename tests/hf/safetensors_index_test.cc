// Sharded checkpoints: model.safetensors.index.json read strictly, shards opened once from the
// index's own folder, and every refusal one line naming the shard, tensor or field.
#include "posbias/hf/safetensors_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../one_line_error.h"

namespace posbias {
namespace {

namespace fs = std::filesystem;

using posbias_test::expect_refused;

void expect_bad_index(const std::string& text, const std::vector<std::string>& needles) {
  SCOPED_TRACE(text.substr(0, 200));
  expect_refused([&] { (void)parse_safetensors_index(text, "index.json"); }, needles);
}

TEST(SafetensorsIndex, ParsesHuggingFacesShape) {
  const SafetensorsIndex index = parse_safetensors_index(
      R"({"metadata": {"total_size": 1024, "format": "pt"},
          "weight_map": {"lm_head.weight": "model-00002-of-00002.safetensors",
                         "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
                         "model.norm.weight": "model-00002-of-00002.safetensors"}})",
      "index.json");
  EXPECT_EQ(index.total_size, 1024u);
  EXPECT_EQ(index.weight_map.size(), 3u);
  EXPECT_EQ(index.weight_map.at("model.norm.weight"), "model-00002-of-00002.safetensors");
  EXPECT_EQ(index.shards(), (std::vector<std::string>{"model-00001-of-00002.safetensors",
                                                      "model-00002-of-00002.safetensors"}));
  // metadata is optional, and so is its total_size.
  EXPECT_FALSE(parse_safetensors_index(R"({"weight_map": {"a": "x.safetensors"}})", "i")
                   .total_size.has_value());
  EXPECT_TRUE(is_safetensors_index("dir/model.safetensors.index.json"));
  EXPECT_FALSE(is_safetensors_index("dir/model.safetensors"));
}

TEST(SafetensorsIndex, RefusesMalformedIndexes) {
  expect_bad_index(R"({"weight_map": {"a": "x.safetensors"})", {"index.json: not valid JSON"});
  expect_bad_index("[1, 2]", {"top level is array, not a JSON object"});
  expect_bad_index(R"({"metadata": {}})", {"required field weight_map is missing"});
  expect_bad_index(R"({"weight_map": []})", {"weight_map must be an object"});
  expect_bad_index(R"({"weight_map": {}})", {"weight_map is empty"});
  expect_bad_index(R"({"weight_map": {"a": 3}})", {"weight_map['a'] must be a shard file name"});
  expect_bad_index(R"({"weight_map": {"a": "x.safetensors"}, "extra": 1})",
                   {"unknown field 'extra'"});
  expect_bad_index(R"({"weight_map": {"a": "x.safetensors", "a": "y.safetensors"}})",
                   {"duplicate key 'a'"});
  expect_bad_index(R"({"metadata": [], "weight_map": {"a": "x.safetensors"}})",
                   {"metadata must be an object"});
  expect_bad_index(R"({"metadata": {"total_size": -1}, "weight_map": {"a": "x.safetensors"}})",
                   {"metadata.total_size must be a non-negative integer"});
  expect_bad_index(R"({"weight_map": {"": "x.safetensors"}})", {"tensor name of 0 bytes"});
  expect_bad_index(R"({"weight_map": {"__metadata__": "x.safetensors"}})", {"'__metadata__'"});
  expect_bad_index(std::string(200, '['), {"nested deeper than"});
  expect_bad_index(std::string(kMaxSafetensorsIndexBytes + 1, ' '), {"-byte limit"});
}

// A shard name must stay in the index's folder: no separators, no '..', no hidden files, no
// control bytes, and a .safetensors name.
TEST(SafetensorsIndex, RefusesShardNamesThatLeaveTheFolder) {
  for (const auto& [name, problem] : std::vector<std::pair<std::string, std::string>>{
           {"sub/x.safetensors", "holds a path separator"},
           {"/etc/passwd.safetensors", "holds a path separator"},
           {"..\\\\x.safetensors", "holds a path separator"},
           {"..", "starts with '.'"},
           {"../model.safetensors", "holds a path separator"},
           {".hidden.safetensors", "starts with '.'"},
           {"", "is empty"},
           {"x\\n.safetensors", "holds a control byte"},
           {"model.bin", "does not end in .safetensors"},
           {".safetensors", "starts with '.'"},
           {std::string(300, 'a') + ".safetensors", "is longer than 255 bytes"}}) {
    expect_bad_index(R"({"weight_map": {"t": ")" + name + R"("}})",
                     {"shard ", " of tensor 't' " + problem, "plain *.safetensors file name"});
  }
}

class ShardedFiles : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("posbias_index_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    a_ = {"a", {2, 3}, {1, 2, 3, 4, 5, 6}};
    b_ = {"b", {4}, {7, 8, 9, 10}};
    c_ = {"c", {1}, {11}};
    write_safetensors(dir_ / "whole.safetensors", {a_, b_, c_});
    write_safetensors(dir_ / "model-00001-of-00002.safetensors", {a_});
    write_safetensors(dir_ / "model-00002-of-00002.safetensors", {b_, c_});
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path index(const std::string& weight_map, const std::string& name = "index.json") {
    std::ofstream(dir_ / name) << R"({"metadata": {"total_size": 44}, "weight_map": )" << weight_map
                               << "}";
    return dir_ / name;
  }
  std::string two_shards() const {
    return R"({"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors",
               "c": "model-00002-of-00002.safetensors"})";
  }

  fs::path dir_;
  OwnedTensor a_, b_, c_;
};

std::vector<float> values(const SafetensorsCheckpoint& c, const std::string& name) {
  const auto found = c.find(name);
  EXPECT_TRUE(found.has_value()) << name;
  if (!found) return {};
  return to_float32(*found->tensor);
}

// Two shards plus an index give the same tensors as the one file, each shard opened once.
TEST_F(ShardedFiles, ShardsGiveTheSameTensorsAsTheWholeFile) {
  const SafetensorsCheckpoint sharded = SafetensorsCheckpoint::open(index(two_shards()));
  const SafetensorsCheckpoint whole = SafetensorsCheckpoint::open(dir_ / "whole.safetensors");
  EXPECT_EQ(sharded.files().size(), 2u);
  EXPECT_EQ(whole.files().size(), 1u);
  for (const std::string name : {"a", "b", "c"}) {
    EXPECT_EQ(values(sharded, name), values(whole, name)) << name;
    EXPECT_EQ(sharded.find(name)->tensor->shape, whole.find(name)->tensor->shape) << name;
  }
  EXPECT_EQ(sharded.find("b")->file, sharded.find("c")->file);
  EXPECT_NE(sharded.find("a")->file, sharded.find("b")->file);
  EXPECT_FALSE(sharded.find("d").has_value());
  EXPECT_EQ(sharded.source_name(), (dir_ / "index.json").string());
  // A tensor a shard holds but the index does not list is not part of the checkpoint.
  const SafetensorsCheckpoint partial =
      SafetensorsCheckpoint::open(index(R"({"b": "model-00002-of-00002.safetensors"})"));
  EXPECT_FALSE(partial.find("c").has_value());
}

TEST_F(ShardedFiles, RefusesAMissingShardOrTensor) {
  expect_refused(
      [&] {
        (void)SafetensorsCheckpoint::open(index(R"({"a": "model-00001-of-00002.safetensors",
                                                    "z": "model-00003-of-00003.safetensors"})"));
      },
      {"index.json: shard 'model-00003-of-00003.safetensors' does not exist in " + dir_.string() +
       " (the index lists 1 tensor in it, 'z' first)"});
  expect_refused(
      [&] {
        (void)SafetensorsCheckpoint::open(index(R"({"a": "model-00002-of-00002.safetensors"})"));
      },
      {"tensor 'a' is listed in shard 'model-00002-of-00002.safetensors', which does not hold it"});
  expect_refused([&] { (void)SafetensorsCheckpoint::open(index(R"({"a": "../x.safetensors"})")); },
                 {"shard '../x.safetensors'", "holds a path separator"});
  // A shard that is not a safetensors file is named by SafetensorsFile's own message.
  std::ofstream(dir_ / "junk.safetensors") << "{not safetensors}";
  expect_refused([&] { (void)SafetensorsCheckpoint::open(index(R"({"a": "junk.safetensors"})")); },
                 {"junk.safetensors"});
  std::ofstream(dir_ / "broken.json") << "{\"weight_map\": ";
  expect_refused([&] { (void)SafetensorsCheckpoint::open(dir_ / "broken.json"); },
                 {"broken.json: not valid JSON"});
  expect_refused([&] { (void)SafetensorsCheckpoint::open(dir_ / "absent.json"); },
                 {"absent.json: not a readable regular file"});
}

}  // namespace
}  // namespace posbias
