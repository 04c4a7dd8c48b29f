// k-ary n-cube topologies: 1-3D meshes and bidirectional tori of any side lengths, and binary
// hypercubes. Conventions used everywhere (docs/architecture.md, "Addressing"):
//  - node id = x + X*(y + Y*z): dimension 0 (x) varies fastest;
//  - mesh/torus network port 2d leads to the + neighbour in dimension d, port 2d+1 to the -
//    neighbour; a hypercube has one port per dimension, port d flips address bit d;
//  - a torus' wrap-around link in dimension d joins coordinate k-1 (its + port) and 0 (its -
//    port); that link is the dateline of dimension d.
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace wormsim {

class Topology {
 public:
  explicit Topology(const TopologyConfig& config);

  TopologyKind kind() const { return kind_; }
  int nodes() const { return nodes_; }
  int dimensions() const { return dimensions_; }
  int network_ports() const { return network_ports_; }
  int side(int dim) const { return sides_[static_cast<std::size_t>(dim)]; }
  int coord(NodeId n, int dim) const {
    return coords_[static_cast<std::size_t>(n) * static_cast<std::size_t>(dimensions_) +
                   static_cast<std::size_t>(dim)];
  }
  NodeId node_at(const std::vector<int>& coords) const;

  // Neighbour through network port `port`, or kNoNode at a mesh boundary.
  NodeId neighbor(NodeId n, int port) const;
  // The port on the neighbour's side of the link leaving through `port`.
  int reverse_port(int port) const;
  int port_dimension(int port) const;
  // +1 or -1 for mesh/torus ports; +1 for hypercube ports.
  int port_direction(int port) const;
  // Whether the link leaving `n` through `port` is a torus wrap-around (dateline) link.
  bool is_dateline(NodeId n, int port) const;
  // Minimal hop count between two nodes (what dimension-ordered routing takes).
  int distance(NodeId a, NodeId b) const;
  std::string port_name(int port) const;
  std::string node_name(NodeId n) const;  // "(x,y)" or binary address for hypercubes

 private:
  TopologyKind kind_;
  int dimensions_;
  int network_ports_;
  int nodes_;
  std::vector<int> sides_;
  std::vector<int> strides_;
  std::vector<int> coords_;  // nodes_ x dimensions_
};

}  // namespace wormsim
