#include "posbias/dist/process_group.h"

#include <c10/util/Exception.h>
#include <fmt/format.h>
#include <torch/torch.h>

#include <stdexcept>
#include <thread>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace posbias {
namespace {

// The first line of a c10 or Gloo message, without the C++ stack c10 appends.
std::string first_line(const std::exception& e) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&e);
  std::string text = c10_error != nullptr ? c10_error->what_without_backtrace() : e.what();
  if (const auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  return text;
}

template <typename F>
auto translated(const std::string& context, F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(context + ": " + first_line(e));
  }
}

bool is_loopback(const std::string& address) {
  return address == "localhost" || address.rfind("127.", 0) == 0 || address == "::1";
}

}  // namespace

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::TCPStore> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  std::vector<c10::intrusive_ptr<c10d::Work>> pending;
};

ProcessGroup::ProcessGroup(const RankEnv& env, std::chrono::milliseconds timeout,
                           const std::string& fingerprint)
    : env_(env), timeout_(timeout), impl_(std::make_unique<Impl>()) {
  const std::string where = fmt::format("{}:{}", env.master_addr, env.master_port);
  const long long seconds = static_cast<long long>(timeout.count() / 1000);
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(env.master_port);
  options.isServer = env.rank == 0;
  options.numWorkers = static_cast<std::size_t>(env.world_size);
  options.waitWorkers = false;  // the join below waits, with messages that say who is missing
  options.timeout = timeout;
  impl_->store = translated(
      env.rank == 0
          ? fmt::format("rank 0 cannot serve the rendezvous at {} (choose another MASTER_PORT)",
                        where)
          : fmt::format("rank {} cannot reach rank 0 at {} within {} s (MASTER_ADDR, "
                        "MASTER_PORT; is rank 0 running?)",
                        env.rank, where, seconds),
      [&] { return c10::make_intrusive<c10d::TCPStore>(env.master_addr, options); });
  c10d::TCPStore& store = *impl_->store;
  auto bytes = [](const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
  auto text = [](const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); };
  const std::string lost = fmt::format("rank {} lost the rendezvous at {}", env.rank, where);

  translated(lost, [&] {
    if (store.add("posbias/claim/" + std::to_string(env.rank), 1) != 1) {
      throw std::invalid_argument(
          fmt::format("two processes claim RANK {}: give every rank its own RANK in 0..{}",
                      env.rank, env.world_size - 1));
    }
    store.set("posbias/join/" + std::to_string(env.rank),
              bytes(std::to_string(env.world_size) + "\n" + fingerprint));
    // Every rank checks itself against rank 0, and rank 0 checks every rank once all joined.
    auto check = [&](int other) {
      const std::string joined = text(store.get("posbias/join/" + std::to_string(other)));
      const std::size_t nl = joined.find('\n');
      const std::string world = joined.substr(0, nl), job = joined.substr(nl + 1);
      const int low = std::min(other, env.rank), high = std::max(other, env.rank);
      if (world != std::to_string(env.world_size)) {
        throw std::invalid_argument(fmt::format(
            "rank {} has WORLD_SIZE {} but rank {} has {}: start every rank with the same "
            "WORLD_SIZE",
            other, world, env.rank, env.world_size));
      }
      if (job != fingerprint) {
        throw std::invalid_argument(fmt::format(
            "ranks {} and {} run different jobs (their options or config differ): start every "
            "rank with the same command",
            low, high));
      }
    };
    // A rank that finds a mismatch says so; rank 0 serves the store, so before it stops on one
    // it waits (briefly) until every rank has read what it needs to say why too.
    auto checked = [&] { store.add("posbias/checked", 1); };
    if (env.rank != 0) {
      try {
        check(0);
      } catch (...) {
        checked();
        throw;
      }
      checked();
    }
    std::vector<std::string> keys;
    for (int r = 0; r < env.world_size; ++r) keys.push_back("posbias/join/" + std::to_string(r));
    try {
      store.wait(keys, timeout);
    } catch (const std::exception&) {
      int joined = 0;
      for (const std::string& k : keys) joined += store.check({k}) ? 1 : 0;
      throw std::runtime_error(fmt::format(
          "only {} of WORLD_SIZE {} ranks joined within {} s: check WORLD_SIZE and RANK on "
          "every rank",
          joined, env.world_size, seconds));
    }
    if (env.rank == 0) {
      try {
        for (int r = 1; r < env.world_size; ++r) check(r);
      } catch (const std::invalid_argument&) {
        const auto until = std::chrono::steady_clock::now() +
                           std::min<std::chrono::milliseconds>(timeout, std::chrono::seconds(5));
        while (store.add("posbias/checked", 0) < env.world_size - 1 &&
               std::chrono::steady_clock::now() < until) {
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        throw;
      }
    }
    return 0;
  });

  auto gloo_options = c10d::ProcessGroupGloo::Options::create(timeout);
  gloo_options->devices.push_back(translated(
      "cannot open a Gloo device (set GLOO_SOCKET_IFNAME to the network interface)", [&] {
        if (!env.gloo_interface.empty())
          return c10d::ProcessGroupGloo::createDeviceForInterface(env.gloo_interface);
        if (is_loopback(env.master_addr))
          return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
        return c10d::ProcessGroupGloo::createDefaultDevice();
      }));
  auto prefixed = c10::make_intrusive<c10d::PrefixStore>("gloo", impl_->store);
  impl_->group = translated(
      fmt::format("rank {} cannot connect to the other ranks within {} s", env.rank, seconds), [&] {
        return c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, env.rank, env.world_size,
                                                           gloo_options);
      });
}

ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::broadcast(std::vector<at::Tensor> tensors) {
  translated(fmt::format("rank {} lost its peers in a broadcast", rank()), [&] {
    for (at::Tensor& t : tensors) {
      std::vector<at::Tensor> one{t};
      impl_->group->broadcast(one)->wait(timeout_);
    }
    return 0;
  });
}

void ProcessGroup::start_sum(const at::Tensor& tensor) {
  translated(fmt::format("rank {} lost its peers in an all-reduce", rank()), [&] {
    std::vector<at::Tensor> one{tensor};
    impl_->pending.push_back(impl_->group->allreduce(one));
    return 0;
  });
}

void ProcessGroup::wait_all() {
  std::vector<c10::intrusive_ptr<c10d::Work>> pending;
  pending.swap(impl_->pending);
  translated(fmt::format("rank {} lost its peers in an all-reduce (a rank died or stalled for "
                         "{} s; resume the run from its last checkpoint)",
                         rank(), timeout_.count() / 1000),
             [&] {
               for (auto& work : pending) work->wait(timeout_);
               return 0;
             });
}

double ProcessGroup::sum(double value) {
  at::Tensor t = torch::full({1}, value, torch::kFloat64);
  start_sum(t);
  wait_all();
  return t.item<double>();
}

std::vector<std::string> ProcessGroup::all_gather(const std::string& mine) {
  const std::string prefix = fmt::format("posbias/gather/{}/", gathers_++);
  return translated(fmt::format("rank {} lost its peers while gathering results", rank()), [&] {
    impl_->store->set(prefix + std::to_string(rank()),
                      std::vector<std::uint8_t>(mine.begin(), mine.end()));
    std::vector<std::string> out;
    for (int r = 0; r < size(); ++r) {
      const std::vector<std::uint8_t> b = impl_->store->get(prefix + std::to_string(r));
      out.emplace_back(b.begin(), b.end());
    }
    return out;
  });
}

void ProcessGroup::barrier() {
  translated(fmt::format("rank {} lost its peers at a barrier", rank()), [&] {
    impl_->group->barrier()->wait(timeout_);
    return 0;
  });
}

}  // namespace posbias
