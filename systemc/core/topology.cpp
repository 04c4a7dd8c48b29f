#include "topology.h"

#include <cstdlib>

#include <fmt/format.h>

namespace wormsim {

Topology::Topology(const TopologyConfig& config) : kind_(config.kind) {
  if (kind_ == TopologyKind::kHypercube) {
    dimensions_ = config.hypercube_dimension;
    sides_.assign(static_cast<std::size_t>(dimensions_), 2);
    network_ports_ = dimensions_;
  } else {
    sides_ = config.dims;
    dimensions_ = static_cast<int>(sides_.size());
    network_ports_ = 2 * dimensions_;
  }
  nodes_ = 1;
  for (int s : sides_) {
    strides_.push_back(nodes_);
    nodes_ *= s;
  }
  coords_.resize(static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(dimensions_));
  for (int n = 0; n < nodes_; ++n)
    for (int d = 0; d < dimensions_; ++d)
      coords_[static_cast<std::size_t>(n * dimensions_ + d)] =
          (n / strides_[static_cast<std::size_t>(d)]) % sides_[static_cast<std::size_t>(d)];
}

NodeId Topology::node_at(const std::vector<int>& coords) const {
  int n = 0;
  for (int d = 0; d < dimensions_; ++d)
    n += coords[static_cast<std::size_t>(d)] * strides_[static_cast<std::size_t>(d)];
  return static_cast<NodeId>(n);
}

int Topology::port_dimension(int port) const {
  return kind_ == TopologyKind::kHypercube ? port : port / 2;
}

int Topology::port_direction(int port) const {
  return kind_ == TopologyKind::kHypercube ? 1 : (port % 2 == 0 ? 1 : -1);
}

int Topology::reverse_port(int port) const {
  return kind_ == TopologyKind::kHypercube ? port : (port ^ 1);
}

NodeId Topology::neighbor(NodeId n, int port) const {
  const int d = port_dimension(port);
  const int stride = strides_[static_cast<std::size_t>(d)];
  const int k = sides_[static_cast<std::size_t>(d)];
  const int c = coord(n, d);
  const int id = static_cast<int>(n);
  if (kind_ == TopologyKind::kHypercube) return static_cast<NodeId>(id ^ stride);
  int next = c + port_direction(port);
  if (next < 0 || next >= k) {
    if (kind_ == TopologyKind::kMesh) return kNoNode;
    next = (next + k) % k;
  }
  return static_cast<NodeId>(id + (next - c) * stride);
}

bool Topology::is_dateline(NodeId n, int port) const {
  if (kind_ != TopologyKind::kTorus) return false;
  const int d = port_dimension(port);
  const int c = coord(n, d);
  return port_direction(port) > 0 ? c == side(d) - 1 : c == 0;
}

int Topology::distance(NodeId a, NodeId b) const {
  int hops = 0;
  for (int d = 0; d < dimensions_; ++d) {
    const int delta = std::abs(coord(a, d) - coord(b, d));
    hops += kind_ == TopologyKind::kTorus ? std::min(delta, side(d) - delta) : delta;
  }
  return hops;
}

std::string Topology::port_name(int port) const {
  if (kind_ == TopologyKind::kHypercube) return fmt::format("d{}", port);
  static constexpr const char* kAxes = "xyz";
  return fmt::format("{}{}", kAxes[port / 2], port % 2 == 0 ? '+' : '-');
}

std::string Topology::node_name(NodeId n) const {
  if (kind_ == TopologyKind::kHypercube) {
    std::string bits;
    for (int d = dimensions_ - 1; d >= 0; --d) bits += ((n >> d) & 1u) ? '1' : '0';
    return bits;
  }
  std::string s = "(";
  for (int d = 0; d < dimensions_; ++d) s += fmt::format("{}{}", d ? "," : "", coord(n, d));
  return s + ")";
}

}  // namespace wormsim
