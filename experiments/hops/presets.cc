#include "experiments/hops/presets.h"

#include <fmt/format.h>

#include "experiments/hops/eval_command.h"

namespace posbias {
namespace {

TrainConfig finalized(TrainConfig c) {
  c.finalize();  // the task's default steps filled in, every field checked
  return c;
}

}  // namespace

HopsPreset HopsPreset::quick() {
  HopsPreset p;
  p.name = "quick";
  for (Task task : {Task::kNumber, Task::kLetter}) {
    TrainConfig c;
    c.task = task;
    c.layers = 4;
    c.hops = {1, 2};
    c.steps = 800;
    c.warmup = 100;
    c.eval_every = 50;
    c.checkpoint_every = 200;
    c.eval_per_hop = 128;
    (task == Task::kNumber ? p.number : p.letter) = finalized(c);
  }
  p.eval_lengths = {17, 32, 64, 128, 256};
  p.eval_count = 50;
  p.ablation_lengths = {17, 64, 256, 850};
  return p;
}

HopsPreset HopsPreset::full() {
  HopsPreset p;
  p.name = "full";
  p.number.task = Task::kNumber;
  p.letter.task = Task::kLetter;
  p.number = finalized(p.number);
  p.letter = finalized(p.letter);
  const EvalOptions eval;  // `posbias eval`'s own defaults
  p.eval_lengths = eval.lengths;
  p.eval_count = eval.count;
  p.ablation_lengths = {17, 64, 256, 850};
  return p;
}

std::string HopsPreset::describe() const {
  const std::vector<int>& hops = number.hops;
  const std::string hop_range = hops.size() == 1 ? std::to_string(hops.front())
                                                 : fmt::format("{}-{}", hops.front(), hops.back());
  return fmt::format("{} layers, hops {}, {} Number and {} Letter steps", number.layers, hop_range,
                     number.steps, letter.steps);
}

}  // namespace posbias
