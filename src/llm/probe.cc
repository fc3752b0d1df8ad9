#include "posbias/llm/probe.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#include "posbias/core/atomic_file.h"
#include "posbias/core/bounded_read.h"
#include "posbias/core/rng.h"
#include "posbias/llm_templates.h"
#include "posbias/runfiles/passkey_run_files.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/passkey_task.h"

namespace posbias {
namespace {

constexpr int kMaxHopLength = 100000;
constexpr int kMaxNeedlePairs = 10000;
constexpr std::int64_t kMaxCount = 100000;
constexpr double kMaxPrompts = 1e6;
constexpr double kMaxPromptBytes = 2048.0 * (1 << 20);

// Replaces {input} and {key} in one pass, so braces inside the substituted text stay as they are.
std::string render(const std::string& tpl, const std::string& input, const std::string& key) {
  std::string out;
  out.reserve(tpl.size() + input.size() + key.size());
  for (std::size_t i = 0; i < tpl.size();) {
    if (tpl.compare(i, 7, "{input}") == 0) {
      out += input;
      i += 7;
    } else if (tpl.compare(i, 5, "{key}") == 0) {
      out += key;
      i += 5;
    } else {
      out += tpl[i++];
    }
  }
  return out;
}

std::string join_tokens(const std::vector<std::string>& tokens) {
  std::string s;
  for (const std::string& t : tokens) {
    if (!s.empty()) s += ' ';
    s += t;
  }
  return s;
}

// A random version-4 UUID, 8-4-4-4-12 lowercase hex.
std::string uuid(Rng& rng) {
  std::uint64_t hi = rng.next(), lo = rng.next();
  hi = (hi & ~0xF000ull) | 0x4000ull;        // version 4
  lo = (lo & ~(3ull << 62)) | (2ull << 62);  // variant 10
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < 32; ++i) {
    const std::uint64_t word = i < 16 ? hi : lo;
    s += hex[(word >> (60 - 4 * (i % 16))) & 0xF];
    if (i == 7 || i == 11 || i == 15 || i == 19) s += '-';
  }
  return s;
}

std::vector<Probe> hop_probes(const std::string& suite, const SuiteOptions& o,
                              const std::string& tpl) {
  const Task task = parse_task(suite);
  std::vector<Probe> out;
  for (int len : o.lengths) {
    int i = 0;
    for_each_example(per_hop_spec(task, o.hops, len, o.count, o.seed), [&](const Example& ex) {
      Probe p;
      p.suite = suite;
      p.id = suite + "/L" + std::to_string(len) + "/#" + std::to_string(i++);
      p.length = len;
      p.hops = ex.hops;
      p.depth = static_cast<double>(ex.chain.back()) / (len - 1);
      p.prompt = render(tpl, join_tokens(ex.tokens), "");
      p.answer = ex.answer;
      p.chance = 1.0 / answer_candidates(ex);
      out.push_back(std::move(p));
    });
  }
  return out;
}

std::vector<Probe> needle_probes(const SuiteOptions& o, const std::string& tpl) {
  std::vector<Probe> out;
  for (int n : o.lengths) {
    for (int depth : o.depths) {
      Rng rng =
          Rng::stream(o.seed, static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(depth));
      const int at = static_cast<int>(std::lround(depth / 100.0 * (n - 1)));
      for (std::int64_t i = 0; i < o.count; ++i) {
        std::string json = "{";
        std::string key, value;
        for (int k = 0; k < n; ++k) {
          const std::string kk = uuid(rng), vv = uuid(rng);
          if (k) json += ", ";
          json += "\"" + kk + "\": \"" + vv + "\"";
          if (k == at) key = kk, value = vv;
        }
        json += "}";
        Probe p;
        p.suite = "needle";
        p.id = "needle/L" + std::to_string(n) + "/d" + std::to_string(depth) + "/#" +
               std::to_string(i);
        p.length = n;
        p.depth = n > 1 ? static_cast<double>(at) / (n - 1) : 0.0;
        p.prompt = render(tpl, json, key);
        p.answer = value;
        p.chance = 1.0 / n;
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

std::vector<Probe> kv_probes(const SuiteOptions& o, const std::string& tpl) {
  std::vector<Probe> out;
  for (int len : o.lengths) {
    for (int depth : o.depths) {
      std::int64_t i = 0;
      for (const KvExample& ex : kv_probe_examples(len, depth, o.count, o.seed)) {
        Probe p;
        p.suite = "kv";
        p.id = "kv/L" + std::to_string(len) + "/d" + std::to_string(depth) + "/#" +
               std::to_string(i++);
        p.length = len;
        p.depth = depth / 100.0;  // the cell's depth, as eval keys it (ex.depth is the pair's)
        p.prompt = render(tpl, join_tokens(ex.tokens), "");
        p.answer = ex.answer;
        p.chance = 1.0 / ex.pairs;
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

void check_depths(const std::vector<int>& depths) {
  if (depths.empty()) throw std::invalid_argument("--depths is empty");
  for (int d : depths) {
    if (d < 0 || d > 100) {
      throw std::invalid_argument("--depths are percents in 0..100, got " + std::to_string(d));
    }
  }
}

// Refuses a suite whose prompts would not fit comfortably in memory (they are all held).
void check_size(const SuiteOptions& o, const std::string& tpl, std::size_t per_length,
                double bytes_per_unit) {
  // Every {input} in the template repeats the input (render()).
  double inputs = 0;
  for (std::size_t at = tpl.find("{input}"); at != std::string::npos;
       at = tpl.find("{input}", at + 7))
    inputs += 1;
  double prompts = 0, bytes = 0;
  for (int len : o.lengths) {
    const double n = static_cast<double>(o.count) * static_cast<double>(per_length);
    prompts += n;
    bytes += n * (static_cast<double>(tpl.size()) + inputs * bytes_per_unit * len);
  }
  if (prompts > kMaxPrompts || bytes > kMaxPromptBytes) {
    throw std::invalid_argument(
        "the suite would hold " + std::to_string(static_cast<long long>(prompts)) +
        " prompts of about " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
        " MiB (limits: 1000000 prompts, 2048 MiB); lower --count, the lengths" +
        (inputs > 1 ? " or the template's " + std::to_string(static_cast<long long>(inputs)) +
                          " {input} placeholders"
                    : ""));
  }
}

std::vector<Probe> passkey_probes(const SuiteOptions& o, const std::string& tpl,
                                  const PasskeyRun& run) {
  const PasskeyCodec codec(run.tokenizer);
  std::vector<Probe> out;
  for (int len : o.lengths) {
    for (int depth : o.depths) {
      for (std::int64_t e = 0; e < o.count; ++e) {
        const PasskeyExample ex =
            passkey_depth_example(codec, run.heldout, len, run.needles, depth, e, o.seed);
        Probe p;
        p.suite = "passkey";
        p.id = "passkey/L" + std::to_string(len) + "/d" + std::to_string(depth) + "/#" +
               std::to_string(e);
        p.length = len;
        p.depth = depth / 100.0;  // the cell's depth, as eval keys it
        p.prompt_ids.assign(ex.ids.begin(), ex.ids.begin() + ex.answer_start);
        p.prompt = render(tpl, run.tokenizer.decode(p.prompt_ids), "");
        p.answer = ex.target().number;
        p.chance = 1.0 / static_cast<double>(ex.needles.size());
        out.push_back(std::move(p));
      }
    }
  }
  return out;
}

}  // namespace

namespace {

// A suite's name, its built-in prompt template and its default lengths, one row per suite.
struct SuiteTraits {
  std::string_view name;
  const char* builtin_template;
  std::vector<int> default_lengths;
};

const std::vector<SuiteTraits>& suite_table() {
  static const std::vector<SuiteTraits> rows = {
      {"number", generated::kNumberTemplate, {16, 32, 64, 100, 200, 400, 850}},
      {"letter", generated::kLetterTemplate, {16, 32, 64, 100, 200, 400, 850}},
      {"needle", generated::kNeedleTemplate, {10, 30, 75, 140, 300}},  // key-value pairs
      {"kv", generated::kKvTemplate, {128, 256, 512}},  // kv training's default length, 2× and 4×
      {"passkey", generated::kPasskeyTemplate, {}},  // the run's length, 2× and 4× (make_probes)
  };
  return rows;
}

// Throws std::invalid_argument naming the suite and the known ones.
const SuiteTraits& suite_traits(const std::string& suite) {
  std::string known;
  for (const SuiteTraits& row : suite_table()) {
    if (row.name == suite) return row;
    known += (known.empty() ? "" : ", ") + std::string(row.name);
  }
  throw std::invalid_argument("unknown suite '" + suite + "' (known: " + known + ")");
}

}  // namespace

const std::vector<std::string>& suite_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const SuiteTraits& row : suite_table()) out.emplace_back(row.name);
    return out;
  }();
  return names;
}

void validate_suite(const std::string& suite) { suite_traits(suite); }

std::vector<int> default_lengths(const std::string& suite) {
  return suite_traits(suite).default_lengths;
}

std::string builtin_template(const std::string& suite) {
  return suite_traits(suite).builtin_template;
}

std::string load_template(const std::string& suite, const std::string& template_dir) {
  std::string tpl = builtin_template(suite);
  const std::filesystem::path path = std::filesystem::path(template_dir) / (suite + ".txt");
  if (!template_dir.empty()) {
    // A regular file of at most 1 MiB, checked before it is read: a link to /dev/zero or a
    // FIFO is refused, never read without end. A template is the user's choice: exit 2.
    try {
      tpl = read_bounded_file(path, 1u << 20, "1 MiB template");
    } catch (const std::runtime_error& e) {
      throw std::invalid_argument(std::string("template: ") + e.what());
    }
  }
  const std::string name = template_dir.empty() ? "built-in " + suite + " template" : path.string();
  if (tpl.find("{input}") == std::string::npos) {
    throw std::invalid_argument("template '" + name + "' has no {input} placeholder");
  }
  if (suite == "needle" && tpl.find("{key}") == std::string::npos) {
    throw std::invalid_argument("template '" + name + "' has no {key} placeholder");
  }
  return tpl;
}

void write_templates(const std::string& dir) {
  ensure_directory(dir);
  for (const std::string& s : suite_names()) {
    write_file_atomic(std::filesystem::path(dir) / (s + ".txt"), builtin_template(s));
  }
}

namespace {

std::vector<Probe> make_passkey_probes(SuiteOptions o) {
  if (o.run.empty())
    throw std::invalid_argument(
        "--suite passkey needs --run RUN, a text run trained with needles (its tokenizer and "
        "held-out text)");
  if (o.count < 1 || o.count > kMaxCount) {
    throw std::invalid_argument("--count must be in 1..100000, got " + std::to_string(o.count));
  }
  const std::string tpl = load_template("passkey", o.template_dir);
  const PasskeyRun run = open_passkey_run(o.run);
  if (o.lengths.empty()) {  // with learned positions, only the table's length
    o.lengths = {run.length};
    if (!run.max_length) o.lengths.insert(o.lengths.end(), {2 * run.length, 4 * run.length});
  }
  const PasskeyCodec codec(run.tokenizer);
  for (int len : o.lengths) {
    if (len < 2 || len > kMaxHopLength)
      throw std::invalid_argument("passkey lengths are tokens of the run in 2..100000, got " +
                                  std::to_string(len));
    if (run.max_length && len > run.max_length)
      throw std::invalid_argument("--lengths " + std::to_string(len) +
                                  " is past the run's learned position table (" +
                                  std::to_string(run.max_length) + " positions)");
    codec.check_fits(len, run.needles);
  }
  check_depths(o.depths);
  check_size(o, tpl, o.depths.size(), 8);  // a token is a few bytes of text
  return passkey_probes(o, tpl, run);
}

}  // namespace

std::vector<Probe> make_probes(const std::string& suite, const SuiteOptions& options) {
  validate_suite(suite);
  SuiteOptions o = options;
  if (suite != "passkey" && !o.run.empty())
    throw std::invalid_argument("--run belongs to --suite passkey");
  if (suite == "passkey") return make_passkey_probes(o);
  if (o.lengths.empty()) o.lengths = default_lengths(suite);
  if (o.count < 1 || o.count > kMaxCount) {
    throw std::invalid_argument("--count must be in 1..100000, got " + std::to_string(o.count));
  }
  const std::string tpl = load_template(suite, o.template_dir);
  if (suite == "needle") {
    for (int n : o.lengths) {
      if (n < 1 || n > kMaxNeedlePairs) {
        throw std::invalid_argument("needle lengths are key-value pairs in 1..10000, got " +
                                    std::to_string(n));
      }
    }
    check_depths(o.depths);
    check_size(o, tpl, o.depths.size(), 80);  // a pair is ~80 bytes of JSON
    return needle_probes(o, tpl);
  }
  if (suite == "kv") {
    for (int len : o.lengths) {
      if (len < kKvMinLength || len > kKvMaxLength) {
        throw std::invalid_argument("kv lengths are tokens in " + std::to_string(kKvMinLength) +
                                    ".." + std::to_string(kKvMaxLength) +
                                    " (two pairs and the query at least), got " +
                                    std::to_string(len));
      }
    }
    check_depths(o.depths);
    check_size(o, tpl, o.depths.size(), 2);  // a token is 1 byte with its space
    return kv_probes(o, tpl);
  }
  if (o.hops.empty()) throw std::invalid_argument("--hops is empty");
  for (int len : o.lengths) {
    if (len > kMaxHopLength) {
      throw std::invalid_argument(suite + " lengths must be at most 100000, got " +
                                  std::to_string(len));
    }
    for (int h : o.hops) validate_spec(parse_task(suite), h, len, Variant::kStandard);
  }
  check_size(o, tpl, o.hops.size(), 5);  // a token is at most 5 bytes with its space
  return hop_probes(suite, o, tpl);
}

std::vector<KvExample> kv_probe_examples(int length, int depth, std::int64_t count,
                                         std::uint64_t seed) {
  std::vector<KvExample> out;
  out.reserve(static_cast<std::size_t>(std::max<std::int64_t>(count, 0)));
  for (std::int64_t e = 0; e < count; ++e) out.push_back(kv_depth_example(length, depth, e, seed));
  return out;
}

std::vector<std::string> extract_task_input(const std::string& prompt, const Vocabulary& vocab) {
  std::size_t end = prompt.size();
  while (true) {
    const std::size_t nl = end == 0 ? std::string::npos : prompt.rfind('\n', end - 1);
    const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
    std::istringstream line(prompt.substr(begin, end - begin));
    std::vector<std::string> tokens;
    bool all = true;
    for (std::string w; line >> w;) {
      if (!vocab.contains(w)) {
        all = false;
        break;
      }
      tokens.push_back(std::move(w));
    }
    if (all && !tokens.empty()) return tokens;
    if (nl == std::string::npos) break;
    end = nl;
  }
  throw std::invalid_argument(
      "the prompt has no line made only of the model's task tokens (e.g. \"a b 3 2 1\")");
}

}  // namespace posbias
