// Every record and enum name table of tests/field_tables.h, checked the same way.
//
// A record's sample is generated from what its reader takes: each field (and each field of a
// nested record, list element or map value) is given a value of its JSON kind unlike its default,
// numbers and strings from a counter so no two are alike, an enum the first of the names its
// refusal lists; the sample is kept only where the record reads it and writes it back unchanged.
// Then: (a) every field is set and the sample writes the same bytes after a read; (b) each field
// removed is refused as missing (a required row) or reads back as its default; (c) each field,
// deep ones by their dotted path, given a value of the wrong JSON kind is refused naming it;
// (d) an unknown field, at the top and in every nested record, is refused naming it; (e) an enum
// field given an unknown name is refused naming the field. An enum: every
// value → name → value, the names unique, an unknown name refused listing them, a near miss with
// "did you mean". And every table in the sources is in the registry.
#include "../field_tables.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "../shipped_records.h"
#include "posbias/core/enum_names.h"

namespace posbias_test {
namespace {

using nlohmann::json;
using Pointer = json::json_pointer;

const char* const kUnknown = "zz_not_a_field";
const std::string kMapKey = "key-";  // the keys the sample gives a map

// The same text (NaN, which is unequal to itself, is written as null).
bool same(const json& a, const json& b) { return a.dump() == b.dump(); }

// What `j` reads back as and writes, or the reader's message.
struct Read {
  std::optional<json> written;
  std::string refusal;
};
Read read_back(const RecordCodec& codec, const json& j) {
  try {
    return {codec.round_trip(j), ""};
  } catch (const std::exception& e) {
    return {std::nullopt, e.what()};
  }
}

// "a.0.b" for /a/0/b: how a field's reader names a field inside another.
std::string dotted(const Pointer& p) {
  std::string text = p.to_string();
  for (char& c : text) c = c == '/' ? '.' : c;
  return text.empty() ? text : text.substr(1);
}

// The names a refusal lists: "... (use a, b or c)...".
std::vector<std::string> listed_names(const std::string& refusal) {
  const auto open = refusal.rfind("(use ");
  if (open == std::string::npos) return {};
  const auto close = refusal.find(')', open);
  std::string list = refusal.substr(open + 5, close - open - 5);
  std::vector<std::string> names;
  std::regex separator(", | or ");
  for (std::sregex_token_iterator it(list.begin(), list.end(), separator, -1), end; it != end; ++it)
    names.push_back(*it);
  return names;
}

// Values of the kind of `was` (the default there) to try in its place, none equal to it.
std::vector<json> candidates(const json& was, int n) {
  const double x = n + 0.25;
  const std::string s = "text-" + std::to_string(n);
  const std::vector<json> strings = {s, std::to_string(n), x};  // a name, a number as text or not
  const std::vector<json> lists = {json::array({x, x + 1}),
                                   json::array({n, n + 1}),
                                   json::array({s, s + "b"}),
                                   json::array({true, false}),
                                   json::array({json::array({x})}),
                                   json::array({json::array({n})}),
                                   json::array({json::object(), json::object()})};
  std::vector<json> objects;  // a map: one key, its value any of the above, or a record
  const std::string key = kMapKey + std::to_string(n);
  for (const json& v : {json(x), json(n), json(s), json(true)}) objects.push_back({{key, v}});
  for (const json& v : lists) objects.push_back({{key, v}});
  objects.push_back({{key, json::object()}});
  switch (was.type()) {
    case json::value_t::boolean:
      return {!was.get<bool>()};
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return {was.get<std::int64_t>() + n};
    case json::value_t::number_float:  // NaN (not measured) written as a number: any number
      return {std::isfinite(was.get<double>()) ? was.get<double>() + x : x};
    case json::value_t::string:
      return strings;
    case json::value_t::array:
      return lists;
    case json::value_t::object:
      return objects;
    default: {  // null: a value not set; any kind
      std::vector<json> all = {x, n, s, true};
      all.insert(all.end(), lists.begin(), lists.end());
      all.insert(all.end(), objects.begin(), objects.end());
      all.push_back(json::object());
      all.push_back(std::to_string(n));
      return all;
    }
  }
}

// Where the field a "missing FIELD 'a.0.b'" refusal names goes in `j` (its record is there; a
// key may hold dots: "crossing_0.9"), or nullopt.
std::optional<Pointer> missing_field(const json& j, const std::string& refusal) {
  if (!refusal.starts_with("missing ")) return std::nullopt;
  const auto open = refusal.find('\'');
  const auto close = refusal.rfind('\'');
  if (open == std::string::npos || close <= open) return std::nullopt;
  std::vector<std::string> tokens;
  std::stringstream path(refusal.substr(open + 1, close - open - 1));
  for (std::string t; std::getline(path, t, '.');) tokens.push_back(t);
  Pointer p;
  std::size_t i = 0;
  while (i + 1 < tokens.size()) {  // down the longest key (or index) there is, the rest the field
    const json& at = j.at(p);
    bool down = false;
    for (std::size_t n = tokens.size() - 1 - i; n >= 1 && !down; --n) {
      std::string key = tokens[i];
      for (std::size_t k = 1; k < n; ++k) key += "." + tokens[i + k];
      if (at.is_object() && at.contains(key)) {
        p /= key;
      } else if (at.is_array() && n == 1 &&
                 key.find_first_not_of("0123456789") == std::string::npos &&
                 std::stoul(key) < at.size()) {
        p /= std::stoul(key);
      } else {
        continue;
      }
      i += n;
      down = true;
    }
    if (!down) break;
  }
  std::string field = tokens[i];
  for (std::size_t k = i + 1; k < tokens.size(); ++k) field += "." + tokens[k];
  return p / field;
}

// A record's sample, built field by field.
struct Sample {
  const RecordCodec& codec;
  json value;
  std::map<std::string, json> defaults;  // pointer → the value there before (null: absent)
  int counter = 3;                       // positive: hop counts and sizes take it

  // `v`, and when `v` is a string (or a list of them, or a map's one value) the reader refuses
  // listing names (an enum), those names.
  std::vector<json> with_names(const json& j, const Pointer& p, const json& v) {
    std::vector<json> out = {v};
    if (v.is_object() && v.size() == 1 && v.begin().value().is_string()) {  // a map of names
      json k = j;
      k[p] = v;
      for (const std::string& name : listed_names(read_back(codec, k).refusal))
        out.push_back({{v.begin().key(), name}});
      return out;
    }
    if (!v.is_string() && !(v.is_array() && v[0].is_string())) return out;
    json k = j;
    k[p] = v;
    const std::vector<std::string> names = listed_names(read_back(codec, k).refusal);
    if (v.is_string()) out.insert(out.end(), names.begin(), names.end());
    if (v.is_array() && names.size() >= 2) out.push_back(json::array({names[1], names[0]}));
    return out;
  }

  // `j` with each field its reader says is missing given the first value that satisfies it
  // (a list's or a map's new record has its required fields), or nullopt.
  std::optional<json> completed(json j) {
    for (int round = 0; round < 64; ++round) {
      const Read r = read_back(codec, j);
      if (r.written) return j;
      const std::optional<Pointer> missing = missing_field(j, r.refusal);
      if (!missing) return std::nullopt;
      const std::string named = "'" + dotted(*missing) + "'";
      std::optional<json> given;
      for (const json& v : candidates(json(), counter++)) {
        for (const json& w : with_names(j, *missing, v)) {
          json k = j;
          k[*missing] = w;
          const Read t = read_back(codec, k);  // read, or only another field missing
          if (!given && (t.written || (t.refusal.starts_with("missing ") &&
                                       t.refusal.find(named) == std::string::npos)))
            given = std::move(k);
        }
        if (given) break;
      }
      if (!given) return std::nullopt;
      j = std::move(*given);
    }
    return std::nullopt;
  }

  bool try_value(const Pointer& p, const json& v, const json& was) {
    json j = value;
    j[p] = v;
    const std::optional<json> whole = completed(j);
    if (!whole) return false;
    const Read r = read_back(codec, *whole);
    if (!r.written || !r.written->contains(p) || same(r.written->at(p), was)) return false;
    const Read again = read_back(codec, *r.written);
    if (!again.written || !same(*again.written, *r.written)) return false;
    value = *r.written;
    return true;
  }

  // Sets the value at `p` unlike its default, then each field inside it.
  void fill(const Pointer& p, int depth) {
    const json was = value.contains(p) ? value.at(p) : json();
    defaults[p.to_string()] = was;
    bool set = was.is_structured() && !was.empty();  // a record or a list already: fill inside
    for (const json& v : set ? std::vector<json>{} : candidates(was, counter++)) {
      for (const json& w : with_names(value, p, v))
        set = set || (!same(w, was) && try_value(p, w, was));
      if (set) break;
    }
    if (!set || depth > 6) return;
    const json now = value.at(p);
    if (now.is_object()) {
      for (const auto& [key, v] : now.items()) fill(p / key, depth + 1);
    } else if (now.is_array()) {
      for (std::size_t i = 0; i < now.size(); ++i) fill(p / i, depth + 1);
    }
  }
};

Sample sample_of(const RecordCodec& codec) {
  Sample s{codec, codec.defaults(), {}};
  std::vector<std::string> names;
  for (const auto& row : codec.rows) names.push_back(row.name);
  if (names.empty())
    for (const auto& [key, v] : s.value.items()) names.push_back(key);
  for (const std::string& name : names) s.fill(Pointer() / name, 0);
  return s;
}

// Whether `refusal` names field `key` of the record at `record`: by its dotted path ("'a.0.key"),
// or, a record read whole by its own reader (a run's config), the record's path and then the key.
bool names_field(const std::string& refusal, const Pointer& record, const std::string& key) {
  if (refusal.find("'" + dotted(record / key)) != std::string::npos) return true;
  return !record.empty() && refusal.find("'" + dotted(record) + "'") != std::string::npos &&
         refusal.find("'" + key + "'") != std::string::npos;
}

// The values inside `v` (at `p`) that are no record's field: a list's elements, a map's values,
// and theirs, down to the first record.
std::vector<Pointer> values_inside(const json& v, const Pointer& p) {
  std::vector<Pointer> out;
  const bool map = v.is_object() && !v.empty() && v.begin().key().starts_with(kMapKey);
  if (!v.is_array() && !map) return out;
  std::size_t i = 0;
  for (const auto& [key, inner] : v.items()) {
    const Pointer q = v.is_array() ? p / i++ : p / key;
    if (!inner.is_structured()) out.push_back(q);
    for (const Pointer& r : values_inside(inner, q)) out.push_back(r);
  }
  return out;
}

// Fields read by an outside format's own rules, by record: a Hugging Face config.json (unknown
// keys ignored, as transformers does; its values checked by parse_hf_config, tests/hf), the model
// of birth's result and of its seed journal's key. The field itself is checked; the keys inside it
// are not records' fields.
const std::set<std::string> kOwnFormat = {
    "birth_record_fields/config",
    "named_birth_record_fields/config",
    "seed_journal_key_fields/config",
};

// Every object in the sample that is a record, by pointer ("" the top): the keys of the others
// (maps, objects kept as JSON or read by their own format) are the sample's own.
std::vector<Pointer> records_in(const RecordCodec& codec, const json& sample) {
  std::vector<Pointer> records;
  std::vector<Pointer> todo = {Pointer()};
  while (!todo.empty()) {
    const Pointer p = todo.back();
    todo.pop_back();
    if (kOwnFormat.count(codec.name + "/" + dotted(p))) continue;
    const json& v = sample.at(p);
    bool record = v.is_object() && (p.empty() || !v.empty());
    for (const auto& [key, inner] : v.items()) record = record && !key.starts_with(kMapKey);
    if (record) records.push_back(p);
    if (v.is_object()) {
      for (const auto& [key, inner] : v.items()) todo.push_back(p / key);
    } else if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) todo.push_back(p / i);
    }
  }
  return records;
}

// Fields the sample cannot set, by record: each holds a value only its record knows (checked by
// the record's own test with its shipped files).
const std::set<std::string> kNotGenerated = {
    "reproduce_run_record_from_json/command",  // always "reproduce"
    "sweep_result_from_json/task",             // the task of the construction
    "hop_seeds_record_fields/files",           // records whose every field is optional: their
    "heads_record_fields/source",              // names cannot be guessed
    "example_line_fields/hops",                // 1..4: the sample's counter is past it
    "eval_option_fields/rope_scaling",         // pi:F or ntk:F, a form no sample guesses
    "discrepancy_option_fields/heads",         // head names (L2.h0): mech_option_flags_test
};

// Fields kept as JSON whatever it holds, by record: not checked for the wrong kind. A GRID.json
// value (sweep_grid.h's GridValue) is a string or a number, kept as written: the wrong kind the
// check gives a number, a string, is its other kind.
const std::set<std::string> kKeptAsJson = {
    "sweep_grid_fields/command",  // a GridValue each
    "sweep_grid_fields/grid",
    "sweep_grid_fields/result",
    "sweep_grid_fields/resume.command",
    "sweep_grid_fields/resume.when",
    "sweep_manifest_from_json/grid.command",
};

void EveryRowHasItsOwnNameAndAHelp(const RecordCodec& codec) {
  std::set<std::string> names;
  for (const auto& row : codec.rows) {
    EXPECT_TRUE(names.insert(row.name).second) << codec.name << ": '" << row.name << "' twice";
    EXPECT_FALSE(row.help.empty()) << codec.name << ": '" << row.name << "' has no help";
  }
}

void EveryFieldIsSetAndWritesTheSameBytesAfterARead(const RecordCodec& codec) {
  const Sample s = sample_of(codec);
  const json defaults = codec.defaults();
  for (const auto& [key, v] : s.value.items()) {
    const bool set = !same(v, defaults.contains(key) ? defaults[key] : json());
    const bool listed = kNotGenerated.count(codec.name + "/" + key) != 0;
    EXPECT_TRUE(set || listed) << codec.name << ": no value unlike the default is read for '" << key
                               << "'";
    EXPECT_FALSE(set && listed) << codec.name << ": '" << key << "' is set; take it off the list";
  }
  for (const auto& row : codec.rows)
    EXPECT_TRUE(s.value.contains(row.name)) << codec.name << ": field '" << row.name << "' unset";
  const Read r = read_back(codec, s.value);
  ASSERT_TRUE(r.written) << codec.name << ": " << r.refusal;
  EXPECT_EQ(json_text(*r.written), json_text(s.value)) << codec.name;
  EXPECT_FALSE(same(s.value, defaults)) << codec.name;
  EXPECT_NE(codec.reads_equal(s.value), std::optional<bool>(false)) << codec.name;
}

void AMissingFieldIsRefusedOrReadsAsItsDefault(const RecordCodec& codec) {
  const Sample s = sample_of(codec);
  for (const Pointer& record : records_in(codec, s.value)) {
    for (const auto& [key, v] : s.value.at(record).items()) {
      const Pointer p = record / key;
      json j = s.value;
      j.at(record).erase(key);
      const Read r = read_back(codec, j);
      if (record.empty() && !codec.rows.empty()) {  // the row says which
        bool required = false;
        for (const auto& row : codec.rows) required = required || (row.name == key && row.required);
        EXPECT_EQ(!r.written, required) << codec.name << ": without '" << key << "': " << r.refusal;
      }
      if (!r.written) {
        EXPECT_NE(r.refusal.find("missing"), std::string::npos) << codec.name << ": " << r.refusal;
        EXPECT_TRUE(names_field(r.refusal, record, key)) << codec.name << ": " << r.refusal;
        continue;
      }
      const json was = s.defaults.count(p.to_string()) ? s.defaults.at(p.to_string()) : json();
      const json now = r.written->contains(p) ? r.written->at(p) : json();
      EXPECT_TRUE(same(now, was)) << codec.name << ": '" << dotted(p) << "' missing reads " << now;
    }
  }
}

// Whether the record reads `s` with the value at `p` replaced by one of the wrong JSON kind; the
// refusal, if any, in `refusal`.
bool takes_wrong_kind(const RecordCodec& codec, const json& s, const Pointer& p,
                      std::string* refusal) {
  json j = s;
  j[p] = j[p].is_string() ? json(true) : json("wrong-kind");
  const Read r = read_back(codec, j);
  *refusal = r.refusal;
  return r.written.has_value();
}

void AFieldOfTheWrongKindIsRefusedByItsPath(const RecordCodec& codec) {
  const Sample s = sample_of(codec);
  for (const Pointer& record : records_in(codec, s.value)) {
    for (const auto& [key, v] : s.value.at(record).items()) {
      const Pointer p = record / key;
      std::vector<Pointer> places = values_inside(v, p);  // a list's elements, a map's values
      places.insert(places.begin(), p);
      bool taken = false;
      for (const Pointer& place : places) {
        std::string refusal;
        const bool takes = takes_wrong_kind(codec, s.value, place, &refusal);
        taken = taken || takes;
        if (kKeptAsJson.count(codec.name + "/" + dotted(p))) continue;
        EXPECT_FALSE(takes) << codec.name << ": '" << dotted(place) << "' takes the wrong kind";
        EXPECT_TRUE(takes || names_field(refusal, record, key)) << codec.name << ": " << refusal;
      }
      if (kKeptAsJson.count(codec.name + "/" + dotted(p))) {
        EXPECT_TRUE(taken) << codec.name << ": '" << dotted(p) << "' is checked; take it off";
      }
    }
  }
}

void AnUnknownFieldIsRefusedByItsPath(const RecordCodec& codec) {
  const Sample s = sample_of(codec);
  const std::vector<Pointer> records = records_in(codec, s.value);
  EXPECT_TRUE(records.front().empty()) << codec.name;
  for (const Pointer& record : records) {
    json j = s.value;
    j[record / kUnknown] = 1;
    const std::string refusal = read_back(codec, j).refusal;
    EXPECT_NE(refusal.find("unknown"), std::string::npos) << codec.name << ": " << refusal;
    EXPECT_TRUE(names_field(refusal, record, kUnknown)) << codec.name << ": " << refusal;
  }
}

void AnUnknownNameInAnEnumFieldIsRefusedByItsPath(const RecordCodec& codec) {
  const Sample s = sample_of(codec);
  for (const Pointer& record : records_in(codec, s.value)) {
    for (const auto& [key, v] : s.value.at(record).items()) {
      std::vector<Pointer> places = values_inside(v, record / key);
      places.insert(places.begin(), record / key);
      for (const Pointer& place : places) {
        if (!s.value.at(place).is_string()) continue;
        json j = s.value;
        j[place] = "zz-no-such-name";
        const std::string refusal = read_back(codec, j).refusal;
        if (listed_names(refusal).empty()) continue;  // not an enum: any text reads
        EXPECT_TRUE(names_field(refusal, record, key)) << codec.name << ": " << refusal;
      }
    }
  }
}

// One CTest entry per check, each over every record (a process per record and check would load
// libtorch some 300 times); a failure names its record.
#define POSBIAS_OVER_EVERY(codecs, check) \
  TEST(FieldTables, check) {              \
    for (const auto& codec : codecs()) {  \
      SCOPED_TRACE(codec.name);           \
      check(codec);                       \
    }                                     \
  }
POSBIAS_OVER_EVERY(record_codecs, EveryRowHasItsOwnNameAndAHelp)
POSBIAS_OVER_EVERY(record_codecs, EveryFieldIsSetAndWritesTheSameBytesAfterARead)
POSBIAS_OVER_EVERY(record_codecs, AMissingFieldIsRefusedOrReadsAsItsDefault)
POSBIAS_OVER_EVERY(record_codecs, AFieldOfTheWrongKindIsRefusedByItsPath)
POSBIAS_OVER_EVERY(record_codecs, AnUnknownFieldIsRefusedByItsPath)
POSBIAS_OVER_EVERY(record_codecs, AnUnknownNameInAnEnumFieldIsRefusedByItsPath)

// The values the table names (an enum's values are 0, 1, ...; a value past the table has none).
std::map<int, std::string> named_values(const EnumCodec& codec) {
  std::map<int, std::string> names;
  for (int v = 0; v < 64; ++v) {
    try {
      names[v] = codec.name_of(v);
    } catch (const std::invalid_argument&) {
    }
  }
  return names;
}

std::string refusal_of_name(const EnumCodec& codec, const std::string& name) {
  return refusal_of([&] { codec.value_of(name); });
}

void EveryValueHasOneNameThatReadsBackAsIt(const EnumCodec& codec) {
  const std::map<int, std::string> names = named_values(codec);
  ASSERT_GE(names.size(), 2u) << codec.name;
  EXPECT_EQ(names.rbegin()->first + 1, static_cast<int>(names.size())) << codec.name << " skips";
  std::set<std::string> unique;
  for (const auto& [v, name] : names) {
    EXPECT_TRUE(unique.insert(name).second) << codec.name << ": '" << name << "' twice";
    EXPECT_FALSE(name.empty()) << codec.name;
    if (codec.value_of) {
      EXPECT_EQ(codec.value_of(name), v) << codec.name << ": " << name;
    }
  }
}

void AnUnknownNameIsRefusedListingTheNamesAndGuessingANearMiss(const EnumCodec& codec) {
  if (!codec.value_of) return;  // its names are only written, never read
  std::vector<std::string> names;
  for (const auto& [v, name] : named_values(codec)) names.push_back(name);
  const std::string refusal = refusal_of_name(codec, "zz-no-such-name");
  EXPECT_NE(refusal.find("unknown"), std::string::npos) << codec.name << ": " << refusal;
  std::vector<std::string> listed = listed_names(refusal), sorted = names;
  std::sort(listed.begin(), listed.end());
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(listed, sorted) << codec.name << ": " << refusal;
  const std::vector<std::string_view> views(names.begin(), names.end());
  for (const std::string& name : names) {
    bool guessed = false;  // a near miss of `name` that is near no other name
    for (const std::string& typo : {name + "x", name.substr(0, name.size() - 1), "x" + name}) {
      if (posbias::closest_name(views, typo) != name) continue;
      guessed = true;
      EXPECT_NE(refusal_of_name(codec, typo).find("did you mean '" + name + "'?"),
                std::string::npos)
          << codec.name << ": " << refusal_of_name(codec, typo);
    }
    EXPECT_TRUE(guessed) << codec.name << ": no near miss of '" << name << "' to try";
  }
}

POSBIAS_OVER_EVERY(enum_codecs, EveryValueHasOneNameThatReadsBackAsIt)
POSBIAS_OVER_EVERY(enum_codecs, AnUnknownNameIsRefusedListingTheNamesAndGuessingANearMiss)

// Source files below the library and the experiments, with their text.
std::map<std::string, std::string> sources() {
  std::map<std::string, std::string> files;
  const std::filesystem::path root(POSBIAS_SOURCE_DIR);
  for (const char* dir : {"include", "src", "experiments", "apps"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".h" || ext == ".cc" || ext == ".cpp"))
        files[std::filesystem::relative(e.path(), root).string()] = slurp(e.path());
    }
  }
  return files;
}

TEST(FieldTables, EveryTableAndEnumNameTableInTheSourcesIsInTheRegistry) {
  std::set<std::string> registered;
  for (const RecordCodec& c : record_codecs()) registered.insert(c.name);
  std::set<std::string> enums;
  for (const EnumCodec& c : enum_codecs()) enums.insert(c.name.substr(0, c.name.find(' ')));
  // A table defined in a .cc is nested in a record of its file or reached by its file's reader;
  // a table declared in a header is a record of its own. Not in the registry: birth's seed
  // journal, file-local and read only by SeedJournal (tests/birth/seed_journal_test.cc).
  const std::set<std::string> outside = {"journal_fields"};
  const std::regex table(R"(const std::vector<FieldRow<\w+>>& (\w+_fields)\(\)( \{|;))");
  const std::regex reader(R"((\w+_from_json)\(const nlohmann::json& \w+\) \{)");
  const std::regex enum_table(R"(EnumNames<(\w+), )");
  std::size_t tables = 0;
  std::set<std::string> defined;
  for (const auto& [path, text] : sources()) {
    bool defines = false, reached = false;
    for (std::sregex_iterator it(text.begin(), text.end(), table), end; it != end; ++it) {
      const std::string name = (*it)[1];
      if ((*it)[2] == " {") defined.insert(name);
      if (path.ends_with(".h")) {
        EXPECT_TRUE(registered.count(name)) << name << " (" << path << ") is not in the registry";
      }
      if ((*it)[2] == " {") ++tables;
      defines = defines || ((*it)[2] == " {" && !outside.count(name));
      reached = reached || registered.count(name);
    }
    for (std::sregex_iterator it(text.begin(), text.end(), reader), end; it != end; ++it) {
      defined.insert((*it)[1]);
      reached = reached || registered.count((*it)[1]);
    }
    EXPECT_TRUE(!defines || reached)
        << path << " defines a field table no registered record reaches";
    for (std::sregex_iterator it(text.begin(), text.end(), enum_table), end; it != end; ++it) {
      if (path != "include/posbias/core/enum_names.h") {
        EXPECT_TRUE(enums.count((*it)[1])) << (*it)[1] << " (" << path << ") is not registered";
      }
    }
  }
  EXPECT_GE(tables, 100u);                    // the scan finds the tables (135 when written)
  for (const std::string& name : registered)  // no entry names a function the sources lack
    EXPECT_TRUE(defined.count(name)) << name << " is in the registry but not in the sources";
}

}  // namespace
}  // namespace posbias_test
