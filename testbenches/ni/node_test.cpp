// Node layer below the collectives: NI registers over TLM, interrupts, packetisation into
// several packets, and firmware errors (bad register access, send to a node that does not
// exist) stopping the run with node, cycle and register named.
#include <gtest/gtest.h>

#include <systemc>

#include "message_log.h"
#include "network.h"
#include "network_test_util.h"
#include "ni_registers.h"
#include "node.h"
#include "runtime.h"

namespace wormsim {
namespace {

using Program = std::function<void(NodeId, ProcessorBus&, const Network&)>;

// A network whose nodes all run `program` (given the node id).
struct NodeRig {
  NodeRig(const Config& config, Program program) {
    NetworkOptions options;
    options.quiet = true;
    options.make_endpoint =
        [this, program, config](const EndpointContext& ctx) -> std::unique_ptr<NetworkEndpoint> {
      auto node = std::make_unique<Node>(
          ("n" + std::to_string(ctx.id)).c_str(), node_params(config, ctx), ctx, log,
          [this, program, id = ctx.id](ProcessorBus& bus) { program(id, bus, *net); });
      nodes.push_back(node.get());
      return node;
    };
    options.mode = RunMode::kHosted;
    net = std::make_unique<Network>("net", config, options);
  }
  MessageLog log;
  std::vector<Node*> nodes;
  std::unique_ptr<Network> net;
};

Config small_mesh() {
  Config c = testing::mesh_config({4, 4});
  c.workload = Workload::kCollective;
  c.network.flit_bytes = 4;
  c.node.alpha_cycles = 5;
  c.node.gamma_cycles = 3;
  return c;
}

TEST(Node, SendToANodeThatDoesNotExistStopsTheRunNamingNodeCycleAndRegister) {
  NodeRig rig(small_mesh(), [](NodeId id, ProcessorBus& bus, const Network& net) {
    if (id != 2) return;
    fw::Runtime rt(bus, net.topology(), net.route_compute(), net.layout());
    rt.compute(10);
    rt.send(99, {1, 2, 3});
    ADD_FAILURE() << "send to node 99 returned";
  });
  sc_core::sc_start();
  const auto& fault = rig.nodes[2]->cpu().fault();
  ASSERT_TRUE(fault.has_value());
  // alpha (5) is charged before the doorbell: the fault happens in cycle 10 + 5.
  EXPECT_NE(fault->find("node 2, cycle 15"), std::string::npos) << *fault;
  EXPECT_NE(fault->find("TX0_DST"), std::string::npos) << *fault;
  EXPECT_NE(fault->find("node 99 does not exist"), std::string::npos) << *fault;
  EXPECT_EQ(rig.net->current_cycle(), 15u);  // sc_stop() ended the run there
}

TEST(Node, BadRegisterAccessesAreReportedWithTheirRegister) {
  std::vector<std::string> faults;
  NodeRig rig(small_mesh(), [&](NodeId id, ProcessorBus& bus, const Network&) {
    if (id != 0) return;
    auto expect_fault = [&](auto&& access) {
      try {
        access();
        faults.push_back("no fault");
      } catch (const FirmwareFault& e) {
        faults.push_back(e.what());
      }
    };
    expect_fault([&] { bus.read32(0x0fff0); });                               // unmapped
    expect_fault([&] { bus.write32(ni::kNodeId, 1); });                       // read-only
    expect_fault([&] { bus.read32(ni::kRxBase + ni::kRxSrc); });              // empty RX queue
    expect_fault([&] { bus.write32(ni::kRxBase + ni::kRxPop, 1); });          // pop empty
    expect_fault([&] { bus.read32(ni::kTxBase + 3 * ni::kChannelStride); });  // no TX3 (one-port)
    expect_fault([&] {
      bus.write32(ni::kTxBase + ni::kTxDst, 1);
      bus.write32(ni::kTxBase + ni::kTxLen, 8);  // nothing staged in the window
      bus.write32(ni::kTxBase + ni::kTxDoorbell, 1);
    });
    std::uint8_t b[2] = {0, 0};
    expect_fault([&] { bus.read_block(ni::kCycleLo, b, 2); });  // 2-byte register access
  });
  sc_core::sc_start();
  ASSERT_EQ(faults.size(), 7u);
  const char* expected[] = {"unmapped", "NODE_ID", "RX0_SRC", "RX0_POP",
                            "TX3_DST",  "TX0_LEN", "CYCLE_LO"};
  for (std::size_t i = 0; i < faults.size(); ++i) {
    EXPECT_NE(faults[i].find(expected[i]), std::string::npos) << faults[i];
    EXPECT_NE(faults[i].find("node 0, cycle 0"), std::string::npos) << faults[i];
  }
}

TEST(Node, MultiPacketMessageArrivesIntactWithHeaderFlitsOnTheWire) {
  Config c = small_mesh();
  c.network.flit_bytes = 1;
  c.node.max_packet_bytes = 512;  // seed 002, Touchstone Delta: 512-byte packets,
  c.node.header_bytes = 30;       // 30 bytes of header each
  std::vector<std::uint8_t> sent(2000), got;
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<std::uint8_t>(i * 7 + 3);
  NodeRig rig(c, [&](NodeId id, ProcessorBus& bus, const Network& net) {
    fw::Runtime rt(bus, net.topology(), net.route_compute(), net.layout());
    if (id == 0) rt.send(15, sent, 42);
    if (id == 15) {
      const fw::Message m = rt.receive();
      EXPECT_EQ(m.src, 0u);
      EXPECT_EQ(m.tag, 42u);
      got = m.data;
    }
  });
  sc_core::sc_start();
  rig.net->finish();
  EXPECT_EQ(got, sent);
  ASSERT_EQ(rig.log.records().size(), 1u);
  const MessageRecord& m = rig.log.records()[0];
  // 2000 bytes in packets of 482 data bytes: 5 packets, each 30 header flits + its data.
  EXPECT_EQ(m.packets, 5);
  EXPECT_EQ(m.flits, 5u * 30u + 2000u);
  EXPECT_EQ(m.hops, 6);
  EXPECT_EQ(m.flit_hops, m.flits * 6);
  EXPECT_EQ(rig.net->scoreboard().violation_count(), 0u);
  EXPECT_EQ(rig.net->outcome(), RunOutcome::kCompleted);
}

TEST(Node, AlphaIsSerialisedAcrossSendsOnDifferentPorts) {
  Config c = small_mesh();
  c.network.router.port_model = PortModel::kAllPort;
  c.node.alpha_cycles = 20;
  NodeRig rig(c, [&](NodeId id, ProcessorBus& bus, const Network& net) {
    fw::Runtime rt(bus, net.topology(), net.route_compute(), net.layout());
    if (id == 5) {  // (1,1): sends west, east, north, south
      for (NodeId d : {4u, 6u, 1u, 9u}) rt.send(d, {1, 2, 3, 4});
    } else if (id == 4 || id == 6 || id == 1 || id == 9) {
      rt.receive();
    }
  });
  sc_core::sc_start();
  ASSERT_EQ(rig.log.records().size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rig.log.records()[i].send_begin, 20 * i);
    EXPECT_EQ(rig.log.records()[i].doorbell, 20 * (i + 1));
  }
  // Each left on its own injection channel (all-port: the channel of the first hop).
  std::set<int> channels;
  for (const MessageRecord& r : rig.log.records()) channels.insert(r.tx_channel);
  EXPECT_EQ(channels.size(), 4u);
}

TEST(Node, ReceiveSleepsUntilTheInterrupt) {
  Config c = small_mesh();
  Cycle woke = 0;
  NodeRig rig(c, [&](NodeId id, ProcessorBus& bus, const Network& net) {
    fw::Runtime rt(bus, net.topology(), net.route_compute(), net.layout());
    if (id == 0) {
      rt.compute(1000);
      rt.send(1, {9});
    } else if (id == 1) {
      rt.receive();
      woke = rt.now();
    }
  });
  sc_core::sc_start();
  // alpha 5 + 1 (DMA) + T0(1 flit, 1 hop) + 1 (visible) + gamma 3.
  EXPECT_EQ(woke, 1000u + 5 + 1 + testing::zero_load_formula(1, 1, 1, 1, 1, 4) + 1 + 3);
  // The processor slept: the network evaluated only a handful of cycles.
  EXPECT_LT(rig.net->evaluated_cycles(), 20u);
}

}  // namespace
}  // namespace wormsim
