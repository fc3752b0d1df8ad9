#include "posbias/serve/model_router.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace posbias {

ModelRouter::ModelRouter(std::vector<std::unique_ptr<Completer>> backends)
    : backends_(std::move(backends)) {
  std::set<std::string> names;
  for (const auto& b : backends_) {
    for (const std::string& m : b->models()) {
      if (!names.insert(m).second) {
        throw std::invalid_argument("two runs are named '" + m + "'; use NAME=RUN_DIR");
      }
    }
  }
}

std::vector<std::string> ModelRouter::models() const {
  std::vector<std::string> out;
  for (const auto& b : backends_) {
    for (std::string& m : b->models()) out.push_back(std::move(m));
  }
  return out;
}

Completion ModelRouter::complete(const CompletionRequest& request, const TokenSink& on_token) {
  for (const auto& b : backends_) {
    const std::vector<std::string> names = b->models();
    if (std::find(names.begin(), names.end(), request.model) != names.end()) {
      return b->complete(request, on_token);
    }
  }
  throw UnknownModel("no model named '" + request.model + "' is served");
}

}  // namespace posbias
