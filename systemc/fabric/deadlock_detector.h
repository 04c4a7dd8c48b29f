// Deadlock/livelock report (DESIGN.md section 8). When the watchdog fires (no flit moved for
// watchdog_cycles while flits are in flight), this builds the wait-for graph over input VCs
// that hold flits and names a cycle in it:
//  - an input VC holding an output VC but without credit waits for the downstream input VC
//    that its flits would enter (that buffer is full);
//  - an input VC waiting for an output VC waits for every input VC that holds one of its
//    candidate output VCs (until their tails pass);
//  - a replicating (multidestination) worm does both per branch: it waits for the
//    downstream VC of every branch without credit, or for the holders of every branch's
//    candidate output VCs while it has none (consumption channels included).
// Every deadlock contains such a cycle. A cycle through a VC waiting for an output VC is
// only a deadlock if none of its other candidates can free up (a knot), so the report names
// the cycle as evidence; the watchdog's verdict is the global lack of progress.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "flit.h"
#include "router.h"
#include "topology.h"

namespace wormsim {

struct WaitingVc {
  NodeId router = 0;
  int port = 0;
  int vc = 0;
  PacketId packet = 0;
  NodeId dst = 0;
  int flits = 0;
  std::string state;
  int out_port = -1;  // held output VC, if any
  int out_vc = -1;
  bool no_credit = false;      // holds an output VC whose downstream buffer is full
  std::string branches;        // replicating worm: its branches and what each waits for
  std::string wants;           // waiting for an output VC: the candidate ports and VCs
  std::vector<int> waits_for;  // indices into DeadlockReport::waiting
};

struct DeadlockReport {
  Cycle detected_at = 0;
  Cycle last_progress = 0;
  std::uint64_t flits_in_flight = 0;
  std::vector<WaitingVc> waiting;
  std::vector<int> cycle;  // indices into waiting, in wait-for order; empty if none found
  std::string text() const;
  std::string describe(const WaitingVc& w) const;
  std::vector<std::string> input_names;   // per router input port, for describe()
  std::vector<std::string> output_names;  // per router output port
};

DeadlockReport build_deadlock_report(const std::vector<std::unique_ptr<Router>>& routers,
                                     const Topology& topology, Cycle now, Cycle last_progress,
                                     std::uint64_t in_flight);

}  // namespace wormsim
