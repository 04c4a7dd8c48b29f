#include "switch_allocator.h"

namespace wormsim {

SwitchAllocator::SwitchAllocator(AllocatorKind kind, int inputs, int outputs, int vcs)
    : kind_(kind),
      inputs_(inputs),
      vcs_(vcs),
      input_arbiters_(static_cast<std::size_t>(inputs), RoundRobinArbiter(vcs)),
      output_arbiters_(static_cast<std::size_t>(outputs), RoundRobinArbiter(inputs)),
      want_(static_cast<std::size_t>(inputs * vcs), -1),
      vc_mask_(static_cast<std::size_t>(inputs), 0),
      port_mask_(static_cast<std::size_t>(outputs), 0),
      pick_(static_cast<std::size_t>(inputs > outputs ? inputs : outputs), -1),
      touched_(static_cast<std::size_t>(outputs), 0) {}

void SwitchAllocator::allocate(const std::vector<SwitchRequest>& requests,
                               std::vector<SwitchRequest>& grants) {
  if (requests.empty()) return;
  for (const SwitchRequest& r : requests)
    want_[static_cast<std::size_t>(r.in_port * vcs_ + r.vc)] = r.out_port;
  if (kind_ == AllocatorKind::kSeparableInputFirst)
    input_first(requests, grants);
  else
    output_first(requests, grants);
  for (const SwitchRequest& r : requests)
    want_[static_cast<std::size_t>(r.in_port * vcs_ + r.vc)] = -1;
}

void SwitchAllocator::input_first(const std::vector<SwitchRequest>& requests,
                                  std::vector<SwitchRequest>& grants) {
  // The rules of router/separable_input_first.h on this allocator's arbiters.
  switch_input_first(
      requests.data(), static_cast<int>(requests.size()),
      [&](int in) { return input_arbiters_[static_cast<std::size_t>(in)].pointer(); },
      [&](int out) { return output_arbiters_[static_cast<std::size_t>(out)].pointer(); },
      [&](int in, int vc) { input_arbiters_[static_cast<std::size_t>(in)].update(vc); },
      [&](int out, int in) { output_arbiters_[static_cast<std::size_t>(out)].update(in); },
      [&](int in, int vc) { return want_[static_cast<std::size_t>(in * vcs_ + vc)]; },
      vc_mask_.data(), port_mask_.data(), pick_.data(), touched_.data(),
      [&](int in, int vc, int out) {
        grants.push_back({in, vc, out});
      });
}

void SwitchAllocator::output_first(const std::vector<SwitchRequest>& requests,
                                   std::vector<SwitchRequest>& grants) {
  // Stage 1: per output port, one requesting input port.
  for (const SwitchRequest& r : requests) {
    int& offer = pick_[static_cast<std::size_t>(r.out_port)];
    if (offer != -1) continue;
    const int out = r.out_port;
    offer = output_arbiters_[static_cast<std::size_t>(out)].pick([&](int p) {
      for (int vc = 0; vc < vcs_; ++vc)
        if (want_[static_cast<std::size_t>(p * vcs_ + vc)] == out) return true;
      return false;
    });
  }
  // Stage 2: per input port, one VC among those whose output offered to this port.
  for (int in = 0; in < inputs_; ++in) {
    const int base = in * vcs_;
    RoundRobinArbiter& arb = input_arbiters_[static_cast<std::size_t>(in)];
    const int vc = arb.pick([&](int v) {
      const int out = want_[static_cast<std::size_t>(base + v)];
      return out >= 0 && pick_[static_cast<std::size_t>(out)] == in;
    });
    if (vc < 0) continue;
    const int out = want_[static_cast<std::size_t>(base + vc)];
    arb.update(vc);
    output_arbiters_[static_cast<std::size_t>(out)].update(in);
    grants.push_back({in, vc, out});
  }
  for (const SwitchRequest& r : requests) pick_[static_cast<std::size_t>(r.out_port)] = -1;
}

}  // namespace wormsim
