// The RTL flit and strap layouts (rtl/wormsim_pkg.sv) on the C++ side of the cosimulation:
// packing a C++ Flit (systemc/core/flit.h) into the RTL's flit_t bits and back, and the router's
// cfg_t straps. The offsets here must equal the package's; testbenches/cosim/rtl_flit_test.cpp
// round-trips flits through a Verilated module that takes the fields apart and back.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>

#include "flit.h"
#include "multicast_table.h"
#include "wormsim_rtl_layout.h"  // generated from rtl/wormsim_pkg.sv (scripts/rtl_layout.py)

namespace wormsim::rtl {

// flit_t of rtl/wormsim_pkg.sv: widths and offsets come from the package, through the header
// scripts/rtl_layout.py generates from it at build time (wormsim_rtl_layout.h, docs/rtl.md "One
// definition of the bit layouts"); these are the names the packing code uses for them.
inline constexpr unsigned kDataW = pkg::kDataW;
inline constexpr unsigned kListW = pkg::kListW;  // list bits a multidestination head carries
// List bits a full path or tree router collects from a head and its header flits, and the
// width of the head's list length (docs/rtl.md, "Destination lists in header flits").
inline constexpr unsigned kHdrW = pkg::kHdrW;
inline constexpr unsigned kHlenW = pkg::kHlenW;
inline constexpr unsigned kMposW = pkg::kMposW;
inline constexpr unsigned kMaxPath = pkg::kMaxPath;  // destinations a path worm lists
inline constexpr unsigned kNodeW = pkg::kNodeW;
inline constexpr unsigned kIdxW = pkg::kIdxW;
inline constexpr unsigned kPktW = pkg::kPktW;
inline constexpr unsigned kVcW = pkg::kVcW;
inline constexpr unsigned kPortW = pkg::kPortW;  // router port numbers (PortW)
inline constexpr unsigned kTypW = pkg::kFlitTypW;
inline constexpr unsigned kDataLsb = pkg::kFlitDataLsb;
inline constexpr unsigned kDstLsb = pkg::kFlitDstLsb;
inline constexpr unsigned kSrcLsb = pkg::kFlitSrcLsb;
inline constexpr unsigned kIdxLsb = pkg::kFlitIdxLsb;
inline constexpr unsigned kPktLsb = pkg::kFlitPktLsb;
inline constexpr unsigned kMposLsb = pkg::kFlitMposLsb;
inline constexpr unsigned kMcLsb = pkg::kFlitMcLsb;
inline constexpr unsigned kHlenLsb = pkg::kFlitHlenLsb;
inline constexpr unsigned kMoreLsb = pkg::kFlitMoreLsb;
inline constexpr unsigned kVcLsb = pkg::kFlitVcLsb;
inline constexpr unsigned kTypLsb = pkg::kFlitTypLsb;
inline constexpr unsigned kFlitW = pkg::kFlitW;
inline constexpr unsigned kDataBytes = kDataW / 8;
// FlitBits holds the fields in these C++ types; the package's widths must fit them.
static_assert(pkg::kFlitDstW == kNodeW && pkg::kFlitSrcW == kNodeW && kNodeW <= 16 &&
                  pkg::kFlitIdxW == kIdxW && kIdxW <= 16 && pkg::kFlitPktW == kPktW &&
                  kPktW <= 32 && pkg::kFlitDataW == kDataW && kDataW <= 64 && kListW <= kDataW &&
                  pkg::kFlitVcW == kVcW && pkg::kFlitMposW == kMposW && pkg::kFlitMcW == 1 &&
                  pkg::kFlitMoreW == 1 && pkg::kFlitHlenW == kHlenW && (1u << kHlenW) > kHdrW,
              "rtl/wormsim_pkg.sv flit_t no longer fits FlitBits");
// FlitType travels as its value: the C++ and RTL codes must be equal.
static_assert(
    static_cast<unsigned>(FlitType::kHead) == static_cast<unsigned>(pkg::FlitType::kFlitHead) &&
        static_cast<unsigned>(FlitType::kBody) == static_cast<unsigned>(pkg::FlitType::kFlitBody) &&
        static_cast<unsigned>(FlitType::kTail) == static_cast<unsigned>(pkg::FlitType::kFlitTail) &&
        static_cast<unsigned>(FlitType::kHeadTail) ==
            static_cast<unsigned>(pkg::FlitType::kFlitHeadTail) &&
        kTypW == pkg::kFlitTypeW,
    "the C++ and RTL flit type codes differ");

// Structural maxima of the Verilated routers (rtl/wormsim_pkg.sv, which rtl/CMakeLists.txt
// builds them with); a configuration may use less, and check_rtl_limits (rtl_limits.h) checks
// them when a config is loaded. Three shapes are built, and one-port variants of each
// (docs/rtl.md):
//  - narrow: Vwormsim_router (with the multidestination hardware) and Vwormsim_router_uc
//    (without), kNarrowPorts network ports and as many injection and ejection channels:
//    1D/2D meshes and tori and hypercubes up to 4 dimensions; one-port routers without
//    multidestination worms or a speculative pipeline get Vwormsim_router_uc1, the unicast
//    build with one injection and one ejection channel (rtl_router.cpp), and the minimal
//    path-IR router is Vwormsim_router_min;
//  - wide: Vwormsim_router_wide (with the multidestination hardware), kWidePorts network
//    ports and as many channels: 3D meshes and tori and 5- to 7-cubes, in every port model
//    (one-port routers without multidestination worms or a speculative pipeline get
//    Vwormsim_router_wide1, one injection and one ejection channel; the minimal path-IR router
//    is Vwormsim_router_wide_min, as Vwormsim_router_min is in the narrow shape);
//  - cube: Vwormsim_router_cube (without the multidestination hardware), kCubePorts network
//    ports and as many channels: 8- to 16-cubes, in every port model (one-port routers without
//    a speculative pipeline get Vwormsim_router_cube1, one injection and one ejection channel).
//    Their 256 and more nodes need more list bits than a head flit carries for a tree worm
//    (kMaxTreeNodes), and their routers are built without the path hardware (check_rtl_limits
//    rejects multidestination worms there).
// route_t numbers ports with kPortW bits and its port_hi is one past the last candidate, so a
// router has at most 63 output ports (NumNet + NumEj <= 63).
inline constexpr int kNarrowPorts = static_cast<int>(pkg::kNarrowPorts);
inline constexpr int kWidePorts = static_cast<int>(pkg::kWidePorts);
inline constexpr int kCubePorts = static_cast<int>(pkg::kCubePorts);
static_assert(kNarrowPorts < kWidePorts && kWidePorts < kCubePorts, "build shapes by size");
inline constexpr int kMaxRoutePorts = (1 << kPortW) - 1;
static_assert(2 * kCubePorts <= kMaxRoutePorts, "route_t's port numbers are too narrow");
inline constexpr int kMaxVcs = static_cast<int>(pkg::kMaxVcs);      // NumVcs
inline constexpr int kMaxDepth = static_cast<int>(pkg::kMaxDepth);  // Depth
inline constexpr int kMaxNodes = 1 << kNodeW;
// Tree worms: the routers decode a destination set of kMaxTreeNodes nodes (their MaxNodes,
// the bits of a head flit's list).
inline constexpr int kMaxTreeNodes = static_cast<int>(kListW);
// The cube build has no tree hardware: the smallest network it serves (an 8-cube) must have
// more nodes than a tree worm can name.
static_assert((1 << (kWidePorts + 1)) > kMaxTreeNodes,
              "the cube build would need the multidestination hardware");

// The network ports (= injection = ejection channels) of the build that serves a router with
// `network` network ports and `channels` injection or ejection channels: the narrowest shape
// that fits; 0 when none does.
inline int rtl_build_ports(int network, int channels) {
  for (int ports : {kNarrowPorts, kWidePorts, kCubePorts})
    if (network <= ports && channels <= ports) return ports;
  return 0;
}

// Port numbers: C++ routers number NI channels right after their `network` ports, the RTL
// after the `rtl_net` network ports of its build (same order, so arbitration order is
// preserved; docs/rtl.md).
inline int rtl_port(int cpp_port, int network, int rtl_net) {
  return cpp_port < network ? cpp_port : rtl_net + cpp_port - network;
}
inline int cpp_port(int rtl_port, int network, int rtl_net) {
  return rtl_port < rtl_net ? rtl_port : network + rtl_port - rtl_net;
}

// route_t and cfg_t (the straps) of rtl/wormsim_pkg.sv, under the names the cosimulation uses.
inline constexpr unsigned kRouteVcHiLsb = pkg::kRouteVcHiLsb, kRouteVcLoLsb = pkg::kRouteVcLoLsb,
                          kRoutePortHiLsb = pkg::kRoutePortHiLsb,
                          kRoutePortLoLsb = pkg::kRoutePortLoLsb, kRouteW = pkg::kRouteW;
static_assert(pkg::kRoutePortLoW == kPortW && pkg::kRoutePortHiW == kPortW,
              "route_t's ports are PortW wide");
inline constexpr unsigned kCfgW = pkg::kCfgW;
inline constexpr unsigned kCfgDimsW = pkg::kCfgDimsW;
inline constexpr unsigned kCfgNodeLsb = pkg::kCfgNodeLsb,
                          kCfgEjectByDirLsb = pkg::kCfgEjectByDirectionLsb,
                          kCfgEjectionLsb = pkg::kCfgEjectionLsb,
                          kCfgNetPortsLsb = pkg::kCfgNetPortsLsb, kCfgAllocLsb = pkg::kCfgAllocLsb,
                          kCfgPipelineLsb = pkg::kCfgPipelineLsb, kCfgDepthLsb = pkg::kCfgDepthLsb,
                          kCfgVcsLsb = pkg::kCfgVcsLsb, kCfgDatelineLsb = pkg::kCfgDatelineLsb,
                          kCfgHamiltonianLsb = pkg::kCfgHamiltonianLsb,
                          kCfgEcubeLsb = pkg::kCfgEcubeHighToLowLsb,
                          kCfgOrderLsb = pkg::kCfgOrderLsb, kCfgStrideLsb = pkg::kCfgStrideLsb,
                          kCfgSideLsb = pkg::kCfgSideLsb, kCfgDimsLsb = pkg::kCfgDimsLsb,
                          kCfgTopoLsb = pkg::kCfgTopoLsb, kCfgSyncLsb = pkg::kCfgSyncReplicationLsb,
                          kCfgMultidestLsb = pkg::kCfgMultidestLsb;
// rtl_straps (rtl_router.h) writes these fields with the widths below.
static_assert(pkg::kCfgSideW == pkg::kMaxDims * 16 && pkg::kCfgStrideW == pkg::kMaxDims * 16 &&
                  pkg::kCfgOrderW == pkg::kMaxDims * 2 && pkg::kCfgVcsW == 5 &&
                  pkg::kCfgDepthW == 9 && pkg::kCfgPipelineW == 3 && pkg::kCfgNodeW == 16 &&
                  pkg::kCfgNetPortsW == kPortW && pkg::kCfgEjectionW == kPortW &&
                  pkg::kCfgTopoW == 2 && pkg::kCfgMultidestW == 2,
              "rtl/wormsim_pkg.sv cfg_t no longer matches rtl_straps");

// Bit fields of little-endian 32-bit word arrays (Verilator's VlWide layout), at most 64 bits
// wide, a word at a time.
inline void set_bits(std::uint32_t* words, unsigned lsb, unsigned width, std::uint64_t value) {
  unsigned w = lsb / 32;
  unsigned off = lsb % 32;
  for (unsigned done = 0; done < width; done += 32 - off, off = 0, ++w) {
    const unsigned take = std::min(32 - off, width - done);
    const std::uint32_t mask = static_cast<std::uint32_t>((std::uint64_t{1} << take) - 1) << off;
    words[w] = (words[w] & ~mask) | ((static_cast<std::uint32_t>(value >> done) << off) & mask);
  }
}
inline std::uint64_t get_bits(const std::uint32_t* words, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  unsigned w = lsb / 32;
  unsigned off = lsb % 32;
  for (unsigned done = 0; done < width; done += 32 - off, off = 0, ++w) {
    const unsigned take = std::min(32 - off, width - done);
    const std::uint64_t chunk = (words[w] >> off) & ((std::uint64_t{1} << take) - 1);
    v |= chunk << done;
  }
  return v;
}

// The fields of a flit that the RTL carries.
struct FlitBits {
  FlitType type = FlitType::kHeadTail;
  unsigned vc = 0;
  std::uint32_t packet = 0;  // low 32 bits of the packet id
  std::uint16_t index = 0;
  std::uint16_t src = 0;
  std::uint16_t dst = 0;
  // Payload bytes 0..7, byte 0 in bits [7:0]; a multidestination head (mc): its list.
  std::uint64_t data = 0;
  bool mc = false;    // head of a multidestination worm: data is its destination list
  bool more = false;  // address flit with more address flits behind it (address_flits)
  unsigned mpos = 0;
  unsigned hlen = 0;  // multidestination head: its list's length in bits

  bool operator==(const FlitBits& o) const {
    return type == o.type && vc == o.vc && packet == o.packet && index == o.index && src == o.src &&
           dst == o.dst && data == o.data && mc == o.mc && more == o.more && mpos == o.mpos &&
           hlen == o.hlen;
  }
};

// How multidestination worms carry their destinations into the RTL (network.router
// header_encoding and flit_bytes; the cfg_t straps list_bit_string and list_addr_w).
struct ListFormat {
  // address_flits (the minimal path-IR router): address flit i (Flit::dst its (i+1)-th
  // destination) has `more` set when destinations follow it; no list in the head.
  bool address_flits = false;
  // Otherwise the list rides in the data bits of the head and the header flits after it, as
  // the C++ model charges it (`bits` = 8 x flit_bytes of it per flit, at most kListW; list bit
  // j in flit j / bits, data bit j % bits), and the head's hlen gives its length in bits: a
  // bit-string of `nodes` bits (tree worms; bit n = node n) or an address list of
  // `address_bits`-bit entries in the header's order (docs/rtl.md, "Destination lists in
  // header flits").
  bool bit_string = false;
  unsigned address_bits = 1;
  unsigned bits = kListW;
  unsigned nodes = kListW;
};

// A worm's list as the RTL carries it: bit j at bits[j / 64] bit j % 64, `length` bits (the
// head's hlen). Throws std::invalid_argument as to_bits does.
struct HeaderList {
  std::array<std::uint64_t, (kHdrW + 63) / 64> bits{};
  unsigned length = 0;
};
HeaderList header_list(PacketId id, const MulticastHeader& header, const ListFormat& format);

// The fields of `f` the RTL carries; the flits of a multidestination worm (`header`: its
// destinations; null for unicast flits) also carry its list in `format`, the head from list
// bit 0, header flit k from bit k x format.bits. Throws std::invalid_argument naming the limit
// when the list does not fit the RTL's (more than kHdrW bits; more than kMaxPath path
// destinations; a tree destination of kMaxTreeNodes or more).
FlitBits to_bits(const Flit& f, const MulticastHeader* header = nullptr,
                 const ListFormat& format = {});
// Writes flit `f` at bit `base` of `words`.
void pack(const FlitBits& f, std::uint32_t* words, unsigned base);
FlitBits unpack(const std::uint32_t* words, unsigned base);

}  // namespace wormsim::rtl
