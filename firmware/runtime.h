// The firmware runtime API (docs/firmware.md): what collective algorithms are written
// against. A thin layer over the NI registers (systemc/ni/ni_registers.h) reached through the
// processor; it charges the seeds' software costs: alpha before every send's doorbell
// (serialised: a node's sends never overlap their start-ups, even on different ports) and
// gamma after taking every received message (seed 000 section 3.3.5), plus, for a message of
// several packets, node.send_packet_cycles / node.receive_packet_cycles for each packet after
// the first (seed 002 section 2: the Delta's software handles 512-byte packets, and receives
// more slowly than it sends).
#pragma once

#include <cstdint>
#include <vector>

#include "port_layout.h"
#include "processor_bus.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim::fw {

struct Message {
  NodeId src = kNoNode;
  std::uint32_t tag = 0;
  std::vector<std::uint8_t> data;
};

class Runtime {
 public:
  // `topology` and `routing` are the node's read-only description of the machine (what
  // a real node would hold in ROM); all communication goes through `bus`.
  Runtime(ProcessorBus& bus, const Topology& topology, const RouteCompute& routing,
          const PortLayout& layout);

  // --- who and where ---
  NodeId id() const { return id_; }
  int nodes() const { return nodes_; }
  const Topology& topology() const { return topology_; }
  int coordinate(NodeId n, int dim) const { return topology_.coord(n, dim); }
  int distance(NodeId a, NodeId b) const { return topology_.distance(a, b); }
  // The network port a message to `dst` leaves this node's router on (its first hop).
  int first_hop(NodeId dst) const { return routing_.first_hop_port(id_, dst); }

  // --- communication ---
  // Sends `data` to `dst`: charges alpha, then stages the bytes, writes the descriptor and
  // rings the doorbell of the injection channel the port model prescribes (one-port: 0;
  // all-port: the channel of the first hop; k-port: an idle channel, else one with room).
  // Non-blocking (node.send_mode): returns once the descriptor is queued, and the DMA sends
  // it while the processor goes on. Blocking: returns once its last flit has left the NI.
  void send(NodeId dst, const std::vector<std::uint8_t>& data, std::uint32_t tag = 0);
  // Sends `data` to every node of `dests` as one multidestination worm (needs
  // network.router.multidest path or tree): one alpha, the list written to TXn_DLIST, one
  // doorbell. A path worm's list must conform to the base routing (see conforming_paths);
  // the channel is the one of the first destination's first hop under all-port.
  void send_multicast(const std::vector<NodeId>& dests, const std::vector<std::uint8_t>& data,
                      std::uint32_t tag = 0);
  // Splits a destination set into lists that each conform to the base routing, for one
  // path worm each sent from `from` (default: this node), multicast_route.h split_into_paths.
  // Deterministic, so a receiver can recompute the paths its sender used.
  std::vector<std::vector<NodeId>> conforming_paths(const std::vector<NodeId>& dests,
                                                    NodeId from = kNoNode) const;
  // Under Hamiltonian-path routing, node n's position on the path; -1 under other routing.
  int hamiltonian_label(NodeId n) const { return routing_.hamiltonian() ? routing_.label(n) : -1; }
  // Blocks until a message is available, takes it (lowest ejection channel first) and
  // charges gamma (plus the per-packet cost of its further packets).
  Message receive();
  // Packets the NI splits a message of `bytes` bytes into (PACKET_PAYLOAD register).
  std::uint64_t packets(std::size_t bytes) const;
  // Explicit computation time.
  void compute(Cycle cycles) { bus_.busy(cycles); }
  // The NI's cycle counter.
  Cycle now();

 private:
  int channel_for(NodeId dst);
  void post(int channel, NodeId dst, const std::vector<std::uint8_t>& data, std::uint32_t tag,
            Cycle begin);
  std::uint32_t free_slots(int channel);
  // alpha plus the send cost of the message's further packets.
  Cycle send_cost(std::size_t bytes) const;
  // Blocking sends: sleeps until message `seq` of channel c has left the NI.
  void wait_sent(int channel, std::uint32_t seq);

  ProcessorBus& bus_;
  const Topology& topology_;
  const RouteCompute& routing_;
  PortLayout layout_;
  NodeId id_;
  int nodes_;
  int tx_channels_;
  int rx_channels_;
  std::uint32_t packet_payload_;  // 0: a message is one packet
};

}  // namespace wormsim::fw
