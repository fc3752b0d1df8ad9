#include "posbias/llm/serve_command.h"

#include <signal.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include "posbias/core/atomic_file.h"
#include "posbias/llm/hop_completer.h"

namespace posbias {

void run_serve(const ServeOptions& options) {
  // SIGINT and SIGTERM stop the server cleanly: every thread blocks them (from the start, so
  // one that arrives while the models load is kept), and one thread waits for them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::vector<ServedRun> runs;
  for (const std::string& spec : options.runs) runs.push_back(parse_served_run(spec));
  HopCompleter completer(runs, options.server.timeout);
  OpenAiServer server(completer, options.server);
  const int port = server.bind();
  if (!options.port_file.empty()) write_file_atomic(options.port_file, std::to_string(port) + "\n");
  std::string names;
  for (const std::string& m : completer.models()) names += (names.empty() ? "" : ", ") + m;
  std::fprintf(stderr, "posbias serve: listening on http://%s:%d/v1 (models: %s)\n",
               options.server.host.c_str(), port, names.c_str());

  std::atomic<bool> done{false};
  std::thread waiter([&] {
    const timespec tick{0, 200'000'000};
    while (!done.load()) {
      if (sigtimedwait(&signals, nullptr, &tick) > 0) {
        server.stop();
        return;
      }
    }
  });
  server.run();
  done.store(true);
  waiter.join();
  std::fprintf(stderr, "posbias serve: stopped after %lld completions\n",
               static_cast<long long>(server.requests_served()));
}

}  // namespace posbias
