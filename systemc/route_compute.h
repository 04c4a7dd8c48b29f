// Route computation: deterministic dimension-ordered routing on meshes and tori (order
// configurable), e-cube on hypercubes (high-to-low or low-to-high), and the dateline VC
// classes that make DOR deadlock-free on tori (Dally & Seitz): a packet travels in class 0
// and moves to class 1 when it crosses the wrap-around link of the dimension it is in; it
// returns to class 0 when it turns into the next dimension. With V VCs, class 0 is
// [0, ceil(V/2)) and class 1 is [ceil(V/2), V): every packet starts in class 0, so it gets
// the extra VC when V is odd. Meshes and hypercubes use all V VCs.
#pragma once

#include <vector>

#include "config.h"
#include "port_layout.h"
#include "topology.h"

namespace wormsim {

// Candidate output ports [port_lo, port_hi) and output VCs [vc_lo, vc_hi) for a head flit.
struct RouteResult {
  int port_lo = 0;
  int port_hi = 0;
  int vc_lo = 0;
  int vc_hi = 0;
};

class RouteCompute {
 public:
  RouteCompute(const Topology& topology, const RoutingConfig& routing, PortLayout layout, int vcs);

  // Route for a head at node `here` that arrived on input port `in_port` in VC `in_vc`.
  RouteResult route(NodeId here, NodeId dst, int in_port, int in_vc) const;
  // The network port a packet from src to dst leaves its source router on (src != dst).
  int first_hop_port(NodeId src, NodeId dst) const;
  // The VCs a packet may take on its injection channel (dateline class 0 on tori).
  int injection_vc_hi() const { return dateline_ ? class_split_ : vcs_; }

 private:
  const Topology& topology_;
  PortLayout layout_;
  int vcs_;
  bool dateline_;
  int class_split_;
  bool ecube_high_to_low_;
  std::vector<int> order_;
};

}  // namespace wormsim
