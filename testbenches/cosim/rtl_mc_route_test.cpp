// Block-level test of rtl/wormsim_mc_route.sv against its C++ twin, MulticastRoute::branches
// (systemc/routing/multicast_route.cpp), with unicast heads against RouteCompute::route as
// Router::allocate_vcs uses it. The block (NumNet = 4, MaxNodes = 16, path and tree hardware;
// rtl/CMakeLists.txt) reads its per-node table from a Verilated wormsim_tree_table of the same
// router, as in wormsim_router (rtl_tree_table_test checks that table against C++). For each
// head the C++ branches and the RTL outputs must agree:
//  - one branch: multi_o low and route_o the branch's route (ports in RTL numbering);
//  - two or more: multi_o high and branch slot p (network port p) or NumNet (ejection)
//    valid exactly for the C++ branch on that port, with its route, current target and path
//    position (branch_t of rtl/wormsim_pkg.sv);
//  - a tree head that leads nowhere (C++ throws): lost_o high.
// Heads are seeded-random over 16-node networks (4x4 and 2x8 meshes and tori with wrap
// links, a 16-node ring, 4-cubes in both e-cube orders, Hamiltonian paths) and every input
// port and VC, with the edge cases forced: path heads at their current target (absorb and
// forward), at their last destination (eject only), passing through, with 16-entry lists
// (the list's last slot), conforming and arbitrary lists; tree heads at the source, at a
// destination, on and off the tree, single destinations and all 15 other nodes, their sets
// as address lists and as bit-strings. The head's length field comes from rtl::to_bits and
// the list input is the whole list (rtl::header_list), as wormsim_router hands it over once
// collected (docs/rtl.md, "Destination lists in header flits"). Each test checks that every
// such class occurred.
#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "port_layout.h"
#include "route_compute.h"
#include "rtl_flit.h"
#include "rtl_limits.h"
#include "rtl_router.h"
#include "topology.h"

// verilated.h reads the simulation time through sc_time_stamp() when SystemC is present
// (rtl_router.h brings it in).
using sc_core::sc_time_stamp;

#include "Vwormsim_mc_route.h"
#include "Vwormsim_tree_table.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

namespace pkg = rtl::pkg;

constexpr int kRtlNet = 4;     // rtl/CMakeLists.txt: wormsim_mc_route NumNet=4
constexpr int kMaxNodes = 16;  // ... MaxNodes=16
constexpr int kHeads = 4000;   // random heads per case and mode

struct Case {
  std::string name;
  TopologyKind kind = TopologyKind::kMesh;
  std::vector<int> dims;
  RoutingAlgorithm algorithm = RoutingAlgorithm::kDimensionOrder;
  std::vector<int> order = {};
  EcubeOrder ecube = EcubeOrder::kHighToLow;
  int vcs = 2;
  PortModel ports = PortModel::kOnePort;
  bool tree = true;  // tree worms too (not under Hamiltonian routing)
};

Config make_config(const Case& c, MultidestMode mode, HeaderEncoding encoding) {
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
  n.router.vcs = c.vcs;
  n.router.port_model = c.ports;
  n.router.multidest = mode;
  n.router.header_encoding = encoding;
  n.router.implementation = RouterImplementation::kRtl;
  return config;
}

// What the test saw, so it can check that every edge case was exercised.
struct Seen {
  long unicast = 0, pass = 0, absorb = 0, last = 0, full_list = 0;      // path / unicast
  long tree_single = 0, tree_multi = 0, tree_eject = 0, tree_lost = 0;  // tree
  long tree_all = 0, tree_at_src = 0;
};

// RTL route_t bits of a C++ route (ports renumbered as the RTL numbers them).
std::uint32_t rtl_route(const RouteResult& r, const PortLayout& layout) {
  const auto port = [&](int p) {
    return static_cast<std::uint32_t>(rtl::rtl_port(p, layout.network, kRtlNet));
  };
  return port(r.port_lo) << pkg::kRoutePortLoLsb |
         (port(r.port_hi - 1) + 1) << pkg::kRoutePortHiLsb |
         static_cast<std::uint32_t>(r.vc_lo) << pkg::kRouteVcLoLsb |
         static_cast<std::uint32_t>(r.vc_hi) << pkg::kRouteVcHiLsb;
}

class Bench {
 public:
  Bench(const Case& c, MultidestMode mode, HeaderEncoding encoding = HeaderEncoding::kAddressList)
      : c_(c),
        config_(make_config(c, mode, encoding)),
        topology_((config_.validate(), config_.network.topology)),
        layout_(PortLayout::make(c.ports, topology_.network_ports(), 1, 0)),
        rc_(topology_, config_.network.routing, layout_, c.vcs),
        mc_(topology_, rc_, table_) {
    EXPECT_LE(topology_.nodes(), kMaxNodes);
  }

  int nodes() const { return topology_.nodes(); }
  const RouteCompute& rc() const { return rc_; }
  const Topology& topology() const { return topology_; }
  int inputs() const { return layout_.inputs(); }

  // The router at `here`: straps, and the tree table's outputs wired into the block.
  void at(NodeId here) {
    here_ = here;
    const auto straps = rtl_straps(config_, topology_, layout_, here);
    for (std::size_t i = 0; i < straps.size(); ++i)
      table_rtl_->cfg_i[i] = rtl_->cfg_i[i] = straps[i];
    table_rtl_.eval();
    rtl_->coord_i = table_rtl_->coord_o;
    rtl_->port_i = table_rtl_->port_o;
    rtl_->here_i = table_rtl_->here_o;
  }

  // A unicast head (header null) or a multidestination head arriving at the current router
  // on in_port (its VC in the flit): compares C++ and RTL. Returns the number of C++ branches
  // (0: the tree worm leads nowhere from here).
  std::size_t compare(const Flit& head, const MulticastHeader* header, int in_port) {
    const std::string where = describe(head, header, in_port);
    rtl::FlitBits bits = rtl::to_bits(head, header, rtl_list_format(config_));
    std::array<std::uint32_t, (rtl::kFlitW + 31) / 32> words{};
    rtl::pack(bits, words.data(), 0);
    for (std::size_t i = 0; i < words.size(); ++i) rtl_->flit_i[i] = words[i];
    // The whole list, as wormsim_router collects it from the head and its header flits.
    const rtl::HeaderList list =
        header == nullptr ? rtl::HeaderList{}
                          : rtl::header_list(head.packet_id, *header, rtl_list_format(config_));
    for (std::size_t i = 0; i < list.bits.size(); ++i) {
      rtl_->list_i[2 * i] = static_cast<std::uint32_t>(list.bits[i]);
      rtl_->list_i[2 * i + 1] = static_cast<std::uint32_t>(list.bits[i] >> 32);
    }
    rtl_->in_port_i = static_cast<std::uint8_t>(rtl::rtl_port(in_port, layout_.network, kRtlNet));
    rtl_.eval();
    EXPECT_FALSE(rtl_.error()) << where;
    const bool multi = rtl_->multi_o != 0;
    const bool lost = rtl_->lost_o != 0;
    const std::uint32_t route = rtl_->route_o;
    std::vector<MulticastBranch> want;
    if (header == nullptr) {
      want.push_back({rc_.route(here_, head.dst, in_port, head.vc), head.dst, 0});
    } else {
      try {
        mc_.branches(here_, head, in_port, head.vc, want);
      } catch (const std::logic_error&) {
        EXPECT_TRUE(lost) << where << ": C++ finds no branch";
        return 0;
      }
    }
    EXPECT_FALSE(lost) << where;
    if (want.size() == 1) {
      EXPECT_FALSE(multi) << where;
      EXPECT_EQ(route, rtl_route(want[0].route, layout_)) << where;
      return 1;
    }
    EXPECT_TRUE(multi) << where << ": C++ has " << want.size() << " branches";
    // Expected slot contents: network port p -> slot p, ejection -> slot NumNet.
    std::vector<const MulticastBranch*> slot(kRtlNet + 1, nullptr);
    for (const MulticastBranch& b : want) {
      const int s = b.route.port_lo < layout_.network ? b.route.port_lo : kRtlNet;
      EXPECT_EQ(slot[static_cast<std::size_t>(s)], nullptr)
          << where << ": two C++ branches on slot " << s;
      slot[static_cast<std::size_t>(s)] = &b;
    }
    for (int s = 0; s <= kRtlNet; ++s) {
      const unsigned base = static_cast<unsigned>(s) * pkg::kBranchW;
      const auto field = [&](unsigned lsb, unsigned w) {
        return rtl::get_bits(rtl_->br_o.data(), base + lsb, w);
      };
      const MulticastBranch* b = slot[static_cast<std::size_t>(s)];
      EXPECT_EQ(field(pkg::kBranchValidLsb, 1), b != nullptr ? 1u : 0u) << where << " slot " << s;
      if (b == nullptr) continue;
      EXPECT_EQ(field(pkg::kBranchRouteLsb, pkg::kBranchRouteW), rtl_route(b->route, layout_))
          << where << " slot " << s;
      EXPECT_EQ(field(pkg::kBranchDstLsb, pkg::kBranchDstW), b->dst) << where << " slot " << s;
      EXPECT_EQ(field(pkg::kBranchMposLsb, pkg::kBranchMposW), b->mpos) << where << " slot " << s;
    }
    return want.size();
  }

  std::uint32_t add(MultidestMode mode, NodeId src, std::vector<NodeId> dests) {
    return table_.add(mode, src, std::move(dests), 4);
  }
  const MulticastHeader& header(std::uint32_t handle) const { return table_.at(handle); }
  NodeId here() const { return here_; }

 private:
  std::string describe(const Flit& head, const MulticastHeader* header, int in_port) const {
    std::string s = c_.name + ": router " + std::to_string(here_) + " in_port " +
                    std::to_string(in_port) + " in_vc " + std::to_string(head.vc);
    if (header == nullptr) return s + " unicast to " + std::to_string(head.dst);
    s += header->mode == MultidestMode::kPath ? " path" : " tree";
    s += " from " + std::to_string(header->src) + " mpos " + std::to_string(head.mpos) + " to";
    for (NodeId d : header->dests) s += " " + std::to_string(d);
    return s;
  }

  Case c_;
  Config config_;
  Topology topology_;
  PortLayout layout_;
  RouteCompute rc_;
  MulticastTable table_;
  MulticastRoute mc_;
  rtl_test::Block<Vwormsim_tree_table> table_rtl_;
  rtl_test::Block<Vwormsim_mc_route> rtl_;
  NodeId here_ = 0;
};

Flit head_flit(NodeId src, NodeId dst, int vc, std::uint32_t mcast, int mpos, std::uint64_t id) {
  Flit f;
  f.packet_id = id;
  f.src = src;
  f.dst = dst;
  f.vc = static_cast<std::uint8_t>(vc);
  f.type = FlitType::kHead;
  f.mcast = mcast;
  f.mpos = static_cast<std::uint16_t>(mpos);
  return f;
}

// Path worms (and unicast heads) in one case.
Seen run_path(const Case& c, std::uint64_t seed) {
  Bench bench(c, MultidestMode::kPath);
  std::mt19937_64 rng(seed);
  Seen seen;
  const auto nodes = static_cast<NodeId>(bench.nodes());
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  for (int k = 0; k < kHeads && !::testing::Test::HasFailure(); ++k) {
    const auto src = static_cast<NodeId>(pick(static_cast<int>(nodes)));
    std::vector<NodeId> dests;
    const int kind = pick(4);
    if (kind == 0) {
      dests = random_brcp_path(bench.rc(), bench.topology(), src, 1 + pick(6), rng);
      if (dests.empty()) continue;
    } else if (kind == 1) {
      // The header's full 16 entries: more than the other nodes of a 16-node network, so
      // nodes repeat, never twice in a row (a target is never its own successor in a worm).
      while (dests.size() < rtl::kMaxPath) {
        const auto n = static_cast<NodeId>(pick(static_cast<int>(nodes)));
        if (n != (dests.empty() ? src : dests.back())) dests.push_back(n);
      }
    } else {
      // Any list of distinct other nodes.
      for (NodeId n = 0; n < nodes; ++n)
        if (n != src) dests.push_back(n);
      std::shuffle(dests.begin(), dests.end(), rng);
      dests.resize(static_cast<std::size_t>(1 + pick(static_cast<int>(dests.size()))));
    }
    const int size = static_cast<int>(dests.size());
    // Position: the last destination half of the time, else any.
    const int mpos = pick(2) == 0 ? size - 1 : pick(size);
    const NodeId target = dests[static_cast<std::size_t>(mpos)];
    // Router: the current target half of the time (absorb), else any node.
    const NodeId here = pick(2) == 0 ? target : static_cast<NodeId>(pick(static_cast<int>(nodes)));
    const std::uint32_t handle = bench.add(MultidestMode::kPath, src, dests);
    const int in_port = pick(bench.inputs());
    const int in_vc = pick(c.vcs);
    bench.at(here);
    const std::size_t branches =
        bench.compare(head_flit(src, target, in_vc, handle, mpos, static_cast<std::uint64_t>(k)),
                      &bench.header(handle), in_port);
    if (here != target)
      ++seen.pass;
    else if (mpos + 1 < size)
      ++seen.absorb;
    else
      ++seen.last;
    EXPECT_EQ(branches,
              here == target && mpos + 1 < size ? 2u : 1u);  // the contract of a path worm
    if (size == static_cast<int>(rtl::kMaxPath) && here == target) ++seen.full_list;
    // A unicast head to the same target, on the same router.
    bench.compare(head_flit(src, target, in_vc, 0, 0, static_cast<std::uint64_t>(k)), nullptr,
                  in_port);
    ++seen.unicast;
  }
  return seen;
}

// Tree worms in one case.
Seen run_tree(const Case& c, std::uint64_t seed, HeaderEncoding encoding) {
  Bench bench(c, MultidestMode::kTree, encoding);
  std::mt19937_64 rng(seed);
  Seen seen;
  const auto nodes = static_cast<NodeId>(bench.nodes());
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  for (int k = 0; k < kHeads && !::testing::Test::HasFailure(); ++k) {
    const auto src = static_cast<NodeId>(pick(static_cast<int>(nodes)));
    // Destination density: one node, sparse, dense, or every other node.
    const int density = pick(4);
    std::vector<NodeId> dests;
    for (NodeId n = 0; n < nodes; ++n) {
      if (n == src) continue;
      const bool in =
          density == 3 || (density == 1 && pick(5) == 0) || (density == 2 && pick(3) != 0);
      if (in) dests.push_back(n);
    }
    if (density == 0 || dests.empty())
      dests = {static_cast<NodeId>(
          (src + 1 + static_cast<NodeId>(pick(static_cast<int>(nodes) - 1))) % nodes)};
    // Router: the source, a node on the route to a destination, or any node.
    NodeId here = src;
    const int where = pick(3);
    if (where == 1) {
      const NodeId d = dests[static_cast<std::size_t>(pick(static_cast<int>(dests.size())))];
      for (int hops = pick(static_cast<int>(nodes)); here != d && hops > 0; --hops)
        here = bench.rc().next_node(here, d);
    } else if (where == 2) {
      here = static_cast<NodeId>(pick(static_cast<int>(nodes)));
    }
    const std::uint32_t handle = bench.add(MultidestMode::kTree, src, dests);
    const int in_port = pick(bench.inputs());
    const int in_vc = pick(c.vcs);
    bench.at(here);
    const std::size_t branches =
        bench.compare(head_flit(src, dests[0], in_vc, handle, 0, static_cast<std::uint64_t>(k)),
                      &bench.header(handle), in_port);
    if (branches == 0)
      ++seen.tree_lost;
    else if (branches == 1)
      ++seen.tree_single;
    else
      ++seen.tree_multi;
    if (here == src) ++seen.tree_at_src;
    if (density == 3) ++seen.tree_all;
    if (std::find(dests.begin(), dests.end(), here) != dests.end()) ++seen.tree_eject;
  }
  return seen;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  auto add = [&](std::string name, TopologyKind kind, std::vector<int> dims) -> Case& {
    Case c;
    c.name = std::move(name);
    c.kind = kind;
    c.dims = std::move(dims);
    out.push_back(c);
    return out.back();
  };
  add("mesh 4x4", TopologyKind::kMesh, {4, 4});
  Case& yx = add("mesh 2x8 order {1,0} all-port 3 VCs", TopologyKind::kMesh, {2, 8});
  yx.order = {1, 0};
  yx.ports = PortModel::kAllPort;
  yx.vcs = 3;
  Case& t = add("torus 4x4 all-port", TopologyKind::kTorus, {4, 4});
  t.ports = PortModel::kAllPort;
  Case& ring = add("torus 16 (ring) 3 VCs", TopologyKind::kTorus, {16});
  ring.vcs = 3;
  for (EcubeOrder order : {EcubeOrder::kHighToLow, EcubeOrder::kLowToHigh}) {
    Case& h = add(
        std::string("4-cube ") + (order == EcubeOrder::kHighToLow ? "high-to-low" : "low-to-high"),
        TopologyKind::kHypercube, {4});
    h.algorithm = RoutingAlgorithm::kEcube;
    h.ecube = order;
    h.ports = order == EcubeOrder::kHighToLow ? PortModel::kOnePort : PortModel::kAllPort;
  }
  Case& ham = add("hamiltonian mesh 4x4", TopologyKind::kMesh, {4, 4});
  ham.algorithm = RoutingAlgorithm::kHamiltonian;
  ham.tree = false;
  return out;
}

TEST(RtlMcRoute, PathWormsAndUnicastHeadsMatchCpp) {
  std::uint64_t seed = 1;
  for (const Case& c : cases()) {
    const Seen s = run_path(c, seed++);
    if (::testing::Test::HasFailure()) return;
    EXPECT_GT(s.pass, 0) << c.name;
    EXPECT_GT(s.absorb, 0) << c.name;
    EXPECT_GT(s.last, 0) << c.name;
    EXPECT_GT(s.full_list, 0) << c.name;
    EXPECT_GT(s.unicast, 0) << c.name;
  }
}

TEST(RtlMcRoute, TreeWormsMatchCpp) {
  std::uint64_t seed = 100;
  for (HeaderEncoding encoding : {HeaderEncoding::kAddressList, HeaderEncoding::kBitString})
    for (const Case& c : cases()) {
      if (!c.tree) continue;
      const Seen s = run_tree(c, seed++, encoding);
      const std::string name = c.name + " " + to_string(encoding);
      if (::testing::Test::HasFailure()) return;
      EXPECT_GT(s.tree_single, 0) << name;
      EXPECT_GT(s.tree_multi, 0) << name;
      EXPECT_GT(s.tree_lost, 0) << name;
      EXPECT_GT(s.tree_eject, 0) << name;
      EXPECT_GT(s.tree_at_src, 0) << name;
      EXPECT_GT(s.tree_all, 0) << name;
    }
}

}  // namespace
}  // namespace wormsim
