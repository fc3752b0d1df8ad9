// The `posbias train` command line of a configuration, from TrainConfig's field table: what a
// report's "commands by hand" prints, so that no command spells the flags of a config by hand.
#pragma once

#include <string>

namespace posbias {

struct TrainConfig;

// The flags that make `posbias train` build `config` again from its task's defaults
// ("--task kv --arch gpt2 --pos learned ... --steps 8000"), in the table's order: each field
// whose value differs from the task's default, and each field the command line would otherwise
// derive differently (mlp from --d-model, warmup from --steps). Without --seed (a command gives
// each seed) and --out. Throws std::invalid_argument when no flag can give a field's value.
std::string train_flags(const TrainConfig& config);

}  // namespace posbias
