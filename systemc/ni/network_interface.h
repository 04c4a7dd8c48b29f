// The node's network interface (DESIGN.md section 6): DMA engines for every injection and
// ejection channel of the router's port model, and memory-mapped registers reached from the
// processor over a TLM-2.0 target socket (map in ni_registers.h and docs/ni-registers.md).
//
// Transmit: the firmware writes the message bytes into channel c's TX window, then DST, LEN
// and TAG, then rings DOORBELL. The descriptor enters the channel's queue (tx_queue_depth
// deep) and the DMA engine starts it no earlier than the next cycle. A message is split into
// packets of at most max_packet_bytes, each carrying header_bytes of header first (seed 002:
// Touchstone Delta, 512-byte packets with 30 bytes of header); a packet of b bytes on the
// wire is ceil(b / flit_bytes) flits, and every flit carries its real bytes. One packet at
// a time per channel, one flit per cycle while it holds a credit for the packet's VC.
//
// Receive: flits are reassembled per (ejection channel, VC); a packet's bytes are checked by
// the scoreboard and written at its offset into the message; the complete message joins the
// channel's receive queue in the cycle its last tail arrives and is visible to the processor
// (RX registers, interrupt) from the next cycle. Ejection never back-pressures: node memory
// is assumed to hold every message that arrives.
//
// Background traffic (collective.background; docs/collectives.md, "Background load"): with
// background_load > 0 the NI's hardware, not the firmware, creates unicast packets of
// background_packet_length flits with Bernoulli arrivals (probability load / length per cycle)
// to destinations of background_pattern, from cycle 0 until stop_background(). They wait in a
// separate unbounded hardware queue per injection channel (one-port: channel 0; all-port: the
// first hop's channel; k-port: the channel with the least queued work, lowest first); when a
// channel's wire is free and both its firmware DMA and its background queue have a packet
// ready, the two take turns packet by packet (round-robin). Background flits carry message
// sequence kBackgroundMessage, which no firmware message has; the destination NI checks them
// (scoreboard) and discards them: they never enter a receive queue, raise no interrupt and
// are invisible to TXc_STATUS, TXc_DONE and the message log. With background_load 0 nothing of
// this exists and the NI behaves exactly as without it.
//
// Register accesses take effect immediately, but the DMA acts on them only from the next
// cycle, so results do not depend on whether SystemC runs the processor before or after the
// network within a cycle. A bad access (unmapped address, wrong width, doorbell on a full
// queue, destination that does not exist, ...) fails the TLM transaction with an error
// naming node, cycle and register (NiFault extension); the processor stops the run.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "injection_channel.h"
#include "lazy_deque.h"
#include "message_log.h"
#include "multicast_table.h"
#include "network_endpoint.h"
#include "packet_reassembly.h"
#include "port_layout.h"
#include "route_compute.h"
#include "scoreboard.h"
#include "statistics.h"
#include "traffic_pattern.h"

namespace wormsim {

class EndpointHost;

// Error text of a failed register access, attached to the TLM transaction.
struct NiFault : tlm::tlm_extension<NiFault> {
  std::string message;
  tlm::tlm_extension_base* clone() const override { return new NiFault(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    message = static_cast<const NiFault&>(other).message;
  }
};

struct NiParams {
  NodeId id = 0;
  int nodes = 1;
  int component = 0;
  PortLayout layout;
  int vcs = 1;
  int buffer_depth = 1;
  int flit_bytes = 8;
  int max_packet_bytes = 0;  // 0: a message is one packet
  int header_bytes = 0;
  int tx_queue_depth = 16;
  MultidestMode multidest = MultidestMode::kNone;
  HeaderEncoding header_encoding = HeaderEncoding::kAddressList;
  PathIr path_ir = PathIr::kFull;
  // Background traffic (collective.background); load 0 = none.
  double background_load = 0;
  int background_packet_length = 5;
  TrafficPattern background_pattern = TrafficPattern::kUniformRandom;
  Cycle background_warmup = 0;  // packets created from this cycle on are measured
  std::uint64_t background_seed = 1;
};

// The message sequence number background packets carry (firmware messages count from 1).
inline constexpr std::uint32_t kBackgroundMessage = 0;

// Background packets of one NI: `created` at this source, `delivered` at this destination
// (every one, warm-up included); `measured` of those delivered here were created from
// background_warmup on, with the sums of their latencies (tail consumed - created, source
// queueing included) and network latencies (tail consumed - head injected).
struct BackgroundCounts {
  std::uint64_t created = 0;
  std::uint64_t delivered = 0;
  std::uint64_t measured = 0;
  std::uint64_t latency_sum = 0;
  std::uint64_t network_latency_sum = 0;
};

class NetworkInterface : public sc_core::sc_module, public NetworkEndpoint {
 public:
  tlm_utils::simple_target_socket<NetworkInterface> socket;

  NetworkInterface(const sc_core::sc_module_name& name, const NiParams& params,
                   const RouteCompute& route_compute, MulticastTable& multicast,
                   Scoreboard& scoreboard, Statistics& stats, EndpointHost& host, MessageLog& log,
                   const Topology* topology = nullptr);

  void attach_injection(int channel, Link* link) override;
  void attach_ejection(int channel, Link* link) override;
  // Arms the first background arrival (background_load > 0; needs the topology).
  void start(ActivityCalendar& calendar) override;
  StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring) override;
  void prefetch(int stage) const override;
  std::size_t queued_packets() const override;

  // Raised (notified) in the cycle a received message or a freed TX slot becomes visible.
  const sc_core::sc_event& interrupt() const { return irq_event_; }
  // Messages waiting in receive queues (visible or not); for end-of-run checks.
  std::size_t unread_messages() const;
  // No background packets are created from cycle `at` on; those queued still go out.
  void stop_background(Cycle at) { background_stop_ = std::min(background_stop_, at); }
  const BackgroundCounts& background() const { return background_counts_; }
  // Data bytes per packet after the header.
  int packet_payload_bytes() const;
  // Flits of a message of `bytes` bytes (all its packets, headers included).
  static std::uint64_t message_flits(std::uint64_t bytes, const NiParams& p);

 private:
  struct Message {
    NodeId src = kNoNode;
    NodeId dst = kNoNode;
    std::uint32_t seq = 0;
    std::uint32_t tag = 0;
    std::shared_ptr<std::vector<std::uint8_t>> data;
    std::vector<NodeId> dests;  // multidestination worm (in the order written); empty: unicast
  };
  struct Descriptor {
    Message message;
    Cycle ready = 0;  // the DMA may start it from this cycle
  };
  struct Packet {
    PacketId id = 0;
    std::shared_ptr<const Message> message;
    std::uint32_t offset = 0;  // data offset of this packet in the message
    std::uint32_t bytes = 0;   // data bytes in this packet
    int header = 0;            // header bytes on the wire (destination list included)
    // Address flits (header_encoding address_flits): the leading flits that carry only a
    // destination address (all of the list's but the last), before the header bytes.
    int address_flits = 0;
    int flits = 0;
    std::uint32_t mcast = 0;  // multidestination header handle
    // The message's fields every flit carries and its bytes, copied here so that making a
    // flit reads only this packet and the bytes (`message` keeps them alive).
    NodeId src = kNoNode;
    NodeId dst = kNoNode;
    std::uint32_t seq = 0;
    std::uint32_t tag = 0;
    std::uint32_t message_bytes = 0;
    const std::uint8_t* data = nullptr;
  };
  struct BackgroundPacket {
    PacketId id = 0;
    NodeId dst = kNoNode;
    int flits = 0;
  };
  struct TxChannel {
    InjectionChannel wire;        // busy() while a packet is on the wire
    LazyDeque<Descriptor> queue;  // descriptors not yet packetised
    LazyDeque<Packet> packets;    // packets of the message in progress
    Packet packet;                // the packet on the wire
    // Registers.
    std::uint32_t dst = 0, len = 0, tag = 0, last_seq = 0;
    // TXc_DONE: the last message whose last flit has left, visible from the cycle after.
    std::uint32_t done_seq = 0, done_before = 0;
    Cycle done_at = 0;
    std::vector<std::uint8_t> window;
    std::vector<NodeId> dlist;
    // Background: the hardware queue, the packet on the wire when background_on_wire, and
    // whose turn it is when both sources have a packet for a free wire.
    LazyDeque<BackgroundPacket> background;
    BackgroundPacket background_packet;
    bool background_on_wire = false;
    bool background_turn = false;
    // Firmware work in this channel (TXc_STATUS busy): a message queued, packetised or on the
    // wire.
    bool firmware_busy() const {
      return (wire.busy() && !background_on_wire) || !packets.empty() || !queue.empty();
    }
  };
  struct Assembly {  // a multi-packet message being received
    std::shared_ptr<std::vector<std::uint8_t>> data;
    std::uint32_t received = 0;  // data bytes so far
  };
  struct RxEntry {
    Message message;
    Cycle visible = 0;
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void read_register(std::uint64_t addr, std::uint32_t& value, Cycle now);
  void write_register(std::uint64_t addr, std::uint32_t value, Cycle now);
  [[noreturn]] void fault(std::uint64_t addr, const std::string& what, Cycle now) const;
  std::string register_name(std::uint64_t addr) const;
  void doorbell(int channel, Cycle now);
  // Extra header bytes a multidestination worm to `destinations` nodes carries.
  int list_header_bytes(std::size_t destinations) const;
  // Addresses per header flit when a worm's list sits in address flits (no payload in the
  // header flits before the last; routing/multicast_route.h addresses_per_header_flit), else 0.
  int per_flit() const { return per_flit_; }
  bool address_flit_layout() const { return per_flit_ > 0; }
  void packetise(TxChannel& ch, const Descriptor& d, Cycle now);
  void fill_flit(const Packet& p, int index, Flit& flit) const;
  int inject(Cycle now, ActivityCalendar& calendar, bool measuring);
  // Cycles without a background arrival before the next one (geometric).
  Cycle background_gap();
  // A background packet created in cycle `now` joins its channel's background queue.
  void create_background(Cycle now);
  // For the tail of a background packet: counts it (BackgroundCounts) and returns true, the
  // packet being discarded; false for a firmware packet.
  bool background_done(const Flit& tail, const PacketRecord& rec, Cycle now);
  int eject(Cycle now);
  void consume(int channel, const Flit& flit, Cycle now);
  void complete_packet(int channel, const Flit& tail, const PacketReassembly::Packet& r, Cycle now);
  void raise(std::uint32_t bits, Cycle visible);
  std::uint32_t visible_count(int channel, Cycle now) const;

  NiParams params_;
  int per_flit_;  // per_flit(), fixed by params_
  const RouteCompute& route_compute_;
  MulticastTable& multicast_;
  Scoreboard& scoreboard_;
  Statistics& stats_;
  EndpointHost& host_;
  MessageLog& log_;
  std::vector<TxChannel> tx_;
  std::vector<Link*> ejection_;
  std::uint64_t eject_pending_ = 0;  // bit c: ejection channel c has flits in flight
  // Bit c: injection channel c has credits in flight (set by its link), and: channel c may have
  // work (a descriptor, packet or background packet queued, or a packet on the wire); a clear
  // bit means it has none, so a step visits only the channels whose bits are set.
  std::uint64_t tx_credits_pending_ = 0;
  std::uint64_t tx_work_ = 0;
  PacketReassembly reassembly_;
  std::unordered_map<std::uint64_t, Assembly> assembly_;  // (src, seq)
  std::vector<LazyDeque<RxEntry>> rx_;
  std::uint64_t packet_sequence_ = 0;
  std::uint32_t message_sequence_ = 0;
  std::uint32_t irq_status_ = 0;
  std::uint32_t irq_enable_ = 0;
  Cycle tx_irq_visible_ = 0;
  sc_core::sc_event irq_event_;
  // Background traffic (background_load > 0).
  std::unique_ptr<DestinationPicker> picker_;
  std::unique_ptr<std::mt19937_64> background_rng_;  // 2.5 KB: only with background
  double background_probability_ = 0;
  Cycle background_next_ = 0;
  Cycle background_stop_ = ~Cycle{0};
  bool background_source_ = false;
  BackgroundCounts background_counts_;
};

}  // namespace wormsim
