#include "posbias/llm/result_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "posbias/core/atomic_file.h"
#include "posbias/core/sha256.h"

namespace posbias {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS results (
  suite TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  probe_id TEXT NOT NULL,
  length INTEGER NOT NULL,
  hops INTEGER NOT NULL,
  depth REAL NOT NULL,
  prompt TEXT NOT NULL,
  answer TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  response TEXT,
  error TEXT,
  http_status INTEGER,
  attempts INTEGER NOT NULL,
  latency_ms REAL,
  strict INTEGER,
  lenient INTEGER,
  logprob REAL,
  completion_tokens INTEGER,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (suite, model, prompt_hash)
);
)sql";

// PRAGMA application_id of a posbias llm result store ("pbLM"), so no other program's SQLite
// file is taken for one.
constexpr std::int64_t kApplicationId = 0x70624c4d;

// The columns of the first results table; every store holds them.
const std::set<std::string>& first_columns() {
  static const std::set<std::string> c{
      "suite",       "model",    "prompt_hash", "probe_id", "length",   "hops",
      "depth",       "prompt",   "answer",      "status",   "response", "error",
      "http_status", "attempts", "latency_ms",  "strict",   "lenient",  "updated_at"};
  return c;
}

// Columns added since, in order, each nullable: an older store gets the ones it lacks.
struct AddedColumn {
  const char* name;
  const char* type;
};
constexpr AddedColumn kAddedColumns[] = {{"logprob", "REAL"}, {"completion_tokens", "INTEGER"}};

struct Statement {
  sqlite3_stmt* s = nullptr;
  Statement(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("result store: ") + sqlite3_errmsg(db));
    }
  }
  ~Statement() { sqlite3_finalize(s); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  void text(int i, const std::string& v) {
    sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  std::string column_text(int i) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i))) : "";
  }
};

}  // namespace

std::string prompt_hash(const std::string& api, int max_tokens, const std::string& prompt) {
  return sha256_hex(api + "\n" + std::to_string(max_tokens) + "\n" + prompt);
}

ResultStore::ResultStore(const std::string& path) : path_(path) {
  if (path.empty()) throw std::invalid_argument("--db FILE is required");
  // SQLite writes its journal beside the file it is given, so a device, FIFO or directory is
  // refused before it is opened (a symlink is followed to what it names).
  std::error_code ec;
  const std::filesystem::file_status target = std::filesystem::status(path, ec);
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec)) &&
      !std::filesystem::exists(target))
    throw std::invalid_argument("--db '" + path +
                                "' is a symlink to nothing; give posbias llm a file of its own");
  if (std::filesystem::exists(target) && !std::filesystem::is_regular_file(target))
    throw std::invalid_argument("--db '" + path +
                                "' is not a regular file (a device, FIFO or directory); give "
                                "posbias llm a file of its own");
  // A missing folder is created as any output's is: only inside the working directory.
  if (!std::filesystem::exists(target)) {
    check_output_folder(path);
    ensure_directory(std::filesystem::absolute(path).parent_path());
  }
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open --db '" + path + "': " + why);
  }
  try {
    sqlite3_busy_timeout(db_, 10000);
    exec("PRAGMA schema_version");  // reads the header: "not an SQLite database" comes here
    // Whose file it is: posbias llm's (its application id, or only its results table, as in
    // files from before the id), a new one, or another application's, which is left alone.
    std::vector<std::string> tables;
    {
      Statement st(db_, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      while (sqlite3_step(st.s) == SQLITE_ROW) tables.push_back(st.column_text(0));
    }
    std::int64_t application = 0;
    {
      Statement st(db_, "PRAGMA application_id");
      if (sqlite3_step(st.s) == SQLITE_ROW) application = sqlite3_column_int64(st.s, 0);
    }
    const bool ours =
        application == kApplicationId ||
        (application == 0 && (tables.empty() || tables == std::vector<std::string>{"results"}));
    if (!ours) {
      std::string whose =
          application != 0 ? "application id " + std::to_string(application) : "tables:";
      for (std::size_t i = 0; application == 0 && i < tables.size() && i < 5; ++i)
        whose += (i ? ", " : " ") + tables[i];
      throw std::invalid_argument("--db '" + path + "' is another application's SQLite file (" +
                                  whose + "); give posbias llm a file of its own");
    }
    // Everything below is read before anything is written, so a file that is refused is left
    // byte for byte as it was: its results table must have posbias llm's columns...
    std::vector<const AddedColumn*> missing;
    if (!tables.empty()) {
      std::set<std::string> have;
      {
        Statement info(db_, "PRAGMA table_info(results)");
        while (sqlite3_step(info.s) == SQLITE_ROW) have.insert(info.column_text(1));
      }
      // Ours: the first columns, and of the added ones any (older stores lack some); nothing else.
      bool known =
          std::includes(have.begin(), have.end(), first_columns().begin(), first_columns().end());
      std::size_t added = 0;
      for (const AddedColumn& c : kAddedColumns) {
        if (have.count(c.name)) {
          ++added;
        } else {
          missing.push_back(&c);
        }
      }
      known = known && have.size() == first_columns().size() + added;
      if (!known) {
        throw std::invalid_argument("--db '" + path +
                                    "' holds a 'results' table that posbias llm did not write; "
                                    "give posbias llm a file of its own");
      }
    }
    // ...and the whole file must pass SQLite's integrity check.
    {
      Statement check(db_, "PRAGMA integrity_check(1)");
      const int step = sqlite3_step(check.s);
      const std::string verdict = step == SQLITE_ROW ? check.column_text(0) : sqlite3_errmsg(db_);
      if (verdict != "ok") {
        const std::string first = verdict.substr(0, verdict.find('\n')).substr(0, 160);
        throw std::runtime_error("--db '" + path + "' is damaged: SQLite's integrity check says '" +
                                 first +
                                 "'; restore it from a copy, or give a new file (the damaged one "
                                 "was not changed)");
      }
    }
    // A write before any request is sent: a read-only file or directory fails here.
    if (sqlite3_db_readonly(db_, "main") == 1) {
      throw std::invalid_argument("--db '" + path +
                                  "' is read-only; posbias llm keeps its results there");
    }
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec(kSchema);
    // An older store gains the columns added since, in one transaction; its rows keep theirs
    // and read as NULL in the new ones.
    if (!missing.empty()) {
      std::string upgrade = "BEGIN IMMEDIATE;";
      for (const AddedColumn* c : missing)
        upgrade += std::string(" ALTER TABLE results ADD COLUMN ") + c->name + " " + c->type + ";";
      exec((upgrade + " COMMIT;").c_str());
    }
    exec(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

ResultStore::~ResultStore() { sqlite3_close(db_); }

void ResultStore::exec(const char* sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  const std::string msg = err ? err : sqlite3_errstr(rc);
  sqlite3_free(err);
  if (rc == SQLITE_NOTADB) {
    throw std::invalid_argument("--db '" + path_ + "' is not an SQLite database");
  }
  if (rc != SQLITE_OK) throw std::runtime_error("result store '" + path_ + "': " + msg);
}

std::unordered_map<std::string, bool> ResultStore::statuses(const std::string& suite,
                                                            const std::string& model) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement st(db_, "SELECT prompt_hash, status FROM results WHERE suite = ?1 AND model = ?2");
  st.text(1, suite);
  st.text(2, model);
  std::unordered_map<std::string, bool> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW)
    out[st.column_text(0)] = st.column_text(1) == "ok";
  if (rc != SQLITE_DONE)
    throw std::runtime_error("result store: " + std::string(sqlite3_errmsg(db_)));
  return out;
}

void ResultStore::put(const ResultRow& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  // An answered row stays; a failed one gives way to the new attempt's outcome.
  Statement st(db_, R"sql(
INSERT INTO results (suite, model, prompt_hash, probe_id, length, hops, depth, prompt, answer,
                     status, response, error, http_status, attempts, latency_ms, strict, lenient,
                     logprob, completion_tokens)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
ON CONFLICT (suite, model, prompt_hash) DO UPDATE SET
  status = excluded.status, response = excluded.response, error = excluded.error,
  http_status = excluded.http_status, attempts = results.attempts + excluded.attempts,
  latency_ms = excluded.latency_ms, strict = excluded.strict, lenient = excluded.lenient,
  logprob = excluded.logprob, completion_tokens = excluded.completion_tokens,
  probe_id = excluded.probe_id,
  updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE results.status <> 'ok'
)sql");
  st.text(1, r.suite);
  st.text(2, r.model);
  st.text(3, r.prompt_hash);
  st.text(4, r.probe_id);
  sqlite3_bind_int(st.s, 5, r.length);
  sqlite3_bind_int(st.s, 6, r.hops);
  sqlite3_bind_double(st.s, 7, r.depth);
  st.text(8, r.prompt);
  st.text(9, r.answer);
  st.text(10, r.ok ? "ok" : "failed");
  st.text(11, r.response);
  st.text(12, r.error);
  sqlite3_bind_int64(st.s, 13, r.http_status);
  sqlite3_bind_int(st.s, 14, r.attempts);
  sqlite3_bind_double(st.s, 15, r.latency_ms);
  sqlite3_bind_int(st.s, 16, r.strict ? 1 : 0);
  sqlite3_bind_int(st.s, 17, r.lenient ? 1 : 0);
  if (r.logprob) {
    sqlite3_bind_double(st.s, 18, *r.logprob);
  } else {
    sqlite3_bind_null(st.s, 18);
  }
  if (r.completion_tokens) {
    sqlite3_bind_int64(st.s, 19, *r.completion_tokens);
  } else {
    sqlite3_bind_null(st.s, 19);
  }
  if (sqlite3_step(st.s) != SQLITE_DONE) {
    throw std::runtime_error("result store '" + path_ + "': " + sqlite3_errmsg(db_));
  }
}

std::vector<ResultRow> ResultStore::rows(const std::string& suite, const std::string& model) {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement st(db_, R"sql(
SELECT suite, model, prompt_hash, probe_id, length, hops, depth, prompt, answer, status,
       response, error, http_status, attempts, latency_ms, strict, lenient, logprob,
       completion_tokens
FROM results WHERE suite = ?1 AND model = ?2 ORDER BY probe_id)sql");
  st.text(1, suite);
  st.text(2, model);
  std::vector<ResultRow> out;
  int rc;
  while ((rc = sqlite3_step(st.s)) == SQLITE_ROW) {
    ResultRow r;
    r.suite = st.column_text(0);
    r.model = st.column_text(1);
    r.prompt_hash = st.column_text(2);
    r.probe_id = st.column_text(3);
    r.length = sqlite3_column_int(st.s, 4);
    r.hops = sqlite3_column_int(st.s, 5);
    r.depth = sqlite3_column_double(st.s, 6);
    r.prompt = st.column_text(7);
    r.answer = st.column_text(8);
    r.ok = st.column_text(9) == "ok";
    r.response = st.column_text(10);
    r.error = st.column_text(11);
    r.http_status = static_cast<long>(sqlite3_column_int64(st.s, 12));
    r.attempts = sqlite3_column_int(st.s, 13);
    r.latency_ms = sqlite3_column_double(st.s, 14);
    r.strict = sqlite3_column_int(st.s, 15) != 0;
    r.lenient = sqlite3_column_int(st.s, 16) != 0;
    if (sqlite3_column_type(st.s, 17) != SQLITE_NULL) r.logprob = sqlite3_column_double(st.s, 17);
    if (sqlite3_column_type(st.s, 18) != SQLITE_NULL)
      r.completion_tokens = sqlite3_column_int64(st.s, 18);
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE)
    throw std::runtime_error("result store: " + std::string(sqlite3_errmsg(db_)));
  return out;
}

std::int64_t ResultStore::count() {
  std::lock_guard<std::mutex> lock(mutex_);
  Statement st(db_, "SELECT COUNT(*) FROM results");
  if (sqlite3_step(st.s) != SQLITE_ROW) throw std::runtime_error("result store: count failed");
  return sqlite3_column_int64(st.s, 0);
}

}  // namespace posbias
