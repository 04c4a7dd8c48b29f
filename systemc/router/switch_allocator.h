// Switch allocator: each cycle matches input VCs that hold a ready flit (with an output VC
// and a credit) to output ports, so that every input port sends at most one flit and every
// output port receives at most one flit. Separable with round-robin arbiters: input-first
// (each input port picks one of its ready VCs, then each output port picks one input port) or
// output-first (each output port picks one requesting input port, then each input port picks
// one VC among the granted outputs). Pointers advance only on grants that survive both stages.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "prefetch.h"
#include "round_robin_arbiter.h"
#include "separable_input_first.h"

namespace wormsim {

class SwitchAllocator {
 public:
  SwitchAllocator(AllocatorKind kind, int inputs, int outputs, int vcs);

  // At most one request per (in_port, vc). Appends grants (a subset of requests) to `grants`.
  void allocate(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants);
  // Grants `requests` whole: for requests, in ascending input-port order, whose input ports
  // are pairwise distinct and output ports pairwise distinct, which either separable
  // allocator grants whole; moves the pointers as allocate() would.
  void grant_all(const std::vector<SwitchRequest>& requests) {
    switch_grant_all(
        requests.data(), static_cast<int>(requests.size()),
        [&](int in, int vc) { input_arbiters_[static_cast<std::size_t>(in)].update(vc); },
        [&](int out, int in) { output_arbiters_[static_cast<std::size_t>(out)].update(in); });
  }

  // Cache hint for grant_all() or allocate() soon: the arbiters' pointers (no effect).
  void prefetch() const {
    prefetch_line(input_arbiters_.data());
    prefetch_line(output_arbiters_.data());
  }

 private:
  void input_first(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants);
  void output_first(const std::vector<SwitchRequest>& requests, std::vector<SwitchRequest>& grants);

  AllocatorKind kind_;
  int inputs_;
  int vcs_;
  std::vector<RoundRobinArbiter> input_arbiters_;   // per input port, over its VCs
  std::vector<RoundRobinArbiter> output_arbiters_;  // per output port, over input ports
  std::vector<int> want_;               // scratch: [in_port * vcs + vc] -> requested out port or -1
  std::vector<std::uint64_t> vc_mask_;  // scratch: per input port, requesting VCs
  std::vector<std::uint64_t> port_mask_;  // scratch: per output port, requesting input ports
  std::vector<int> pick_;     // scratch: per input port (input-first) or output port (output-first)
  std::vector<int> touched_;  // scratch: output ports with requests this cycle (room for all)
};

}  // namespace wormsim
