// The RTL flit and strap layouts (rtl/wormsim_pkg.sv) on the C++ side of the cosimulation:
// packing a C++ Flit (systemc/core/flit.h) into the RTL's flit_t bits and back, and the router's
// cfg_t straps. The offsets here must equal the package's; testbenches/cosim/rtl_flit_test.cpp
// round-trips flits through a Verilated module that takes the fields apart and back.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

#include "flit.h"
#include "multicast_table.h"

namespace wormsim::rtl {

// flit_t, LSB first: data[63:0], hdr[191:64], dst[207:192], src[223:208], idx[239:224],
// pkt[271:240], mpos[275:272], mc[276], vc[280:277], typ[282:281].
inline constexpr unsigned kDataW = 64;
inline constexpr unsigned kHdrW = 128;
inline constexpr unsigned kMposW = 4;
inline constexpr unsigned kPathIdW = 8;
inline constexpr unsigned kMaxPath = kHdrW / kPathIdW;  // destinations a path header lists
inline constexpr unsigned kPathEnd = (1u << kPathIdW) - 1;
inline constexpr unsigned kNodeW = 16;
inline constexpr unsigned kIdxW = 16;
inline constexpr unsigned kPktW = 32;
inline constexpr unsigned kVcW = 4;
inline constexpr unsigned kPortW = 6;  // router port numbers (PortW)
inline constexpr unsigned kDataLsb = 0;
inline constexpr unsigned kHdrLsb = kDataLsb + kDataW;
inline constexpr unsigned kDstLsb = kHdrLsb + kHdrW;
inline constexpr unsigned kSrcLsb = kDstLsb + kNodeW;
inline constexpr unsigned kIdxLsb = kSrcLsb + kNodeW;
inline constexpr unsigned kPktLsb = kIdxLsb + kIdxW;
inline constexpr unsigned kMposLsb = kPktLsb + kPktW;
inline constexpr unsigned kMcLsb = kMposLsb + kMposW;
inline constexpr unsigned kVcLsb = kMcLsb + 1;
inline constexpr unsigned kTypLsb = kVcLsb + kVcW;
inline constexpr unsigned kFlitW = kTypLsb + 2;  // 283
inline constexpr unsigned kDataBytes = kDataW / 8;

// Structural maxima of the Verilated routers (rtl/CMakeLists.txt); a configuration may use
// less, and check_rtl_limits (rtl_limits.h) checks them when a config is loaded. Three shapes are built (docs/rtl.md):
//  - narrow: Vwormsim_router (with the multidestination hardware) and Vwormsim_router_uc
//    (without), kNarrowPorts network ports and as many injection and ejection channels:
//    1D/2D meshes and tori and hypercubes up to 4 dimensions;
//  - wide: Vwormsim_router_wide (with the multidestination hardware), kWidePorts network
//    ports and as many channels: 3D meshes and tori and 5- to 7-cubes, in every port model;
//  - cube: Vwormsim_router_cube (without the multidestination hardware), kCubePorts network
//    ports and as many channels: 8- to 16-cubes, in every port model. Their 256 and more
//    nodes exceed both RTL multidestination headers (kMaxPathNodes, kMaxTreeNodes), so
//    these networks carry unicast worms only.
// route_t numbers ports with kPortW bits and its port_hi is one past the last candidate, so a
// router has at most 63 output ports (NumNet + NumEj <= 63).
inline constexpr int kNarrowPorts = 4;  // NumNet = NumInj = NumEj of the narrow builds
// NumNet = NumInj = NumEj of the wide build; rtl/CMakeLists.txt reads this line.
inline constexpr int kWidePorts = 7;
// NumNet = NumInj = NumEj of the cube build (a 16-cube router); rtl/CMakeLists.txt reads
// this line.
inline constexpr int kCubePorts = 16;
inline constexpr int kMaxRoutePorts = (1 << kPortW) - 1;
static_assert(2 * kCubePorts <= kMaxRoutePorts, "route_t's port numbers are too narrow");
inline constexpr int kMaxVcs = 4;    // NumVcs
inline constexpr int kMaxDepth = 8;  // Depth
inline constexpr int kMaxNodes = 1 << kNodeW;
// Multidestination worms: a path header lists node ids of kPathIdW bits (kPathEnd ends it),
// a tree header is a bit-string of kMaxTreeNodes nodes (the router's MaxNodes).
inline constexpr int kMaxPathNodes = static_cast<int>(kPathEnd);
inline constexpr int kMaxTreeNodes = static_cast<int>(kHdrW);
// The cube build has no multidestination hardware: the smallest network it serves (an
// 8-cube) must have more nodes than either header can name.
static_assert((1 << (kWidePorts + 1)) > kMaxPathNodes && (1 << (kWidePorts + 1)) > kMaxTreeNodes,
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

// route_t, LSB first: vc_hi[4:0], vc_lo[9:5], port_hi[15:10], port_lo[21:16].
inline constexpr unsigned kRouteVcHiLsb = 0, kRouteVcLoLsb = 5, kRoutePortHiLsb = 10,
                          kRoutePortLoLsb = kRoutePortHiLsb + kPortW, kRouteW = 10 + 2 * kPortW;

// cfg_t straps, LSB first (rtl/wormsim_pkg.sv).
inline constexpr unsigned kCfgW = 162;
inline constexpr unsigned kCfgDimsW = 5;
inline constexpr unsigned kCfgNodeLsb = 0, kCfgEjectByDirLsb = 16, kCfgEjectionLsb = 17,
                          kCfgNetPortsLsb = 23, kCfgAllocLsb = 29, kCfgPipelineLsb = 30,
                          kCfgDepthLsb = 33, kCfgVcsLsb = 42, kCfgDatelineLsb = 47,
                          kCfgHamiltonianLsb = 48, kCfgEcubeLsb = 49, kCfgOrderLsb = 50,
                          kCfgStrideLsb = 56, kCfgSideLsb = 104, kCfgDimsLsb = 152,
                          kCfgTopoLsb = 157, kCfgSyncLsb = 159, kCfgMultidestLsb = 160;

// Bit fields of little-endian 32-bit word arrays (Verilator's VlWide layout).
inline void set_bits(std::uint32_t* words, unsigned lsb, unsigned width, std::uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    const std::uint32_t mask = std::uint32_t{1} << (bit % 32);
    if ((value >> i) & 1u)
      words[bit / 32] |= mask;
    else
      words[bit / 32] &= ~mask;
  }
}
inline std::uint64_t get_bits(const std::uint32_t* words, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    v |= std::uint64_t{(words[bit / 32] >> (bit % 32)) & 1u} << i;
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
  std::uint64_t data = 0;  // payload bytes 0..7, byte 0 in bits [7:0]
  bool mc = false;         // head of a multidestination worm: hdr is valid
  unsigned mpos = 0;
  std::array<std::uint64_t, kHdrW / 64> hdr{};  // hdr[i] = header bits [64i, 64i + 64)

  bool operator==(const FlitBits& o) const {
    return type == o.type && vc == o.vc && packet == o.packet && index == o.index && src == o.src &&
           dst == o.dst && data == o.data && mc == o.mc && mpos == o.mpos && hdr == o.hdr;
  }
};

// The fields of `f` the RTL carries; a multidestination head also carries `header` (the
// worm's destinations; null for unicast flits). Throws std::invalid_argument naming the limit
// when the header does not fit the RTL's (kMaxPath destinations, node ids below
// kMaxPathNodes / kMaxTreeNodes).
FlitBits to_bits(const Flit& f, const MulticastHeader* header = nullptr);
// Writes flit `f` at bit `base` of `words`.
void pack(const FlitBits& f, std::uint32_t* words, unsigned base);
FlitBits unpack(const std::uint32_t* words, unsigned base);

}  // namespace wormsim::rtl
