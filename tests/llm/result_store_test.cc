// The llm result store never writes through a file it refuses: another application's SQLite
// file (a `results` table of other columns, or other tables) and a store that fails SQLite's
// integrity check (bytes of its index page overwritten) are refused with one line and left
// byte for byte as they were, as are paths that are not regular files; a new file and the
// store's own file still open and take rows. A store of the first shape (before the logprob and
// completion_tokens columns) is upgraded in place and keeps its rows.
#include "posbias/llm/result_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "../cli_run.h"

namespace {

using posbias::ResultRow;
using posbias::ResultStore;
using posbias_test::slurp;
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  return posbias_test::scratch_path("posbias_result_store", name);
}

// Runs `sql` on the SQLite file `path` (created when missing) outside posbias.
void sqlite_exec(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "");
  sqlite3_free(err);
  sqlite3_close(db);
}

// The first text column of the first row of `sql`, read-only ("" when none).
std::string sqlite_text(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  std::string out;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != nullptr)
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

ResultRow row(int i) {
  ResultRow r;
  r.suite = "number";
  r.model = "m";
  const std::string n = std::to_string(i);
  r.prompt_hash = posbias::prompt_hash("chat", 16, "prompt " + n);
  r.probe_id = std::string("p").append(n);
  r.length = 17;
  r.hops = 1;
  r.prompt = "prompt";
  r.answer = "a";
  r.ok = true;
  r.response = "a";
  r.attempts = 1;
  return r;
}

// `make` must throw E with one line holding `needle`, and leave `file` as it was.
template <typename E>
void expect_refused_unchanged(const fs::path& file, const std::string& needle) {
  const std::string before = slurp(file);
  ASSERT_FALSE(before.empty());
  try {
    ResultStore store(file.string());
    ADD_FAILURE() << file << " was opened as a result store";
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_TRUE(slurp(file) == before) << file << " was changed";
  EXPECT_FALSE(fs::exists(file.string() + "-wal")) << "a WAL file was left beside " << file;
}

TEST(ResultStore, ForeignFileWithAResultsTableIsRefusedUnchanged) {
  const fs::path file = scratch("foreign_results.db");
  sqlite_exec(file,
              "CREATE TABLE results (id INTEGER PRIMARY KEY, score REAL);"
              "INSERT INTO results (score) VALUES (0.5), (0.25);");
  expect_refused_unchanged<std::invalid_argument>(file, "did not write");
  EXPECT_EQ(sqlite_text(file, "PRAGMA journal_mode"), "delete");
  EXPECT_EQ(sqlite_text(file, "PRAGMA application_id"), "0");
}

TEST(ResultStore, OtherApplicationsFileIsRefusedUnchanged) {
  const fs::path file = scratch("other.db");
  sqlite_exec(file, "CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('a');");
  expect_refused_unchanged<std::invalid_argument>(file, "another application's");
}

TEST(ResultStore, DamagedStoreIsRefusedUnchanged) {
  const fs::path file = scratch("damaged.db");
  {
    ResultStore store(file.string());
    for (int i = 0; i < 10; ++i) store.put(row(i));
  }
  // Negative control: the store's own, intact file opens again with its rows.
  {
    ResultStore store(file.string());
    EXPECT_EQ(store.count(), 10);
  }
  // Overwrite the last 48 bytes of the primary-key index's page (its cells: prompt hashes).
  const int page_size = std::stoi(sqlite_text(file, "PRAGMA page_size"));
  const int index_page = std::stoi(
      sqlite_text(file, "SELECT rootpage FROM sqlite_master WHERE type = 'index' LIMIT 1"));
  ASSERT_GT(index_page, 1);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(index_page) * page_size - 48);
    const std::string junk(48, 'Z');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  ASSERT_NE(sqlite_text(file, "PRAGMA integrity_check"), "ok") << "the test did not damage it";
  expect_refused_unchanged<std::runtime_error>(file, "integrity check");
}

// SQLite writes a journal beside the path it is given: a device (`--db /dev/null` as root
// put /dev/null-journal into /dev), a FIFO, a directory and a dangling symlink are refused
// before anything is opened, and nothing appears beside them. A symlink to the store's own file
// is followed.
TEST(ResultStore, NonRegularPathsAreRefusedAndNothingIsPutBesideThem) {
  const fs::path dir = scratch("nonregular");
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo", link = dir / "dangling", folder = dir / "folder";
  // A character device like /dev/null, made here where root may (else /dev/null itself, beside
  // which a user who is not root cannot write).
  fs::path device = dir / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0) device = "/dev/null";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(dir / "nowhere.db", link);
  fs::create_directories(folder);
  for (const fs::path& p : {device, fifo, link, folder}) {
    try {
      ResultStore store(p.string());
      ADD_FAILURE() << p << " was opened as a result store";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
    for (const char* suffix : {"-journal", "-wal", "-shm"})
      EXPECT_FALSE(fs::exists(p.string() + suffix)) << p << suffix;
  }
  EXPECT_FALSE(fs::exists(dir / "nowhere.db"));
  // Negative control: a symlink to a store opens the store.
  {
    ResultStore store((dir / "real.db").string());
    store.put(row(1));
  }
  fs::create_symlink(dir / "real.db", dir / "link.db");
  ResultStore store((dir / "link.db").string());
  EXPECT_EQ(store.count(), 1);
}

TEST(ResultStore, NewFileOpensAndKeepsRows) {
  const fs::path file = scratch("new.db");
  {
    ResultStore store(file.string());
    store.put(row(1));
  }
  ResultStore store(file.string());
  EXPECT_EQ(store.count(), 1);
  EXPECT_EQ(sqlite_text(file, "PRAGMA integrity_check"), "ok");
}

// The results table as posbias llm wrote it before log-probabilities, with one answered and
// one failed row.
constexpr const char* kFirstShape = R"sql(
CREATE TABLE results (
  suite TEXT NOT NULL, model TEXT NOT NULL, prompt_hash TEXT NOT NULL, probe_id TEXT NOT NULL,
  length INTEGER NOT NULL, hops INTEGER NOT NULL, depth REAL NOT NULL, prompt TEXT NOT NULL,
  answer TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  response TEXT, error TEXT, http_status INTEGER, attempts INTEGER NOT NULL, latency_ms REAL,
  strict INTEGER, lenient INTEGER,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (suite, model, prompt_hash));
INSERT INTO results (suite, model, prompt_hash, probe_id, length, hops, depth, prompt, answer,
                     status, response, error, http_status, attempts, latency_ms, strict, lenient)
VALUES ('needle', 'm', 'h-ok', 'needle/L10/d50/#0', 10, 0, 0.5, 'the prompt', 'v', 'ok', 'v',
        '', 200, 1, 12.5, 1, 1),
       ('needle', 'm', 'h-failed', 'needle/L10/d50/#1', 10, 0, 0.5, 'the prompt', 'v', 'failed',
        '', 'HTTP 500', 500, 5, 3.0, 0, 0);
PRAGMA application_id = 1885490253;
)sql";

TEST(ResultStore, AStoreOfTheFirstShapeIsUpgradedAndKeepsItsRows) {
  const fs::path file = scratch("first_shape.db");
  sqlite_exec(file, kFirstShape);
  ASSERT_EQ(sqlite_text(file, "SELECT COUNT(*) FROM pragma_table_info('results')"), "18");
  {
    ResultStore store(file.string());
    const std::vector<ResultRow> rows = store.rows("needle", "m");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].prompt_hash, "h-ok");
    EXPECT_TRUE(rows[0].ok);
    EXPECT_EQ(rows[0].response, "v");
    EXPECT_EQ(rows[0].latency_ms, 12.5);
    EXPECT_FALSE(rows[0].logprob);  // NULL in the added columns
    EXPECT_FALSE(rows[0].completion_tokens);
    EXPECT_EQ(rows[1].error, "HTTP 500");
    // The failed row gives way to an answer with a log-probability; the answered one stays.
    ResultRow answer = rows[1];
    answer.ok = true;
    answer.response = "v";
    answer.attempts = 1;
    answer.logprob = -1.25;
    answer.completion_tokens = 3;
    store.put(answer);
    ResultRow again = rows[0];
    again.logprob = -9;
    store.put(again);
  }
  EXPECT_EQ(sqlite_text(file, "SELECT COUNT(*) FROM pragma_table_info('results')"), "20");
  EXPECT_EQ(sqlite_text(file, "PRAGMA integrity_check"), "ok");
  ResultStore store(file.string());  // the upgraded file opens as it is
  const std::vector<ResultRow> rows = store.rows("needle", "m");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_FALSE(rows[0].logprob);
  EXPECT_EQ(rows[1].logprob, -1.25);
  EXPECT_EQ(rows[1].completion_tokens, 3);
  EXPECT_EQ(rows[1].attempts, 6);
  EXPECT_EQ(store.count(), 2);
}

// The first shape with a column of someone else's, or missing one of its own, is still not ours.
TEST(ResultStore, TheFirstShapeChangedIsStillRefusedUnchanged) {
  const fs::path extra = scratch("first_shape_extra.db");
  sqlite_exec(extra, std::string(kFirstShape) + "ALTER TABLE results ADD COLUMN notes TEXT;");
  expect_refused_unchanged<std::invalid_argument>(extra, "did not write");
  const fs::path fewer = scratch("first_shape_fewer.db");
  sqlite_exec(fewer, std::string(kFirstShape) + "ALTER TABLE results DROP COLUMN latency_ms;");
  expect_refused_unchanged<std::invalid_argument>(fewer, "did not write");
  // One of the added columns with a foreign one in place of the other.
  const fs::path swapped = scratch("first_shape_swapped.db");
  sqlite_exec(swapped, std::string(kFirstShape) +
                           "ALTER TABLE results ADD COLUMN logprob REAL;"
                           "ALTER TABLE results ADD COLUMN tokens INTEGER;");
  expect_refused_unchanged<std::invalid_argument>(swapped, "did not write");
}

}  // namespace
