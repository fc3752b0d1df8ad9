#include "posbias/serve/serve_command.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/core/flag_rows.h"
#include "posbias/runfiles/checkpoint_selection_codec.h"
#include "posbias/serve/hop_completer.h"
#include "posbias/serve/kv_completer.h"
#include "posbias/serve/model_router.h"
#include "posbias/serve/text_completer.h"
#include "posbias/train/checkpoint.h"

namespace posbias {

namespace {

// Set by SIGINT/SIGTERM. A handler (not a blocked mask) catches the signal whichever thread
// it lands on: torch's and OpenBLAS's threads exist before serve starts.
std::atomic<int> g_stop_signal{0};
extern "C" void on_stop_signal(int sig) { g_stop_signal.store(sig); }

// A run's task from its served checkpoint's metadata (no weights read). A run whose checkpoint
// cannot be read goes to the hop backend, whose loader names the problem.
Task served_task(const ServedRun& run) {
  const auto all = list_checkpoints(run.dir);
  if (all.empty()) return Task::kNumber;
  try {
    return read_checkpoint_info(run.checkpoint.empty() ? all.back()
                                                       : std::filesystem::path(run.checkpoint))
        .config.task;
  } catch (const std::runtime_error&) {
    return Task::kNumber;
  }
}

// One backend per kind of run (hop, kv, text), behind one router.
ModelRouter make_backends(const std::vector<ServedRun>& runs, double timeout) {
  std::vector<ServedRun> hop, kv, text;
  for (const ServedRun& r : runs) {
    const Task task = served_task(r);
    (task == Task::kKv ? kv : task == Task::kText ? text : hop).push_back(r);
  }
  std::vector<std::unique_ptr<Completer>> backends;
  if (!hop.empty() || runs.empty()) {
    backends.push_back(std::make_unique<HopCompleter>(hop, timeout));
  }
  if (!kv.empty()) backends.push_back(std::make_unique<KvCompleter>(kv, timeout));
  if (!text.empty()) backends.push_back(std::make_unique<TextCompleter>(text, timeout));
  return ModelRouter(std::move(backends));
}

}  // namespace

void run_serve(const ServeOptions& options) {
  static_assert(std::atomic<int>::is_always_lock_free);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::vector<ServedRun> runs;
  for (const std::string& spec : options.runs) {
    for (ServedRun& r : served_checkpoints(parse_served_run(spec), options.checkpoints))
      runs.push_back(std::move(r));
  }
  ModelRouter completer = make_backends(runs, options.server.timeout);
  OpenAiServer server(completer, options.server);
  const int port = server.bind();
  if (!options.port_file.empty()) write_file_atomic(options.port_file, std::to_string(port) + "\n");
  std::string names;
  for (const std::string& m : completer.models()) names += (names.empty() ? "" : ", ") + m;
  std::fprintf(stderr, "posbias serve: listening on http://%s:%d/v1 (models: %s)\n",
               options.server.host.c_str(), port, names.c_str());

  // The server runs on its own thread; this one waits for a signal. Stopping closes the
  // listening socket and lets each connection finish within the I/O timeout; a connection
  // that still holds on after that (a client trickling bytes) is cut, and every thread joined.
  std::promise<void> finished;
  std::future<void> served = finished.get_future();
  std::thread runner([&] {
    server.run();
    finished.set_value();
  });
  while (g_stop_signal.load() == 0 &&
         served.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
  }
  server.stop();
  const double grace = options.server.io_timeout + 1;
  const bool drained =
      served.wait_for(std::chrono::duration<double>(grace)) == std::future_status::ready;
  if (!drained) server.cut_connections();
  if (!options.port_file.empty()) {
    std::error_code ec;
    // Only a file it created: never a device, FIFO or link named as the port file.
    if (std::filesystem::symlink_status(options.port_file, ec).type() ==
        std::filesystem::file_type::regular)
      std::filesystem::remove(options.port_file, ec);
  }
  std::fprintf(stderr, "posbias serve: stopped after %lld completions%s\n",
               static_cast<long long>(server.requests_served()),
               drained ? "" : "; connections still open after the I/O timeout were cut");
  runner.join();
}

const std::vector<FieldRow<ServeOptions>>& serve_option_fields() {
  using O = ServeOptions;
  static const std::vector<FieldRow<O>> rows = [] {
    std::vector<FieldRow<O>> r = {
        flagged(
            required(field("runs", &O::runs, "RUN_DIR or NAME=RUN_DIR (repeat for several models)",
                           "PATH|NAME=PATH")),
            "--run"),
        named_field<CheckpointSelectionNames>(
            "checkpoints", &O::checkpoints,
            "of every run: " + checkpoint_selection_choices() +
                "; one is served under the run's name, several each as NAME@STEP",
            checkpoint_selection_type())};
    for (FieldRow<O>& row : member_fields(&O::server, server_option_fields()))
      r.push_back(std::move(row));
    return r;
  }();
  return rows;
}

}  // namespace posbias
