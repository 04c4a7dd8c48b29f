#include "route_compute.h"

#include <algorithm>

namespace wormsim {

RouteCompute::RouteCompute(const Topology& topology, const RoutingConfig& routing,
                           PortLayout layout, int vcs, int multidest_vcs)
    : topology_(topology),
      layout_(layout),
      vcs_(vcs),
      multidest_vcs_(multidest_vcs),
      dateline_(topology.kind() == TopologyKind::kTorus && routing.dateline),
      class_split_((vcs + 1) / 2),
      ecube_high_to_low_(routing.ecube_order == EcubeOrder::kHighToLow),
      hamiltonian_(routing.algorithm == RoutingAlgorithm::kHamiltonian),
      order_(routing.order) {
  if (order_.empty())
    for (int d = 0; d < topology.dimensions(); ++d) order_.push_back(d);
}

int RouteCompute::label(NodeId n) const {
  const int x = topology_.coord(n, 0);
  const int y = topology_.coord(n, 1);
  const int w = topology_.side(0);
  return y * w + (y % 2 == 0 ? x : w - 1 - x);
}

int RouteCompute::first_hop_port(NodeId here, NodeId dst) const {
  if (hamiltonian_) {
    if (here == dst) return -1;
    const int target = label(dst);
    const bool up = target > label(here);
    int best_port = -1;
    int best = 0;
    for (int p = 0; p < topology_.network_ports(); ++p) {
      const NodeId nb = topology_.neighbor(here, p);
      if (nb == kNoNode) continue;
      const int l = label(nb);
      const int mine = label(here);
      const bool usable = up ? (l > mine && l <= target) : (l < mine && l >= target);
      if (usable && (best_port < 0 || (up ? l > best : l < best))) {
        best_port = p;
        best = l;
      }
    }
    return best_port;  // the path neighbour (label +-1) always qualifies
  }
  if (topology_.kind() == TopologyKind::kHypercube) {
    const NodeId diff = here ^ dst;
    if (diff == 0) return -1;
    if (ecube_high_to_low_) {
      int d = topology_.dimensions() - 1;
      while (!((diff >> d) & 1u)) --d;
      return d;
    }
    int d = 0;
    while (!((diff >> d) & 1u)) ++d;
    return d;
  }
  const bool torus = topology_.kind() == TopologyKind::kTorus;
  for (int d : order_) {
    const int c = topology_.coord(here, d);
    const int t = topology_.coord(dst, d);
    if (c == t) continue;
    if (!torus) return 2 * d + (t > c ? 0 : 1);
    const int k = topology_.side(d);
    const int forward = (t - c + k) % k;
    return 2 * d + (forward <= k - forward ? 0 : 1);  // ties go the + way
  }
  return -1;
}

std::vector<int> RouteCompute::resolution_order() const {
  if (topology_.kind() != TopologyKind::kHypercube) return order_;
  std::vector<int> order;
  for (int d = 0; d < topology_.dimensions(); ++d) order.push_back(d);
  if (ecube_high_to_low_) std::reverse(order.begin(), order.end());
  return order;
}

RouteResult RouteCompute::ejection(int in_port, TrafficClass cls) const {
  RouteResult r;
  int lo = layout_.network;
  int count = layout_.ejection;
  if (layout_.eject_by_direction) {
    lo += layout_.is_network(in_port) ? in_port : in_port - layout_.network;
    count = 1;
  }
  r.port_lo = lo;
  r.port_hi = lo + count;
  reserve(cls, 0, vcs_, r);
  return r;
}

bool RouteCompute::on_route(NodeId src, NodeId dst, NodeId here) const {
  for (NodeId n = src;; n = topology_.neighbor(n, first_hop_port(n, dst))) {
    if (n == here) return true;
    if (n == dst) return false;
  }
}

int RouteCompute::route_hops(NodeId src, NodeId dst) const {
  int hops = 0;
  for (NodeId n = src; n != dst; n = topology_.neighbor(n, first_hop_port(n, dst))) ++hops;
  return hops;
}

RouteResult RouteCompute::route(NodeId here, NodeId dst, int in_port, int in_vc,
                                TrafficClass cls) const {
  RouteResult r;
  const int port = first_hop_port(here, dst);
  if (port < 0) return ejection(in_port, cls);  // arrived
  r.port_lo = port;
  r.port_hi = port + 1;
  if (!dateline_) {
    reserve(cls, 0, vcs_, r);
    return r;
  }
  const bool same_dimension = layout_.is_network(in_port) &&
                              topology_.port_dimension(in_port) == topology_.port_dimension(port);
  const bool class1 =
      topology_.is_dateline(here, port) || (same_dimension && in_vc >= class_split_);
  if (class1)
    reserve(cls, class_split_, vcs_, r);
  else
    reserve(cls, 0, class_split_, r);
  return r;
}

}  // namespace wormsim
