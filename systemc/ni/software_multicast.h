// Software multicast on unicast routers (network.router.multidest none) for synthetic mixes:
// one multicast operation is a tree of unicast packets (traffic.software_multicast,
// docs/multidestination.md "Software multicast in synthetic mixes").
//
// The source and the destinations form a chain in the order the routing resolves them
// (coordinates compared dimension by dimension, the first resolved dimension most significant,
// as McKinley et al.'s U-mesh sorts; Hamiltonian-path labels under hamiltonian routing).
// - binomial_tree: U-mesh recursive halving (seed 000 section 3.2.2): a holder of the chain
//   range [lo, hi] halves it (the lower half keeps the extra node) and sends to the node of the
//   far half nearest to it (the first node of the upper half, or the last of the lower half),
//   which becomes responsible for that half; the holder keeps halving its own half. m
//   destinations are reached in ceil(log2(m + 1)) message-passing steps, every one exactly once.
// - separate_addressing: the source sends one packet to every destination, in chain order.
// A destination forwards only after it has consumed the tail of the packet it received (the
// store-and-forward of seed 000 section 3.3.5). Its k-th forward enters its source queue
// forward_cycles after the previous one (the first forward_cycles after the tail was consumed),
// and a node's forwards are serialised across operations (one software thread per node); the
// source's own sends enter its queue when the operation is created.
//
// An operation completes in the cycle its last destination consumes its packet. Operations
// created inside the measurement window are measured: their latency (completion - creation)
// and packet count are accumulated here, beside Statistics.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "config.h"
#include "flit.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim {

// One send of a software multicast: the receiver's index in the operation's chain and the chain
// range [lo, hi] (receiver included) it becomes responsible for.
struct SoftwareSend {
  std::uint32_t target = 0;
  std::uint32_t lo = 0;
  std::uint32_t hi = 0;
};

// The sends of the holder at chain index `holder` responsible for [lo, hi], in sending order.
std::vector<SoftwareSend> software_sends(SoftwareMulticastScheme scheme, std::uint32_t holder,
                                         std::uint32_t lo, std::uint32_t hi);

// `nodes` sorted into the routing order described above.
std::vector<NodeId> routing_ordered_chain(const RouteCompute& route_compute,
                                          const Topology& topology, std::vector<NodeId> nodes);

class SoftwareMulticast {
 public:
  // A packet of an operation: the operation and the receiver's chain index and range.
  struct Hop {
    std::uint64_t op = 0;
    SoftwareSend send;
  };
  // A packet to create: destination, payload flits, and what its receiver is responsible for.
  struct Packet {
    NodeId dst = kNoNode;
    int length = 0;
    Hop hop;
  };

  SoftwareMulticast(SoftwareMulticastScheme scheme, Cycle forward_cycles)
      : scheme_(scheme), forward_cycles_(forward_cycles) {}

  SoftwareMulticastScheme scheme() const { return scheme_; }
  Cycle forward_cycles() const { return forward_cycles_; }

  // Starts an operation of `length`-flit packets from chain[root] (chain: source and
  // destinations, routing-ordered, distinct) created in cycle `now`; returns the source's sends.
  std::vector<Packet> begin(std::vector<NodeId> chain, std::uint32_t root, int length, Cycle now,
                            bool measured);
  // Packet `id` carries `hop` (called when the packet is created).
  void on_created(PacketId id, const Hop& hop);
  // Packet `id` was consumed at its destination in cycle `now`. Returns false if it is not part
  // of an operation; otherwise counts the delivery (the operation completes with its last one)
  // and sets `forwards` to the receiver's sends, in order.
  bool on_delivered(PacketId id, Cycle now, std::vector<Packet>& forwards);
  // Whether any packet of an operation is in the network or a source queue.
  bool packets_live() const { return !packets_.empty(); }

  std::uint64_t operations_created() const { return created_; }
  std::uint64_t operations_completed() const { return completed_; }
  std::size_t operations_outstanding() const { return operations_.size(); }
  // Measured operations that completed: latency from creation to the last destination's
  // delivery, and packets sent (the destination count for both schemes).
  const std::vector<std::uint32_t>& latencies() const { return latencies_; }
  double packets_per_operation() const {
    return latencies_.empty()
               ? 0.0
               : static_cast<double>(measured_packets_) / static_cast<double>(latencies_.size());
  }

 private:
  struct Operation {
    std::vector<NodeId> chain;
    Cycle created = 0;
    int length = 0;
    std::uint32_t outstanding = 0;  // destinations that have not consumed their packet
    std::uint32_t packets = 0;      // packets created so far
    bool measured = false;
  };
  std::vector<Packet> sends_of(std::uint64_t op, const Operation& o, std::uint32_t holder,
                               std::uint32_t lo, std::uint32_t hi) const;

  SoftwareMulticastScheme scheme_;
  Cycle forward_cycles_;
  std::uint64_t next_op_ = 1;
  std::unordered_map<std::uint64_t, Operation> operations_;
  std::unordered_map<PacketId, Hop> packets_;
  std::uint64_t created_ = 0;
  std::uint64_t completed_ = 0;
  std::vector<std::uint32_t> latencies_;
  std::uint64_t measured_packets_ = 0;
};

}  // namespace wormsim
