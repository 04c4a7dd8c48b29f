// Block-level test of rtl/wormsim_route_compute.sv against the C++ RouteCompute
// (systemc/routing/route_compute.cpp): for every node, destination, input port and input VC of a
// configuration, the candidate ports and VCs must be equal. The straps are packed by
// rtl_straps (systemc/cosim/rtl_router.h), as for the RTL router. Port numbering: C++ network ports
// are RTL ports; C++ injection/ejection channel j (port network + j) is RTL port NumNet + j.
// Two Verilated blocks: NumNet = 4 (the narrow router builds) runs 1D/2D meshes and tori, DOR
// in both orders, tori with and without datelines and odd VC counts, 3- and 4-cubes with both
// e-cube orders, Hamiltonian routing, and one-port, k-port, all-port and consumption-channel
// port layouts; NumNet = rtl::kWidePorts (the wide build) runs 3D meshes and tori in all
// three dimension orders tested and 5- to 7-cubes, plus 2D cases again (a build routes every
// topology within its ports); NumNet = rtl::kCubePorts (the cube build) runs 8- to 16-cubes,
// the larger ones on sampled nodes and destinations (every address bit flipped, plus
// pseudo-random ones), and the smaller cubes again.
#include <cstdint>
#include <string>
#include <utility>
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

#include "Vwormsim_route_compute.h"
#include "Vwormsim_route_compute_cube.h"
#include "Vwormsim_route_compute_wide.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

constexpr int kRtlNet = 4;                    // rtl/CMakeLists.txt: wormsim_route_compute NumNet=4
constexpr int kRtlNetWide = rtl::kWidePorts;  // Vwormsim_route_compute_wide
constexpr int kRtlNetCube = rtl::kCubePorts;  // Vwormsim_route_compute_cube
// route_t of rtl/wormsim_pkg.sv (systemc/cosim/rtl_flit.h).
constexpr std::uint32_t kPortMask = (1u << rtl::kPortW) - 1;

struct Case {
  std::string name;
  TopologyKind kind = TopologyKind::kMesh;
  std::vector<int> dims;  // mesh/torus sides, or {n} for a hypercube
  RoutingAlgorithm algorithm = RoutingAlgorithm::kDimensionOrder;
  std::vector<int> order = {};
  EcubeOrder ecube = EcubeOrder::kHighToLow;
  bool dateline = true;
  int vcs = 2;
  PortModel ports = PortModel::kOnePort;
  int k = 1;
  int consumption = 0;
  // 0: compare every node with every destination. n > 0 (hypercubes): n nodes, each with n
  // destinations: itself, its neighbour across every dimension, then pseudo-random ones.
  int sample = 0;
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
  n.routing.dateline = c.dateline;
  n.router.vcs = c.vcs;
  n.router.port_model = c.ports;
  n.router.ports = c.k;
  n.router.consumption_channels = c.consumption;
  n.router.implementation = RouterImplementation::kRtl;
  return config;
}

int rtl_port(int port, const PortLayout& layout, int rtl_net) {
  return rtl::rtl_port(port, layout.network, rtl_net);
}

struct Counts {
  long destinations = 0;  // per node compared
  long routes = 0;
  long ejections = 0;
  long class1 = 0;  // routes restricted to the upper dateline class
};

template <class Model>
Counts compare_all(const Case& c, int rtl_net) {
  const Config config = make_config(c);
  config.validate();  // within the RTL router's maxima
  const Topology topology(config.network.topology);
  const PortLayout layout = PortLayout::make(c.ports, topology.network_ports(), c.k, c.consumption);
  const RouteCompute cpp(topology, config.network.routing, layout, c.vcs);
  rtl_test::Block<Model> rtl;
  Counts counts;
  const auto nodes = static_cast<NodeId>(topology.nodes());
  // A fixed pseudo-random sequence (Knuth's multiplicative hash) over the node ids.
  auto scramble = [&](std::uint32_t k) { return static_cast<NodeId>((k * 2654435761u) % nodes); };
  std::vector<NodeId> heres;
  for (NodeId n = 0; n < nodes && (c.sample == 0 || static_cast<int>(n) < c.sample); ++n)
    heres.push_back(c.sample == 0 ? n : n == 0 ? 0 : n == 1 ? nodes - 1 : scramble(n));
  for (const NodeId here : heres) {
    const auto straps = rtl_straps(config, topology, layout, here);
    for (std::size_t i = 0; i < straps.size(); ++i) rtl->cfg_i[i] = straps[i];
    std::vector<NodeId> dsts;
    if (c.sample == 0) {
      for (NodeId dst = 0; dst < nodes; ++dst) dsts.push_back(dst);
    } else {
      dsts.push_back(here);
      for (int b = 0; b < topology.dimensions(); ++b) dsts.push_back(here ^ (NodeId{1} << b));
      for (std::uint32_t k = 1; static_cast<int>(dsts.size()) < c.sample; ++k)
        if (scramble(k) != 0) dsts.push_back(here ^ scramble(k));  // never `here` again
    }
    counts.destinations = static_cast<long>(dsts.size());
    for (const NodeId dst : dsts) {
      for (int in_port = 0; in_port < layout.inputs(); ++in_port) {
        for (int in_vc = 0; in_vc < c.vcs; ++in_vc) {
          const RouteResult want = cpp.route(here, dst, in_port, in_vc);
          rtl->dst_i = static_cast<std::uint16_t>(dst);
          rtl->in_port_i = static_cast<std::uint8_t>(rtl_port(in_port, layout, rtl_net));
          rtl->in_vc_i = static_cast<std::uint8_t>(in_vc);
          rtl.eval();
          const std::uint32_t r = rtl->route_o;
          const int port_lo = static_cast<int>((r >> rtl::kRoutePortLoLsb) & kPortMask);
          const int port_hi = static_cast<int>((r >> rtl::kRoutePortHiLsb) & kPortMask);
          const int vc_lo = static_cast<int>((r >> rtl::kRouteVcLoLsb) & 0x1fu);
          const int vc_hi = static_cast<int>((r >> rtl::kRouteVcHiLsb) & 0x1fu);
          const std::string where = c.name + ": node " + std::to_string(here) + " dst " +
                                    std::to_string(dst) + " in_port " + std::to_string(in_port) +
                                    " in_vc " + std::to_string(in_vc);
          EXPECT_EQ(port_lo, rtl_port(want.port_lo, layout, rtl_net)) << where;
          // port_hi is one past the last candidate: map the last one.
          EXPECT_EQ(port_hi, rtl_port(want.port_hi - 1, layout, rtl_net) + 1) << where;
          EXPECT_EQ(vc_lo, want.vc_lo) << where;
          EXPECT_EQ(vc_hi, want.vc_hi) << where;
          if (::testing::Test::HasFailure()) return counts;  // one report, not thousands
          ++counts.routes;
          if (want.port_lo >= layout.network) ++counts.ejections;
          if (want.vc_lo > 0) ++counts.class1;
        }
      }
    }
  }
  return counts;
}

Case base(std::string name, TopologyKind kind, std::vector<int> dims) {
  Case c;
  c.name = std::move(name);
  c.kind = kind;
  c.dims = std::move(dims);
  return c;
}

std::vector<Case> mesh_cases() {
  std::vector<Case> cases;
  cases.push_back(base("mesh 4x4", TopologyKind::kMesh, {4, 4}));
  Case m53 = base("mesh 5x3 all-port 3 VCs", TopologyKind::kMesh, {5, 3});
  m53.vcs = 3;
  m53.ports = PortModel::kAllPort;
  cases.push_back(m53);
  Case yx = base("mesh 4x4 order {1,0} 2-port", TopologyKind::kMesh, {4, 4});
  yx.order = {1, 0};
  yx.ports = PortModel::kKPort;
  yx.k = 2;
  cases.push_back(yx);
  Case m35 = base("mesh 3x5 order {1,0} 4 VCs", TopologyKind::kMesh, {3, 5});
  m35.order = {1, 0};
  m35.vcs = 4;
  cases.push_back(m35);
  Case line = base("mesh 6 (1D) consumption 2", TopologyKind::kMesh, {6});
  line.consumption = 2;
  cases.push_back(line);
  return cases;
}

std::vector<Case> torus_cases() {
  std::vector<Case> cases;
  cases.push_back(base("torus 4x4", TopologyKind::kTorus, {4, 4}));
  Case t53 = base("torus 5x3 all-port 3 VCs", TopologyKind::kTorus, {5, 3});
  t53.vcs = 3;
  t53.ports = PortModel::kAllPort;
  cases.push_back(t53);
  Case yx = base("torus 5x3 order {1,0} 4 VCs consumption 2", TopologyKind::kTorus, {5, 3});
  yx.order = {1, 0};
  yx.vcs = 4;
  yx.consumption = 2;
  cases.push_back(yx);
  Case nodl = base("torus 4x4 no dateline", TopologyKind::kTorus, {4, 4});
  nodl.dateline = false;
  cases.push_back(nodl);
  Case ring = base("torus 7 (ring) 3 VCs", TopologyKind::kTorus, {7});
  ring.vcs = 3;
  cases.push_back(ring);
  return cases;
}

// An n-cube routed by e-cube in `order`.
Case cube(int n, EcubeOrder order) {
  Case h = base(std::to_string(n) + "-cube " +
                    (order == EcubeOrder::kHighToLow ? "high-to-low" : "low-to-high"),
                TopologyKind::kHypercube, {n});
  h.algorithm = RoutingAlgorithm::kEcube;
  h.ecube = order;
  return h;
}

std::vector<Case> hypercube_cases() {
  std::vector<Case> cases;
  for (int n : {3, 4}) {
    for (EcubeOrder order : {EcubeOrder::kHighToLow, EcubeOrder::kLowToHigh}) {
      Case h = cube(n, order);
      h.vcs = order == EcubeOrder::kHighToLow ? 2 : 3;
      h.ports = n == 3 ? PortModel::kAllPort : PortModel::kKPort;
      h.k = 2;
      cases.push_back(h);
    }
  }
  return cases;
}

std::vector<Case> hamiltonian_cases() {
  std::vector<Case> cases;
  Case h44 = base("hamiltonian mesh 4x4", TopologyKind::kMesh, {4, 4});
  h44.algorithm = RoutingAlgorithm::kHamiltonian;
  cases.push_back(h44);
  Case h53 = base("hamiltonian mesh 5x3 all-port", TopologyKind::kMesh, {5, 3});
  h53.algorithm = RoutingAlgorithm::kHamiltonian;
  h53.ports = PortModel::kAllPort;
  cases.push_back(h53);
  return cases;
}

template <class Model = Vwormsim_route_compute>
void run(const std::vector<Case>& cases, bool datelines, int rtl_net = kRtlNet) {
  for (const Case& c : cases) {
    const Counts n = compare_all<Model>(c, rtl_net);
    if (::testing::Test::HasFailure()) return;
    const long dsts = n.destinations;
    // Every (node, dst) pair was compared, for every input port and VC; at each node exactly
    // the packets to that node eject.
    EXPECT_GT(n.routes, dsts * (c.sample == 0 ? dsts : c.sample)) << c.name;
    EXPECT_EQ(n.ejections * dsts, n.routes) << c.name;
    if (datelines && c.kind == TopologyKind::kTorus && c.dateline && c.vcs > 1) {
      EXPECT_GT(n.class1, 0) << c.name;
    }
  }
}

// 3D meshes and tori (6 network ports) in several dimension orders and port models.
std::vector<Case> wide_3d_cases() {
  std::vector<Case> cases;
  Case m = base("mesh 4x3x3 one-port", TopologyKind::kMesh, {4, 3, 3});
  cases.push_back(m);
  Case mz = base("mesh 3x4x2 order {2,0,1} all-port 3 VCs", TopologyKind::kMesh, {3, 4, 2});
  mz.order = {2, 0, 1};
  mz.vcs = 3;
  mz.ports = PortModel::kAllPort;
  cases.push_back(mz);
  Case t = base("torus 4x3x5 all-port", TopologyKind::kTorus, {4, 3, 5});
  t.ports = PortModel::kAllPort;
  cases.push_back(t);
  Case tz = base("torus 3x4x4 order {1,2,0} 4 VCs 3-port", TopologyKind::kTorus, {3, 4, 4});
  tz.order = {1, 2, 0};
  tz.vcs = 4;
  tz.ports = PortModel::kKPort;
  tz.k = 3;
  cases.push_back(tz);
  Case tn = base("torus 4x4x4 no dateline consumption 5", TopologyKind::kTorus, {4, 4, 4});
  tn.dateline = false;
  tn.consumption = 5;
  cases.push_back(tn);
  return cases;
}

// 5- to 7-cubes (5 to 7 network ports), both e-cube orders, up to 7 NI channels.
std::vector<Case> wide_hypercube_cases() {
  std::vector<Case> cases;
  for (int n : {5, 6, 7}) {
    for (EcubeOrder order : {EcubeOrder::kHighToLow, EcubeOrder::kLowToHigh}) {
      Case h = cube(n, order);
      h.vcs = n == 7 ? 1 : 2;
      h.ports = n == 6 ? PortModel::kAllPort : PortModel::kOnePort;
      cases.push_back(h);
    }
  }
  return cases;
}

// 8- to 16-cubes (8 to 16 network ports), both e-cube orders, up to 16 NI channels; from 10
// dimensions on, sampled.
std::vector<Case> cube_cases() {
  std::vector<Case> cases;
  for (int n : {8, 10, 12, 16}) {
    for (EcubeOrder order : {EcubeOrder::kHighToLow, EcubeOrder::kLowToHigh}) {
      Case h = cube(n, order);
      h.vcs = n == 8 ? 2 : n == 10 ? 1 : n == 12 ? 3 : 4;
      h.ports = n == 10 ? PortModel::kOnePort : n == 12 ? PortModel::kKPort : PortModel::kAllPort;
      h.k = 5;
      if (n == 12) h.consumption = order == EcubeOrder::kHighToLow ? 9 : 0;
      h.sample = n == 8 ? 0 : 40;
      cases.push_back(h);
    }
  }
  return cases;
}

TEST(RtlRouteCompute, MeshesMatchCpp) { run(mesh_cases(), false); }
TEST(RtlRouteCompute, ToriWithDatelinesMatchCpp) { run(torus_cases(), true); }
TEST(RtlRouteCompute, HypercubesBothEcubeOrdersMatchCpp) { run(hypercube_cases(), false); }
TEST(RtlRouteCompute, HamiltonianMatchesCpp) { run(hamiltonian_cases(), false); }

TEST(RtlRouteComputeWide, ThreeDimensionalMeshesAndToriMatchCpp) {
  run<Vwormsim_route_compute_wide>(wide_3d_cases(), true, kRtlNetWide);
}
TEST(RtlRouteComputeWide, FiveToSevenCubesMatchCpp) {
  run<Vwormsim_route_compute_wide>(wide_hypercube_cases(), false, kRtlNetWide);
}
TEST(RtlRouteComputeWide, TwoDimensionalCasesMatchCppToo) {
  run<Vwormsim_route_compute_wide>(torus_cases(), true, kRtlNetWide);
  run<Vwormsim_route_compute_wide>(hamiltonian_cases(), false, kRtlNetWide);
  run<Vwormsim_route_compute_wide>(hypercube_cases(), false, kRtlNetWide);
}

TEST(RtlRouteComputeCube, EightToSixteenCubesMatchCpp) {
  run<Vwormsim_route_compute_cube>(cube_cases(), false, kRtlNetCube);
}
TEST(RtlRouteComputeCube, SmallerCubesMatchCppToo) {
  run<Vwormsim_route_compute_cube>(hypercube_cases(), false, kRtlNetCube);
  run<Vwormsim_route_compute_cube>(wide_hypercube_cases(), false, kRtlNetCube);
}

}  // namespace
}  // namespace wormsim
