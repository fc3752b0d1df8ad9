#include "posbias/tasks/tasks_command.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "posbias/core/atomic_file.h"
#include "posbias/tasks/hop_task.h"
#include "posbias/tasks/task_check.h"

namespace posbias {

void run_tasks(const TasksOptions& o) {
  DatasetSpec spec;
  spec.task = o.task;
  spec.variant = o.variant;
  if (o.hops.empty()) throw std::invalid_argument("--hops needs at least one hop count");
  spec.hops = o.hops;
  if (o.length < 2 || o.length > kMaxLength) {
    throw std::invalid_argument("--length must be in 2.." + std::to_string(kMaxLength) + ", got " +
                                std::to_string(o.length));
  }
  spec.length = static_cast<int>(o.length);
  if (o.count < 0)
    throw std::invalid_argument("--count must be >= 0, got " + std::to_string(o.count));
  if (static_cast<double>(o.count) * static_cast<double>(o.length) > 2e9) {
    throw std::invalid_argument("--count × --length exceeds 2e9 tokens; write several files");
  }
  spec.count = o.count;
  spec.seed = o.seed;
  if (o.format != "jsonl" && o.format != "tokens") {
    throw std::invalid_argument("--format must be jsonl or tokens, got '" + o.format + "'");
  }
  for (int h : spec.hops) validate_spec(spec.task, h, spec.length, spec.variant);

  const Vocabulary& vocab = Vocabulary::of(spec.task);
  std::string buffer;
  auto flush = [&](bool force) {
    if (o.out.empty() && (force || buffer.size() > (1u << 20))) {
      write_output("", buffer);
      buffer.clear();
    }
  };
  for_each_example(spec, [&](const Example& ex) {
    if (o.format == "jsonl") {
      buffer += example_to_json(ex).dump();
    } else {
      const std::vector<std::int64_t> ids = vocab.encode(ex.tokens);
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i) buffer += ' ';
        buffer += std::to_string(ids[i]);
      }
    }
    buffer += '\n';
    flush(false);
  });
  if (o.out.empty()) {
    flush(true);
  } else {
    write_file_atomic(o.out, buffer);
  }
}

void run_tasks_check(const std::string& path) {
  const CheckReport report = check_file(path);
  for (const std::string& p : report.problems)
    std::fprintf(stderr, "%s: %s\n", path.c_str(), p.c_str());
  if (!report.problems.empty()) {
    throw std::runtime_error(std::to_string(report.problems.size()) + " of " +
                             std::to_string(report.examples) + " examples in " + path +
                             " are wrong");
  }
  std::printf("%s: all %lld examples are correct\n", path.c_str(),
              static_cast<long long>(report.examples));
}

}  // namespace posbias
