// Round trip of the RTL flit layout (rtl/wormsim_pkg.sv flit_t) against the C++ packing
// (systemc/cosim/rtl_flit.h) through the testbench module testbenches/cosim/rtl/wormsim_flit_loopback.sv:
// random C++ flits packed with rtl::to_bits + rtl::pack into flit_i come out of the Verilog
// field by field equal to the C++ flit's fields (computed here from the Flit, not from
// to_bits); fields driven into the Verilog assembler come back through rtl::unpack equal.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "Vwormsim_flit_loopback.h"
#include "flit.h"
#include "rtl_block_harness.h"
#include "rtl_flit.h"

namespace wormsim {
namespace {

using Loopback = rtl_test::Block<Vwormsim_flit_loopback>;

Flit random_flit(std::mt19937_64& rng) {
  Flit f;
  f.packet_id = rng();
  f.src = static_cast<NodeId>(rng() % (1u << 16));
  f.dst = static_cast<NodeId>(rng() % (1u << 16));
  f.index = static_cast<std::uint16_t>(rng());
  f.vc = static_cast<std::uint8_t>(rng() % 16);
  f.type = static_cast<FlitType>(rng() % 4);
  f.payload_bytes = static_cast<std::uint8_t>(rng() % (Flit::kMaxPayloadBytes + 1));
  for (std::size_t i = 0; i < f.payload_bytes; ++i) f.payload[i] = static_cast<std::uint8_t>(rng());
  // Fields the RTL does not carry: they must not leak into the packed bits.
  f.message = static_cast<std::uint32_t>(rng());
  f.tag = static_cast<std::uint32_t>(rng());
  f.hops = static_cast<std::uint32_t>(rng());
  return f;
}

constexpr int kWords = (rtl::kFlitW + 31) / 32;
constexpr unsigned kTopBits = rtl::kFlitW - 32 * (kWords - 1);  // used bits of the last word

// A random multidestination worm for flit `f` and how its list is carried: a path address
// list (up to kMaxPath distinct ids of 1 to 16 bits), a tree address list (ids below
// kMaxTreeNodes) or a tree bit-string, in header flits of 8 to 64 bits; nullopt for a unicast
// flit. A flit that is not a head gets a small index, so that header flits occur.
struct RandomWorm {
  MulticastHeader header;
  rtl::ListFormat format;
};
std::optional<RandomWorm> random_header(Flit& f, std::mt19937_64& rng) {
  if (rng() % 2 == 0) return std::nullopt;
  RandomWorm w;
  MulticastHeader& h = w.header;
  h.mode = rng() % 2 == 0 ? MultidestMode::kPath : MultidestMode::kTree;
  w.format.bit_string = h.mode == MultidestMode::kTree && rng() % 2 == 0;
  w.format.bits = 8 * (1 + static_cast<unsigned>(rng() % 8));
  unsigned limit = rtl::kMaxTreeNodes;  // ids below this
  std::size_t most = rtl::kMaxPath;     // destinations
  if (w.format.bit_string) {
    w.format.nodes = 1 + static_cast<unsigned>(rng() % rtl::kMaxTreeNodes);
    limit = w.format.nodes;
    most = std::min<std::size_t>(most, limit);
  } else {
    w.format.address_bits =
        1 + static_cast<unsigned>(rng() % (h.mode == MultidestMode::kTree ? 6 : 16));
    limit = std::min(limit, 1u << w.format.address_bits);
    if (h.mode == MultidestMode::kPath) limit = 1u << w.format.address_bits;
    most = std::min<std::size_t>({most, rtl::kHdrW / w.format.address_bits, limit});
  }
  const auto n = static_cast<std::size_t>(1 + rng() % most);
  while (h.dests.size() < n) {
    const auto d = static_cast<NodeId>(rng() % limit);
    if (std::find(h.dests.begin(), h.dests.end(), d) == h.dests.end()) h.dests.push_back(d);
  }
  f.mcast = 1;
  f.mpos = static_cast<std::uint16_t>(h.mode == MultidestMode::kPath ? rng() % n : 0);
  if (!f.head()) f.index = static_cast<std::uint16_t>(rng() % 8);
  return w;
}

// The list's length and bit j of it as docs/rtl.md specifies them: a bit-string of `nodes`
// bits, or the addresses in order from bit 0, `address_bits` each.
unsigned list_length(const RandomWorm& w) {
  return w.format.bit_string ? w.format.nodes
                             : static_cast<unsigned>(w.header.dests.size()) * w.format.address_bits;
}
bool list_bit(const RandomWorm& w, unsigned j) {
  if (w.format.bit_string)
    return std::find(w.header.dests.begin(), w.header.dests.end(), static_cast<NodeId>(j)) !=
           w.header.dests.end();
  const unsigned b = w.format.address_bits;
  if (j >= list_length(w)) return false;
  return ((w.header.dests[j / b] >> (j % b)) & 1u) != 0;
}
// The data bits of flit k of the worm (k below its header flits): list bits [k bits,
// (k + 1) bits).
std::uint64_t list_word(const RandomWorm& w, unsigned k) {
  std::uint64_t data = 0;
  for (unsigned j = 0; j < w.format.bits; ++j)
    if (list_bit(w, k * w.format.bits + j)) data |= std::uint64_t{1} << j;
  return data;
}

// The first 8 payload bytes that are valid, byte 0 lowest.
std::uint64_t payload_word(const Flit& f) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < 8 && i < f.payload_bytes; ++i)
    w |= std::uint64_t{f.payload[i]} << (8 * i);
  return w;
}

TEST(RtlFlit, PackedCppFlitsReadBackFieldByFieldInVerilog) {
  std::mt19937_64 rng(29);
  Loopback rtl;
  rtl.eval();
  ASSERT_EQ(rtl->flit_w_o, rtl::kFlitW);
  int heads = 0;
  int tails = 0;
  int headers = 0;
  int continued = 0;  // header flits after the head
  for (int n = 0; n < 20000; ++n) {
    Flit f = random_flit(rng);
    const std::optional<RandomWorm> h = random_header(f, rng);
    // Start from random bits: pack must write every bit of the flit.
    for (int w = 0; w < kWords; ++w) rtl->flit_i[w] = static_cast<std::uint32_t>(rng());
    rtl->flit_i[kWords - 1] &= (1u << kTopBits) - 1;  // a Verilated input has no bits above
    rtl::pack(rtl::to_bits(f, h ? &h->header : nullptr, h ? h->format : rtl::ListFormat{}),
              rtl->flit_i.data(), 0);
    rtl.eval();
    ASSERT_EQ(rtl->mpos_o, f.mpos) << "flit " << n;
    const bool listed = h.has_value() && f.head();
    ASSERT_EQ(rtl->mc_o != 0, listed) << "flit " << n;
    ASSERT_EQ(rtl->hlen_o, listed ? list_length(*h) : 0u) << "flit " << n;
    ASSERT_EQ(rtl->hlen_at_lsb_o, rtl->hlen_o) << "flit " << n;
    headers += listed;
    // Flit k of a worm whose list needs more than k flits carries list bits, not payload.
    const unsigned k = f.head() ? 0u : f.index;
    const bool header_flit = h.has_value() && k * h->format.bits < std::max(1u, list_length(*h));
    continued += header_flit && !f.head();
    ASSERT_EQ(rtl->mc_at_lsb_o, rtl->mc_o) << "flit " << n;
    ASSERT_EQ(rtl->more_o, 0) << "flit " << n;  // list headers, not address flits
    ASSERT_EQ(rtl->more_at_lsb_o, rtl->more_o) << "flit " << n;
    ASSERT_EQ(rtl->mpos_at_lsb_o, rtl->mpos_o) << "flit " << n;
    ASSERT_EQ(rtl->src_at_lsb_o, rtl->src_o) << "flit " << n;
    ASSERT_EQ(rtl->pkt_at_lsb_o, rtl->pkt_o) << "flit " << n;
    ASSERT_EQ(static_cast<unsigned>(rtl->typ_o), static_cast<unsigned>(f.type)) << "flit " << n;
    ASSERT_EQ(rtl->vc_o, f.vc) << "flit " << n;
    ASSERT_EQ(rtl->pkt_o, static_cast<std::uint32_t>(f.packet_id & 0xffffffffu)) << "flit " << n;
    ASSERT_EQ(rtl->idx_o, f.index) << "flit " << n;
    ASSERT_EQ(static_cast<unsigned>(rtl->src_o), f.src & 0xffffu) << "flit " << n;
    ASSERT_EQ(static_cast<unsigned>(rtl->dst_o), f.dst & 0xffffu) << "flit " << n;
    // A multidestination worm's head and header flits carry its list, other flits payload.
    ASSERT_EQ(rtl->data_o, header_flit ? list_word(*h, k) : payload_word(f))
        << "flit " << n << " payload bytes " << int{f.payload_bytes} << " list " << listed;
    ASSERT_EQ(rtl->is_head_o != 0, f.head()) << "flit " << n;
    ASSERT_EQ(rtl->is_tail_o != 0, f.tail()) << "flit " << n;
    // The package's bit offsets (used by rtl/ to slice flat flit vectors) agree too.
    ASSERT_EQ(rtl->typ_at_lsb_o, rtl->typ_o) << "flit " << n;
    ASSERT_EQ(rtl->vc_at_lsb_o, rtl->vc_o) << "flit " << n;
    ASSERT_EQ(rtl->dst_at_lsb_o, rtl->dst_o) << "flit " << n;
    heads += f.head();
    tails += f.tail();
  }
  EXPECT_GT(heads, 5000);
  EXPECT_GT(tails, 5000);
  EXPECT_GT(headers, 2000);
  EXPECT_GT(continued, 500);
}

TEST(RtlFlit, ListsBeyondTheRtlLimitsAreRejected) {
  Flit f;
  f.type = FlitType::kHead;
  f.mcast = 1;
  MulticastHeader path;
  path.mode = MultidestMode::kPath;
  rtl::ListFormat format;
  format.address_bits = 3;
  for (NodeId d = 1; d <= rtl::kMaxPath + 1; ++d) path.dests.push_back(d % 8);
  EXPECT_THROW(rtl::to_bits(f, &path, format), std::invalid_argument);  // 17 destinations
  // Nine 8-bit addresses need a second 64-bit header flit: the head carries the first eight.
  format.address_bits = 8;
  path.dests = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  rtl::FlitBits head = rtl::to_bits(f, &path, format);
  EXPECT_EQ(head.hlen, 72u);
  EXPECT_EQ(head.data, 0x0807060504030201u);
  Flit second = f;
  second.type = FlitType::kBody;
  second.index = 1;
  second.payload_bytes = 8;
  second.payload.fill(0xff);
  EXPECT_EQ(rtl::to_bits(second, &path, format).data, 0x09u);
  EXPECT_FALSE(rtl::to_bits(second, &path, format).mc);
  second.index = 2;  // beyond the list: the payload
  EXPECT_EQ(rtl::to_bits(second, &path, format).data, ~std::uint64_t{0});
  // Lists longer than kHdrW bits: 17 16-bit tree addresses.
  MulticastHeader tree;
  tree.mode = MultidestMode::kTree;
  format = {};
  format.address_bits = 16;
  for (NodeId d = 0; d <= rtl::kHdrW / 16; ++d) tree.dests.push_back(d);
  EXPECT_THROW(rtl::to_bits(f, &tree, format), std::invalid_argument);
  tree.dests.pop_back();
  EXPECT_NO_THROW(rtl::to_bits(f, &tree, format));
  // Tree worms: destination sets of kMaxTreeNodes nodes, as a list or a bit-string.
  format.address_bits = 7;
  tree.dests = {1, static_cast<NodeId>(rtl::kMaxTreeNodes)};
  EXPECT_THROW(rtl::to_bits(f, &tree, format), std::invalid_argument);
  tree.dests = {1, static_cast<NodeId>(rtl::kMaxTreeNodes - 1)};
  EXPECT_NO_THROW(rtl::to_bits(f, &tree, format));
  format.bit_string = true;
  EXPECT_NO_THROW(rtl::to_bits(f, &tree, format));
  format.nodes = 32;  // a 32-node network's bit-string names no node 63
  EXPECT_THROW(rtl::to_bits(f, &tree, format), std::invalid_argument);
}

// Address flits (header_encoding address_flits, the minimal path-IR router): no list header;
// flit i of a path worm to m destinations has `more` set exactly when i < m - 1.
TEST(RtlFlit, AddressFlitsCarryTheMoreBitAndNoListHeader) {
  std::mt19937_64 rng(41);
  Loopback rtl;
  int more = 0;
  for (std::size_t m = 1; m <= rtl::kMaxPath; ++m) {
    MulticastHeader h;
    h.mode = MultidestMode::kPath;
    for (std::size_t k = 0; k < m; ++k) h.dests.push_back(static_cast<NodeId>(1000 + 7 * k));
    for (int i = 0; i < static_cast<int>(m) + 3; ++i) {
      Flit f = random_flit(rng);
      f.mcast = 1;
      f.index = static_cast<std::uint16_t>(i);
      f.mpos = 0;
      f.dst = address_flit_target(h, i, 1);
      rtl::ListFormat format;
      format.address_flits = true;
      rtl::pack(rtl::to_bits(f, &h, format), rtl->flit_i.data(), 0);
      rtl.eval();
      ASSERT_EQ(rtl->more_o != 0, static_cast<std::size_t>(i) + 1 < m) << m << " " << i;
      ASSERT_EQ(rtl->more_at_lsb_o, rtl->more_o);
      ASSERT_EQ(rtl->mc_o, 0);
      ASSERT_EQ(rtl->data_o, payload_word(f));  // no list: the payload
      ASSERT_EQ(static_cast<unsigned>(rtl->dst_o), f.dst & 0xffffu);
      more += rtl->more_o;
    }
  }
  EXPECT_EQ(more, static_cast<int>(rtl::kMaxPath * (rtl::kMaxPath - 1) / 2));
  MulticastHeader h;
  h.mode = MultidestMode::kPath;
  for (NodeId d = 0; d <= rtl::kMaxPath; ++d) h.dests.push_back(d);
  Flit f;
  f.mcast = 1;
  rtl::ListFormat format;
  format.address_flits = true;
  EXPECT_THROW(rtl::to_bits(f, &h, format), std::invalid_argument);
}

TEST(RtlFlit, VerilogAssembledFlitsUnpackInCpp) {
  std::mt19937_64 rng(31);
  Loopback rtl;
  for (int n = 0; n < 20000; ++n) {
    rtl::FlitBits b;
    b.type = static_cast<FlitType>(rng() % 4);
    b.vc = static_cast<unsigned>(rng() % 16);
    b.packet = static_cast<std::uint32_t>(rng());
    b.index = static_cast<std::uint16_t>(rng());
    b.src = static_cast<std::uint16_t>(rng());
    b.dst = static_cast<std::uint16_t>(rng());
    b.data = rng();
    b.mc = rng() % 2 == 0;
    b.more = rng() % 2 == 0;
    b.mpos = static_cast<unsigned>(rng() % (1u << rtl::kMposW));
    b.hlen = static_cast<unsigned>(rng() % (1u << rtl::kHlenW));
    rtl->mc_i = b.mc;
    rtl->hlen_i = static_cast<std::uint16_t>(b.hlen);
    rtl->more_i = b.more;
    rtl->mpos_i = static_cast<std::uint8_t>(b.mpos);
    rtl->typ_i = static_cast<std::uint8_t>(b.type);
    rtl->vc_i = static_cast<std::uint8_t>(b.vc);
    rtl->pkt_i = b.packet;
    rtl->idx_i = b.index;
    rtl->src_i = b.src;
    rtl->dst_i = b.dst;
    rtl->data_i = b.data;
    rtl.eval();
    const rtl::FlitBits got = rtl::unpack(rtl->flit_o.data(), 0);
    ASSERT_TRUE(got == b) << "flit " << n << ": type " << int(got.type) << "/" << int(b.type)
                          << " vc " << got.vc << "/" << b.vc << " pkt " << got.packet << "/"
                          << b.packet << " idx " << got.index << "/" << b.index << " src "
                          << got.src << "/" << b.src << " dst " << got.dst << "/" << b.dst
                          << " data " << got.data << "/" << b.data;
    // Nothing beyond the last bit.
    ASSERT_EQ(rtl->flit_o[kWords - 1] >> kTopBits, 0u) << "flit " << n;
    // And back through the disassembler: the same flit, bit for bit.
    for (int w = 0; w < kWords; ++w) rtl->flit_i[w] = 0;
    rtl::pack(got, rtl->flit_i.data(), 0);
    rtl.eval();
    ASSERT_EQ(rtl->pkt_o, b.packet);
    ASSERT_EQ(rtl->data_o, b.data);
  }
}

// pack at a bit offset (flits side by side in a port vector, as in the router's in_flit_i)
// leaves the neighbouring bits alone.
TEST(RtlFlit, PackAtOffsetLeavesNeighboursAlone) {
  std::mt19937_64 rng(37);
  for (int n = 0; n < 2000; ++n) {
    std::uint32_t words[20];
    std::uint32_t before[20];
    for (int w = 0; w < 20; ++w) words[w] = before[w] = static_cast<std::uint32_t>(rng());
    const unsigned base = static_cast<unsigned>(rng() % (640 - rtl::kFlitW));
    Flit f = random_flit(rng);
    const std::optional<RandomWorm> h = random_header(f, rng);
    const rtl::FlitBits b =
        rtl::to_bits(f, h ? &h->header : nullptr, h ? h->format : rtl::ListFormat{});
    rtl::pack(b, words, base);
    ASSERT_TRUE(rtl::unpack(words, base) == b);
    for (unsigned bit = 0; bit < 640; ++bit) {
      if (bit >= base && bit < base + rtl::kFlitW) continue;
      ASSERT_EQ((words[bit / 32] >> (bit % 32)) & 1u, (before[bit / 32] >> (bit % 32)) & 1u)
          << "bit " << bit << " base " << base;
    }
  }
}

// set_bits / get_bits (word at a time) against the definition bit by bit: every offset and
// width up to 64, the bits outside the field unchanged.
TEST(RtlFlit, BitFieldsMatchTheBitByBitDefinition) {
  std::mt19937_64 rng(41);
  for (unsigned width = 0; width <= 64; ++width)
    for (unsigned lsb = 0; lsb < 96; ++lsb) {
      std::uint32_t words[5];
      std::uint32_t want[5];
      for (int w = 0; w < 5; ++w) words[w] = want[w] = static_cast<std::uint32_t>(rng());
      const std::uint64_t value = rng();
      std::uint64_t field = 0;
      for (unsigned i = 0; i < width; ++i) {
        const unsigned bit = lsb + i;
        want[bit / 32] = (want[bit / 32] & ~(1u << (bit % 32))) |
                         (static_cast<std::uint32_t>((value >> i) & 1u) << (bit % 32));
        field |= ((value >> i) & 1u) << i;
      }
      rtl::set_bits(words, lsb, width, value);
      for (int w = 0; w < 5; ++w)
        ASSERT_EQ(words[w], want[w]) << "word " << w << " lsb " << lsb << " width " << width;
      ASSERT_EQ(rtl::get_bits(words, lsb, width), field) << "lsb " << lsb << " width " << width;
    }
}

// The build serving a router is the narrowest whose ports and channels suffice; RTL and C++
// port numbers map both ways, NI channels after each side's network ports.
TEST(RtlFlit, BuildsAndPortNumbering) {
  EXPECT_EQ(rtl::rtl_build_ports(4, 4), rtl::kNarrowPorts);  // all-port 2D mesh
  EXPECT_EQ(rtl::rtl_build_ports(2, 1), rtl::kNarrowPorts);  // 1D torus
  EXPECT_EQ(rtl::rtl_build_ports(6, 6), rtl::kWidePorts);    // all-port 3D mesh
  EXPECT_EQ(rtl::rtl_build_ports(7, 1), rtl::kWidePorts);    // one-port 7-cube
  EXPECT_EQ(rtl::rtl_build_ports(8, 1), rtl::kCubePorts);    // one-port 8-cube
  EXPECT_EQ(rtl::rtl_build_ports(4, 8), rtl::kCubePorts);
  EXPECT_EQ(rtl::rtl_build_ports(16, 16), rtl::kCubePorts);  // all-port 16-cube
  EXPECT_EQ(rtl::rtl_build_ports(17, 1), 0);
  EXPECT_EQ(rtl::rtl_build_ports(1, 17), 0);
  for (int rtl_net : {rtl::kNarrowPorts, rtl::kWidePorts, rtl::kCubePorts}) {
    const int network = rtl_net - 1;  // a router with fewer network ports than its build
    for (int p = 0; p < network + 3; ++p) {
      const int r = rtl::rtl_port(p, network, rtl_net);
      EXPECT_EQ(r, p < network ? p : rtl_net + p - network) << rtl_net << " " << p;
      EXPECT_EQ(rtl::cpp_port(r, network, rtl_net), p) << rtl_net << " " << p;
    }
  }
}

}  // namespace
}  // namespace wormsim
