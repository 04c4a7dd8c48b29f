// Block-level test of rtl/wormsim_tree_table.sv against the C++ routing it mirrors: for every
// router of a network, and for every node n, the table's coordinates of n must be the C++
// Topology's, its port toward n the first hop of RouteCompute::first_hop_port (what
// MulticastRoute::branches groups tree destinations by, systemc/routing/multicast_route.cpp),
// or, for n = this node, the RTL port of the ejection route, and here_o must flag this node
// alone. The block is built with NumNet = 4 and MaxNodes = 16 (rtl/CMakeLists.txt): 4x4 and
// 2x8 meshes and tori (wrap links), a 16-node ring, 4-cubes in both e-cube orders and
// Hamiltonian routing, in two dimension orders and three port models.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config.h"
#include "port_layout.h"
#include "route_compute.h"
#include "rtl_router.h"
#include "topology.h"

// verilated.h reads the simulation time through sc_time_stamp() when SystemC is present
// (rtl_router.h brings it in).
using sc_core::sc_time_stamp;

#include "Vwormsim_tree_table.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

constexpr int kRtlNet = 4;     // rtl/CMakeLists.txt: wormsim_tree_table NumNet=4
constexpr int kMaxNodes = 16;  // ... MaxNodes=16

struct Case {
  std::string name;
  TopologyKind kind = TopologyKind::kMesh;
  std::vector<int> dims;  // sides, or {n} for an n-cube
  RoutingAlgorithm algorithm = RoutingAlgorithm::kDimensionOrder;
  std::vector<int> order = {};
  EcubeOrder ecube = EcubeOrder::kHighToLow;
  PortModel ports = PortModel::kOnePort;
};

Config make_config(const Case& c) {
  Config config;
  NetworkConfig& n = config.network;
  n.topology.kind = c.kind;
  if (c.kind == TopologyKind::kHypercube) {
    n.topology.dims.clear();
    n.topology.hypercube_dimension = c.dims.at(0);
  } else {
    n.topology.dims = c.dims;
  }
  n.routing.algorithm = c.algorithm;
  n.routing.order = c.order;
  n.routing.ecube_order = c.ecube;
  n.router.vcs = 2;
  n.router.port_model = c.ports;
  n.router.multidest =
      c.algorithm == RoutingAlgorithm::kHamiltonian ? MultidestMode::kPath : MultidestMode::kTree;
  n.router.implementation = RouterImplementation::kRtl;
  return config;
}

// Bits [lsb, lsb + width) of a Verilated wide output.
template <std::size_t N>
unsigned bits(const VlWide<N>& w, unsigned lsb, unsigned width) {
  return static_cast<unsigned>(rtl::get_bits(w.data(), lsb, width));
}
// ... of a narrow one.
template <typename T>
unsigned bits(T v, unsigned lsb, unsigned width) {
  return static_cast<unsigned>((std::uint64_t{v} >> lsb) & ((std::uint64_t{1} << width) - 1));
}

// Compares every router of the case's network; returns the number of (router, node) pairs.
int compare(const Case& c) {
  const Config config = make_config(c);
  config.validate();
  const Topology topology(config.network.topology);
  const PortLayout layout = PortLayout::make(c.ports, topology.network_ports(), 1,
                                             config.network.router.consumption_channels);
  const RouteCompute cpp(topology, config.network.routing, layout, 2);
  const auto nodes = static_cast<NodeId>(topology.nodes());
  EXPECT_LE(static_cast<int>(nodes), kMaxNodes) << c.name;
  rtl_test::Block<Vwormsim_tree_table> rtl;
  int compared = 0;
  const unsigned coord_w = rtl::pkg::kCoordW;
  const unsigned dims = rtl::pkg::kMaxDims;
  for (NodeId here = 0; here < nodes; ++here) {
    const auto straps = rtl_straps(config, topology, layout, here);
    for (std::size_t i = 0; i < straps.size(); ++i) rtl->cfg_i[i] = straps[i];
    rtl.eval();
    for (NodeId n = 0; n < nodes; ++n) {
      const std::string where =
          c.name + ": router " + std::to_string(here) + " node " + std::to_string(n);
      // Coordinates: a hypercube's are its address bits (the RTL holds MaxDims of them).
      const int coords = c.kind == TopologyKind::kHypercube
                             ? std::min(topology.dimensions(), static_cast<int>(dims))
                             : topology.dimensions();
      for (int d = 0; d < coords; ++d) {
        const unsigned lsb = (n * dims + static_cast<unsigned>(d)) * coord_w;
        const int want = c.kind == TopologyKind::kHypercube ? static_cast<int>((n >> d) & 1u)
                                                            : topology.coord(n, d);
        EXPECT_EQ(static_cast<int>(bits(rtl->coord_o, lsb, coord_w)), want)
            << where << " dim " << d;
      }
      const int port = static_cast<int>(bits(rtl->port_o, n * rtl::kPortW, rtl::kPortW));
      if (n == here)
        EXPECT_EQ(port, rtl::rtl_port(cpp.ejection(0).port_lo, layout.network, kRtlNet)) << where;
      else
        EXPECT_EQ(port, cpp.first_hop_port(here, n)) << where;
      EXPECT_EQ(bits(rtl->here_o, n, 1), n == here ? 1u : 0u) << where;
      if (::testing::Test::HasFailure()) return compared;  // one report, not hundreds
      ++compared;
    }
  }
  EXPECT_FALSE(rtl.error()) << c.name;
  return compared;
}

Case make(std::string name, TopologyKind kind, std::vector<int> dims) {
  Case c;
  c.name = std::move(name);
  c.kind = kind;
  c.dims = std::move(dims);
  return c;
}

TEST(RtlTreeTable, MeshesAndToriMatchCpp) {
  std::vector<Case> cases;
  cases.push_back(make("mesh 4x4", TopologyKind::kMesh, {4, 4}));
  Case yx = make("mesh 2x8 order {1,0} all-port", TopologyKind::kMesh, {2, 8});
  yx.order = {1, 0};
  yx.ports = PortModel::kAllPort;
  cases.push_back(yx);
  cases.push_back(make("torus 4x4", TopologyKind::kTorus, {4, 4}));
  Case t = make("torus 8x2 order {1,0}", TopologyKind::kTorus, {8, 2});
  t.order = {1, 0};
  cases.push_back(t);
  cases.push_back(make("torus 16 (ring)", TopologyKind::kTorus, {16}));
  Case h = make("hamiltonian mesh 4x4", TopologyKind::kMesh, {4, 4});
  h.algorithm = RoutingAlgorithm::kHamiltonian;
  cases.push_back(h);
  for (const Case& c : cases) {
    const int nodes = c.dims.size() == 1 ? c.dims[0] : c.dims[0] * c.dims[1];
    EXPECT_EQ(compare(c), nodes * nodes) << c.name;
  }
}

TEST(RtlTreeTable, HypercubesBothEcubeOrdersMatchCpp) {
  for (EcubeOrder order : {EcubeOrder::kHighToLow, EcubeOrder::kLowToHigh}) {
    for (int n : {3, 4}) {
      Case c = make(std::to_string(n) + "-cube", TopologyKind::kHypercube, {n});
      c.algorithm = RoutingAlgorithm::kEcube;
      c.ecube = order;
      c.ports = n == 4 ? PortModel::kAllPort : PortModel::kOnePort;
      EXPECT_EQ(compare(c), (1 << n) * (1 << n)) << c.name;
    }
  }
}

}  // namespace
}  // namespace wormsim
