// Allocation for replicating worms (docs/multidestination.md): the decisions of one cycle,
// which Router::allocate_replica_vcs and Router::allocate_replica_switch make with the
// router's state and rtl/wormsim_replica_alloc.sv makes in hardware (its block testbench,
// testbenches/cosim/rtl_replica_alloc_test.cpp, drives both with the same inputs).
//  - VCs: a replicating head takes an output VC on every branch at once or none, each the
//    first one its branch's candidates offer (port-major) that `free` accepts, so two worms
//    never hold parts of each other's branches at one router.
//  - Switch: a replicating worm claims its input port and the output ports of its branches
//    that send. Asynchronous replication: every live branch whose next flit can go sends it.
//    Synchronous: the front flit goes to all live branches in the same cycle or to none (seed
//    003 section 3, both replication handshakes).
// Requesters are served in round-robin order of their input VCs, from a pointer per
// allocation that moves past the first requester granted in a cycle with a grant.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "route_compute.h"

namespace wormsim {

// Position in `requests` (ascending input-VC indices, non-empty) where round-robin service
// starts: the first requester at or after `next`, wrapping to the first.
inline std::size_t round_robin_start(const std::vector<int>& requests, int next) {
  const auto it = std::lower_bound(requests.begin(), requests.end(), next);
  return it == requests.end() ? 0 : static_cast<std::size_t>(it - requests.begin());
}

// One cycle of the VC allocation. `requests`: ascending input VCs of replicating heads;
// `branches(r)`: requester r's branches, a range of objects with `out_port` and `out_vc`
// (written: the VC chosen, or -1 when the requester gets none); `route(b)`: branch b's
// candidates; `free(r, port, vc)`: whether that output VC may be taken by r now (VCs granted
// earlier in this call must then be refused: `grant` is where the caller marks them held);
// `blocked(r, b)`: branch b of r found no VC; `grant(r)`: r got a VC on every branch. `next`
// is the round-robin pointer.
template <class Branches, class Route, class Free, class Blocked, class Grant>
void allocate_replica_vcs(const std::vector<int>& requests, int& next, Branches&& branches,
                          Route&& route, Free&& free, Blocked&& blocked, Grant&& grant) {
  const std::size_t n = requests.size();
  if (n == 0) return;
  const std::size_t start = round_robin_start(requests, next);
  bool granted_any = false;
  for (std::size_t k = 0; k < n; ++k) {
    const int requester = requests[(start + k) % n];
    auto& brs = branches(requester);
    bool all = true;
    for (auto& b : brs) {
      b.out_port = b.out_vc = -1;
      const RouteResult& r = route(b);
      for (int port = r.port_lo; port < r.port_hi && b.out_port < 0; ++port)
        for (int vc = r.vc_lo; vc < r.vc_hi; ++vc)
          if (free(requester, port, vc)) {
            b.out_port = port;
            b.out_vc = vc;
            break;
          }
      if (b.out_port < 0) {
        all = false;
        blocked(requester, b);
      }
    }
    if (!all) {
      for (auto& b : brs) b.out_port = b.out_vc = -1;
      continue;
    }
    if (!granted_any) next = requester + 1;
    granted_any = true;
    grant(requester);
  }
}

// One cycle of the switch allocation. `requests`: ascending input VCs of replicating worms
// holding their VCs, `vcs` per input port; `branches(r)`: the number of r's branches;
// `live(r, b)`: branch b has flits left to send; `ready(r, b)`: its next flit is present,
// eligible and has a credit; `port(r, b)`: its output port. Fills the input and output ports
// taken (bit masks) and calls grant(r, branch mask) for each requester that sends, in service
// order; `lost(r)`: one of r's branches could have sent but found its output port taken.
template <class Branches, class Live, class Ready, class Port, class Lost, class Grant>
void allocate_replica_switch(const std::vector<int>& requests, int vcs, bool sync, int& next,
                             std::uint64_t& taken_in, std::uint64_t& taken_out, Branches&& branches,
                             Live&& live, Ready&& ready, Port&& port, Lost&& lost, Grant&& grant) {
  taken_in = taken_out = 0;
  const std::size_t n = requests.size();
  if (n == 0) return;
  const std::size_t start = round_robin_start(requests, next);
  bool granted_any = false;
  for (std::size_t k = 0; k < n; ++k) {
    const int index = requests[(start + k) % n];
    const int in_port = index / vcs;
    if ((taken_in >> in_port) & 1u) continue;
    std::uint64_t granted = 0;
    std::uint64_t outs = 0;
    bool all = true;
    bool port_lost = false;
    const int count = branches(index);
    for (int b = 0; b < count; ++b) {
      if (!live(index, b)) continue;
      bool ok = ready(index, b);
      const int out = port(index, b);
      if (ok && ((taken_out >> out) & 1u) != 0) {
        ok = false;
        port_lost = true;
      }
      if (ok) {
        granted |= std::uint64_t{1} << b;
        outs |= std::uint64_t{1} << out;
      } else {
        all = false;
      }
    }
    if (port_lost) lost(index);
    if (granted == 0 || (sync && !all)) continue;
    taken_in |= std::uint64_t{1} << in_port;
    taken_out |= outs;
    if (!granted_any) next = index + 1;
    granted_any = true;
    grant(index, granted);
  }
}

}  // namespace wormsim
