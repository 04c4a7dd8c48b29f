// The one definition of the flit format in C++ (DESIGN.md section 2: one flit format per
// language). A packet of L flits is a head, L-2 bodies and a tail; a 1-flit packet is a
// single head_tail flit. Every flit carries its packet id, source and destination so that
// any flit on any link can be decoded in a waveform without reconstructing worm state.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace wormsim {

using Cycle = std::uint64_t;
using NodeId = std::uint32_t;
using PacketId = std::uint64_t;

inline constexpr NodeId kNoNode = 0xffffffffu;

enum class FlitType : std::uint8_t { kHead = 0, kBody = 1, kTail = 2, kHeadTail = 3 };

// Unicast packets and multidestination worms: the VCs a packet may use when some are reserved
// for worms (network.router.multidest_vcs), and the index of the per-class statistics.
enum class TrafficClass : std::uint8_t { kUnicast = 0, kMultidest = 1 };
inline constexpr int kTrafficClasses = 2;

constexpr bool is_head(FlitType t) { return t == FlitType::kHead || t == FlitType::kHeadTail; }
constexpr bool is_tail(FlitType t) { return t == FlitType::kTail || t == FlitType::kHeadTail; }
std::string_view to_string(FlitType t);

struct Flit {
  // Largest flit payload the model carries (a 256-bit phit); config flit_bytes <= this.
  static constexpr std::size_t kMaxPayloadBytes = 32;

  // --- hardware fields (what a link carries) ---
  PacketId packet_id = 0;
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  std::uint16_t index = 0;  // position of this flit in its packet, 0 = head
  std::uint8_t vc = 0;      // virtual channel on the link it is crossing
  FlitType type = FlitType::kHeadTail;
  std::uint8_t payload_bytes = 0;  // valid bytes in payload
  std::array<std::uint8_t, kMaxPayloadBytes> payload{};
  // Message header of the node layer (docs/ni-registers.md), carried by every flit of a packet
  // like src/dst: the sender's message sequence number, the firmware tag, the message length
  // and this packet's byte offset in it. Its wire cost is modelled by ni.header_bytes.
  std::uint32_t message = 0;
  std::uint32_t tag = 0;
  std::uint32_t message_bytes = 0;
  std::uint32_t offset = 0;
  // Multidestination worms (docs/multidestination.md). The header flits of such a worm carry
  // its encoded destination list (their count is set by the encoding); the model carries a
  // handle to the decoded list instead of the bits. 0 = unicast. `mpos` is the position of
  // the current target in a path worm's list (advanced as destinations absorb the worm).
  std::uint32_t mcast = 0;
  std::uint16_t mpos = 0;

  // --- simulator sideband (statistics only; never read by routing or allocation) ---
  std::uint32_t hops = 0;  // router-to-router links crossed so far

  bool head() const { return is_head(type); }
  bool tail() const { return is_tail(type); }
};

}  // namespace wormsim
