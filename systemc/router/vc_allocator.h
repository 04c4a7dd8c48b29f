// Virtual-channel allocator: matches head flits waiting for an output VC (each with a range
// of candidate ports and VCs from route compute) to free output VCs. Separable, with
// round-robin arbiters on both stages: input-first (each input VC picks one free candidate,
// then each output VC picks one of its requesters) or output-first (each free output VC picks
// a requester, then each input VC accepts one offer). A grant never gives an output VC that
// is owned or two grants for one output VC or one input VC.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "round_robin_arbiter.h"
#include "route_compute.h"
#include "separable_input_first.h"

namespace wormsim {

struct VcGrant {
  int input_vc = 0;
  int out_port = 0;
  int out_vc = 0;
};

class VcAllocator {
 public:
  VcAllocator(AllocatorKind kind, int inputs, int outputs, int vcs);

  // owner[out_port * vcs + vc] < 0 marks a free output VC. Appends grants to `grants`.
  void allocate(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                std::vector<VcGrant>& grants);

 private:
  bool candidate(const RouteResult& r, int output_vc) const {
    const int port = output_vc / vcs_;
    const int vc = output_vc % vcs_;
    return port >= r.port_lo && port < r.port_hi && vc >= r.vc_lo && vc < r.vc_hi;
  }
  void input_first(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                   std::vector<VcGrant>& grants);
  void output_first(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                    std::vector<VcGrant>& grants);

  AllocatorKind kind_;
  int vcs_;
  std::vector<RoundRobinArbiter> input_arbiters_;   // per input VC, over output VCs
  std::vector<RoundRobinArbiter> output_arbiters_;  // per output VC, over input VCs
  std::vector<int> choice_;                         // scratch: per request, chosen output VC
  std::vector<int> offer_;                          // scratch: per output VC, offered input VC
  std::vector<std::uint8_t> mark_;                  // scratch: per input VC
};

}  // namespace wormsim
