// Reassembly of the packets arriving on one node's ejection channels, shared by the NI and
// the synthetic terminal: flits of one packet arrive in order on one (channel, VC) and are
// never interleaved with another packet's on it (wormhole switching). Every flit is counted
// and checksummed; a head interrupting a packet, a body without its head, or a flit out of
// order is a scoreboard violation naming node, channel, VC, packet and cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "endpoint_effects.h"
#include "flit.h"
#include "scoreboard.h"
#include "statistics.h"

namespace wormsim {

class PacketReassembly {
 public:
  // What accept() knows about the packet its flit belongs to.
  struct Packet {
    bool open = false;
    PacketId id = 0;
    std::uint32_t first = 0;  // index of its head flit (> 0: address flits stripped on the way)
    std::uint32_t flits = 0;  // flits received
    std::uint64_t checksum = 0;
    std::vector<std::uint8_t> bytes;  // payload bytes on the wire (collect_bytes only)
  };

  PacketReassembly(NodeId node, int channels, int vcs, bool collect_bytes)
      : node_(node),
        vcs_(vcs),
        collect_bytes_(collect_bytes),
        packets_(static_cast<std::size_t>(channels * vcs)) {}

  // Takes a flit that left ejection `channel` in cycle `now`. Returns the packet when the flit
  // is its tail (the packet is closed), null otherwise or when the flit was a violation.
  const Packet* accept(int channel, const Flit& flit, Cycle now, Scoreboard& scoreboard,
                       Statistics& stats);
  // The same, with the calls on the statistics and the scoreboard recorded in `effects` (the
  // network's parallel phase).
  const Packet* accept(int channel, const Flit& flit, Cycle now, EndpointEffects& effects);
  // Payload-free flits (NetworkEndpoint::set_payload_free): checksums their payload lengths.
  void set_payload_free(bool on) { payload_free_ = on; }

 private:
  // accept(): `ejected()` counts the flit, `violation(message)` reports one.
  template <typename Ejected, typename Violation>
  const Packet* take(int channel, const Flit& flit, Cycle now, Ejected ejected,
                     Violation violation);

  NodeId node_;
  int vcs_;
  bool collect_bytes_;
  bool payload_free_ = false;
  std::vector<Packet> packets_;  // [channel * vcs + vc]
};

}  // namespace wormsim
