// End-to-end scoreboard: every packet is registered when its source creates it and checked
// when its tail is consumed at a destination NI. It enforces exactly-once delivery (a second
// delivery, or one of an unknown packet, is a violation; a multidestination worm must reach
// each of its destinations exactly once), delivery to the right node, payload
// integrity (checksum of all payload bytes as sent vs as received, length in flits), and - when
// the routing guarantees it - in-order delivery per (source, destination). Flit conservation
// (injected = ejected + in flight) is checked by the network at the end of the run.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "flit.h"

namespace wormsim {

struct PacketRecord {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  std::uint32_t length = 0;    // flits
  Cycle created = 0;           // entered the source queue
  Cycle injected = 0;          // head left the NI
  std::uint64_t checksum = 0;  // FNV-1a over the payload bytes in flit order
  // Counts in the packet latency statistics: created inside the measurement window, and not a
  // packet of a software multicast (whose latency is its operation's, ni/software_multicast.h).
  bool measured = false;
  bool software_multicast = false;  // a unicast packet of a software multicast operation
  bool multidestination = false;    // a multidestination worm (even to a single destination)
  // Multidestination worm: the destinations that have not received it yet (dst is the first
  // of the list). Empty for a unicast packet.
  std::vector<NodeId> remaining;
  // A path worm on the minimal path-IR router (network.router.path_ir minimal): its list in
  // path order, `strip_per_flit` addresses per header flit. Its i-th destination (from 0)
  // receives it from flit floor(min(i + 1, size - 1) / strip_per_flit) on: each header flit is
  // stripped at the destination of its last address, except the last header flit, the head
  // of the last leg (docs/multidestination.md). Empty otherwise.
  std::vector<NodeId> strip_path;
  int strip_per_flit = 1;
};

// Payload of flit `index` of packet `id`: deterministic pseudo-random bytes, so corruption
// anywhere shows up in the checksum.
void fill_payload(PacketId id, std::uint32_t index, int bytes, Flit& flit);
std::uint64_t checksum_update(std::uint64_t h, const Flit& flit);
// The checksum of payload-free flits (NetworkEndpoint::set_payload_free): one FNV-1a step over
// the flit's payload length, which is all such a flit carries of its payload.
inline std::uint64_t checksum_length_update(std::uint64_t h, const Flit& flit) {
  return (h ^ flit.payload_bytes) * 1099511628211ull;
}
// The flit's payload (fill_payload), or with `payload_free` only its length; and the checksum
// step that matches (checksum_update, or checksum_length_update): one definition for the
// terminal that creates and sends a packet, the flat engine that rebuilds its flits and the
// reassembly that checks them (NetworkEndpoint::set_payload_free).
inline void fill_payload_or_length(PacketId id, std::uint32_t index, int bytes, Flit& flit,
                                   bool payload_free) {
  if (payload_free)
    flit.payload_bytes = static_cast<std::uint8_t>(bytes);
  else
    fill_payload(id, index, bytes, flit);
}
inline std::uint64_t checksum_step(std::uint64_t h, const Flit& flit, bool payload_free) {
  return payload_free ? checksum_length_update(h, flit) : checksum_update(h, flit);
}
inline constexpr std::uint64_t kChecksumSeed = 14695981039346656037ull;  // FNV-1a 64 offset basis

class Scoreboard {
 public:
  Scoreboard(int nodes, bool check_order);

  void on_created(PacketId id, const PacketRecord& record);
  void on_injected(PacketId id, Cycle now);
  // Tail of packet `id` consumed at node `at`: `flits` flits from flit `first` on. Returns the
  // record (moved out of the ledger) or nullptr after recording a violation.
  const PacketRecord* on_delivered(PacketId id, NodeId at, std::uint32_t first, std::uint32_t flits,
                                   std::uint64_t checksum, Cycle now);
  void violation(std::string message);

  std::size_t live_packets() const { return live_.size(); }
  std::uint64_t delivered_packets() const { return delivered_; }
  const std::vector<std::string>& violations() const { return violations_; }
  std::uint64_t violation_count() const { return violation_count_; }
  const std::unordered_map<PacketId, PacketRecord>& live() const { return live_; }

 private:
  int nodes_;
  bool check_order_;
  std::unordered_map<PacketId, PacketRecord> live_;
  std::unordered_map<std::uint64_t, std::uint64_t> last_sequence_;  // (src,dst) -> sequence
  PacketRecord delivered_record_;
  std::uint64_t delivered_ = 0;
  std::vector<std::string> violations_;  // first few, for the report
  std::uint64_t violation_count_ = 0;
};

}  // namespace wormsim
