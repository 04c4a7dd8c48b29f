// Tests of the end-to-end scoreboard (exactly-once, destination, integrity, per-stream order)
// and of the payload generator and checksum it relies on. Packet ids follow the terminals'
// numbering, id = sequence * nodes + source, which is what the order check decodes.
#include "scoreboard.h"

#include <array>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::scoreboard_test {
namespace {

constexpr int kNodes = 4;

PacketId packet_id(std::uint64_t sequence, NodeId src) { return sequence * kNodes + src; }

PacketRecord record(NodeId src, NodeId dst, std::uint32_t length, std::uint64_t checksum,
                    Cycle created = 0) {
  PacketRecord r;
  r.src = src;
  r.dst = dst;
  r.length = length;
  r.checksum = checksum;
  r.created = created;
  return r;
}

bool mentions(const std::string& message, const std::string& what) {
  return message.find(what) != std::string::npos;
}

// ---- Exactly once ------------------------------------------------------------------------
TEST(Scoreboard, CleanDeliveryReturnsTheRecordAndRemovesIt) {
  Scoreboard sb(kNodes, false);
  const PacketId id = packet_id(3, 1);
  sb.on_created(id, record(1, 2, 3, 0xabcdef, 17));
  sb.on_injected(id, 25);
  EXPECT_EQ(sb.live_packets(), 1u);
  EXPECT_EQ(sb.live().count(id), 1u);
  const PacketRecord* r = sb.on_delivered(id, 2, 0, 3, 0xabcdef, 40);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->src, 1u);
  EXPECT_EQ(r->dst, 2u);
  EXPECT_EQ(r->length, 3u);
  EXPECT_EQ(r->created, 17u);
  EXPECT_EQ(r->injected, 25u);  // recorded by on_injected
  EXPECT_EQ(sb.live_packets(), 0u);
  EXPECT_EQ(sb.delivered_packets(), 1u);
  EXPECT_EQ(sb.violation_count(), 0u);
  EXPECT_TRUE(sb.violations().empty());
}

TEST(Scoreboard, SecondDeliveryOfTheSamePacketIsAViolation) {
  Scoreboard sb(kNodes, false);
  const PacketId id = packet_id(0, 2);
  sb.on_created(id, record(2, 0, 1, 77));
  ASSERT_NE(sb.on_delivered(id, 0, 0, 1, 77, 10), nullptr);
  EXPECT_EQ(sb.on_delivered(id, 0, 0, 1, 77, 11), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
  EXPECT_EQ(sb.delivered_packets(), 1u);  // the duplicate is not counted as a delivery
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_TRUE(mentions(sb.violations()[0], "packet " + std::to_string(id))) << sb.violations()[0];
  EXPECT_TRUE(mentions(sb.violations()[0], "cycle 11")) << sb.violations()[0];
}

TEST(Scoreboard, DeliveryOfAnUnknownPacketIsAViolation) {
  Scoreboard sb(kNodes, false);
  sb.on_created(packet_id(0, 1), record(1, 3, 2, 5));
  EXPECT_EQ(sb.on_delivered(packet_id(9, 1), 3, 0, 2, 5, 100), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
  EXPECT_EQ(sb.delivered_packets(), 0u);
  EXPECT_EQ(sb.live_packets(), 1u);  // the outstanding packet is untouched
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_TRUE(mentions(sb.violations()[0], "node 3")) << sb.violations()[0];
}

TEST(Scoreboard, CreatingTheSameIdTwiceIsAViolation) {
  Scoreboard sb(kNodes, false);
  sb.on_created(7, record(3, 0, 1, 1));
  EXPECT_EQ(sb.violation_count(), 0u);
  sb.on_created(7, record(3, 1, 1, 1));
  EXPECT_EQ(sb.violation_count(), 1u);
  EXPECT_EQ(sb.live_packets(), 1u);
}

// ---- Destination and integrity -----------------------------------------------------------
TEST(Scoreboard, WrongDestinationIsAViolationAndConsumesThePacket) {
  Scoreboard sb(kNodes, false);
  const PacketId id = packet_id(1, 0);
  sb.on_created(id, record(0, 2, 4, 99));
  EXPECT_EQ(sb.on_delivered(id, 3, 0, 4, 99, 50), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_TRUE(mentions(sb.violations()[0], "delivered at node 3")) << sb.violations()[0];
  // Moved out of the ledger: it is no longer outstanding, so delivering it again (even at the
  // right node) is a second violation.
  EXPECT_EQ(sb.live_packets(), 0u);
  EXPECT_EQ(sb.on_delivered(id, 2, 0, 4, 99, 51), nullptr);
  EXPECT_EQ(sb.violation_count(), 2u);
}

TEST(Scoreboard, CorruptedChecksumIsAViolation) {
  Scoreboard sb(kNodes, false);
  const PacketId id = packet_id(2, 3);
  sb.on_created(id, record(3, 1, 5, 0x1234567890abcdefull));
  EXPECT_EQ(sb.on_delivered(id, 1, 0, 5, 0x1234567890abcdefull ^ 0x100, 60), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_TRUE(mentions(sb.violations()[0], "corrupted")) << sb.violations()[0];
}

TEST(Scoreboard, WrongFlitCountIsAViolation) {
  Scoreboard sb(kNodes, false);
  const PacketId a = packet_id(0, 1);
  const PacketId b = packet_id(1, 1);
  sb.on_created(a, record(1, 2, 5, 42));
  sb.on_created(b, record(1, 2, 5, 42));
  EXPECT_EQ(sb.on_delivered(a, 2, 0, 4, 42, 30), nullptr);  // one flit lost
  EXPECT_EQ(sb.violation_count(), 1u);
  EXPECT_EQ(sb.on_delivered(b, 2, 0, 6, 42, 31), nullptr);  // one flit too many
  EXPECT_EQ(sb.violation_count(), 2u);
}

// Minimal path-IR router: a worm of 9 flits to 1, 4, 6 (3 address flits) reaches node 1 from
// flit 1 (its own address flit stripped), node 4 from flit 2 and the last, node 6, from flit
// 2 (the last address flit is the head of the last leg). Any other start is a violation.
TEST(Scoreboard, StrippedPathWormStartsAfterEachDestinationsAddressFlit) {
  Scoreboard sb(kNodes, false);
  PacketRecord r = record(0, 1, 9, 7);
  r.multidestination = true;
  r.remaining = r.strip_path = {1, 4, 6};
  const PacketId ok = packet_id(0, 0);
  sb.on_created(ok, r);
  EXPECT_NE(sb.on_delivered(ok, 4, 2, 7, 7, 20), nullptr);
  EXPECT_NE(sb.on_delivered(ok, 1, 1, 8, 7, 21), nullptr);
  EXPECT_NE(sb.on_delivered(ok, 6, 2, 7, 7, 22), nullptr);
  EXPECT_EQ(sb.violation_count(), 0u);
  const PacketId bad = packet_id(1, 0);
  sb.on_created(bad, r);
  EXPECT_EQ(sb.on_delivered(bad, 1, 0, 9, 7, 30), nullptr);  // not stripped at node 1
  EXPECT_EQ(sb.on_delivered(bad, 6, 3, 6, 7, 31), nullptr);  // last leg's head stripped too
  EXPECT_EQ(sb.on_delivered(bad, 4, 2, 6, 7, 32), nullptr);  // a flit lost after the strip
  EXPECT_EQ(sb.violation_count(), 3u);
  EXPECT_TRUE(mentions(sb.violations()[0], "expected from flit 1")) << sb.violations()[0];
}

// Two addresses per header flit: a worm to 1, 4, 6, 7, 9 (3 header flits) strips its first
// header flit at node 4 and its second at node 7; node 9 gets the last from flit 2.
TEST(Scoreboard, StrippedPathWormWithTwoAddressesPerHeaderFlit) {
  Scoreboard sb(kNodes, false);
  PacketRecord r = record(0, 1, 8, 7);
  r.multidestination = true;
  r.remaining = r.strip_path = {1, 4, 6, 7, 9};
  r.strip_per_flit = 2;
  const PacketId id = packet_id(0, 0);
  sb.on_created(id, r);
  EXPECT_NE(sb.on_delivered(id, 1, 0, 8, 7, 20), nullptr);
  EXPECT_NE(sb.on_delivered(id, 4, 1, 7, 7, 21), nullptr);
  EXPECT_NE(sb.on_delivered(id, 6, 1, 7, 7, 22), nullptr);
  EXPECT_NE(sb.on_delivered(id, 7, 2, 6, 7, 23), nullptr);
  EXPECT_NE(sb.on_delivered(id, 9, 2, 6, 7, 24), nullptr);
  EXPECT_EQ(sb.violation_count(), 0u);
  const PacketId bad = packet_id(1, 0);
  sb.on_created(bad, r);
  EXPECT_EQ(sb.on_delivered(bad, 1, 1, 7, 7, 30), nullptr);  // stripped before its time
  EXPECT_EQ(sb.violation_count(), 1u);
}

// ---- In-order delivery per (source, destination) ------------------------------------------
TEST(Scoreboard, InOrderCheckFlagsAnOvertakenPacket) {
  Scoreboard sb(kNodes, true);
  const PacketId first = packet_id(0, 1);
  const PacketId second = packet_id(1, 1);
  const PacketId third = packet_id(2, 1);
  for (PacketId id : {first, second, third}) sb.on_created(id, record(1, 2, 1, 8));
  EXPECT_NE(sb.on_delivered(second, 2, 0, 1, 8, 10), nullptr);
  EXPECT_EQ(sb.violation_count(), 0u);
  // `first` has a lower sequence number than the already delivered `second`.
  EXPECT_EQ(sb.on_delivered(first, 2, 0, 1, 8, 11), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_TRUE(mentions(sb.violations()[0], "overtook")) << sb.violations()[0];
  EXPECT_EQ(sb.delivered_packets(), 2u);
}

// After a violation the stream's high-water mark stays at the highest sequence delivered:
// a packet between the late one and that highest one was overtaken too.
TEST(Scoreboard, InOrderCheckRemembersTheHighestSequenceAfterAViolation) {
  Scoreboard sb(kNodes, true);
  for (std::uint64_t s = 0; s < 6; ++s) sb.on_created(packet_id(s, 2), record(2, 1, 1, 6));
  EXPECT_NE(sb.on_delivered(packet_id(5, 2), 1, 0, 1, 6, 10), nullptr);
  EXPECT_EQ(sb.on_delivered(packet_id(1, 2), 1, 0, 1, 6, 11), nullptr);  // overtaken by 5
  EXPECT_EQ(sb.violation_count(), 1u);
  EXPECT_EQ(sb.on_delivered(packet_id(3, 2), 1, 0, 1, 6, 12), nullptr);  // overtaken by 5 as well
  EXPECT_EQ(sb.violation_count(), 2u);
}

TEST(Scoreboard, InOrderDeliveryPassesTheOrderCheck) {
  Scoreboard sb(kNodes, true);
  for (std::uint64_t s = 0; s < 10; ++s) sb.on_created(packet_id(s, 3), record(3, 0, 2, 11));
  for (std::uint64_t s = 0; s < 10; ++s)
    EXPECT_NE(sb.on_delivered(packet_id(s, 3), 0, 0, 2, 11, 100 + s), nullptr) << s;
  EXPECT_EQ(sb.violation_count(), 0u);
  EXPECT_EQ(sb.delivered_packets(), 10u);
}

TEST(Scoreboard, InOrderCheckKeepsSourceDestinationPairsApart) {
  Scoreboard sb(kNodes, true);
  // Source 1 sends sequence 0 to node 3 and sequence 1 to node 2; source 0 sends sequence 0
  // to node 2 and source 2 sequence 0 to node 2. Delivering the high sequence numbers first
  // is legal across different (source, destination) pairs.
  const PacketId s1_to2 = packet_id(5, 1);
  const PacketId s1_to3 = packet_id(0, 1);
  const PacketId s0_to2 = packet_id(0, 0);
  const PacketId s2_to2 = packet_id(1, 2);
  sb.on_created(s1_to2, record(1, 2, 1, 3));
  sb.on_created(s1_to3, record(1, 3, 1, 3));
  sb.on_created(s0_to2, record(0, 2, 1, 3));
  sb.on_created(s2_to2, record(2, 2, 1, 3));
  EXPECT_NE(sb.on_delivered(s1_to2, 2, 0, 1, 3, 10), nullptr);
  EXPECT_NE(sb.on_delivered(s1_to3, 3, 0, 1, 3, 11), nullptr);  // same source, other destination
  EXPECT_NE(sb.on_delivered(s0_to2, 2, 0, 1, 3, 12), nullptr);  // same destination, other source
  EXPECT_NE(sb.on_delivered(s2_to2, 2, 0, 1, 3, 13), nullptr);
  EXPECT_EQ(sb.violation_count(), 0u);
  // But a lower sequence of the pair 1 -> 2 after sequence 5 is still caught.
  const PacketId late = packet_id(4, 1);
  sb.on_created(late, record(1, 2, 1, 3));
  EXPECT_EQ(sb.on_delivered(late, 2, 0, 1, 3, 14), nullptr);
  EXPECT_EQ(sb.violation_count(), 1u);
}

TEST(Scoreboard, OrderIsNotCheckedWhenDisabled) {
  Scoreboard sb(kNodes, false);
  const PacketId first = packet_id(0, 1);
  const PacketId second = packet_id(1, 1);
  sb.on_created(first, record(1, 2, 1, 8));
  sb.on_created(second, record(1, 2, 1, 8));
  EXPECT_NE(sb.on_delivered(second, 2, 0, 1, 8, 10), nullptr);
  EXPECT_NE(sb.on_delivered(first, 2, 0, 1, 8, 11), nullptr);
  EXPECT_EQ(sb.violation_count(), 0u);
  EXPECT_EQ(sb.delivered_packets(), 2u);
}

// ---- Counts and the violation list ------------------------------------------------------------
TEST(Scoreboard, LiveAndDeliveredCountsFollowTheLedger) {
  Scoreboard sb(kNodes, false);
  for (std::uint64_t s = 0; s < 6; ++s) sb.on_created(packet_id(s, 0), record(0, 1, 1, 4));
  EXPECT_EQ(sb.live_packets(), 6u);
  for (std::uint64_t s = 0; s < 6; s += 2)
    ASSERT_NE(sb.on_delivered(packet_id(s, 0), 1, 0, 1, 4, s), nullptr);
  EXPECT_EQ(sb.live_packets(), 3u);
  EXPECT_EQ(sb.delivered_packets(), 3u);
  std::set<PacketId> live;
  for (const auto& [id, r] : sb.live()) live.insert(id);
  EXPECT_EQ(live, (std::set<PacketId>{packet_id(1, 0), packet_id(3, 0), packet_id(5, 0)}));
}

TEST(Scoreboard, ViolationListIsCappedButTheCountIsExact) {
  Scoreboard sb(kNodes, false);
  constexpr std::uint64_t kViolations = 1000;
  for (std::uint64_t i = 0; i < kViolations; ++i)
    EXPECT_EQ(sb.on_delivered(1000 + i, 0, 0, 1, 0, i), nullptr);
  sb.violation("custom message");
  EXPECT_EQ(sb.violation_count(), kViolations + 1);
  EXPECT_GE(sb.violations().size(), 1u);
  EXPECT_LT(sb.violations().size(), kViolations);
  // The first violations are the ones kept.
  EXPECT_TRUE(mentions(sb.violations()[0], "packet 1000 ")) << sb.violations()[0];
  for (const std::string& m : sb.violations()) EXPECT_FALSE(mentions(m, "custom message"));
}

TEST(Scoreboard, ExplicitViolationIsRecorded) {
  Scoreboard sb(kNodes, false);
  sb.violation("flit out of order");
  EXPECT_EQ(sb.violation_count(), 1u);
  ASSERT_EQ(sb.violations().size(), 1u);
  EXPECT_EQ(sb.violations()[0], "flit out of order");
}

// ---- Payload and checksum ------------------------------------------------------------------
using Payload = std::array<std::uint8_t, Flit::kMaxPayloadBytes>;

Payload payload_of(PacketId id, std::uint32_t index, int bytes) {
  Flit f;
  fill_payload(id, index, bytes, f);
  return f.payload;
}

TEST(Payload, SameInputsGiveTheSameBytes) {
  for (int bytes : {1, 7, 8, 9, 16, 32}) {
    Flit a;
    Flit b;
    b.payload.fill(0xee);  // whatever was there before is overwritten
    fill_payload(123456789, 4, bytes, a);
    fill_payload(123456789, 4, bytes, b);
    EXPECT_EQ(a.payload_bytes, bytes);
    EXPECT_EQ(b.payload_bytes, bytes);
    for (int i = 0; i < bytes; ++i)
      EXPECT_EQ(a.payload[static_cast<std::size_t>(i)], b.payload[static_cast<std::size_t>(i)])
          << "byte " << i << " of " << bytes;
  }
}

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014), written out here from its definition.
std::uint64_t splitmix64_reference(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The payload's definition: byte b of flit `index` of packet `id` is byte b % 8 (least
// significant first) of SplitMix64(id * 0x10001 + index * 0x1000193 + 8 * floor(b / 8)), for
// every length, whole words or not (fill_payload stores whole words at once).
TEST(Payload, BytesFollowTheirDefinitionAtEveryLength) {
  for (int bytes = 1; bytes <= static_cast<int>(Flit::kMaxPayloadBytes); ++bytes) {
    for (PacketId id : {PacketId{0}, PacketId{77}, PacketId{1} << 40}) {
      const std::uint32_t index = 5;
      Flit f;
      f.payload.fill(0xee);
      fill_payload(id, index, bytes, f);
      ASSERT_EQ(f.payload_bytes, bytes);
      for (int b = 0; b < bytes; ++b) {
        const std::uint64_t word = splitmix64_reference(id * 0x10001ull + index * 0x1000193ull +
                                                        static_cast<std::uint64_t>(b - b % 8));
        EXPECT_EQ(f.payload[static_cast<std::size_t>(b)],
                  static_cast<std::uint8_t>(word >> (8 * (b % 8))))
            << "byte " << b << " of " << bytes << ", packet " << id;
      }
      for (int b = bytes; b < static_cast<int>(Flit::kMaxPayloadBytes); ++b)
        EXPECT_EQ(f.payload[static_cast<std::size_t>(b)], 0xee) << "byte " << b << " past the end";
    }
  }
}

TEST(Payload, DifferentPacketOrFlitIndexGivesDifferentBytes) {
  // Every (packet, flit) pair in a block of ids and indices gets its own 8-byte payload.
  std::set<Payload> seen;
  int pairs = 0;
  for (PacketId id = 0; id < 64; ++id) {
    for (std::uint32_t index = 0; index < 16; ++index) {
      seen.insert(payload_of(id, index, 8));
      ++pairs;
    }
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(pairs));
  // Ids far apart and adjacent ones, long flits.
  EXPECT_NE(payload_of(0, 0, 32), payload_of(1, 0, 32));
  EXPECT_NE(payload_of(0, 0, 32), payload_of(0, 1, 32));
  EXPECT_NE(payload_of(1ull << 40, 3, 32), payload_of((1ull << 40) + 64, 3, 32));
  // The bytes of one flit are not a constant fill.
  const Payload p = payload_of(5, 2, 32);
  EXPECT_GT(std::set<std::uint8_t>(p.begin(), p.end()).size(), 8u);
}

// FNV-1a (64 bit), written out here from its definition.
std::uint64_t fnv1a(std::uint64_t h, const std::vector<std::uint8_t>& bytes) {
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

Flit flit_with(const std::vector<std::uint8_t>& bytes) {
  Flit f;
  for (std::size_t i = 0; i < bytes.size(); ++i) f.payload[i] = bytes[i];
  f.payload_bytes = static_cast<std::uint8_t>(bytes.size());
  return f;
}

TEST(Checksum, UpdateIsFnv1aOverThePayloadBytes) {
  constexpr std::uint64_t kOffsetBasis = 0xcbf29ce484222325ull;
  // Published FNV-1a 64 test vectors.
  EXPECT_EQ(checksum_update(kOffsetBasis, flit_with({'a'})), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(checksum_update(kOffsetBasis, flit_with({'f', 'o', 'o', 'b', 'a', 'r'})),
            0x85944171f73967e8ull);
  // Only the valid bytes count; bytes past payload_bytes are ignored.
  Flit f = flit_with({1, 2, 3});
  f.payload[3] = 99;
  EXPECT_EQ(checksum_update(kOffsetBasis, f), fnv1a(kOffsetBasis, {1, 2, 3}));
  // Chaining over flits equals hashing the concatenated bytes.
  EXPECT_EQ(checksum_update(checksum_update(kOffsetBasis, flit_with({1, 2})), flit_with({3, 4, 5})),
            fnv1a(kOffsetBasis, {1, 2, 3, 4, 5}));
}

// The scoreboard calls its checksum FNV-1a, whose 64-bit offset basis is
// 14695981039346656037 = 0xcbf29ce484222325.
TEST(Checksum, SeedIsTheFnvOffsetBasis) { EXPECT_EQ(kChecksumSeed, 0xcbf29ce484222325ull); }

TEST(Checksum, ChangesWhenAnySingleByteChanges) {
  Flit f;
  fill_payload(987, 1, 32, f);
  const std::uint64_t prior = checksum_update(kChecksumSeed, [] {
    Flit g;
    fill_payload(987, 0, 32, g);
    return g;
  }());
  const std::uint64_t reference = checksum_update(prior, f);
  for (std::size_t b = 0; b < Flit::kMaxPayloadBytes; ++b) {
    for (int delta = 1; delta < 256; ++delta) {
      Flit g = f;
      g.payload[b] = static_cast<std::uint8_t>(g.payload[b] ^ delta);
      ASSERT_NE(checksum_update(prior, g), reference) << "byte " << b << " xor " << delta;
    }
  }
  // A lost or an extra byte changes it too.
  Flit shorter = f;
  shorter.payload_bytes = 31;
  EXPECT_NE(checksum_update(prior, shorter), reference);
}

TEST(Checksum, DetectsSwappedFlits) {
  Flit a;
  Flit b;
  fill_payload(42, 0, 8, a);
  fill_payload(42, 1, 8, b);
  EXPECT_NE(checksum_update(checksum_update(kChecksumSeed, a), b),
            checksum_update(checksum_update(kChecksumSeed, b), a));
}

}  // namespace
}  // namespace wormsim::scoreboard_test
