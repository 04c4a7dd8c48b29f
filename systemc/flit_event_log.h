// Per-flit event log for lock-step equivalence of router implementations (docs/rtl.md): one
// event per flit leaving a router (cycle, router, output port, VC, packet id, flit index).
// Two runs of the same workload are equivalent when their logs are equal as sets; within one
// cycle the order of events depends only on the order routers are evaluated in, so logs are
// compared after sorting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flit.h"

namespace wormsim {

struct FlitEvent {
  Cycle cycle = 0;
  NodeId router = 0;
  int port = 0;  // output port, C++ port numbering (systemc/port_layout.h)
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

struct FlitLogComparison {
  std::size_t compared = 0;    // events compared (the longer log's length)
  std::size_t mismatches = 0;  // positions that differ after sorting, plus the length difference
  // Empty when equal; otherwise the first mismatch with both sides' events around it.
  std::string first_mismatch;
};

// Compares two logs (sorted copies) labelled `a_name` and `b_name` in the report.
FlitLogComparison compare_flit_logs(std::vector<FlitEvent> a, std::vector<FlitEvent> b,
                                    const std::string& a_name, const std::string& b_name);

}  // namespace wormsim
