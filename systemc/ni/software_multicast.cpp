#include "software_multicast.h"

#include <algorithm>
#include <stdexcept>

namespace wormsim {

std::vector<SoftwareSend> software_sends(SoftwareMulticastScheme scheme, std::uint32_t holder,
                                         std::uint32_t lo, std::uint32_t hi) {
  std::vector<SoftwareSend> out;
  if (scheme == SoftwareMulticastScheme::kSeparateAddressing) {
    for (std::uint32_t t = lo; t <= hi; ++t)
      if (t != holder) out.push_back({t, t, t});
    return out;
  }
  // Seed 000 section 3.2.2 (U-mesh): halve, send to the far half's node nearest the holder.
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo + 2) / 2;  // first index of the upper half
    if (holder < mid) {
      out.push_back({mid, mid, hi});
      hi = mid - 1;
    } else {
      out.push_back({mid - 1, lo, mid - 1});
      lo = mid;
    }
  }
  return out;
}

std::vector<NodeId> routing_ordered_chain(const RouteCompute& route_compute,
                                          const Topology& topology, std::vector<NodeId> nodes) {
  if (route_compute.hamiltonian()) {
    std::sort(nodes.begin(), nodes.end(),
              [&](NodeId a, NodeId b) { return route_compute.label(a) < route_compute.label(b); });
    return nodes;
  }
  const std::vector<int> order = route_compute.resolution_order();
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    for (int d : order) {
      const int ca = topology.coord(a, d);
      const int cb = topology.coord(b, d);
      if (ca != cb) return ca < cb;
    }
    return false;
  });
  return nodes;
}

std::vector<SoftwareMulticast::Packet> SoftwareMulticast::sends_of(std::uint64_t op,
                                                                   const Operation& o,
                                                                   std::uint32_t holder,
                                                                   std::uint32_t lo,
                                                                   std::uint32_t hi) const {
  std::vector<Packet> out;
  for (const SoftwareSend& s : software_sends(scheme_, holder, lo, hi))
    out.push_back({o.chain[s.target], o.length, {op, s}});
  return out;
}

std::vector<SoftwareMulticast::Packet> SoftwareMulticast::begin(std::vector<NodeId> chain,
                                                                std::uint32_t root, int length,
                                                                Cycle now, bool measured) {
  if (chain.size() < 2 || root >= chain.size())
    throw std::logic_error("SoftwareMulticast::begin: needs a source and a destination");
  const std::uint64_t op = next_op_++;
  Operation& o = operations_[op];
  o.chain = std::move(chain);
  o.created = now;
  o.length = length;
  o.outstanding = static_cast<std::uint32_t>(o.chain.size() - 1);
  o.measured = measured;
  ++created_;
  return sends_of(op, o, root, 0, static_cast<std::uint32_t>(o.chain.size() - 1));
}

void SoftwareMulticast::on_created(PacketId id, const Hop& hop) {
  packets_.emplace(id, hop);
  ++operations_.at(hop.op).packets;
}

bool SoftwareMulticast::on_delivered(PacketId id, Cycle now, std::vector<Packet>& forwards) {
  const auto it = packets_.find(id);
  if (it == packets_.end()) return false;
  const Hop hop = it->second;
  packets_.erase(it);
  const auto op = operations_.find(hop.op);
  Operation& o = op->second;
  forwards = sends_of(hop.op, o, hop.send.target, hop.send.lo, hop.send.hi);
  if (--o.outstanding == 0) {
    ++completed_;
    if (o.measured) {
      latencies_.push_back(static_cast<std::uint32_t>(now - o.created));
      measured_packets_ += o.packets;
    }
    operations_.erase(op);
  }
  return true;
}

}  // namespace wormsim
