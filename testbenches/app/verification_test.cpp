// The collective verifier is shown to fail, and firmware errors end the run with a clear
// message (docs/safety-nets.md, "Collective verification"):
//   - VerifierCatches: for every collective algorithm (all_values<CollectiveAlgorithm>(), so
//     algorithms added later are covered without touching this file) on the first small
//     config that validates, the shipped firmware wrapped by a fault injector that, at one
//     receiver (fw::receivers), drops its delivery, delivers twice, corrupts one byte, or
//     delivers another receiver's expected bytes. The harness must report exactly that one
//     error, naming the node, and collective_status() must exit 1 naming the operation; the
//     wrapper without a fault must be clean (exit 0), so the error is the fault's;
//   - FirmwareErrors: a receive nobody satisfies (a stall, exit 3), a reduction contribution
//     of the wrong length (combine throws) and a std::logic_error from an algorithm (exit 1)
//     each name the node(s), the cycle and the operation;
//   - SetUps: the most sends and receives of one node per operation (seed 002 section 3.2)
//     against closed formulas, and their place in results.json and the summary.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>
#include <systemc>

#include <fmt/format.h>

#include "collective_data.h"
#include "collective_harness.h"
#include "collective_report.h"
#include "exit_status.h"
#include "network_test_util.h"

namespace wormsim::verification_test {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The first number after `prefix` in `text` (-1 when absent).
long long number_after(const std::string& text, const std::string& prefix) {
  const std::size_t at = text.find(prefix);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + prefix.size()));
}

// ---- Candidate configs ----------------------------------------------------------------------

Config collective_on(Config c, CollectiveAlgorithm alg) {
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 5;
  c.collective.message_bytes = {16};  // whole elements of every reduction type
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  return c;
}

// Small networks to try, in order: an algorithm runs on the first on which Config::validate()
// passes (e.g. edn_broadcast needs all-port XY, path_multicast path worms).
std::vector<std::pair<std::string, Config>> candidates(CollectiveAlgorithm alg) {
  std::vector<std::pair<std::string, Config>> out;
  const auto add = [&](const std::string& name, Config c) {
    out.emplace_back(name, collective_on(std::move(c), alg));
  };
  add("4x4 mesh, one-port", testing::mesh_config({4, 4}));
  Config all_port = testing::mesh_config({4, 4});
  all_port.network.router.port_model = PortModel::kAllPort;
  all_port.network.routing.order = {0, 1};
  add("4x4 mesh, all-port, XY", all_port);
  Config path = testing::mesh_config({4, 4});
  path.network.router.multidest = MultidestMode::kPath;
  add("4x4 mesh, path worms", path);
  Config tree = testing::mesh_config({4, 4});
  tree.network.router.multidest = MultidestMode::kTree;
  add("4x4 mesh, tree worms", tree);
  path.network.router.port_model = PortModel::kAllPort;
  add("4x4 mesh, all-port, path worms", path);
  Config torus = testing::torus_config({4, 4});
  torus.network.router.vcs = 2;
  add("4x4 torus, one-port", torus);
  add("4-cube, one-port", testing::hypercube_config(4));
  Config cube = testing::hypercube_config(4);
  cube.network.router.port_model = PortModel::kAllPort;
  add("4-cube, all-port", cube);  // seed 001's maxport, combine, w_sort
  return out;
}

// The first candidate that validates; else nullopt and, in `why`, every candidate's reason.
std::optional<Config> first_valid(CollectiveAlgorithm alg, std::string& why) {
  for (auto& [name, c] : candidates(alg)) {
    try {
      c.validate();
      return c;
    } catch (const ConfigError& e) {
      why += fmt::format("\n  {}: {}: {}", name, e.key(), e.what());
    }
  }
  return std::nullopt;
}

// ---- The fault injector ---------------------------------------------------------------------

enum class Fault { kNone, kDrop, kTwice, kCorrupt, kWrongNode };

std::string name_of(Fault f) {
  switch (f) {
    case Fault::kNone: return "no_fault";
    case Fault::kDrop: return "drop";
    case Fault::kTwice: return "twice";
    case Fault::kCorrupt: return "corrupt";
    case Fault::kWrongNode: return "wrong_node";
  }
  return "?";
}

// The receiver a fault hits: the middle one of fw::receivers (the root where it is the only
// one).
NodeId victim_of(const fw::Operation& op, const Topology& topo) {
  const std::vector<NodeId> r = fw::receivers(op, topo);
  return r.at(r.size() / 2);
}

// A receiver other than `self` that must deliver different bytes; kNoNode when every
// receiver expects the same (broadcast, allreduce, allgather) or there is no other.
NodeId other_receiver(const fw::Operation& op, const Topology& topo, NodeId self) {
  const auto mine = fw::expected_delivery(op, self, topo);
  for (NodeId n : fw::receivers(op, topo))
    if (n != self && fw::expected_delivery(op, n, topo) != mine) return n;
  return kNoNode;
}

// fw::run_collective with the victim's deliver callback replaced by `fault`.
CollectiveFirmware inject(Fault fault) {
  return [fault](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
                 const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
    if (fault == Fault::kNone || rt.id() != victim_of(op, rt.topology()))
      return fw::run_collective(rt, op, data, deliver, tables);
    const fw::Deliver faulty = [&](const std::vector<std::uint8_t>& bytes) {
      switch (fault) {
        case Fault::kNone: deliver(bytes); return;
        case Fault::kDrop: return;
        case Fault::kTwice:
          deliver(bytes);
          deliver(bytes);
          return;
        case Fault::kCorrupt: {
          std::vector<std::uint8_t> b = bytes;
          b.at(b.size() / 2) ^= 0x5a;
          deliver(b);
          return;
        }
        case Fault::kWrongNode: {
          const NodeId other = other_receiver(op, rt.topology(), rt.id());
          deliver(fw::expected_delivery(op, other, rt.topology()).value());
          return;
        }
      }
    };
    fw::run_collective(rt, op, data, faulty, tables);
  };
}

class VerifierCatches : public ::testing::TestWithParam<std::tuple<CollectiveAlgorithm, Fault>> {};

TEST_P(VerifierCatches, TheFaultAtOneReceiverWithItsOwnMessageAndExitOne) {
  const auto [alg, fault] = GetParam();
  std::string why;
  const std::optional<Config> config = first_valid(alg, why);
  if (!config) GTEST_SKIP() << "no candidate config validates for " << to_string(alg) << why;
  CollectiveHarness h("h", *config, {}, inject(fault));
  ASSERT_EQ(h.operations().size(), 1u);
  const fw::Operation op = h.operations()[0];
  const Topology& topo = h.network().topology();
  const NodeId victim = victim_of(op, topo);
  std::string want;
  switch (fault) {
    case Fault::kNone: break;
    case Fault::kDrop: want = fmt::format("node {} never delivered", victim); break;
    case Fault::kTwice: want = fmt::format("node {} delivered twice", victim); break;
    case Fault::kCorrupt:
      if (fw::expected_delivery(op, victim, topo).value().empty())
        GTEST_SKIP() << to_string(kind_of(alg)) << " delivers no bytes to corrupt";
      want = fmt::format("node {} delivered wrong bytes", victim);
      break;
    case Fault::kWrongNode: {
      const NodeId other = other_receiver(op, topo, victim);
      if (other == kNoNode)
        GTEST_SKIP() << "no other receiver of a " << to_string(kind_of(alg))
                     << " expects different bytes";
      want = fmt::format("node {} delivered the bytes meant for node {}", victim, other);
      break;
    }
  }
  sc_core::sc_start();
  h.finish();
  ASSERT_FALSE(h.firmware_fault()) << *h.firmware_fault();
  ASSERT_FALSE(h.stall()) << *h.stall();
  ASSERT_EQ(h.results().size(), 1u);
  const RunStatus s = collective_status(h);
  if (fault == Fault::kNone) {
    EXPECT_TRUE(h.results()[0].errors.empty()) << collective_summary_text(h);
    EXPECT_EQ(s.code, ExitCode::kOk) << s.message;
    return;
  }
  EXPECT_EQ(h.results()[0].errors, std::vector<std::string>{want}) << collective_summary_text(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_EQ(s.message,
            fmt::format("wormsim: verification failed: 1 collective errors, 0 scoreboard "
                        "violations; first: {}: {} (see the ERROR lines and results.json)\n",
                        describe_operation(op), want));
  EXPECT_TRUE(has(collective_summary_text(h),
                  fmt::format("  ERROR {}: {}\n", describe_operation(op), want)));
}

INSTANTIATE_TEST_SUITE_P(
    EveryAlgorithm, VerifierCatches,
    ::testing::Combine(::testing::ValuesIn(all_values<CollectiveAlgorithm>()),
                       ::testing::Values(Fault::kNone, Fault::kDrop, Fault::kTwice, Fault::kCorrupt,
                                         Fault::kWrongNode)),
    [](const ::testing::TestParamInfo<std::tuple<CollectiveAlgorithm, Fault>>& i) {
      return to_string(std::get<0>(i.param)) + "_" + name_of(std::get<1>(i.param));
    });

// The classes the fault matrix does not reach: a node that delivers nothing in a gather
// delivers anyway, and the root delivers three times.
TEST(VerifierCatchesAlso, ADeliveryByANonReceiverAndThreeDeliveries) {
  const CollectiveFirmware extra =
      [](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
         const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        const fw::Deliver thrice = [&](const std::vector<std::uint8_t>& bytes) {
          for (int i = 0; i < 3; ++i) deliver(bytes);
        };
        fw::run_collective(rt, op, data, rt.id() == op.root ? thrice : deliver, tables);
        if (rt.id() == 2) deliver(data);
      };
  const Config c = collective_on(testing::mesh_config({4, 4}), CollectiveAlgorithm::kGatherDirect);
  CollectiveHarness h("h", c, {}, extra);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.results().size(), 1u);
  EXPECT_EQ(h.results()[0].errors,
            (std::vector<std::string>{"node 2 delivered once but is not a receiver",
                                      "node 5 delivered 3 times"}));
  EXPECT_EQ(collective_status(h).code, ExitCode::kError);
}

// describe_operation names what every message about an operation names.
TEST(DescribeOperation, NamesIndexAlgorithmRootAndBytesAndNoRootWhenThereIsNone) {
  fw::Operation op;
  op.index = 3;
  op.algorithm = CollectiveAlgorithm::kReduceBinomial;
  op.root = 5;
  op.bytes = 16;
  EXPECT_EQ(describe_operation(op), "operation 3 (reduce_binomial, root 5, 16 bytes)");
  op.algorithm = CollectiveAlgorithm::kAllgatherRing;
  EXPECT_EQ(describe_operation(op), "operation 3 (allgather_ring, 16 bytes)");
}

// ---- Firmware errors end the run ------------------------------------------------------------

Config reduce_on_mesh(std::vector<std::uint32_t> sizes) {
  Config c = collective_on(testing::mesh_config({4, 4}), CollectiveAlgorithm::kReduceBinomial);
  c.collective.root = 0;
  c.collective.message_bytes = std::move(sizes);
  c.validate();
  return c;
}

// Node 6, in the second operation only, also waits for a message nobody sends.
TEST(FirmwareErrors, AReceiveNobodySatisfiesStallsNamingNodeCycleAndOperationExitingThree) {
  const CollectiveFirmware waits =
      [](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
         const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        fw::run_collective(rt, op, data, deliver, tables);
        if (op.index == 1 && rt.id() == 6) rt.receive();
      };
  CollectiveHarness h("h", reduce_on_mesh({8, 16}), {}, waits);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.stall());
  ASSERT_EQ(h.results().size(), 1u);  // the first operation completed
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kDeadlock);
  const std::regex line(
      "wormsim: firmware stalled at cycle ([0-9]+) in operation 1 \\(reduce_binomial, root 0, "
      "16 bytes\\): the network is idle and node 6 waits in receive\\(\\) for a message that "
      "never comes\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(s.message, m, line)) << s.message;
  // The second operation starts after the first has ended.
  EXPECT_GT(std::stoull(m[1].str()), h.results()[0].end);
}

// Node 5 contributes 12 bytes instead of 16: in the binomial tree from root 0 it sends in the
// first round to node 4, whose combine throws; the run stops there (exit 1) naming node 4.
TEST(FirmwareErrors, AReductionContributionOfTheWrongLengthIsAFirmwareErrorNamingTheCombiner) {
  const CollectiveFirmware short_vector =
      [](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
         const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        std::vector<std::uint8_t> mine = data;
        if (rt.id() == 5) mine.resize(12);
        fw::run_collective(rt, op, mine, deliver, tables);
      };
  const Config c = reduce_on_mesh({16});
  CollectiveHarness h("h", c, {}, short_vector);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.firmware_fault());
  EXPECT_TRUE(h.results().empty());
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  const std::string prefix = "wormsim: firmware error: node 4, cycle ";
  ASSERT_EQ(s.message.rfind(prefix, 0), 0u) << s.message;
  EXPECT_TRUE(has(s.message,
                  ", in operation 0 (reduce_binomial, root 0, 16 bytes): the firmware threw "
                  "std::logic_error: combine: vectors of 16 and 12 bytes\n"))
      << s.message;
  // Node 4 combines after node 5's send (alpha) and its own receive (gamma).
  EXPECT_GE(number_after(s.message, prefix),
            static_cast<long long>(c.node.alpha_cycles + c.node.gamma_cycles));
}

// Any exception from an algorithm: node 3 throws std::logic_error 100 cycles into the
// operation; the message gives the cycle the NI's counter showed when it threw.
TEST(FirmwareErrors, AnExceptionFromAnAlgorithmIsAFirmwareErrorNamingNodeCycleAndOperation) {
  Cycle thrown_at = 0;
  const CollectiveFirmware throws =
      [&thrown_at](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
                   const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        if (rt.id() == 3) {
          rt.compute(100);
          thrown_at = rt.now();
          throw std::logic_error("scatter: no chunk for this node");
        }
        fw::run_collective(rt, op, data, deliver, tables);
      };
  Config c = collective_on(testing::mesh_config({4, 4}), CollectiveAlgorithm::kScatterBinomial);
  c.validate();
  CollectiveHarness h("h", c, {}, throws);
  sc_core::sc_start();
  h.finish();
  ASSERT_GT(thrown_at, 100u);
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_EQ(s.message,
            fmt::format("wormsim: firmware error: node 3, cycle {}, in operation 0 (scatter_bt, "
                        "root 5, 16 bytes): the firmware threw std::logic_error: scatter: no "
                        "chunk for this node\n",
                        thrown_at));
  EXPECT_FALSE(h.stall());
}

// An NI fault (bad register access) names the operation too.
TEST(FirmwareErrors, ABadRegisterAccessNamesTheOperation) {
  const CollectiveFirmware bad = [](fw::Runtime& rt, const fw::Operation& op,
                                    const std::vector<std::uint8_t>& data,
                                    const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
    if (rt.id() == 2) rt.send(99, data);  // a 16-node network
    fw::run_collective(rt, op, data, deliver, tables);
  };
  Config c = collective_on(testing::mesh_config({4, 4}), CollectiveAlgorithm::kGatherDirect);
  c.validate();
  CollectiveHarness h("h", c, {}, bad);
  sc_core::sc_start();
  h.finish();
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  const std::regex line(
      "wormsim: firmware error: node 2, cycle [0-9]+, in operation 0 \\(a2o_1_lev_dir, root 5, 16 "
      "bytes\\): register TX0_DST .*destination node 99 does not exist \\(16 nodes\\)\n");
  EXPECT_TRUE(std::regex_match(s.message, line)) << s.message;
}

// ---- Message set-ups (seed 002 section 3.2) ---------------------------------------------------

struct SetUpCase {
  std::string name;
  CollectiveAlgorithm algorithm;
  std::vector<int> dims;
  MultidestMode multidest;
  std::size_t max_sends;
  std::size_t max_receives;
};

class SetUps : public ::testing::TestWithParam<SetUpCase> {};

TEST_P(SetUps, MostSendsAndReceivesOfOneNodeFollowTheAlgorithm) {
  const SetUpCase& k = GetParam();
  Config c = collective_on(testing::mesh_config(k.dims), k.algorithm);
  c.network.router.multidest = k.multidest;
  c.collective.roots = RootSelection::kAll;
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.all_operations_run());
  ASSERT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.max_sends, k.max_sends) << describe_operation(r.op);
    EXPECT_EQ(r.max_receives, k.max_receives) << describe_operation(r.op);
  }
}

// p = 16 (4x4) and p = 9 (3x3).
const SetUpCase kSetUpCases[] = {
    // a2o_1_lev_dir: every node sends its block to the root once; the root receives p - 1.
    {"gather_16", CollectiveAlgorithm::kGatherDirect, {4, 4}, MultidestMode::kNone, 1, 15},
    {"gather_9", CollectiveAlgorithm::kGatherDirect, {3, 3}, MultidestMode::kNone, 1, 8},
    // scatter_st and separate addressing: the root sends p - 1 unicasts.
    {"scatter_st_16", CollectiveAlgorithm::kScatterSequential, {4, 4}, MultidestMode::kNone, 15, 1},
    {"separate_addressing_9",
     CollectiveAlgorithm::kSeparateAddressing,
     {3, 3},
     MultidestMode::kNone,
     8,
     1},
    // recursive doubling on 2^n nodes: the root sends n times, everybody receives once.
    {"recursive_doubling_16",
     CollectiveAlgorithm::kRecursiveDoubling,
     {4, 4},
     MultidestMode::kNone,
     4,
     1},
    // a2a_1_lev_dir and allgather_ring: p - 1 each way at every node.
    {"alltoall_9", CollectiveAlgorithm::kAlltoallDirect, {3, 3}, MultidestMode::kNone, 8, 8},
    {"allgather_ring_16",
     CollectiveAlgorithm::kAllgatherRing,
     {4, 4},
     MultidestMode::kNone,
     15,
     15},
    // reduce_binomial: the root receives ceil(log2 p) partial results, every node sends once.
    {"reduce_binomial_16",
     CollectiveAlgorithm::kReduceBinomial,
     {4, 4},
     MultidestMode::kNone,
     1,
     4},
    {"reduce_binomial_9", CollectiveAlgorithm::kReduceBinomial, {3, 3}, MultidestMode::kNone, 1, 4},
    // dissemination barrier: ceil(log2 p) rounds of one send and one receive per node.
    {"barrier_16", CollectiveAlgorithm::kBarrierDissemination, {4, 4}, MultidestMode::kNone, 4, 4},
    // one replicated worm: a single set-up, one message at every destination.
    {"tree_multicast_16", CollectiveAlgorithm::kTreeMulticast, {4, 4}, MultidestMode::kTree, 1, 1},
};

INSTANTIATE_TEST_SUITE_P(ClosedFormulas, SetUps, ::testing::ValuesIn(kSetUpCases),
                         [](const ::testing::TestParamInfo<SetUpCase>& i) { return i.param.name; });

TEST(SetUpsReport, ResultsJsonAndSummaryCarryThem) {
  Config c = collective_on(testing::mesh_config({3, 3}), CollectiveAlgorithm::kGatherDirect);
  c.collective.roots = RootSelection::kAll;
  c.collective.message_bytes = {8, 16};
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.verification_errors(), 0u);
  const nlohmann::json j = collective_json(h);
  ASSERT_EQ(j["operations"].size(), 18u);
  for (const auto& o : j["operations"]) {
    EXPECT_EQ(o["max_sends"], 1);
    EXPECT_EQ(o["max_receives"], 8);
  }
  ASSERT_EQ(j["summary"].size(), 2u);
  for (const auto& row : j["summary"]) {
    EXPECT_EQ(row["max_sends"], 1);
    EXPECT_EQ(row["max_receives"], 8);
  }
  const std::string text = collective_summary_text(h);
  EXPECT_TRUE(has(text, " sends  recvs\n")) << text;
  EXPECT_TRUE(std::regex_search(text, std::regex("a2o_1_lev_dir +8 +9 .* 1 +8\n"))) << text;
}

}  // namespace
}  // namespace wormsim::verification_test
