#include "rtl_limits.h"

#include <algorithm>

#include <fmt/format.h>

#include "header_format.h"
#include "port_layout.h"
#include "rtl_flit.h"
#include "topology.h"

namespace wormsim {

namespace {
void require(bool ok, const std::string& key, const std::string& message) {
  if (!ok) throw ConfigError(key, message);
}
}  // namespace

rtl::ListFormat rtl_list_format(const Config& config) {
  const RouterConfig& r = config.network.router;
  const int nodes = node_count(config.network.topology);
  rtl::ListFormat format;
  format.address_flits = r.path_ir == PathIr::kMinimal;
  format.bit_string = r.header_encoding == HeaderEncoding::kBitString;
  format.address_bits = address_bits(nodes);
  format.bits =
      std::min<unsigned>(8u * static_cast<unsigned>(config.network.flit_bytes), rtl::kListW);
  format.nodes = static_cast<unsigned>(nodes);
  return format;
}

void check_rtl_limits(const Config& config) {
  const RouterConfig& r = config.network.router;
  const int nodes = node_count(config.network.topology);
  if (r.implementation != RouterImplementation::kRtl) return;
  const Topology topology(config.network.topology);
  const PortLayout layout =
      PortLayout::make(r.port_model, topology.network_ports(), r.ports, r.consumption_channels);
  const int network_ports = layout.network;
  // Injection channels are the port model's; ejection channels may be consumption channels.
  const int channels = std::max(layout.injection, layout.ejection);
  const std::string key = "network.router.implementation";
  // The minimal path-IR router reads no list header: its address flits carry 16-bit node ids
  // in dst, and only the path position (4 bits) limits the list.
  const bool minimal = r.path_ir == PathIr::kMinimal;
  // It is built in the narrow and wide shapes; the cube build has no multidestination hardware.
  if (minimal) {
    const int build = rtl::rtl_build_ports(network_ports, channels);
    require(build == rtl::kNarrowPorts || build == rtl::kWidePorts, key,
            fmt::format("the minimal path-IR RTL router is built with up to {} network ports and "
                        "{} injection and ejection channels (this network needs {} and {})",
                        rtl::kWidePorts, rtl::kWidePorts, network_ports, channels));
  }
  // Full path and tree routers read the destination list from the data bits of the head
  // flit and, under header_decode buffered, of the header flits after it (docs/rtl.md,
  // "Destination lists in header flits"), as the C++ model charges them.
  if (!minimal && r.multidest != MultidestMode::kNone) {
    require(rtl::rtl_build_ports(network_ports, channels) != rtl::kCubePorts, key,
            fmt::format("the RTL router with more than {} network ports or NI channels (the cube "
                        "build) has no multidestination hardware (this network needs {} and {})",
                        rtl::kWidePorts, network_ports, channels));
    const rtl::ListFormat format = rtl_list_format(config);
    const std::string enc = "network.router.header_encoding";
    if (r.multidest == MultidestMode::kPath)
      require(!format.bit_string, enc,
              "the RTL path router reads its next target from an address_list; use "
              "address_list, or implementation systemc for bit_string path worms");
    if (r.multidest == MultidestMode::kTree)
      require(nodes <= rtl::kMaxTreeNodes, key,
              fmt::format("the RTL tree router decodes destination sets of at most {} nodes "
                          "(got {})",
                          rtl::kMaxTreeNodes, nodes));
    // The longest list a worm of this run can carry: the synthetic traffic's destination
    // count, or, for collectives, every other node.
    const int dests = config.workload == Workload::kSynthetic
                          ? std::min(config.traffic.multicast_destinations, nodes - 1)
                          : nodes - 1;
    const long long bits = format.bit_string ? static_cast<long long>(nodes)
                                             : static_cast<long long>(dests) * format.address_bits;
    const std::string list =
        format.bit_string
            ? fmt::format("a {}-node bit_string", nodes)
            : fmt::format("an address_list of {} {}-bit addresses", dests, format.address_bits);
    // The key that sets the list's length: the synthetic traffic's destination count; for
    // collectives, the network's size, which the RTL build limits.
    const std::string length_key =
        config.workload == Workload::kSynthetic ? "traffic.multicast_destinations" : key;
    if (config.workload != Workload::kSynthetic || config.traffic.multicast_fraction > 0) {
      const long long head_bits = 8LL * config.network.flit_bytes;
      // The list continues in header flits: the router collects them before routing, as the
      // C++ router does under header_decode buffered.
      if (bits > head_bits)
        require(r.header_decode == HeaderDecode::kBuffered, "network.router.header_decode",
                fmt::format("the RTL {} router routes a worm once the header flits it reads are "
                            "in: {} needs {} bits, more than the {}-byte head flit holds, so "
                            "set header_decode: buffered (the C++ router's timing for it)",
                            to_string(r.multidest), list, bits, config.network.flit_bytes));
      // ... in flits as wide as the C++ model's, which the RTL's data bits must hold.
      if (bits > static_cast<long long>(rtl::kDataW))
        require(head_bits <= static_cast<long long>(rtl::kDataW), "network.flit_bytes",
                fmt::format("the RTL flit carries {} data bits: a list of more than {} bits "
                            "travels in header flits of at most {} bytes (got {}-byte flits "
                            "and {} needing {} bits)",
                            rtl::kDataW, rtl::kDataW, rtl::kDataW / 8, config.network.flit_bytes,
                            list, bits));
      require(bits <= static_cast<long long>(rtl::kHdrW), length_key,
              fmt::format("the RTL {} router collects lists of at most {} bits: {} needs {}",
                          to_string(r.multidest), rtl::kHdrW, list, bits));
      if (r.multidest == MultidestMode::kTree && !format.bit_string)
        require(dests <= static_cast<int>(rtl::kMaxPath), length_key,
                fmt::format("the RTL tree router decodes address lists of at most {} "
                            "destinations (got {}); bit_string lists have no such limit",
                            rtl::kMaxPath, dests));
    }
  }
  if (r.multidest == MultidestMode::kPath && config.traffic.multicast_fraction > 0)
    require(config.traffic.multicast_destinations <= static_cast<int>(rtl::kMaxPath),
            "traffic.multicast_destinations",
            fmt::format("the RTL flit's path position counts at most {} path destinations (got {})",
                        rtl::kMaxPath, config.traffic.multicast_destinations));
  require(r.vcs <= rtl::kMaxVcs, key,
          fmt::format("the RTL router is built for at most {} VCs (network.router.vcs is {})",
                      rtl::kMaxVcs, r.vcs));
  require(r.buffer_depth <= rtl::kMaxDepth, key,
          fmt::format("the RTL router is built for buffers of at most {} flits "
                      "(network.router.buffer_depth is {})",
                      rtl::kMaxDepth, r.buffer_depth));
  require(rtl::rtl_build_ports(network_ports, channels) != 0, key,
          fmt::format("the RTL router is built with at most {} network ports and {} injection and "
                      "{} ejection channels (this network needs {} and {})",
                      rtl::kCubePorts, rtl::kCubePorts, rtl::kCubePorts, network_ports, channels));
  require(nodes <= rtl::kMaxNodes, key,
          fmt::format("the RTL flit carries {}-bit node ids: at most {} nodes (got {})",
                      rtl::kNodeW, rtl::kMaxNodes, nodes));
  if (config.network.topology.kind != TopologyKind::kHypercube)
    for (int side : config.network.topology.dims)
      require(side < rtl::kMaxNodes, key,
              fmt::format("the RTL router's straps hold side lengths up to {} (got {})",
                          rtl::kMaxNodes - 1, side));
}

}  // namespace wormsim
