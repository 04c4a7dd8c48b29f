// Multidestination worms end to end (docs/multidestination.md): zero-load latency of path and
// tree worms against the closed formula, the replication handshakes, consumption-channel
// deadlock (caught and reported) versus the configurations the docs call safe, the deadlock
// avoidance options under load (reserved VCs, cut-through replication), a soak of random
// worms checked exactly-once by the scoreboard, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "multicast_route.h"
#include "network_test_util.h"

namespace wormsim::multidest_test {
namespace {

using testing::zero_load_formula;

Config quiet(Config c, MultidestMode mode, Replication rep) {
  c.network.router.multidest = mode;
  c.network.router.replication = rep;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1;
  return c;
}

// Delivery cycle minus creation cycle per destination.
std::map<NodeId, Cycle> latencies(const SyntheticNetwork& net) {
  std::map<NodeId, Cycle> out;
  for (const DeliveredPacket& d : net.stats().packet_log())
    out[d.record.dst] = d.delivered - d.record.created;
  return out;
}

testing::RunOptions logged() {
  testing::RunOptions o;
  o.synthetic_traffic = false;
  o.record_packets = true;
  return o;
}

struct ZeroLoadCase {
  const char* name;
  TopologyKind topology;
  Replication replication;
  HeaderEncoding encoding;
  int pipeline;
  int depth;
  int length;
  RoutingAlgorithm routing;
  PipelineModel model = PipelineModel::kDelay;  // staged: `pipeline` is its stage count
  PathIr path_ir = PathIr::kFull;               // minimal: `encoding` is address_flits
  HeaderDecode decode = HeaderDecode::kHeadFlit;
};

class PathZeroLoad : public ::testing::TestWithParam<ZeroLoadCase> {};

// A path worm to m destinations along one route reaches each at the unicast latency of its
// hop count, for the worm's length including the extra header flits; the farthest one last.
// On the minimal path-IR router too (docs/multidestination.md, "The minimal path-IR
// router"): each destination strips its address flit, so the forwarded head leaves one cycle
// later with one flit less and the tail keeps its time; except under lookahead routing, where
// the promoted head is routed at the absorbing router: one cycle per absorbing router.
TEST_P(PathZeroLoad, EachDestinationAtTheUnicastLatencyOfTheWormWithItsHeader) {
  const ZeroLoadCase& k = GetParam();
  Config c = k.topology == TopologyKind::kTorus ? testing::torus_config({8, 8})
                                                : testing::mesh_config({8, 8});
  c = quiet(c, MultidestMode::kPath, k.replication);
  c.network.routing.algorithm = k.routing;
  c.network.router.header_encoding = k.encoding;
  c.network.router.pipeline_depth = k.pipeline;
  c.network.router.pipeline = k.model;
  c.network.router.buffer_depth = k.depth;
  c.network.router.vcs = 2;
  c.network.router.path_ir = k.path_ir;
  c.network.router.header_decode = k.decode;
  c.network.flit_bytes = 2;  // narrow flits: a 6-bit address list of 6 costs 3 flits
  const Topology topo(c.network.topology);
  auto n = [&](int x, int y) { return topo.node_at({x, y}); };
  const NodeId src = n(1, 2);
  std::vector<NodeId> dests =
      k.routing == RoutingAlgorithm::kHamiltonian
          ? std::vector<NodeId>{n(4, 2), n(7, 2), n(7, 3), n(2, 3), n(5, 6), n(2, 7)}
          : std::vector<NodeId>{n(2, 2), n(4, 2), n(6, 2), n(6, 3), n(6, 5), n(6, 7)};
  if (k.topology == TopologyKind::kTorus)  // through the wrap in y: 2, 1, 0, 7
    dests = {n(3, 2), n(5, 2), n(5, 1), n(5, 0), n(5, 7)};
  auto net = testing::run(
      c, logged(), [&](SyntheticNetwork& nw) { nw.schedule_multicast(src, dests, k.length, 10); });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  EXPECT_EQ(net->multicast_table().live(), 0u);
  const int extra = header_flits(k.encoding, dests.size(), 64, 2, k.path_ir) - 1;
  if (k.encoding == HeaderEncoding::kBitString) {
    EXPECT_EQ(extra, 3);  // 64 bits in 16-bit flits
  }
  if (k.encoding == HeaderEncoding::kAddressFlits) {
    EXPECT_EQ(extra, static_cast<int>(dests.size()) - 1);  // one address per flit
  }
  // The minimal router with address_list: two whole 6-bit addresses per 16-bit header flit.
  const std::size_t per_flit = k.encoding == HeaderEncoding::kAddressFlits ? 1 : 2;
  if (k.path_ir == PathIr::kMinimal && k.encoding == HeaderEncoding::kAddressList) {
    EXPECT_EQ(extra, static_cast<int>((dests.size() + 1) / 2) - 1);
  }
  // The minimal router drops a header flit at the destination of its last address unless
  // that is the last destination, and every flit left the network: the scoreboard checked
  // that each copy starts right after the header flits stripped before it.
  auto strips_up_to = [&](std::size_t i) {  // strip routers up to destination i (from 0)
    return k.path_ir == PathIr::kMinimal ? std::min(i + 1, dests.size() - 1) / per_flit : 0;
  };
  EXPECT_EQ(net->stats().flits_stripped(), strips_up_to(dests.size() - 1));
  EXPECT_EQ(net->stats().flits_in_flight(), 0u);
  const auto lat = latencies(*net);
  ASSERT_EQ(lat.size(), dests.size());
  int hops = 0;
  NodeId at = src;
  const RouteCompute& rc = net->route_compute();
  const bool speculative =
      k.model == PipelineModel::kSpeculative || k.model == PipelineModel::kLookaheadSpeculative;
  const bool lookahead = k.model == PipelineModel::kLookahead ||
                         k.model == PipelineModel::kLookaheadSpeculative ||
                         k.model == PipelineModel::kLookaheadCombined;

  // Buffered header decode on the full router (docs/multidestination.md, "Header decode"): at
  // target k, unless it is the last, the head waits for the header flit that completes entry
  // k + 1 (6-bit entries packed into 16-bit flits from the head on; entry e in flit e as
  // address flits; the whole 64-bit string): reads_k - 1 cycles more than a head routed on
  // arrival, for the copy absorbed there and every copy after it. Buffers of at least the
  // worm's length never stall the flits behind the waiting head, so the waits add up.
  auto reads = [&](std::size_t target) -> Cycle {
    switch (k.encoding) {
      case HeaderEncoding::kAddressList: return ((target + 2) * 6 - 1) / 16 + 1;
      case HeaderEncoding::kAddressFlits: return target + 2;
      case HeaderEncoding::kBitString: return 4;
    }
    return 1;
  };
  Cycle waited = 0;
  const bool buffered = k.decode == HeaderDecode::kBuffered && k.path_ir == PathIr::kFull;
  for (std::size_t i = 0; i < dests.size(); ++i) {
    const NodeId d = dests[i];
    if (buffered && i + 1 < dests.size()) waited += reads(i) - 1;
    hops += rc.route_hops(at, d);
    at = d;
    const RouterConfig& r = c.network.router;
    // Absorb-and-forward routers the copy for d passed, its own included: every destination
    // but the last replicates the worm (a cycle each under speculation); under lookahead
    // routing the minimal router's strips cost a cycle each.
    const Cycle replications = std::min(i + 1, dests.size() - 1);
    EXPECT_EQ(
        lat.at(d),
        zero_load_formula(hops, k.length + extra, r.pipeline_depth, r.link_latency,
                          r.credit_latency, r.buffer_depth, k.model != PipelineModel::kDelay) +
            (speculative ? replications : 0) + (lookahead ? strips_up_to(i) : 0) + waited)
        << "destination " << d << " after " << hops << " hops";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PathZeroLoad,
    ::testing::Values(
        ZeroLoadCase{"mesh_async_list", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 1, 4, 9, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"mesh_sync_list", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kAddressList, 1, 4, 9, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"mesh_sync_bits_p3_b2", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kBitString, 3, 2, 12, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"mesh_async_bits_p2_b1", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kBitString, 2, 1, 5, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"torus_async_list", TopologyKind::kTorus, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 1, 4, 9, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"torus_sync_bits_p4", TopologyKind::kTorus, Replication::kSynchronous,
                     HeaderEncoding::kBitString, 4, 3, 7, RoutingAlgorithm::kDimensionOrder},
        ZeroLoadCase{"hamiltonian_async", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 1, 4, 9, RoutingAlgorithm::kHamiltonian},
        ZeroLoadCase{"hamiltonian_sync_p2", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kAddressList, 2, 2, 6, RoutingAlgorithm::kHamiltonian},
        // Staged pipelines (docs/timing-model.md): absorb-and-forward adds nothing either, with
        // buffers covering the head's credit round trip Lk + P + Cr (or P = 2, where it is the
        // body flits' Lk + 2 + Cr); docs/multidestination.md says what shallower ones do. Under
        // the speculative models a replicating head does not speculate: one cycle more at
        // every absorb-and-forward router, whose round trip is then Lk + P + 1 + Cr.
        ZeroLoadCase{"mesh_async_list_classic", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 4, 6, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kClassic},
        ZeroLoadCase{"mesh_sync_bits_speculative_b6", TopologyKind::kMesh,
                     Replication::kSynchronous, HeaderEncoding::kBitString, 3, 6, 12,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kSpeculative},
        ZeroLoadCase{"torus_sync_list_lookahead_combined_b3", TopologyKind::kTorus,
                     Replication::kSynchronous, HeaderEncoding::kAddressList, 2, 3, 7,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kLookaheadCombined},
        ZeroLoadCase{"hamiltonian_async_lookahead", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 3, 5, 9, RoutingAlgorithm::kHamiltonian,
                     PipelineModel::kLookahead},
        // Address flits on the full router: one flit per address, nothing stripped.
        ZeroLoadCase{"mesh_async_flits_full", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressFlits, 1, 4, 9, RoutingAlgorithm::kDimensionOrder},
        // The minimal path-IR router, both handshakes, shallow and deep buffers, every
        // topology and routing above, and the staged models.
        ZeroLoadCase{"minimal_mesh_async", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressFlits, 1, 4, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_mesh_sync_p3_b1", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kAddressFlits, 3, 1, 5, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_mesh_async_p2_b2_single_flit", TopologyKind::kMesh,
                     Replication::kAsynchronous, HeaderEncoding::kAddressFlits, 2, 2, 1,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_torus_sync_p4", TopologyKind::kTorus, Replication::kSynchronous,
                     HeaderEncoding::kAddressFlits, 4, 3, 7, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_hamiltonian_async", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressFlits, 1, 4, 9, RoutingAlgorithm::kHamiltonian,
                     PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_mesh_async_classic", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressFlits, 4, 6, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kClassic, PathIr::kMinimal},
        ZeroLoadCase{"minimal_mesh_sync_speculative_b6", TopologyKind::kMesh,
                     Replication::kSynchronous, HeaderEncoding::kAddressFlits, 3, 6, 12,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kSpeculative,
                     PathIr::kMinimal},
        ZeroLoadCase{"minimal_torus_sync_lookahead_combined_b5", TopologyKind::kTorus,
                     Replication::kSynchronous, HeaderEncoding::kAddressFlits, 2, 5, 7,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kLookaheadCombined,
                     PathIr::kMinimal},
        ZeroLoadCase{"minimal_hamiltonian_async_lookahead_speculative_b6", TopologyKind::kMesh,
                     Replication::kAsynchronous, HeaderEncoding::kAddressFlits, 2, 6, 9,
                     RoutingAlgorithm::kHamiltonian, PipelineModel::kLookaheadSpeculative,
                     PathIr::kMinimal},
        // The minimal router with two addresses per header flit (address_list): it strips at
        // every second destination and forwards the head flit, its address advanced, at the
        // others.
        ZeroLoadCase{"minimal_list_mesh_sync", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kAddressList, 1, 4, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_list_torus_async_p3_b2", TopologyKind::kTorus,
                     Replication::kAsynchronous, HeaderEncoding::kAddressList, 3, 2, 5,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kDelay, PathIr::kMinimal},
        ZeroLoadCase{"minimal_list_hamiltonian_async_lookahead_b6", TopologyKind::kMesh,
                     Replication::kAsynchronous, HeaderEncoding::kAddressList, 3, 6, 9,
                     RoutingAlgorithm::kHamiltonian, PipelineModel::kLookahead, PathIr::kMinimal},
        ZeroLoadCase{"minimal_list_mesh_sync_classic_b6", TopologyKind::kMesh,
                     Replication::kSynchronous, HeaderEncoding::kAddressList, 4, 6, 9,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kClassic, PathIr::kMinimal},
        // Buffered header decode, buffers of at least the worm's length (header included).
        ZeroLoadCase{"buffered_mesh_async_list", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressList, 1, 11, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kFull, HeaderDecode::kBuffered},
        ZeroLoadCase{"buffered_mesh_sync_bits_p3", TopologyKind::kMesh, Replication::kSynchronous,
                     HeaderEncoding::kBitString, 3, 15, 12, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kFull, HeaderDecode::kBuffered},
        ZeroLoadCase{"buffered_torus_async_flits_p2", TopologyKind::kTorus,
                     Replication::kAsynchronous, HeaderEncoding::kAddressFlits, 2, 13, 9,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kDelay, PathIr::kFull,
                     HeaderDecode::kBuffered},
        ZeroLoadCase{"buffered_hamiltonian_sync_list_classic", TopologyKind::kMesh,
                     Replication::kSynchronous, HeaderEncoding::kAddressList, 4, 12, 9,
                     RoutingAlgorithm::kHamiltonian, PipelineModel::kClassic, PathIr::kFull,
                     HeaderDecode::kBuffered},
        ZeroLoadCase{"buffered_mesh_async_bits_speculative", TopologyKind::kMesh,
                     Replication::kAsynchronous, HeaderEncoding::kBitString, 3, 12, 9,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kSpeculative, PathIr::kFull,
                     HeaderDecode::kBuffered},
        ZeroLoadCase{"buffered_mesh_sync_list_lookahead_combined", TopologyKind::kMesh,
                     Replication::kSynchronous, HeaderEncoding::kAddressList, 2, 11, 9,
                     RoutingAlgorithm::kDimensionOrder, PipelineModel::kLookaheadCombined,
                     PathIr::kFull, HeaderDecode::kBuffered},
        // The minimal router's head flit holds its current address: buffered changes nothing.
        ZeroLoadCase{"buffered_minimal_mesh_async", TopologyKind::kMesh, Replication::kAsynchronous,
                     HeaderEncoding::kAddressFlits, 1, 4, 9, RoutingAlgorithm::kDimensionOrder,
                     PipelineModel::kDelay, PathIr::kMinimal, HeaderDecode::kBuffered}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// Tree replication adds no delay at zero load either: every destination of a scattered set
// gets the worm at the unicast latency of its DOR distance from the source. Staged pipelines
// too, with buffers of at least Lk + P + Cr flits, or P = 2 (see PathZeroLoad).
struct TreeZeroLoadCase {
  PipelineModel model;
  int pipeline;
  Replication replication;
  int depth;
};

class TreeZeroLoad : public ::testing::TestWithParam<TreeZeroLoadCase> {};

// A 6-flit tree worm from (3,3) of an 8x8 mesh to 9 scattered nodes, sent in cycle 5 into an
// idle network on config `c` (a tree config on that mesh): its destinations, their distances
// from the source and their latencies. The run must complete with the scoreboard clean.
struct ScatteredTree {
  std::vector<NodeId> dests;
  std::map<NodeId, int> distance;
  std::map<NodeId, Cycle> latency;
};

ScatteredTree run_scattered_tree(const Config& c) {
  const Topology topo(c.network.topology);
  auto n = [&](int x, int y) { return topo.node_at({x, y}); };
  const NodeId src = n(3, 3);
  ScatteredTree t;
  t.dests = {n(0, 0), n(7, 7), n(3, 0), n(3, 7), n(5, 3), n(1, 3), n(6, 1), n(4, 4), n(2, 6)};
  for (NodeId d : t.dests) t.distance[d] = topo.distance(src, d);
  auto net = testing::run(c, logged(),
                          [&](SyntheticNetwork& nw) { nw.schedule_multicast(src, t.dests, 6, 5); });
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  t.latency = latencies(*net);
  EXPECT_EQ(t.latency.size(), t.dests.size());
  return t;
}

TEST_P(TreeZeroLoad, EveryDestinationAtTheUnicastLatencyOfItsDistance) {
  const TreeZeroLoadCase& k = GetParam();
  Config c = quiet(testing::mesh_config({8, 8}), MultidestMode::kTree, k.replication);
  c.network.router.buffer_depth = k.depth;
  c.network.router.pipeline = k.model;
  c.network.router.pipeline_depth = k.pipeline;
  const ScatteredTree t = run_scattered_tree(c);
  const int extra = header_flits(HeaderEncoding::kAddressList, t.dests.size(), 64, 8) - 1;
  EXPECT_EQ(extra, 0);
  for (NodeId d : t.dests)
    EXPECT_EQ(t.latency.at(d), zero_load_formula(t.distance.at(d), 6, k.pipeline, 1, 1, k.depth,
                                                 k.model != PipelineModel::kDelay))
        << d;
}

INSTANTIATE_TEST_SUITE_P(
    Models, TreeZeroLoad,
    ::testing::Values(TreeZeroLoadCase{PipelineModel::kDelay, 2, Replication::kSynchronous, 3},
                      TreeZeroLoadCase{PipelineModel::kClassic, 4, Replication::kSynchronous, 6},
                      TreeZeroLoadCase{PipelineModel::kClassic, 4, Replication::kAsynchronous, 8},
                      TreeZeroLoadCase{PipelineModel::kCombined, 3, Replication::kAsynchronous, 5},
                      TreeZeroLoadCase{PipelineModel::kLookaheadCombined, 2,
                                       Replication::kSynchronous, 4}),
    [](const auto& p) {
      return to_string(p.param.model) + "_p" + std::to_string(p.param.pipeline) + "_" +
             to_string(p.param.replication) + "_b" + std::to_string(p.param.depth);
    });

// Buffered header decode: every router on a tree worm's way reads its whole list first. With
// 2-byte flits an 8x8 mesh's bit-string (64 bits) and a 9-entry address list (54 bits) are 4
// header flits each, so the head waits 3 cycles at each of the distance + 1 routers to a
// destination (buffers of the worm's length: the waits add up); head_flit is the unicast
// latency of the 3-flit-longer worm.
struct TreeDecodeCase {
  HeaderEncoding encoding;
  HeaderDecode decode;
  PipelineModel model;
};

class TreeDecodeZeroLoad : public ::testing::TestWithParam<TreeDecodeCase> {};

TEST_P(TreeDecodeZeroLoad, BufferedDecodeWaitsForTheWholeListAtEveryRouter) {
  const TreeDecodeCase& k = GetParam();
  Config c = quiet(testing::mesh_config({8, 8}), MultidestMode::kTree, Replication::kSynchronous);
  c.network.flit_bytes = 2;
  c.network.router.header_encoding = k.encoding;
  c.network.router.header_decode = k.decode;
  c.network.router.pipeline = k.model;
  c.network.router.pipeline_depth = k.model == PipelineModel::kDelay ? 2 : 4;
  c.network.router.buffer_depth = 10;
  const ScatteredTree t = run_scattered_tree(c);
  const int extra = header_flits(k.encoding, t.dests.size(), 64, 2) - 1;
  ASSERT_EQ(extra, 3);
  for (NodeId d : t.dests) {
    const int distance = t.distance.at(d);
    const Cycle wait = k.decode == HeaderDecode::kBuffered ? Cycle{3} * (distance + 1) : 0;
    EXPECT_EQ(t.latency.at(d),
              zero_load_formula(distance, 6 + extra, c.network.router.pipeline_depth, 1, 1, 10,
                                k.model != PipelineModel::kDelay) +
                  wait)
        << d;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Encodings, TreeDecodeZeroLoad,
    ::testing::Values(
        TreeDecodeCase{HeaderEncoding::kBitString, HeaderDecode::kHeadFlit, PipelineModel::kDelay},
        TreeDecodeCase{HeaderEncoding::kBitString, HeaderDecode::kBuffered, PipelineModel::kDelay},
        TreeDecodeCase{HeaderEncoding::kBitString, HeaderDecode::kBuffered,
                       PipelineModel::kClassic},
        TreeDecodeCase{HeaderEncoding::kAddressList, HeaderDecode::kHeadFlit,
                       PipelineModel::kClassic},
        TreeDecodeCase{HeaderEncoding::kAddressList, HeaderDecode::kBuffered,
                       PipelineModel::kDelay},
        TreeDecodeCase{HeaderEncoding::kAddressList, HeaderDecode::kBuffered,
                       PipelineModel::kClassic}),
    [](const auto& p) {
      return to_string(p.param.encoding) + "_" + to_string(p.param.decode) + "_" +
             to_string(p.param.model);
    });

TEST(TreeZeroLoad, AsynchronousHandshakeSameLatency) {
  Config c = quiet(testing::torus_config({6, 6}), MultidestMode::kTree, Replication::kAsynchronous);
  const Topology topo(c.network.topology);
  auto n = [&](int x, int y) { return topo.node_at({x, y}); };
  const NodeId src = n(0, 0);
  const std::vector<NodeId> dests{n(5, 5), n(3, 3), n(1, 4), n(4, 0), n(0, 2), n(2, 5)};
  auto net = testing::run(c, logged(),
                          [&](SyntheticNetwork& nw) { nw.schedule_multicast(src, dests, 10, 5); });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const auto lat = latencies(*net);
  ASSERT_EQ(lat.size(), dests.size());
  for (NodeId d : dests)
    EXPECT_EQ(lat.at(d), zero_load_formula(topo.distance(src, d), 10, 1, 1, 1, 4)) << d;
}

// The avoidance options add nothing at zero load: an idle network has room for the whole
// worm on every branch, and the reserved VCs are free. On a torus with 4 VCs and one reserved
// per dateline class (worms use VCs 1 and 3 only), path and tree worms with cut-through
// replication reach every destination at the unicast zero-load latency of its hops.
Config avoiding(Config c, MultidestMode mode) {
  c = quiet(c, mode, Replication::kSynchronous);
  c.network.router.vcs = 4;
  c.network.router.multidest_vcs = 1;
  c.network.router.replication_flow = ReplicationFlow::kCutThrough;
  c.network.router.buffer_depth = 10;
  return c;
}

TEST(ZeroLoadWithAvoidance, PathWormThroughTheWrapAtTheUnicastLatency) {
  const Config c = avoiding(testing::torus_config({8, 8}), MultidestMode::kPath);
  const Topology topo(c.network.topology);
  auto n = [&](int x, int y) { return topo.node_at({x, y}); };
  const NodeId src = n(1, 2);
  const std::vector<NodeId> dests{n(3, 2), n(5, 2), n(5, 1), n(5, 0), n(5, 7)};  // wraps in y
  auto net = testing::run(c, logged(),
                          [&](SyntheticNetwork& nw) { nw.schedule_multicast(src, dests, 10, 5); });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  const auto lat = latencies(*net);
  ASSERT_EQ(lat.size(), dests.size());
  const std::vector<int> hops{2, 4, 5, 6, 7};  // along the path, counted by hand
  for (std::size_t i = 0; i < dests.size(); ++i)
    EXPECT_EQ(lat.at(dests[i]), zero_load_formula(hops[i], 10, 1, 1, 1, 10)) << dests[i];
}

TEST(ZeroLoadWithAvoidance, TreeWormAtTheUnicastLatencyOfEachDistance) {
  const Config c = avoiding(testing::torus_config({6, 6}), MultidestMode::kTree);
  const Topology topo(c.network.topology);
  auto n = [&](int x, int y) { return topo.node_at({x, y}); };
  const NodeId src = n(0, 0);
  const std::vector<NodeId> dests{n(5, 5), n(3, 3), n(1, 4), n(4, 0), n(0, 2), n(2, 5)};
  auto net = testing::run(c, logged(),
                          [&](SyntheticNetwork& nw) { nw.schedule_multicast(src, dests, 10, 5); });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  const auto lat = latencies(*net);
  ASSERT_EQ(lat.size(), dests.size());
  for (NodeId d : dests)
    EXPECT_EQ(lat.at(d), zero_load_formula(topo.distance(src, d), 10, 1, 1, 1, 10)) << d;
}

// Two path worms cross: A is absorbed at X then heads for Y, B at Y then heads for X. With
// one consumption channel (one-port, one VC) each holds the consumption channel the other
// needs: a consumption-channel deadlock, which the watchdog reports.
Config crossing_config(PortModel model, int consumption) {
  Config c = quiet(testing::mesh_config({8, 2}), MultidestMode::kPath, Replication::kAsynchronous);
  c.network.router.port_model = model;
  c.network.router.consumption_channels = consumption;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.simulation.watchdog_cycles = 300;
  c.simulation.drain_max_cycles = 5000;
  return c;
}

void schedule_crossing(SyntheticNetwork& nw) {
  const Topology& t = nw.topology();
  auto n = [&](int x) { return t.node_at({x, 0}); };
  nw.schedule_multicast(n(0), {n(2), n(5)}, 40, 1);
  nw.schedule_multicast(n(7), {n(5), n(2)}, 40, 1);
}

TEST(ConsumptionDeadlock, OneConsumptionChannelDeadlocksAndIsReported) {
  auto net = testing::run(crossing_config(PortModel::kOnePort, 0), logged(), schedule_crossing);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(net->deadlock().has_value());
  const std::string text = net->deadlock()->text();
  EXPECT_FALSE(net->deadlock()->cycle.empty()) << text;
  EXPECT_NE(text.find("replicating to"), std::string::npos) << text;
  EXPECT_NE(text.find("replicating to [ej0 vc 0, x+ vc 0 (no credit)]"), std::string::npos) << text;
  EXPECT_NE(text.find("waiting_for_vc, wants ej0"), std::string::npos) << text;
}

TEST(ConsumptionDeadlock, ConsumptionChannelPerInputDirectionIsSafe) {
  auto net = testing::run(crossing_config(PortModel::kAllPort, 0), logged(), schedule_crossing);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  EXPECT_EQ(net->stats().packet_log().size(), 4u);
}

TEST(ConsumptionDeadlock, TwoConsumptionChannelsOnOnePortResolveThisCrossing) {
  auto net = testing::run(crossing_config(PortModel::kOnePort, 2), logged(), schedule_crossing);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->stats().packet_log().size(), 4u);
}

// The minimal path-IR router (docs/multidestination.md) absorbs with two branches taken
// together, as the full router does, so the same crossing deadlocks on one consumption
// channel and is reported, and the configurations the docs call safe complete.
Config minimal_ir(Config c) {
  c.network.router.path_ir = PathIr::kMinimal;
  c.network.router.header_encoding = HeaderEncoding::kAddressFlits;
  return c;
}

TEST(ConsumptionDeadlock, MinimalRouterOneConsumptionChannelDeadlocksAndIsReported) {
  auto net = testing::run(minimal_ir(crossing_config(PortModel::kOnePort, 0)), logged(),
                          schedule_crossing);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(net->deadlock().has_value());
  const std::string text = net->deadlock()->text();
  EXPECT_FALSE(net->deadlock()->cycle.empty()) << text;
  EXPECT_NE(text.find("replicating to [ej0 vc 0, x+ vc 0 (no credit)]"), std::string::npos) << text;
  EXPECT_NE(text.find("waiting_for_vc, wants ej0"), std::string::npos) << text;
}

TEST(ConsumptionDeadlock, MinimalRouterConsumptionChannelPerInputDirectionIsSafe) {
  auto net = testing::run(minimal_ir(crossing_config(PortModel::kAllPort, 0)), logged(),
                          schedule_crossing);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  EXPECT_EQ(net->stats().packet_log().size(), 4u);
  EXPECT_EQ(net->stats().flits_stripped(), 2u);  // one per worm, at its first destination
}

// Replication handshake: A is absorbed at X while its forward branch shares the next link
// with a long unicast worm C (two VCs, so they alternate flit by flit). Synchronous: X gets
// A's flits at the forward branch's half rate. Asynchronous: X's branch runs ahead by up to
// a buffer's worth, so X receives the tail earlier; the last destination no later.
struct HandshakeRun {
  Cycle at_x = 0;
  Cycle at_last = 0;
};

HandshakeRun handshake_result(const SyntheticNetwork& net) {
  EXPECT_EQ(net.outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net.scoreboard().violation_count(), 0u);
  const Topology& t = net.topology();
  HandshakeRun r;
  for (const DeliveredPacket& d : net.stats().packet_log()) {
    if (d.record.src != t.node_at({0, 0})) continue;
    if (d.record.dst == t.node_at({2, 0})) r.at_x = d.delivered;
    if (d.record.dst == t.node_at({6, 0})) r.at_last = d.delivered;
  }
  return r;
}

TEST(ReplicationHandshake, AsynchronousLetsTheAbsorbedCopyRunAheadOfTheBlockedBranch) {
  // Both networks are built in this one elaboration and run side by side.
  std::vector<std::unique_ptr<SyntheticNetwork>> nets;
  for (const Replication rep : {Replication::kSynchronous, Replication::kAsynchronous}) {
    Config c = quiet(testing::mesh_config({8, 2}), MultidestMode::kPath, rep);
    c.network.router.vcs = 2;
    c.network.router.buffer_depth = 8;
    c.traffic.injection_rate = 0;  // scripted packets only
    c.validate();
    NetworkOptions o = logged();
    o.quiet = true;
    nets.push_back(std::make_unique<SyntheticNetwork>(to_string(rep).c_str(), c, o));
    SyntheticNetwork& nw = *nets.back();
    const Topology& t = nw.topology();
    auto n = [&](int x) { return t.node_at({x, 0}); };
    nw.schedule_packet(n(3), n(7), 400, 1);             // C holds x+ from (3,0) on
    nw.schedule_multicast(n(0), {n(2), n(6)}, 48, 20);  // A: absorbed at (2,0)
  }
  sc_core::sc_start();
  const HandshakeRun sync = handshake_result(*nets[0]);
  const HandshakeRun async = handshake_result(*nets[1]);
  ASSERT_GT(sync.at_x, 0u);
  ASSERT_GT(async.at_x, 0u);
  // Synchronous: (2,0) gets A's flits only as fast as the forward branch, which shares the
  // link after (3,0) with C at half rate. Asynchronous: the absorbing branch runs ahead by up
  // to the 8-flit input buffer, i.e. finishes at least 8 cycles earlier at half rate.
  EXPECT_GE(sync.at_x, async.at_x + 8) << "sync " << sync.at_x << " async " << async.at_x;
  // The forward branch itself is not slowed by running the absorbed copy ahead.
  EXPECT_LE(async.at_last, sync.at_last);
}

// Soak: random multidestination worms (random conforming paths, or random sets for trees; also
// the row_column and hotspot patterns of traffic.multicast_pattern) on 8x8 mesh and torus in the configurations docs/multidestination.md calls safe. Every worm must
// reach each destination exactly once with its bytes intact, and the run must not deadlock.
struct SoakCase {
  const char* name;
  TopologyKind topology;
  MultidestMode mode;
  Replication replication;
  Cycle cycles;
  double rate;  // flits/node/cycle: below saturation (tree worms use many more links)
  ReplicationFlow flow = ReplicationFlow::kWormhole;
  MulticastPattern pattern = MulticastPattern::kRandom;
  PathIr path_ir = PathIr::kFull;
  HeaderEncoding minimal_encoding = HeaderEncoding::kAddressFlits;  // of the minimal router
  // buffered: 2-byte flits, so the 6 destinations' 36-bit list takes 3 header flits.
  HeaderDecode decode = HeaderDecode::kHeadFlit;
};

class MultidestSoak : public ::testing::TestWithParam<SoakCase> {};

TEST_P(MultidestSoak, EveryWormReachesEachDestinationOnceWithoutDeadlock) {
  const SoakCase& k = GetParam();
  Config c = k.topology == TopologyKind::kTorus ? testing::torus_config({8, 8})
                                                : testing::mesh_config({8, 8});
  c.network.router.multidest = k.mode;
  c.network.router.replication = k.replication;
  c.network.router.replication_flow = k.flow;
  c.network.router.path_ir = k.path_ir;
  if (k.path_ir == PathIr::kMinimal) c.network.router.header_encoding = k.minimal_encoding;
  // Packed minimal headers: 2-byte flits hold two 6-bit addresses, so worms strip too.
  if (k.path_ir == PathIr::kMinimal && k.minimal_encoding == HeaderEncoding::kAddressList)
    c.network.flit_bytes = 2;
  c.network.router.header_decode = k.decode;
  if (k.decode == HeaderDecode::kBuffered) c.network.flit_bytes = 2;
  c.network.router.port_model = PortModel::kAllPort;  // a consumption channel per input
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 8;  // tree: a whole worm fits (asynchronous replication)
  c.traffic.packet_length = 4;
  c.traffic.injection_rate = k.rate;
  c.traffic.multicast_fraction = 1.0;
  c.traffic.multicast_destinations = 6;
  c.traffic.multicast_pattern = k.pattern;
  c.traffic.seed = 12345;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = k.cycles;
  NetworkOptions o;
  auto net = testing::run(c, o);
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted)
      << (net->deadlock() ? net->deadlock()->text() : std::string());
  EXPECT_EQ(net->scoreboard().violation_count(), 0u)
      << (net->scoreboard().violations().empty() ? "" : net->scoreboard().violations().front());
  EXPECT_EQ(net->scoreboard().live_packets(), 0u);
  EXPECT_EQ(net->multicast_table().live(), 0u);
  EXPECT_EQ(net->stats().flits_in_flight(), 0u);
  EXPECT_EQ(net->flits_in_network(), 0u);
  // 64 nodes x rate flits/node/cycle / 4 flits per worm, less 4 standard deviations of the
  // Bernoulli count (about sqrt of its mean at these small probabilities).
  const double expected = static_cast<double>(k.cycles) * 64 * k.rate / 4;
  EXPECT_GE(static_cast<double>(net->stats().packets_created()),
            std::min(0.98 * expected, expected - 4 * std::sqrt(expected)));
  // Each worm had up to 6 destinations: deliveries well above worms.
  EXPECT_GT(net->scoreboard().delivered_packets(), 3 * net->stats().packets_created());
}

INSTANTIATE_TEST_SUITE_P(
    Short, MultidestSoak,
    ::testing::Values(
        SoakCase{"mesh_path_sync", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kSynchronous, 6000, 0.1},
        SoakCase{"torus_path_async", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kAsynchronous, 6000, 0.1},
        SoakCase{"mesh_tree_async", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kAsynchronous, 12000, 0.05},
        SoakCase{"mesh_tree_sync_cut_through", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kSynchronous, 12000, 0.05, ReplicationFlow::kCutThrough},
        SoakCase{"mesh_path_async_row_column", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRowColumn},
        SoakCase{"torus_tree_async_row_column", TopologyKind::kTorus, MultidestMode::kTree,
                 Replication::kAsynchronous, 6000, 0.05, ReplicationFlow::kWormhole,
                 MulticastPattern::kRowColumn},
        // Every worm goes to node 0: a light load keeps its consumption below
        // saturation.
        SoakCase{"mesh_tree_async_hotspot", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kAsynchronous, 12000, 0.02, ReplicationFlow::kWormhole,
                 MulticastPattern::kHotspot},
        SoakCase{"mesh_path_sync_hotspot", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kSynchronous, 12000, 0.02, ReplicationFlow::kWormhole,
                 MulticastPattern::kHotspot},
        // The minimal path-IR router (docs/multidestination.md): every copy starts right
        // after the header flits stripped before it (the scoreboard checks it).
        SoakCase{"mesh_path_minimal_async", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kMinimal},
        SoakCase{"torus_path_minimal_sync", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kSynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kMinimal},
        SoakCase{"mesh_path_minimal_list_async", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kMinimal, HeaderEncoding::kAddressList},
        SoakCase{"mesh_path_minimal_sync_row_column", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kSynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRowColumn, PathIr::kMinimal},
        // Buffered header decode: heads wait for the header flits they read.
        SoakCase{"mesh_path_async_buffered", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kFull, HeaderEncoding::kAddressFlits,
                 HeaderDecode::kBuffered},
        SoakCase{"torus_path_sync_buffered", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kSynchronous, 6000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kFull, HeaderEncoding::kAddressFlits,
                 HeaderDecode::kBuffered},
        SoakCase{"mesh_tree_async_buffered", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kAsynchronous, 12000, 0.05, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kFull, HeaderEncoding::kAddressFlits,
                 HeaderDecode::kBuffered}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// The acceptance soak: at least 10^6 worms per configuration (Release pass only; LARGE_).
INSTANTIATE_TEST_SUITE_P(
    Million, MultidestSoak,
    ::testing::Values(
        SoakCase{"LARGE_mesh_path_sync", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kSynchronous, 640000, 0.1},
        SoakCase{"LARGE_mesh_path_async", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 640000, 0.1},
        SoakCase{"LARGE_torus_path_sync", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kSynchronous, 640000, 0.1},
        SoakCase{"LARGE_torus_path_async", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kAsynchronous, 640000, 0.1},
        SoakCase{"LARGE_mesh_tree_async", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kAsynchronous, 1280000, 0.05},
        SoakCase{"LARGE_mesh_tree_sync_cut_through", TopologyKind::kMesh, MultidestMode::kTree,
                 Replication::kSynchronous, 1280000, 0.05, ReplicationFlow::kCutThrough},
        SoakCase{"LARGE_mesh_path_minimal_async", TopologyKind::kMesh, MultidestMode::kPath,
                 Replication::kAsynchronous, 640000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kMinimal},
        SoakCase{"LARGE_torus_path_minimal_sync", TopologyKind::kTorus, MultidestMode::kPath,
                 Replication::kSynchronous, 640000, 0.1, ReplicationFlow::kWormhole,
                 MulticastPattern::kRandom, PathIr::kMinimal}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

// Deadlock and its avoidance under load (docs/multidestination.md): an 8x8 one-port mesh,
// 2 VCs x 8 flits, 8-flit packets, half of them worms to 8 destinations, 0.15 flits/node/cycle,
// synchronous replication. Wormhole replication deadlocks with path and with tree worms;
// cut-through replication (every buffer holds a whole worm) completes, with or without VCs
// reserved for the worms. Reserving a VC alone does not prevent the worms' deadlock, but
// confines it to them: no unicast packet is left waiting in any router.
struct AvoidanceCase {
  const char* name;
  MultidestMode mode;
  ReplicationFlow flow;
  int multidest_vcs;
  RunOutcome outcome;
};

class DeadlockAvoidance : public ::testing::TestWithParam<AvoidanceCase> {};

TEST_P(DeadlockAvoidance, OutcomeUnderLoad) {
  const AvoidanceCase& k = GetParam();
  Config c = testing::mesh_config({8, 8});
  c.network.router.multidest = k.mode;
  c.network.router.replication = Replication::kSynchronous;
  c.network.router.replication_flow = k.flow;
  c.network.router.multidest_vcs = k.multidest_vcs;
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 8;
  c.traffic.packet_length = 8;
  c.traffic.injection_rate = 0.15;
  c.traffic.multicast_fraction = 0.5;
  c.traffic.multicast_destinations = 8;
  c.traffic.seed = 1;
  c.simulation.measure_cycles = 3000;
  c.simulation.watchdog_cycles = 1000;
  auto net = testing::run(c);
  ASSERT_EQ(net->outcome(), k.outcome)
      << (net->deadlock() ? net->deadlock()->text() : std::string("no deadlock"));
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  if (k.outcome == RunOutcome::kCompleted) {
    EXPECT_EQ(net->scoreboard().live_packets(), 0u);
    EXPECT_EQ(net->multicast_table().live(), 0u);
    EXPECT_EQ(net->flits_in_network(), 0u);
    return;
  }
  ASSERT_TRUE(net->deadlock().has_value());
  const DeadlockReport& report = *net->deadlock();
  EXPECT_FALSE(report.cycle.empty()) << report.text();
  if (k.multidest_vcs == 0) return;
  // Unicast packets use VC 0 only; every VC still holding flits is the worms' VC 1.
  ASSERT_FALSE(report.waiting.empty());
  for (const WaitingVc& w : report.waiting)
    EXPECT_EQ(w.vc, 1) << "router " << w.router << " port " << w.port << ": packet " << w.packet;
}

INSTANTIATE_TEST_SUITE_P(
    Mesh8x8, DeadlockAvoidance,
    ::testing::Values(AvoidanceCase{"path_wormhole", MultidestMode::kPath,
                                    ReplicationFlow::kWormhole, 0, RunOutcome::kDeadlock},
                      AvoidanceCase{"path_cut_through", MultidestMode::kPath,
                                    ReplicationFlow::kCutThrough, 0, RunOutcome::kCompleted},
                      AvoidanceCase{"path_reserved_vc", MultidestMode::kPath,
                                    ReplicationFlow::kWormhole, 1, RunOutcome::kDeadlock},
                      AvoidanceCase{"path_reserved_vc_cut_through", MultidestMode::kPath,
                                    ReplicationFlow::kCutThrough, 1, RunOutcome::kCompleted},
                      AvoidanceCase{"tree_wormhole", MultidestMode::kTree,
                                    ReplicationFlow::kWormhole, 0, RunOutcome::kDeadlock},
                      AvoidanceCase{"tree_cut_through", MultidestMode::kTree,
                                    ReplicationFlow::kCutThrough, 0, RunOutcome::kCompleted},
                      AvoidanceCase{"tree_reserved_vc", MultidestMode::kTree,
                                    ReplicationFlow::kWormhole, 1, RunOutcome::kDeadlock},
                      AvoidanceCase{"tree_reserved_vc_cut_through", MultidestMode::kTree,
                                    ReplicationFlow::kCutThrough, 1, RunOutcome::kCompleted}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(HamiltonianRouting, UnicastTrafficAtHighLoadDrainsWithOneVc) {
  Config c = testing::mesh_config({6, 6});
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.traffic.injection_rate = 0.5;
  c.traffic.packet_length = 6;
  c.simulation.measure_cycles = 5000;
  auto net = testing::run(c);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
}

TEST(MultidestInput, NonconformingPathWormIsRejectedNamingTheDestination) {
  Config c = quiet(testing::mesh_config({8, 8}), MultidestMode::kPath, Replication::kSynchronous);
  c.validate();
  SyntheticNetwork net("net", c, logged());
  const Topology& t = net.topology();
  try {
    net.schedule_multicast(t.node_at({0, 0}), {t.node_at({3, 0}), t.node_at({2, 4})}, 4, 5);
    FAIL() << "expected a BRCP error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not conform to the base routing"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("destination 0 (node 3)"), std::string::npos) << e.what();
  }
}

TEST(MultidestInput, ConfigErrorsNameTheKey) {
  auto key_of = [](Config c) {
    try {
      c.validate();
    } catch (const ConfigError& e) {
      return e.key();
    }
    return std::string("(valid)");
  };
  Config c = testing::mesh_config({4, 4});
  c.traffic.multicast_fraction = 0.5;
  EXPECT_EQ(key_of(c), "(valid)");  // multidest none: software multicasts
  c.network.router.multidest = MultidestMode::kPath;
  EXPECT_EQ(key_of(c), "(valid)");
  c.traffic.multicast_destinations = 16;
  EXPECT_EQ(key_of(c), "traffic.multicast_destinations");
  c.traffic.multicast_destinations = 3;
  c.network.router.multidest = MultidestMode::kTree;
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  EXPECT_EQ(key_of(c), "network.router.multidest");
  Config t = testing::torus_config({4, 4});
  t.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  EXPECT_EQ(key_of(t), "network.routing.algorithm");
  Config k = testing::mesh_config({4, 4});
  k.network.router.consumption_channels = 5;
  EXPECT_EQ(key_of(k), "network.router.consumption_channels");
  // The minimal path-IR router: path worms, address flits, the C++ router only.
  Config m = testing::mesh_config({4, 4});
  m.network.router.path_ir = PathIr::kMinimal;
  EXPECT_EQ(key_of(m), "network.router.path_ir");  // multidest none
  m.network.router.multidest = MultidestMode::kTree;
  EXPECT_EQ(key_of(m), "network.router.path_ir");
  m.network.router.multidest = MultidestMode::kPath;
  EXPECT_EQ(key_of(m), "(valid)");  // address_list: as many whole addresses per flit as fit
  m.network.router.header_encoding = HeaderEncoding::kBitString;
  EXPECT_EQ(key_of(m), "network.router.header_encoding");
  m.network.router.header_encoding = HeaderEncoding::kAddressFlits;
  EXPECT_EQ(key_of(m), "(valid)");
  m.network.router.implementation = RouterImplementation::kRtl;
  EXPECT_EQ(key_of(m), "(valid)");  // the RTL's minimal router (its limits: cosim/rtl_limits)
  m.network.router.header_encoding = HeaderEncoding::kAddressList;
  EXPECT_EQ(key_of(m), "network.router.header_encoding");  // packed: the C++ model only
  m.network.router.header_encoding = HeaderEncoding::kAddressFlits;
  m.network.router.path_ir = PathIr::kFull;
  EXPECT_EQ(key_of(m), "network.router.header_encoding");  // the RTL's full router: no
  m.network.router.implementation = RouterImplementation::kSystemC;
  EXPECT_EQ(key_of(m), "(valid)");  // address flits on the full router
  m.network.router.multidest = MultidestMode::kTree;
  EXPECT_EQ(key_of(m), "network.router.header_encoding");  // tree worms carry a set
  // One address per flit: 1-byte flits hold an 8-bit address, so 256 nodes but not 257+.
  Config w = testing::mesh_config({16, 16});
  w.network.router.multidest = MultidestMode::kPath;
  w.network.router.path_ir = PathIr::kMinimal;
  w.network.router.header_encoding = HeaderEncoding::kAddressFlits;
  w.network.flit_bytes = 1;
  EXPECT_EQ(key_of(w), "(valid)");
  w.network.topology.dims = {16, 17};
  EXPECT_EQ(key_of(w), "network.flit_bytes");
  w.network.router.header_encoding = HeaderEncoding::kAddressList;
  EXPECT_EQ(key_of(w), "network.flit_bytes");  // the minimal router needs whole addresses too
  w.network.router.path_ir = PathIr::kFull;
  EXPECT_EQ(key_of(w), "(valid)");  // the full router packs them across flits
  // Buffered header decode: the VC buffer holds the header flits the head waits for. A 4x4
  // mesh's 4-bit addresses, 3 destinations in 1-byte flits: 12 bits, 2 header flits.
  Config b = testing::mesh_config({4, 4});
  b.traffic.multicast_fraction = 0.5;
  b.traffic.multicast_destinations = 3;
  b.network.router.multidest = MultidestMode::kPath;
  b.network.router.header_decode = HeaderDecode::kBuffered;
  b.network.flit_bytes = 1;
  b.network.router.buffer_depth = 2;
  EXPECT_EQ(key_of(b), "(valid)");
  b.network.router.buffer_depth = 1;
  EXPECT_EQ(key_of(b), "network.router.buffer_depth");
  b.network.router.header_decode = HeaderDecode::kHeadFlit;
  EXPECT_EQ(key_of(b), "(valid)");
}

}  // namespace
}  // namespace wormsim::multidest_test
