// Route computation: deterministic dimension-ordered routing on meshes and tori (order
// configurable), e-cube on hypercubes (high-to-low or low-to-high), and the dateline VC
// classes that make DOR deadlock-free on tori (Dally & Seitz): a packet travels in class 0
// and moves to class 1 when it crosses the wrap-around link of the dimension it is in; it
// returns to class 0 when it turns into the next dimension. With V VCs, class 0 is
// [0, ceil(V/2)) and class 1 is [ceil(V/2), V): every packet starts in class 0, so it gets
// the extra VC when V is odd. Meshes and hypercubes use all V VCs.
//
// Reserved VCs for multidestination worms (network.router.multidest_vcs = N > 0): within
// every VC range above (all V VCs, or each dateline class) the top N VCs carry only
// multidestination worms and the others only unicast packets, on network, injection and
// ejection channels alike; N = 0 shares every VC. Validation leaves every range a unicast VC.
//
// Hamiltonian-path routing (2D meshes; seed 004 section 2.2 and Fig. 1(c), after Lin and
// McKinley): node labels follow a boustrophedon path (row 0 left to right, row 1 right to
// left, ...). A packet to a higher label moves to the neighbour with the largest label not
// beyond the destination's, to a lower label symmetrically; the "high" and "low" channel
// subnetworks are each acyclic, so the routing is deadlock-free on any number of VCs.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "flit.h"
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
  // `multidest_vcs`: VCs reserved for multidestination worms (0 = none).
  RouteCompute(const Topology& topology, const RoutingConfig& routing, PortLayout layout, int vcs,
               int multidest_vcs = 0);

  // Route for a head at node `here` that arrived on input port `in_port` in VC `in_vc`.
  RouteResult route(NodeId here, NodeId dst, int in_port, int in_vc,
                    TrafficClass cls = TrafficClass::kUnicast) const;
  // The network port a packet from src to dst leaves its source router on (src != dst).
  int first_hop_port(NodeId src, NodeId dst) const;
  // The top of the VCs a packet may take on its injection channel (dateline class 0 on tori),
  // before any reservation for multidestination worms.
  int injection_vc_hi() const { return dateline_ ? class_split_ : vcs_; }
  // The VCs [vc_lo, vc_hi) a packet of class `cls` may take on its injection channel.
  RouteResult injection_vcs(TrafficClass cls) const {
    RouteResult r;
    reserve(cls, 0, injection_vc_hi(), r);
    return r;
  }
  // Ejection channels [port_lo, port_hi) of a packet arriving at its destination on in_port.
  RouteResult ejection(int in_port, TrafficClass cls = TrafficClass::kUnicast) const;
  int multidest_vcs() const { return multidest_vcs_; }
  // Whether `here` lies on the route of a packet from src to dst (both ends included).
  bool on_route(NodeId src, NodeId dst, NodeId here) const;
  // The node a packet for dst moves to from `here` (here != dst).
  NodeId next_node(NodeId here, NodeId dst) const {
    return topology_.neighbor(here, first_hop_port(here, dst));
  }
  // Routing hops from src to dst (differs from the minimal distance under hamiltonian).
  int route_hops(NodeId src, NodeId dst) const;
  bool hamiltonian() const { return hamiltonian_; }
  // Dimensions in the order dimension-ordered or e-cube routing resolves them, first first.
  std::vector<int> resolution_order() const;
  // Position of node n on the Hamiltonian path (hamiltonian routing only).
  int label(NodeId n) const;

 private:
  // The part of VCs [lo, hi) class `cls` may use: the top multidest_vcs_ for
  // multidestination worms, the rest for unicast packets.
  void reserve(TrafficClass cls, int lo, int hi, RouteResult& r) const {
    const int split = hi - multidest_vcs_;
    const bool shared = multidest_vcs_ == 0;
    r.vc_lo = cls == TrafficClass::kMultidest && !shared ? split : lo;
    r.vc_hi = cls == TrafficClass::kMultidest || shared ? hi : split;
  }

  const Topology& topology_;
  PortLayout layout_;
  int vcs_;
  int multidest_vcs_;
  bool dateline_;
  int class_split_;
  bool ecube_high_to_low_;
  bool hamiltonian_;
  std::vector<int> order_;
};

}  // namespace wormsim
