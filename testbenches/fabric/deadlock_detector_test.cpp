// Tests of the deadlock report (wait-for graph over input VCs that hold flits) built on real
// router state: a deadlocked torus frozen by the watchdog, a cleanly drained mesh, a loaded
// mesh stopped mid-run (deadlock-free routing: waiting VCs but no cycle), tree worms with
// cut-through replication stopped mid-run (waits for room, no cycle). The expected
// waiting set and wait-for edges are recomputed from the routers' buffers and the rules in
// deadlock_detector.h, with neighbours from torus coordinates. The deadlock kind of each
// scenario is argued by hand at its test and also recomputed from the routers' state (which
// VC of the cycle holds a consumption channel the previous one waits for; which replicates).
// One Network per TEST.
#include "deadlock_detector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "network_test_util.h"

namespace wormsim::testing::deadlock_detector_test {
namespace {

using VcKey = std::tuple<NodeId, int, int>;  // router, input port, VC

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The waiting entries must be exactly the input VCs holding flits, with their state.
void expect_waiting_matches_routers(const DeadlockReport& report, const Network& net) {
  std::set<VcKey> expected;
  for (const auto& r : net.routers())
    for (int p = 0; p < r->params().layout.inputs(); ++p)
      for (int v = 0; v < r->params().vcs; ++v)
        if (!r->input(p).vcs[static_cast<std::size_t>(v)].buffer.empty())
          expected.insert({r->id(), p, v});
  std::set<VcKey> reported;
  for (const WaitingVc& w : report.waiting) {
    SCOPED_TRACE(report.describe(w));
    EXPECT_TRUE(reported.insert({w.router, w.port, w.vc}).second) << "listed twice";
    const Router& r = *net.routers().at(w.router);
    ASSERT_LT(w.port, r.params().layout.inputs());
    ASSERT_LT(w.vc, r.params().vcs);
    const InputVc& ivc = r.input(w.port).vcs[static_cast<std::size_t>(w.vc)];
    ASSERT_FALSE(ivc.buffer.empty());
    EXPECT_EQ(w.flits, ivc.buffer.size());
    EXPECT_EQ(w.packet, ivc.buffer.front().flit.packet_id);
    EXPECT_EQ(w.dst, ivc.buffer.front().flit.dst);
    EXPECT_EQ(w.state, to_string(ivc.state));
    if (ivc.state == VcState::kActive && !ivc.branches.empty()) {
      EXPECT_EQ(w.out_port, -1);  // a replicating worm's output VCs are its branches'
      EXPECT_FALSE(w.branches.empty());
    } else if (ivc.state == VcState::kActive) {
      EXPECT_EQ(w.out_port, ivc.out_port);
      EXPECT_EQ(w.out_vc, ivc.out_vc);
      EXPECT_EQ(w.no_credit,
                !r.output(ivc.out_port).credits[static_cast<std::size_t>(ivc.out_vc)].available());
    } else {
      EXPECT_EQ(w.out_port, -1);
      EXPECT_FALSE(w.no_credit);
    }
  }
  EXPECT_EQ(reported, expected);
}

// Neighbour through network port p on a 2D torus (sx x sy) or mesh, from coordinates:
// port 0 x+, 1 x-, 2 y+, 3 y-.
std::optional<NodeId> neighbor_2d(bool torus, int sx, int sy, NodeId n, int port) {
  int x = static_cast<int>(n) % sx;
  int y = static_cast<int>(n) / sx;
  const int delta = port % 2 == 0 ? 1 : -1;
  if (port / 2 == 0)
    x += delta;
  else
    y += delta;
  if (torus) {
    x = (x + sx) % sx;
    y = (y + sy) % sy;
  } else if (x < 0 || x >= sx || y < 0 || y >= sy) {
    return std::nullopt;
  }
  return static_cast<NodeId>(x + sx * y);
}

// Wait-for edges by the rules of deadlock_detector.h, computed over the reported list:
//  - active without credit on a network output: the downstream input VC (next router, the
//    port facing back, the held VC), if it holds flits;
//  - waiting_for_vc: for every candidate output VC with an owner at the same router, that
//    owner if it holds flits, else (drained, its tail still upstream) the VC one router back
//    that owns the output feeding it, and so on.
std::vector<int> expected_waits_for(const DeadlockReport& report, std::size_t i, const Network& net,
                                    bool torus, int sx, int sy) {
  const WaitingVc& w = report.waiting[i];
  const Router& r = *net.routers().at(w.router);
  const InputVc& ivc = r.input(w.port).vcs[static_cast<std::size_t>(w.vc)];
  const int network_ports = r.params().layout.network;
  const int vcs = r.params().vcs;
  std::set<VcKey> targets;
  if (w.state == "waiting_for_vc") {
    for (int p = ivc.route.port_lo; p < ivc.route.port_hi; ++p)
      for (int v = ivc.route.vc_lo; v < ivc.route.vc_hi; ++v) {
        int owner = r.owner(p, v);
        NodeId at = w.router;
        for (std::size_t hop = 0; owner >= 0 && hop <= net.routers().size(); ++hop) {
          const int port = owner / vcs;
          const int vc = owner % vcs;
          const Router& here = *net.routers().at(at);
          if (!here.input(port).vcs[static_cast<std::size_t>(vc)].buffer.empty()) {
            targets.insert({at, port, vc});
            break;
          }
          const auto up =
              port < network_ports ? neighbor_2d(torus, sx, sy, at, port) : std::optional<NodeId>{};
          if (!up) break;
          at = *up;
          owner = net.routers().at(at)->owner(port ^ 1, vc);
        }
      }
  }
  std::vector<int> edges;
  for (std::size_t j = 0; j < report.waiting.size(); ++j) {
    const WaitingVc& o = report.waiting[j];
    bool edge = false;
    if (w.state == "active" && w.no_credit && w.out_port < network_ports) {
      const auto next = neighbor_2d(torus, sx, sy, w.router, w.out_port);
      edge = next && o.router == *next && o.port == (w.out_port ^ 1) && o.vc == w.out_vc;
    } else if (w.state == "waiting_for_vc") {
      edge = targets.count({o.router, o.port, o.vc}) > 0;
    }
    if (edge) edges.push_back(static_cast<int>(j));
  }
  return edges;
}

void expect_edges_follow_the_rules(const DeadlockReport& report, const Network& net, bool torus,
                                   int sx, int sy) {
  for (std::size_t i = 0; i < report.waiting.size(); ++i) {
    std::vector<int> got = report.waiting[i].waits_for;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected_waits_for(report, i, net, torus, sx, sy))
        << report.describe(report.waiting[i]);
  }
}

void expect_closed_cycle(const DeadlockReport& report) {
  ASSERT_GE(report.cycle.size(), 2u);
  std::set<int> distinct(report.cycle.begin(), report.cycle.end());
  EXPECT_EQ(distinct.size(), report.cycle.size());
  for (std::size_t i = 0; i < report.cycle.size(); ++i) {
    const int at = report.cycle[i];
    const int next = report.cycle[(i + 1) % report.cycle.size()];
    ASSERT_GE(at, 0);
    ASSERT_LT(static_cast<std::size_t>(at), report.waiting.size());
    const std::vector<int>& edges = report.waiting[static_cast<std::size_t>(at)].waits_for;
    EXPECT_NE(std::find(edges.begin(), edges.end(), next), edges.end())
        << report.describe(report.waiting[static_cast<std::size_t>(at)]) << " does not wait for "
        << report.describe(report.waiting[static_cast<std::size_t>(next)]);
  }
}

// ---- A real deadlock ---------------------------------------------------------------------
// network_test's Watchdog configuration: 8x8 torus, one VC, no dateline classes.
TEST(DeadlockDetector, FrozenTorusDeadlockReportHoldsItsInvariants) {
  const Config c = deadlock_prone_torus();
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  // The network is frozen: nothing on any link (every arrival was taken in long ago).
  for (const Link& l : net->links()) {
    ASSERT_TRUE(l.flits.empty());
    ASSERT_TRUE(l.credits.empty());
  }

  const DeadlockReport report =
      build_deadlock_report(net->routers(), net->topology(), 777, 111, 42);
  EXPECT_EQ(report.detected_at, 777u);
  EXPECT_EQ(report.last_progress, 111u);
  EXPECT_EQ(report.flits_in_flight, 42u);
  EXPECT_EQ(report.input_names, (std::vector<std::string>{"x+", "x-", "y+", "y-", "inj0"}));
  EXPECT_EQ(report.output_names, (std::vector<std::string>{"x+", "x-", "y+", "y-", "ej0"}));

  ASSERT_FALSE(report.waiting.empty());
  expect_waiting_matches_routers(report, *net);
  expect_edges_follow_the_rules(report, *net, true, 8, 8);

  // Invariants of a frozen network (no flit moved for 500 cycles, links empty):
  for (const WaitingVc& w : report.waiting) {
    SCOPED_TRACE(report.describe(w));
    const Router& r = *net->routers()[w.router];
    const InputVc& ivc = r.input(w.port).vcs[static_cast<std::size_t>(w.vc)];
    if (w.state == "active") {
      // With a credit the VC would have crossed the switch, so it has none, and no credit on
      // a network port means the downstream buffer is full.
      EXPECT_TRUE(w.no_credit);
      ASSERT_LT(w.out_port, 4) << "an ejecting VC never blocks";
      const NodeId next = *neighbor_2d(true, 8, 8, w.router, w.out_port);
      const InputVc& down =
          net->routers()[next]->input(w.out_port ^ 1).vcs[static_cast<std::size_t>(w.out_vc)];
      EXPECT_EQ(down.buffer.size(), down.buffer.depth());
    } else {
      // Waiting for an output VC: every candidate is held, or it would have been granted.
      ASSERT_EQ(w.state, "waiting_for_vc");
      for (int p = ivc.route.port_lo; p < ivc.route.port_hi; ++p)
        for (int v = ivc.route.vc_lo; v < ivc.route.vc_hi; ++v) EXPECT_GE(r.owner(p, v), 0);
    }
    // Every blocked VC waits for something, which is why a cycle must exist.
    EXPECT_FALSE(w.waits_for.empty());
  }
  std::uint64_t flits = 0;
  for (const WaitingVc& w : report.waiting) flits += static_cast<std::uint64_t>(w.flits);
  EXPECT_EQ(flits, net->flits_in_network());

  expect_closed_cycle(report);
  // Built again on the same frozen state, it is the report the watchdog produced.
  const DeadlockReport& original = *net->deadlock();
  ASSERT_EQ(original.waiting.size(), report.waiting.size());
  for (std::size_t i = 0; i < report.waiting.size(); ++i) {
    EXPECT_EQ(original.waiting[i].router, report.waiting[i].router);
    EXPECT_EQ(original.waiting[i].port, report.waiting[i].port);
    EXPECT_EQ(original.waiting[i].waits_for, report.waiting[i].waits_for);
  }
  EXPECT_EQ(original.cycle, report.cycle);

  // The text names the stall, the cycle and every router in it.
  const std::string text = report.text();
  EXPECT_TRUE(contains(text, "no flit moved from cycle 111 to cycle 777 with 42 flits in flight"))
      << text;
  EXPECT_TRUE(contains(text, "wait-for cycle (" + std::to_string(report.cycle.size()) + " VCs)"))
      << text;
  EXPECT_TRUE(contains(text, "-> back to the first")) << text;
  EXPECT_TRUE(contains(text, "waiting VCs (" + std::to_string(report.waiting.size()) + ")"))
      << text;
  for (int i : report.cycle) {
    const WaitingVc& w = report.waiting[static_cast<std::size_t>(i)];
    const std::string where = "router " + std::to_string(w.router) + " in " +
                              report.input_names[static_cast<std::size_t>(w.port)] + " vc " +
                              std::to_string(w.vc) + ": packet " + std::to_string(w.packet);
    EXPECT_TRUE(contains(text, where)) << where << "\n" << text;
    if (w.state == "active") {
      const std::string held = "holds out " +
                               report.output_names[static_cast<std::size_t>(w.out_port)] +
                               " vc 0 with no credit";
      EXPECT_TRUE(contains(report.describe(w), held)) << report.describe(w);
    }
  }
}

// ---- No waiting VCs ---------------------------------------------------------------------------
TEST(DeadlockDetector, DrainedNetworkGivesAnEmptyReport) {
  Config c = mesh_config({4, 4});
  c.traffic.injection_rate = 0.3;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 500;
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  ASSERT_GT(net->stats().flits_ejected(), 0u);
  const DeadlockReport report = build_deadlock_report(net->routers(), net->topology(), 900, 850, 0);
  EXPECT_TRUE(report.waiting.empty());
  EXPECT_TRUE(report.cycle.empty());
  EXPECT_EQ(report.input_names.size(), 5u);
  const std::string text = report.text();
  EXPECT_TRUE(contains(text, "no wait-for cycle found")) << text;
  EXPECT_TRUE(contains(text, "deadlock kind: unknown")) << text;
  EXPECT_EQ(report.kind, DeadlockKind::kUnknown);
  EXPECT_TRUE(contains(text, "waiting VCs (0)")) << text;
  EXPECT_FALSE(contains(text, "router ")) << text;
}

TEST(DeadlockDetector, NoRoutersGivesAnEmptyReport) {
  TopologyConfig t;
  t.kind = TopologyKind::kMesh;
  t.dims = {2, 2};
  const Topology topo(t);
  const std::vector<std::unique_ptr<Router>> none;
  const DeadlockReport report = build_deadlock_report(none, topo, 10, 3, 5);
  EXPECT_EQ(report.detected_at, 10u);
  EXPECT_EQ(report.last_progress, 3u);
  EXPECT_EQ(report.flits_in_flight, 5u);
  EXPECT_TRUE(report.waiting.empty());
  EXPECT_TRUE(report.cycle.empty());
  EXPECT_TRUE(contains(report.text(), "no wait-for cycle found"));
}

// ---- Waiting VCs without a cycle ------------------------------------------------------------
// A saturated mesh with dimension-order routing stopped mid-run: many VCs hold flits and wait,
// but DOR on a mesh has an acyclic channel dependency graph, so the wait-for graph (whose
// edges follow channel dependencies) has no cycle.
TEST(DeadlockDetector, LoadedMeshMidRunHasWaitingVcsButNoCycle) {
  Config c = mesh_config({4, 4});
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.traffic.packet_length = 8;
  c.traffic.injection_rate = 0.9;  // far past saturation
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  c.validate();
  NetworkOptions opt;
  opt.quiet = true;
  SyntheticNetwork net("net", c, opt);
  sc_core::sc_start(sc_core::sc_time(2000, sc_core::SC_NS));  // 2000 cycles of 1 ns
  ASSERT_FALSE(net.finished());
  ASSERT_GT(net.stats().flits_ejected(), 0u);
  const DeadlockReport report = build_deadlock_report(net.routers(), net.topology(), 2000, 1999,
                                                      net.stats().flits_in_flight());
  ASSERT_GT(report.waiting.size(), 4u);
  expect_waiting_matches_routers(report, net);
  expect_edges_follow_the_rules(report, net, false, 4, 4);
  std::size_t edges = 0;
  for (const WaitingVc& w : report.waiting) edges += w.waits_for.size();
  EXPECT_GT(edges, 0u);  // there is contention to report
  EXPECT_TRUE(report.cycle.empty());
  EXPECT_TRUE(contains(report.text(), "no wait-for cycle found"));
}

// ---- Cut-through replication ---------------------------------------------------------------
// Tree worms with cut-through replication under load (docs/multidestination.md), stopped at
// several points mid-run. A replicating head waiting for a free output VC whose downstream
// buffer still holds fewer free slots than its worm has flits waits for that downstream input
// VC (recomputed here from the credit counters, with neighbours from mesh coordinates); the
// branch says so; and, as the deadlock-freedom argument says, the wait-for graph has no cycle.
TEST(DeadlockDetector, CutThroughWormsWaitForRoomWithoutACycle) {
  Config c = mesh_config({8, 8});
  c.network.router.multidest = MultidestMode::kTree;
  c.network.router.replication = Replication::kSynchronous;
  c.network.router.replication_flow = ReplicationFlow::kCutThrough;
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 8;
  c.traffic.packet_length = 8;
  c.traffic.injection_rate = 0.25;  // past saturation for these worms
  c.traffic.multicast_fraction = 0.5;
  c.traffic.multicast_destinations = 8;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  c.validate();
  NetworkOptions opt;
  opt.quiet = true;
  SyntheticNetwork net("net", c, opt);
  int room_edges = 0;
  for (Cycle at = 500; at <= 3000; at += 500) {
    sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_NS));
    ASSERT_FALSE(net.finished());
    const DeadlockReport report =
        build_deadlock_report(net.routers(), net.topology(), at, at - 1, 0);
    expect_waiting_matches_routers(report, net);
    EXPECT_TRUE(report.cycle.empty()) << report.text();
    std::map<VcKey, int> index;
    for (std::size_t i = 0; i < report.waiting.size(); ++i)
      index[{report.waiting[i].router, report.waiting[i].port, report.waiting[i].vc}] =
          static_cast<int>(i);
    for (const WaitingVc& w : report.waiting) {
      const Router& r = *net.routers().at(w.router);
      const InputVc& ivc = r.input(w.port).vcs[static_cast<std::size_t>(w.vc)];
      if (ivc.state != VcState::kRouted || ivc.branches.empty()) continue;
      EXPECT_EQ(ivc.room_needed, 8);  // 8 addresses of 6 bits fit the 64-bit head flit
      EXPECT_TRUE(contains(w.branches, "with room for 8 flits")) << report.describe(w);
      for (const ReplicaBranch& b : ivc.branches)
        for (int p = b.target.route.port_lo; p < b.target.route.port_hi; ++p)
          for (int v = b.target.route.vc_lo; v < b.target.route.vc_hi; ++v) {
            if (p >= 4 || r.owner(p, v) >= 0) continue;
            if (r.output(p).credits[static_cast<std::size_t>(v)].credits() >= 8) continue;
            const auto next = neighbor_2d(false, 8, 8, w.router, p);
            ASSERT_TRUE(next.has_value());
            const auto it = index.find({*next, p ^ 1, v});
            if (it == index.end()) continue;  // the flits are still on the link
            ++room_edges;
            EXPECT_NE(std::find(w.waits_for.begin(), w.waits_for.end(), it->second),
                      w.waits_for.end())
                << report.describe(w) << " does not wait for "
                << report.describe(report.waiting[static_cast<std::size_t>(it->second)]);
          }
    }
  }
  EXPECT_GT(room_edges, 0);  // the snapshots caught heads waiting for room
}

// ---- Deadlock kinds -----------------------------------------------------------------------------
// The kind by the rules of deadlock_detector.h, recomputed from router state: u -> v is a
// consumption wait when u (routed, no output yet) is at v's router and v owns an output VC on
// a consumption port that u may take.
DeadlockKind kind_from_routers(const DeadlockReport& report, const Network& net) {
  const std::vector<int>& cyc = report.cycle;
  if (cyc.empty()) return DeadlockKind::kUnknown;
  const PortLayout& layout = net.layout();
  for (std::size_t i = 0; i < cyc.size(); ++i) {
    const WaitingVc& u = report.waiting.at(static_cast<std::size_t>(cyc[i]));
    const WaitingVc& v = report.waiting.at(static_cast<std::size_t>(cyc[(i + 1) % cyc.size()]));
    if (u.router != v.router) continue;
    const Router& r = *net.routers().at(u.router);
    const InputVc& ivc = r.input(u.port).vcs.at(static_cast<std::size_t>(u.vc));
    if (ivc.state != VcState::kRouted) continue;
    const int vcs = r.params().vcs;
    for (int p = layout.network; p < layout.outputs(); ++p)
      for (int vc = 0; vc < vcs; ++vc)
        if (r.owner(p, vc) == v.port * vcs + v.vc) return DeadlockKind::kConsumptionChannels;
  }
  for (int i : cyc) {
    const WaitingVc& w = report.waiting.at(static_cast<std::size_t>(i));
    if (!net.routers()
             .at(w.router)
             ->input(w.port)
             .vcs.at(static_cast<std::size_t>(w.vc))
             .branches.empty())
      return DeadlockKind::kReplicationBranches;
  }
  return DeadlockKind::kRouting;
}

void expect_kind(const Network& net, DeadlockKind kind) {
  ASSERT_EQ(net.outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(net.deadlock().has_value());
  const DeadlockReport& d = *net.deadlock();
  const std::string text = d.text();
  ASSERT_FALSE(d.cycle.empty()) << text;
  EXPECT_EQ(d.kind, kind) << text;
  EXPECT_EQ(kind_from_routers(d, net), kind) << text;
  EXPECT_TRUE(contains(text, "deadlock kind: " + to_string(kind))) << text;
}

// One VC, no dateline classes, unicast only: the cycle runs around a ring of network channels.
TEST(DeadlockKind, TorusWithoutDatelinesIsRouting) {
  auto net = run(deadlock_prone_torus());
  expect_kind(*net, DeadlockKind::kRouting);
}

// Path worms cross on a line (multidest_test ConsumptionDeadlock): A from x=0 absorbs at x=2
// and heads for x=5, B from x=7 absorbs at x=5 and heads for x=2. One consumption channel and
// one VC: each holds the consumption channel at its first destination while its head waits for
// the one the other holds.
TEST(DeadlockKind, CrossingPathWormsWaitForConsumptionChannels) {
  Config c = mesh_config({8, 2});
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1;
  c.simulation.watchdog_cycles = 300;
  c.simulation.drain_max_cycles = 5000;
  auto net = run(c, {}, [](SyntheticNetwork& nw) {
    const Topology& t = nw.topology();
    auto n = [&](int x) { return t.node_at({x, 0}); };
    nw.schedule_multicast(n(0), {n(2), n(5)}, 40, 1);
    nw.schedule_multicast(n(7), {n(5), n(2)}, 40, 1);
  });
  expect_kind(*net, DeadlockKind::kConsumptionChannels);
}

// Tree worms replicate at their sources on a line, one VC: A from x=3 to {0, 6} holds x- and x+
// out of router 3; B from x=4 to {1, 7} holds x- and x+ out of router 4. A's east branch needs
// router 4's x+ (B's), B's west branch router 3's x- (A's); synchronous replication stalls
// both branches of each. No consumption channel is involved before the cycle closes.
TEST(DeadlockKind, OpposedTreeWormsWaitOnTheirBranches) {
  Config c = mesh_config({8, 1 + 1});
  c.network.router.multidest = MultidestMode::kTree;
  c.network.router.replication = Replication::kSynchronous;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1;
  c.simulation.watchdog_cycles = 300;
  c.simulation.drain_max_cycles = 5000;
  auto net = run(c, {}, [](SyntheticNetwork& nw) {
    const Topology& t = nw.topology();
    auto n = [&](int x) { return t.node_at({x, 0}); };
    nw.schedule_multicast(n(3), {n(0), n(6)}, 40, 1);
    nw.schedule_multicast(n(4), {n(1), n(7)}, 40, 1);
  });
  expect_kind(*net, DeadlockKind::kReplicationBranches);
}

// The load (8x8 mesh, 2 VCs x 4 flits, 8-flit packets, 20% tree worms to 8
// destinations, synchronous replication, 0.15 flits/node/cycle), shortened: it deadlocks, and
// the reported kind agrees with the routers' state.
TEST(DeadlockKind, SynchronousTreeWormsUnderLoad) {
  Config c = mesh_config({8, 8});
  c.network.router.multidest = MultidestMode::kTree;
  c.network.router.replication = Replication::kSynchronous;
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 4;
  c.traffic.packet_length = 8;
  c.traffic.multicast_fraction = 0.2;
  c.traffic.multicast_destinations = 8;
  c.traffic.injection_rate = 0.15;
  c.simulation.warmup_cycles = 500;
  c.simulation.measure_cycles = 3000;
  c.simulation.watchdog_cycles = 500;
  c.simulation.drain_max_cycles = 5000;
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  const DeadlockKind kind = kind_from_routers(*net->deadlock(), *net);
  EXPECT_NE(kind, DeadlockKind::kRouting);  // DOR on a mesh alone has no cycle
  expect_kind(*net, kind);
}

}  // namespace
}  // namespace wormsim::testing::deadlock_detector_test

// has_deadlocked_core on hand-built wait-for graphs (indices into `waiting`).
namespace wormsim::deadlock_detector_test {
namespace {

DeadlockReport graph(const std::vector<std::vector<int>>& edges) {
  DeadlockReport r;
  for (const std::vector<int>& e : edges) {
    WaitingVc w;
    w.waits_for = e;
    r.waiting.push_back(w);
  }
  return r;
}

TEST(DeadlockedCore, TwoVcsWaitingForEachOtherCanNeverMove) {
  EXPECT_TRUE(has_deadlocked_core(graph({{1}, {0}})));
  // A third VC waiting on the pair is stuck too; the core is still there.
  EXPECT_TRUE(has_deadlocked_core(graph({{1}, {0}, {0}})));
}

TEST(DeadlockedCore, ACycleWithAWayOutIsNoCore) {
  // 1 waits for any of 0 and 2 (holders of its candidate VCs); 2 waits for nothing, so it
  // moves, frees 1's candidate, and the cycle 0 -> 1 -> 0 breaks.
  EXPECT_FALSE(has_deadlocked_core(graph({{1}, {0, 2}, {}})));
  // The same through a chain: 2 waits for 3, which is free to move.
  EXPECT_FALSE(has_deadlocked_core(graph({{1}, {0, 2}, {3}, {}})));
}

TEST(DeadlockedCore, NoWaitingVcsNoCore) {
  EXPECT_FALSE(has_deadlocked_core(graph({})));
  EXPECT_FALSE(has_deadlocked_core(graph({{}, {0}})));
}

}  // namespace
}  // namespace wormsim::deadlock_detector_test
