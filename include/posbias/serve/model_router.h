// Several completion backends behind one server: `posbias serve` puts its hop, kv and text runs
// behind a HopCompleter, a KvCompleter and a TextCompleter, and this routes each request by its
// model name (UnknownModel for a name none serves).
#pragma once

#include <memory>
#include <vector>

#include "posbias/serve/openai_server.h"

namespace posbias {

class ModelRouter : public Completer {
 public:
  // Throws std::invalid_argument when two backends serve the same name.
  explicit ModelRouter(std::vector<std::unique_ptr<Completer>> backends);
  std::vector<std::string> models() const override;
  Completion complete(const CompletionRequest& request, const TokenSink& on_token) override;

 private:
  std::vector<std::unique_ptr<Completer>> backends_;
};

}  // namespace posbias
