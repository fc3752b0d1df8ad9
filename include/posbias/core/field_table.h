// A struct's fields written once, as a table of rows (name, member, help): the JSON writer, the
// strict JSON reader and the command-line flags all come from it, so no field's name, type or
// help is spelled twice by hand.
//
//   std::vector<FieldRow<S>> rows = {field("length", &S::length, "tokens per input"), ...};
//   fields_to_json(rows, s)                  // {"length": 17, ...}
//   fields_from_json(rows, j, base, "config field", {"old_key"})   // strict: unknown and
//       mistyped fields are refused with the field's name; keys in `ignored` are skipped
//   rows[i].flag, rows[i].from_flag("17")   // "--length", the flag's text as the field's JSON
//   value
//
// A member's type needs a FieldCodec: bool, the integers, double, std::string, std::vector of
// int, double or std::string, and std::map<std::string, T> (MapCodec) have one here; ListCodec
// and MapCodec take any value codec; an enum gets one from
// its name functions (EnumCodec, where the table is). optional_field() writes a std::optional<T>
// member only when it holds a value; NanAsNull writes a double's NaN as null and reads null back as
// NaN. required(row) makes the reader refuse a set without the field. A plain table of member
// pointers rather than a reflection library: the rows also carry the help text and the flag's type
// name, which Boost.Describe would leave to a second table.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "posbias/core/parse.h"

namespace posbias {

// The name of field `key` of `what` in a message: "config field 'length'"; inside a field
// (`what` ends with its quoted name) the dotted path: "summary field 'metrics.final'".
inline std::string field_what(const std::string& what, const std::string& key) {
  if (!what.empty() && what.back() == '\'')
    return what.substr(0, what.size() - 1) + "." + key + "'";
  return what + " '" + key + "'";
}

// How a member type is written, read (`what` names the field in errors, e.g. "config field
// 'length'") and parsed from a flag's text (`flag` names it, e.g. "--length").
template <class T, class Enable = void>
struct FieldCodec;

template <class T>
struct FieldCodec<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr const char* type = "INT";
  static nlohmann::json write(T v) { return v; }
  static T read(const nlohmann::json& j, const std::string& what) {
    const bool ok = std::is_signed_v<T> ? j.is_number_integer()
                                        : j.is_number_unsigned() ||
                                              (j.is_number_integer() && j.get<std::int64_t>() >= 0);
    if (!ok) {
      throw std::invalid_argument(what + (std::is_signed_v<T> ? " must be a number (an integer)"
                                                              : " must be a non-negative integer"));
    }
    if constexpr (std::is_signed_v<T>) {
      const auto v = j.get<std::int64_t>();
      if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
        throw std::invalid_argument(what + " is out of range");
      return static_cast<T>(v);
    } else {
      return j.get<T>();
    }
  }
  static nlohmann::json from_flag(const std::string& text, const std::string& flag) {
    parse_number(text, flag);          // the number's own message first (e.g. "not a number")
    return parse_integer(text, flag);  // read() then checks the sign and the range
  }
};

// true or false; no flag form (a flag is present or not).
template <>
struct FieldCodec<bool> {
  static constexpr const char* type = "BOOL";
  static nlohmann::json write(bool v) { return v; }
  static bool read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_boolean()) throw std::invalid_argument(what + " must be true or false");
    return j.get<bool>();
  }
};

template <>
struct FieldCodec<double> {
  static constexpr const char* type = "NUMBER";
  static nlohmann::json write(double v) { return v; }
  static double read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_number()) throw std::invalid_argument(what + " must be a number");
    return j.get<double>();
  }
  static nlohmann::json from_flag(const std::string& text, const std::string& flag) {
    return parse_number(text, flag);
  }
};

template <>
struct FieldCodec<std::string> {
  static constexpr const char* type = "NAME";
  static nlohmann::json write(const std::string& v) { return v; }
  static std::string read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_string()) throw std::invalid_argument(what + " must be a string");
    return j.get<std::string>();
  }
  static nlohmann::json from_flag(const std::string& text, const std::string&) { return text; }
};

template <>
struct FieldCodec<std::vector<int>> {
  static constexpr const char* type = "LIST";
  static nlohmann::json write(const std::vector<int>& v) { return v; }
  static std::vector<int> read(const nlohmann::json& j, const std::string& what) {
    const std::string message = what + " must be a list of integers";
    if (!j.is_array()) throw std::invalid_argument(message);
    std::vector<int> out;
    for (const auto& v : j) {
      if (!v.is_number_integer()) throw std::invalid_argument(message);
      out.push_back(FieldCodec<int>::read(v, what));
    }
    return out;
  }
  static nlohmann::json from_flag(const std::string& text, const std::string& flag) {
    return parse_int_list(text, flag, std::numeric_limits<int>::min(),
                          std::numeric_limits<int>::max());
  }
};

// 64-bit integers (lengths, steps) in a list; no flag form.
template <>
struct FieldCodec<std::vector<std::int64_t>> {
  static constexpr const char* type = "LIST";
  static nlohmann::json write(const std::vector<std::int64_t>& v) { return v; }
  static std::vector<std::int64_t> read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_array()) throw std::invalid_argument(what + " must be a list of integers");
    std::vector<std::int64_t> out;
    for (const auto& v : j) out.push_back(FieldCodec<std::int64_t>::read(v, what));
    return out;
  }
};

template <>
struct FieldCodec<std::vector<double>> {
  static constexpr const char* type = "LIST";
  static nlohmann::json write(const std::vector<double>& v) { return v; }
  static std::vector<double> read(const nlohmann::json& j, const std::string& what) {
    const std::string message = what + " must be a list of numbers";
    if (!j.is_array()) throw std::invalid_argument(message);
    std::vector<double> out;
    for (const auto& v : j) {  // null is NaN, as nlohmann writes it
      if (!v.is_number() && !v.is_null()) throw std::invalid_argument(message);
      out.push_back(v.is_null() ? NAN : v.get<double>());
    }
    return out;
  }
};

// A list, each value by ValueCodec (T's own codec unless given): a list of structs with a table
// is ListCodec<T> with T's TableCodec as its FieldCodec.
template <class T, class ValueCodec = FieldCodec<T>>
struct ListCodec {
  static constexpr const char* type = "LIST";
  static nlohmann::json write(const std::vector<T>& v) {
    nlohmann::json j = nlohmann::json::array();
    for (const T& value : v) j.push_back(ValueCodec::write(value));
    return j;
  }
  static std::vector<T> read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_array()) throw std::invalid_argument(what + " must be a list");
    std::vector<T> out;
    for (std::size_t i = 0; i < j.size(); ++i)
      out.push_back(ValueCodec::read(j[i], field_what(what, std::to_string(i))));
    return out;
  }
};

// An object keyed by name, each value by ValueCodec (T's own codec unless given, e.g.
// MapCodec<double, NanAsNull> for values that may be null).
template <class T, class ValueCodec = FieldCodec<T>>
struct MapCodec {
  static constexpr const char* type = "MAP";
  static nlohmann::json write(const std::map<std::string, T>& m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, value] : m) j[key] = ValueCodec::write(value);
    return j;
  }
  static std::map<std::string, T> read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_object()) throw std::invalid_argument(what + " must be an object");
    std::map<std::string, T> out;
    for (const auto& [key, value] : j.items())
      out[key] = ValueCodec::read(value, field_what(what, key.substr(0, 40)));
    return out;
  }
};
template <class T>
struct FieldCodec<std::map<std::string, T>> : MapCodec<T> {};
template <>
struct FieldCodec<std::vector<std::string>> : ListCodec<std::string> {};

// An object another writer gives (a part of a file that has no table yet), kept as it is.
template <>
struct FieldCodec<nlohmann::json> {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const nlohmann::json& j) { return j; }
  static nlohmann::json read(const nlohmann::json& j, const std::string& what) {
    if (!j.is_object()) throw std::invalid_argument(what + " must be an object");
    return j;
  }
};

// A value or null.
template <class T>
struct FieldCodec<std::optional<T>> {
  static constexpr const char* type = FieldCodec<T>::type;
  static nlohmann::json write(const std::optional<T>& v) {
    return v ? FieldCodec<T>::write(*v) : nlohmann::json();
  }
  static std::optional<T> read(const nlohmann::json& j, const std::string& what) {
    if (j.is_null()) return std::nullopt;
    return FieldCodec<T>::read(j, what);
  }
  static nlohmann::json from_flag(const std::string& text,
                                  const std::string& flag) requires requires {
    FieldCodec<T>::from_flag(text, flag);
  }
  { return FieldCodec<T>::from_flag(text, flag); }
};

// A double whose NaN (a value not measured yet, such as the loss before the first step) is
// written as null and read back from null.
struct NanAsNull {
  static constexpr const char* type = "NUMBER";
  static nlohmann::json write(double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; }
  static double read(const nlohmann::json& j, const std::string& what) {
    return j.is_null() ? NAN : FieldCodec<double>::read(j, what);
  }
};
// A list of such doubles (a profile or a row with values not measured), and a list of lists.
using NanAsNullList = ListCodec<double, NanAsNull>;
using NanAsNullMatrix = ListCodec<std::vector<double>, NanAsNullList>;

// The codec of an enum written by its name: Names::name(E) gives a value's name and
// Names::parse(name) its value (std::invalid_argument for an unknown name, saying which names
// there are). An enum's codec: template <> struct FieldCodec<E> : EnumCodec<E, ENames> {};
template <class E, class Names>
struct EnumCodec {
  static constexpr const char* type = "NAME";
  static nlohmann::json write(E v) { return std::string(Names::name(v)); }
  static E read(const nlohmann::json& j, const std::string& what) {
    try {
      return Names::parse(FieldCodec<std::string>::read(j, what));
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()).starts_with(what)) throw;
      throw std::invalid_argument(what + ": " + e.what());
    }
  }
  static nlohmann::json from_flag(const std::string& text, const std::string&) { return text; }
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class S>
struct FieldRow {
  std::string name;  // the JSON key
  std::string flag;  // the command-line flag: --name with '-' for '_'
  std::string help;
  std::string type;  // what --help shows: INT, NUMBER, NAME, LIST or PATH
  std::function<nlohmann::json(const S&)> write;
  // Sets the field from its JSON value; std::invalid_argument naming the field (`what`
  // prefixes its name, e.g. "config field").
  std::function<void(const nlohmann::json&, S&, const std::string& what)> read;
  std::function<nlohmann::json(const std::string& text)> from_flag;  // the flag's text as JSON
  std::function<bool(const S&)> present;  // written only when true (an optional's value)
  bool required = false;                  // the reader refuses a set without it
};

// One row. `type` overrides the codec's type name (PATH for a string that names a file).
template <class S, class T, class Codec = FieldCodec<T>>
FieldRow<S> field(std::string name, T S::*member, std::string help, std::string type = "") {
  FieldRow<S> row;
  row.type = type.empty() ? Codec::type : type;
  row.flag = "--" + name;
  for (char& c : row.flag) c = c == '_' ? '-' : c;
  row.write = [member](const S& s) { return Codec::write(s.*member); };
  row.read = [member, name](const nlohmann::json& j, S& s, const std::string& what) {
    s.*member = Codec::read(j, field_what(what, name));
  };
  if constexpr (requires { Codec::from_flag(std::string(), std::string()); }) {
    row.from_flag = [flag = row.flag](const std::string& text) {
      return Codec::from_flag(text, flag);
    };
  }
  row.present = [](const S&) { return true; };
  row.name = std::move(name);
  row.help = std::move(help);
  return row;
}

// A row of a std::optional<T> member that is written only when it holds a value (Codec is
// T's). A plain field() of an optional member writes it always, as its codec says.
template <class S, class T, class Codec = FieldCodec<T>>
FieldRow<S> optional_field(std::string name, std::optional<T> S::*member, std::string help) {
  FieldRow<S> row =
      field<S, T, Codec>(std::move(name), static_cast<T S::*>(nullptr), std::move(help));
  row.write = [member](const S& s) {  // null when empty (a --help default, not a file)
    return (s.*member).has_value() ? Codec::write(*(s.*member)) : nlohmann::json();
  };
  row.read = [member, key = row.name](const nlohmann::json& j, S& s, const std::string& what) {
    s.*member = Codec::read(j, field_what(what, key));
  };
  row.present = [member](const S& s) { return (s.*member).has_value(); };
  return row;
}

// The row, refused by the reader when its field is missing.
template <class S>
FieldRow<S> required(FieldRow<S> row) {
  row.required = true;
  return row;
}

template <class S>
nlohmann::json fields_to_json(const std::vector<FieldRow<S>>& rows, const S& s) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& row : rows)
    if (row.present(s)) j[row.name] = row.write(s);
  return j;
}

// `base` with the fields `j` holds; an unknown key (not a row, not in `ignored`) or a mistyped
// value throws std::invalid_argument naming it ("WHAT 'key' ...").
template <class S>
S fields_from_json(const std::vector<FieldRow<S>>& rows, const nlohmann::json& j, S base,
                   const std::string& what, const std::vector<std::string>& ignored = {}) {
  if (!j.is_object()) {
    throw std::invalid_argument(what.ends_with('\'') ? what + " must be an object"
                                                     : "a " + what + " set must be a JSON object");
  }
  for (const auto& [key, value] : j.items()) {
    const FieldRow<S>* row = nullptr;
    for (const auto& r : rows) row = r.name == key ? &r : row;
    if (row != nullptr) {
      row->read(value, base, what);
      continue;
    }
    bool skip = false;
    for (const auto& name : ignored) skip = skip || name == key;
    if (!skip) throw std::invalid_argument("unknown " + field_what(what, key.substr(0, 40)));
  }
  for (const auto& row : rows)
    if (row.required && !j.contains(row.name))
      throw std::invalid_argument("missing " + field_what(what, row.name));
  return base;
}

// The rows of B's table as rows of D, reaching D's B through `get` (a callable taking D& or
// const D& and returning the B inside it): a file that writes B's fields flat beside D's own
// spells B's fields once.
template <class D, class B, class Get>
std::vector<FieldRow<D>> mapped_fields(const std::vector<FieldRow<B>>& rows, Get get) {
  std::vector<FieldRow<D>> out;
  for (const FieldRow<B>& r : rows) {
    FieldRow<D> d;
    d.name = r.name;
    d.flag = r.flag;
    d.help = r.help;
    d.type = r.type;
    d.from_flag = r.from_flag;
    d.required = r.required;
    d.write = [write = r.write, get](const D& s) { return write(get(s)); };
    d.read = [read = r.read, get](const nlohmann::json& j, D& s, const std::string& what) {
      read(j, get(s), what);
    };
    d.present = [present = r.present, get](const D& s) { return present(get(s)); };
    out.push_back(std::move(d));
  }
  return out;
}

// The rows of base class B's table as rows of D (derived from B): a file whose fields are B's
// and more, written flat, spells B's fields once.
template <class D, class B>
std::vector<FieldRow<D>> inherited_fields(const std::vector<FieldRow<B>>& rows) {
  return mapped_fields<D, B>(
      rows, [](auto& s) -> auto& {
        using Base =
            std::conditional_t<std::is_const_v<std::remove_reference_t<decltype(s)>>, const B, B>;
        return static_cast<Base&>(s);
      });
}

// The rows of member struct `member`'s table written flat among D's own fields.
template <class D, class B>
std::vector<FieldRow<D>> member_fields(B D::*member, const std::vector<FieldRow<B>>& rows) {
  return mapped_fields<D, B>(
      rows, [member](auto& s) -> auto& { return s.*member; });
}

// A member that is itself a struct with a field table (`Rows` returns it): a nested object,
// read strictly, its messages naming the dotted path ("summary field 'metrics.final'").
template <class S, const std::vector<FieldRow<S>>& (*Rows)()>
struct TableCodec {
  static constexpr const char* type = "OBJECT";
  static nlohmann::json write(const S& s) { return fields_to_json(Rows(), s); }
  static S read(const nlohmann::json& j, const std::string& what) {
    return fields_from_json(Rows(), j, S{}, what);
  }
};

}  // namespace posbias
