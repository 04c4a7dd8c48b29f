// Per-flit event log for lock-step equivalence of router implementations (docs/rtl.md): one
// event per flit leaving a router (cycle, router, output port, VC, packet id, flit index).
// Two runs of the same workload are equivalent when their logs are equal as multisets; within
// one cycle the order of events depends only on the order routers are evaluated in, so logs
// are compared as sorted multisets, cycle by cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flit.h"

namespace wormsim {

struct FlitEvent {
  Cycle cycle = 0;
  NodeId router = 0;
  int port = 0;  // output port, C++ port numbering (systemc/core/port_layout.h)
  int vc = 0;    // output VC
  PacketId packet = 0;
  int index = 0;  // flit index within its packet

  bool operator==(const FlitEvent& o) const {
    return cycle == o.cycle && router == o.router && port == o.port && vc == o.vc &&
           packet == o.packet && index == o.index;
  }
  bool operator<(const FlitEvent& o) const;
};

std::string to_string(const FlitEvent& e);

// Puts a log in its canonical order: by cycle, then by router, each router's events of a cycle
// in the order it reported them (stable). The order routers are evaluated in within a cycle
// differs between engines (docs/architecture.md, "The flat engine"); a router's own order is
// its grant order, the same in all of them.
void canonical_order(std::vector<FlitEvent>& log);

// The events of two sorted logs that the other log lacks (multiset difference both ways).
struct FlitLogDifference {
  std::vector<FlitEvent> only_a;
  std::vector<FlitEvent> only_b;
  bool empty() const { return only_a.empty() && only_b.empty(); }
  // The earliest cycle of a differing event; only when !empty().
  Cycle first_cycle() const;
};
FlitLogDifference difference(const std::vector<FlitEvent>& sorted_a,
                             const std::vector<FlitEvent>& sorted_b);

// The differing events of `diff` in its first cycle, labelled with the two sides' names (at
// most `limit` per side).
std::string describe_first_cycle(const FlitLogDifference& diff, const std::string& a_name,
                                 const std::string& b_name, std::size_t limit = 12);

struct FlitLogComparison {
  std::size_t compared = 0;    // events compared (the longer log's length)
  std::size_t mismatches = 0;  // events in one log only, both logs together (a missing
                               // event counts once, an event moved to another cycle twice)
  Cycle first_cycle = 0;       // the first cycle that differs (when mismatches > 0)
  // Empty when equal; otherwise the first differing cycle's events on both sides (and, from
  // LockstepChecker, both sides' state of the routers involved).
  std::string first_mismatch;
};

// Compares two whole logs (sorted copies) labelled `a_name` and `b_name` in the report.
FlitLogComparison compare_flit_logs(std::vector<FlitEvent> a, std::vector<FlitEvent> b,
                                    const std::string& a_name, const std::string& b_name);

}  // namespace wormsim
