// Deadlock/livelock report (DESIGN.md section 8). When the watchdog fires (no flit moved for
// watchdog_cycles while flits are in flight), this builds the wait-for graph over input VCs
// that hold flits and names a cycle in it:
//  - an input VC holding an output VC but without credit waits for the downstream input VC
//    that its flits would enter (that buffer is full);
//  - an input VC waiting for an output VC waits for every input VC that holds one of its
//    candidate output VCs (until their tails pass); when that VC's buffer has drained, for
//    the VC upstream that still holds the worm's tail (followed router by router);
//  - a replicating (multidestination) worm does both per branch: it waits for the
//    downstream VC of every branch without credit, or for the holders of every branch's
//    candidate output VCs while it has none (consumption channels included).
// Every deadlock contains such a cycle. A cycle through a VC waiting for an output VC is
// only a deadlock if none of its other candidates can free up (a knot), so the report names
// the cycle as evidence; the watchdog's verdict is the global lack of progress.
//
// The kind of a deadlock names the resource its wait-for cycle runs through, checked in this
// order (ours; docs/safety-nets.md):
//  - consumption_channels: some VC of the cycle waits for a consumption (ejection) channel
//    held by the next one (a worm absorbing at a destination while it holds network VCs
//    behind it, seed 003 section 1 / seed 004 section 2.2);
//  - replication_branches: a replicating worm in the cycle waits on one of its network
//    branches (tree replication, or a path worm absorbing and forwarding);
//  - routing: every wait is for a network channel and no worm in the cycle replicates: the
//    routing function with its VC classes admits a cyclic channel dependency (e.g. a torus
//    without dateline classes);
//  - unknown: no cycle was found (livelock or starvation).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "flit.h"
#include "router.h"
#include "topology.h"

namespace wormsim {

enum class DeadlockKind { kConsumptionChannels, kReplicationBranches, kRouting, kUnknown };
std::string to_string(DeadlockKind k);

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
  // The subset of waits_for that holds a consumption channel this VC waits for.
  std::vector<int> waits_for_consumption;
  bool replicating = false;  // a worm replicating here (more than one branch)
};

struct DeadlockReport {
  Cycle detected_at = 0;
  Cycle last_progress = 0;  // global: the last flit movement; partial: the stuck flit's wait start
  // Found by the stuck-flit watchdog: a front flit waited watchdog_cycles while other traffic
  // moved (Network::evaluate), not by the whole network standing still.
  bool partial = false;
  std::uint64_t flits_in_flight = 0;
  std::vector<WaitingVc> waiting;
  std::vector<int> cycle;  // indices into waiting, in wait-for order; empty if none found
  DeadlockKind kind = DeadlockKind::kUnknown;  // of `cycle`
  std::string text() const;
  std::string describe(const WaitingVc& w) const;
  std::vector<std::string> input_names;   // per router input port, for describe()
  std::vector<std::string> output_names;  // per router output port
};

DeadlockReport build_deadlock_report(const std::vector<std::unique_ptr<Router>>& routers,
                                     const Topology& topology, Cycle now, Cycle last_progress,
                                     std::uint64_t in_flight);

// Whether some VCs of `report` can never move, as far as its wait-for edges tell: the largest
// set of blocked VCs (each waits for at least one VC) that wait only for members of the set is
// not empty. A VC waiting for an output VC waits for every holder of a candidate and moves
// when any of them does, so one waiting for a VC outside the set (which may move) leaves it.
// Empty when every wait-for cycle has a way out (a cycle through candidate VCs another worm
// will free). Evidence, not proof: the edges miss some ways out (docs/safety-nets.md).
bool has_deadlocked_core(const DeadlockReport& report);

}  // namespace wormsim
