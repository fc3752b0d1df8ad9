#include "posbias/train/checkpoint.h"

#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>
#include <tuple>

#include "posbias/core/json_read.h"
#include "posbias/hf/safetensors.h"
#include "posbias/hf/safetensors_index.h"
#include "posbias/model/hf_weights.h"
#include "posbias/runfiles/run_header.h"
#include "posbias/train/trainer.h"

namespace posbias {
namespace {

// Format 2 carries the file's SHA-256 (safetensors' kChecksumKey); format 1, written before
// checksums existed, is still read.
constexpr const char* kFormat = "posbias-hop-checkpoint-2";
constexpr const char* kFormatWithoutChecksum = "posbias-hop-checkpoint-1";

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().contiguous().to(torch::kFloat32);
  return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

std::string meta(const SafetensorsFile& file, const std::string& key) {
  const auto it = file.metadata().find(key);
  if (it == file.metadata().end()) {
    throw std::runtime_error(file.source_name() + " is not a posbias checkpoint (no '" + key +
                             "' in its metadata)");
  }
  return it->second;
}

// The checkpoint's metadata, read strictly (checksum aside); a file of another format or a damaged
// field throws std::runtime_error naming the file (and the field).
CheckpointRecord record_of(const SafetensorsFile& file) {
  if (meta(file, "format") != kFormat && meta(file, "format") != kFormatWithoutChecksum) {
    throw std::runtime_error(file.source_name() + " is not a posbias hop checkpoint (format '" +
                             meta(file, "format").substr(0, 40) + "')");
  }
  try {
    return checkpoint_record_from_metadata(file.metadata(), {std::string(kChecksumKey)});
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file.source_name() + ": " + e.what());
  }
}

CheckpointInfo info_of(const SafetensorsFile& file) {
  CheckpointInfo info = record_of(file).info;
  if (info.step > info.config.steps) {
    throw std::runtime_error(file.source_name() + ": step beyond the run's steps");
  }
  return info;
}

// Copies `name` from the file into `dst` after checking dtype and shape.
void restore(const SafetensorsFile& file, const std::string& name, const torch::Tensor& dst) {
  const TensorView& t = file.get(name);
  if (t.dtype != DType::F32 || t.shape != dst.sizes().vec()) {
    throw std::runtime_error(file.source_name() + ": tensor '" + name +
                             "' has the wrong dtype or shape for this model");
  }
  torch::NoGradGuard no_grad;
  std::memcpy(dst.data_ptr<float>(), t.data, t.bytes);
}

// Opens a checkpoint and checks every byte against its checksum, and every value (weights and
// AdamW moments) for being finite, before anything reads it.
SafetensorsFile open_checkpoint(const std::filesystem::path& path) {
  SafetensorsFile file = SafetensorsFile::open(path);
  if (file.has_checksum() || meta(file, "format") == kFormat) file.verify_checksum();
  file.require_finite();
  return file;
}

// A file `posbias train` wrote as a checkpoint (either format), by its metadata.
bool is_training_checkpoint(const SafetensorsFile& file) {
  const auto it = file.metadata().find("format");
  return it != file.metadata().end() &&
         (it->second == kFormat || it->second == kFormatWithoutChecksum);
}

// The checkpoint's model, built from its own config with its parameters restored.
Transformer model_of(const SafetensorsFile& file, const CheckpointInfo& info) {
  Transformer model(info.config.model_config());
  for (const auto& item : model->named_parameters(/*recurse=*/true)) {
    restore(file, "param/" + item.key(), item.value());
  }
  model->eval();
  return model;
}

bool same_training(const TrainConfig& a, const TrainConfig& b) {
  nlohmann::json ja = train_config_to_json(a), jb = train_config_to_json(b);
  return ja == jb;
}

// "seed is 5 in A but 0 in B": the first field (in name order) where two configs differ.
std::string first_difference(const TrainConfig& a, const std::string& a_name, const TrainConfig& b,
                             const std::string& b_name) {
  const nlohmann::json ja = train_config_to_json(a), jb = train_config_to_json(b);
  nlohmann::json keys = ja;
  keys.update(jb);
  auto value = [](const nlohmann::json& j, const std::string& key) {
    const std::string text = j.contains(key) ? j.at(key).dump() : "absent";
    return text.size() > 60 ? text.substr(0, 57) + "..." : text;
  };
  for (const auto& [key, unused] : keys.items()) {
    if (ja.contains(key) && jb.contains(key) && ja.at(key) == jb.at(key)) continue;
    return key + " is " + value(ja, key) + " in " + a_name + " but " + value(jb, key) + " in " +
           b_name;
  }
  return "the configs differ";
}

// Copies every parameter (and with `adam`, its moments and step count) from a checkpoint whose
// info_of() and config were checked; every tensor is checked before the first is copied.
void restore_checkpoint(const SafetensorsFile& file, const std::filesystem::path& path,
                        FlatParams& flat, AdamW* adam) {
  for (const ParamSlot& s : flat.slots()) {
    for (const char* prefix : {"param/", "adam_m/", "adam_v/"}) {
      const TensorView& t = file.get(prefix + s.name);
      if (t.dtype != DType::F32 || t.shape != s.shape) {
        throw std::runtime_error(path.string() + ": tensor '" + prefix + s.name +
                                 "' has the wrong dtype or shape for this model");
      }
    }
  }
  const std::int64_t adam_steps = record_of(file).adam_steps;
  for (const ParamSlot& s : flat.slots()) {
    restore(file, "param/" + s.name, flat.params.narrow(0, s.offset, s.numel).view(s.shape));
    if (adam != nullptr) {
      restore(file, "adam_m/" + s.name, adam->exp_avg.narrow(0, s.offset, s.numel).view(s.shape));
      restore(file, "adam_v/" + s.name,
              adam->exp_avg_sq.narrow(0, s.offset, s.numel).view(s.shape));
    }
  }
  if (adam != nullptr) adam->steps_taken = adam_steps;
}

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& run_dir, std::int64_t step) {
  char name[64];
  std::snprintf(name, sizeof name, "step_%08lld.safetensors", static_cast<long long>(step));
  return run_dir / "checkpoints" / name;
}

namespace {

// A run that has no checkpoint to read: one line saying whether the folder is there at all.
[[noreturn]] void throw_without_checkpoints(const std::filesystem::path& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec))
    throw std::runtime_error("run directory '" + run_dir.string() + "' does not exist");
  throw std::runtime_error("run directory '" + run_dir.string() +
                           "' has no checkpoints (is it a `posbias train` run?)");
}

// A run's checkpoint files with the step each one's name holds, oldest first.
std::vector<RunCheckpoint> scan_checkpoints(const std::filesystem::path& run_dir) {
  std::vector<RunCheckpoint> found;
  const std::filesystem::path dir = run_dir / "checkpoints";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return {};
  static const std::regex pattern(R"(step_(\d{1,12})\.safetensors)");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, m, pattern)) {
      found.push_back({std::stoll(m[1].str()), entry.path()});
    }
  }
  std::sort(found.begin(), found.end(), [](const RunCheckpoint& a, const RunCheckpoint& b) {
    return std::tie(a.step, a.path) < std::tie(b.step, b.path);
  });
  return found;
}

}  // namespace

std::vector<std::filesystem::path> list_checkpoints(const std::filesystem::path& run_dir) {
  std::vector<std::filesystem::path> out;
  for (RunCheckpoint& c : scan_checkpoints(run_dir)) out.push_back(std::move(c.path));
  return out;
}

std::vector<RunCheckpoint> select_checkpoints(const std::filesystem::path& run_dir,
                                              const CheckpointSelection& selection) {
  const std::vector<RunCheckpoint> all = scan_checkpoints(run_dir);
  if (all.empty()) throw_without_checkpoints(run_dir);
  std::vector<std::int64_t> available;
  for (const RunCheckpoint& c : all) available.push_back(c.step);
  std::vector<RunCheckpoint> out;
  for (std::int64_t step : select_checkpoint_steps(selection, available))
    out.push_back(all[static_cast<std::size_t>(
        std::lower_bound(available.begin(), available.end(), step) - available.begin())]);
  return out;
}

void save_checkpoint(const std::filesystem::path& path, const FlatParams& flat, const AdamW& adam,
                     const CheckpointInfo& info) {
  std::vector<OwnedTensor> tensors;
  for (const ParamSlot& s : flat.slots()) {
    auto part = [&](const torch::Tensor& buffer) {
      return to_vector(buffer.narrow(0, s.offset, s.numel));
    };
    tensors.push_back({"param/" + s.name, s.shape, part(flat.params)});
    tensors.push_back({"adam_m/" + s.name, s.shape, part(adam.exp_avg)});
    tensors.push_back({"adam_v/" + s.name, s.shape, part(adam.exp_avg_sq)});
  }
  const CheckpointRecord record{kFormat, info, info.config.seed, adam.steps_taken, POSBIAS_VERSION};
  const std::map<std::string, std::string> metadata = to_metadata(record);
  std::filesystem::create_directories(path.parent_path());
  write_safetensors(path, tensors, metadata, Checksum::kSha256);
}

CheckpointInfo read_checkpoint_info(const std::filesystem::path& path) {
  return info_of(open_checkpoint(path));
}

void require_same_run(const TrainConfig& run, const TrainConfig& found,
                      const std::filesystem::path& file, const std::filesystem::path& run_dir) {
  if (same_training(run, found)) return;
  throw std::runtime_error(
      file.string() + " does not belong to run " + run_dir.string() + ": " +
      first_difference(found, "it", run, (run_dir / "train.json").string()) +
      " (a file of another run, or an edited train.json): use the run's own files");
}

CheckpointInfo load_checkpoint(const std::filesystem::path& path, FlatParams& flat, AdamW* adam,
                               const TrainConfig& expected) {
  const SafetensorsFile file = open_checkpoint(path);
  const CheckpointInfo info = info_of(file);
  if (!same_training(info.config, expected)) {
    throw std::runtime_error(path.string() + " belongs to a different training config: " +
                             first_difference(info.config, "it", expected, "this run"));
  }
  restore_checkpoint(file, path, flat, adam);
  return info;
}

ResumePoint find_resume_point(const std::filesystem::path& run_dir, FlatParams& flat, AdamW& adam,
                              const TrainConfig& expected) {
  ResumePoint point;
  std::optional<std::pair<std::filesystem::path, TrainConfig>> foreign;  // newest intact one
  const auto all = list_checkpoints(run_dir);
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    try {
      const SafetensorsFile file = open_checkpoint(*it);
      CheckpointInfo info = info_of(file);
      if (!same_training(info.config, expected)) {
        if (!foreign) foreign.emplace(*it, info.config);
        require_same_run(expected, info.config, *it, run_dir);  // throws: the reason to set aside
      }
      restore_checkpoint(file, *it, flat, &adam);
      point.info = std::move(info);
      return point;
    } catch (const std::runtime_error& e) {
      point.damaged.emplace_back(*it, e.what());
    }
  }
  if (foreign) {
    // Intact checkpoints, none of them of train.json's config: train.json is what changed (or
    // the whole folder is another run's). Setting them all aside would throw the run away.
    const std::filesystem::path config = run_dir / "train.json";
    throw std::runtime_error(
        config.string() + " does not match the run's checkpoints: " +
        first_difference(expected, config.string(), foreign->second,
                         foreign->first.filename().string()) +
        "; nothing was changed: restore train.json (or start a new run in another --out)");
  }
  return point;
}

void set_aside_damaged(const std::filesystem::path& run_dir, const ResumePoint& point) {
  for (const auto& [path, reason] : point.damaged) {
    std::filesystem::path damaged = path;
    damaged += ".damaged";
    std::error_code ec;
    std::filesystem::rename(path, damaged, ec);
    if (ec) throw std::runtime_error(reason + "; cannot set it aside: " + ec.message());
    std::fprintf(stderr, "posbias train: %s; set aside as %s, trying the checkpoint before it\n",
                 reason.c_str(), damaged.filename().c_str());
  }
  if (!point.info && !point.damaged.empty()) {
    std::fprintf(stderr,
                 "posbias train: none of the %zu checkpoints of %s is intact: the run starts "
                 "again from step 0\n",
                 point.damaged.size(), run_dir.c_str());
  } else if (!point.info) {
    std::fprintf(stderr, "posbias train: %s has no checkpoint yet: the run starts from step 0\n",
                 run_dir.c_str());
  }
}

LoadedModel load_trained_model(const std::filesystem::path& run_dir,
                               const std::filesystem::path& checkpoint) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec)) {
    throw std::runtime_error("run directory '" + run_dir.string() + "' does not exist");
  }
  const TrainConfig run = read_run_header(run_dir).config;
  LoadedModel out;
  out.path = checkpoint;
  if (out.path.empty()) {
    const auto all = list_checkpoints(run_dir);
    if (all.empty()) throw_without_checkpoints(run_dir);
    out.path = all.back();
  }
  const SafetensorsFile file = open_checkpoint(out.path);
  out.info = info_of(file);
  require_same_run(run, out.info.config, out.path, run_dir);
  out.model = model_of(file, out.info);
  return out;
}

namespace {

std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
}

bool is_run_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_regular_file(dir / "train.json", ec);
}

// The run a training checkpoint given as --weights sits in (RUN/checkpoints/step_N.safetensors,
// or beside RUN/train.json), or nullopt for a copy outside any run.
std::optional<std::filesystem::path> run_of_checkpoint(const std::filesystem::path& path) {
  const std::filesystem::path dir = folder_of(path);
  if (is_run_folder(dir)) return dir;
  const std::filesystem::path absolute = std::filesystem::absolute(dir).lexically_normal();
  const std::filesystem::path up = folder_of(dir);
  if (absolute.filename() == "checkpoints" && is_run_folder(up)) return up;
  return std::nullopt;
}

// A training checkpoint given as --weights, checked as a resume checks it (checksum, finite
// values, format and config; in a run, that run's config), read as the Hugging Face tensors of
// its model.
std::map<std::string, torch::Tensor> checkpoint_hf_tensors(const SafetensorsFile& file,
                                                           const std::filesystem::path& path) {
  if (file.has_checksum() || meta(file, "format") == kFormat) file.verify_checksum();
  file.require_finite();
  const CheckpointInfo info = info_of(file);
  if (const auto run = run_of_checkpoint(path))
    require_same_run(read_run_header(*run).config, info.config, path, *run);
  Transformer model = model_of(file, info);
  return hf_tensors(model);
}

// One safetensors file given as --weights (open_model_weights).
SafetensorsFile open_weights_file(const std::filesystem::path& path) {
  SafetensorsFile file = SafetensorsFile::open(path);
  if (file.has_checksum()) file.verify_checksum();
  const std::filesystem::path run_dir = folder_of(path);
  if (!is_run_folder(run_dir)) return file;
  // In a run folder: the run's own weights, which posbias writes with both.
  if (!file.has_checksum()) {
    throw std::runtime_error(path.string() + " is in the run folder " + run_dir.string() +
                             " but has no checksum ('" + std::string(kChecksumKey) +
                             "' metadata), so it cannot be checked as that run's weights: pass "
                             "a copy from outside the run folder to read it as outside weights");
  }
  const auto it = file.metadata().find(std::string(kRunConfigKey));
  if (it == file.metadata().end()) {
    throw std::runtime_error(path.string() + " is in the run folder " + run_dir.string() +
                             " but does not carry a training config ('" +
                             std::string(kRunConfigKey) +
                             "' metadata): it is not that run's "
                             "model.safetensors");
  }
  TrainConfig found;
  try {
    found = train_config_from_json(parse_json(it->second, path.string()));
    found.finalize();
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": bad training config in metadata: " + e.what());
  }
  require_same_run(read_run_header(run_dir).config, found, path, run_dir);
  return file;
}

}  // namespace

SafetensorsCheckpoint open_model_weights(const std::filesystem::path& path) {
  if (!is_safetensors_index(path)) return SafetensorsCheckpoint::single(open_weights_file(path));
  const std::filesystem::path dir = folder_of(path);
  if (is_run_folder(dir))
    throw std::runtime_error(path.string() + " is in the run folder " + dir.string() +
                             ": a run's weights are its one model.safetensors, not an index");
  SafetensorsCheckpoint checkpoint = SafetensorsCheckpoint::open(path);
  for (const SafetensorsFile& shard : checkpoint.files())
    if (shard.has_checksum()) shard.verify_checksum();
  return checkpoint;
}

void load_model_weights(Transformer& model, const std::filesystem::path& path) {
  if (!is_safetensors_index(path)) {
    SafetensorsFile file = SafetensorsFile::open(path);
    if (is_training_checkpoint(file)) {
      const auto tensors = checkpoint_hf_tensors(file, path);
      const std::string family = to_string(info_of(file).config.model_config().family);
      load_hf_weights(model, tensors,
                      path.string() + " (a training checkpoint of a " + family + " model)");
      return;
    }
  }
  load_hf_weights(model, open_model_weights(path));
}

}  // namespace posbias
