#include "rtl_limits.h"

#include <algorithm>

#include <fmt/format.h>

#include "port_layout.h"
#include "rtl_flit.h"
#include "topology.h"

namespace wormsim {

namespace {
void require(bool ok, const std::string& key, const std::string& message) {
  if (!ok) throw ConfigError(key, message);
}
}  // namespace

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
  if (r.multidest == MultidestMode::kPath && !minimal)
    require(
        nodes <= rtl::kMaxPathNodes, key,
        fmt::format("the RTL path header lists {}-bit node ids: multidest path needs at most {} "
                    "nodes (got {})",
                    rtl::kPathIdW, rtl::kMaxPathNodes, nodes));
  if (r.multidest == MultidestMode::kTree)
    require(
        nodes <= rtl::kMaxTreeNodes, key,
        fmt::format("the RTL tree header is a {}-node bit-string: multidest tree needs at most {} "
                    "nodes (got {})",
                    rtl::kMaxTreeNodes, rtl::kMaxTreeNodes, nodes));
  if (r.multidest == MultidestMode::kPath && config.traffic.multicast_fraction > 0)
    require(config.traffic.multicast_destinations <= static_cast<int>(rtl::kMaxPath),
            "traffic.multicast_destinations",
            fmt::format("the RTL {} at most {} path destinations (got {})",
                        minimal ? "flit's path position counts" : "head flit lists", rtl::kMaxPath,
                        config.traffic.multicast_destinations));
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
