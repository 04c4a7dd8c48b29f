// Node layer below the collectives: NI registers over TLM, interrupts, packetisation into
// several packets, and firmware errors (bad register access, send to a node that does not
// exist) stopping the run with node, cycle and register named; background packets sharing
// the injection channel with the firmware without starving it and without reaching it.
#include <gtest/gtest.h>

#include <systemc>

#include "message_log.h"
#include "network.h"
#include "network_test_util.h"
#include "ni_registers.h"
#include "node.h"
#include "runtime.h"

namespace wormsim::node_test {
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
    EXPECT_EQ(bus.read32(ni::kPacketPayload), 512u - 30u);
    EXPECT_EQ(rt.packets(sent.size()), 5u);
    if (id == 0) {
      rt.send(15, sent, 42);
      // Non-blocking: the message is queued, not yet out; TX0_DONE names it once its last
      // flit has left (2150 flits, one per cycle).
      EXPECT_EQ(bus.read32(ni::kTxBase + ni::kTxDone), 0u);
      rt.compute(3000);
      EXPECT_EQ(bus.read32(ni::kTxBase + ni::kTxDone), bus.read32(ni::kTxBase + ni::kTxSeq));
    }
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

// ---- Every fault path of the NI, through its registers -----------------------------------
// One case per check in NetworkInterface::b_transport, read_register, write_register and
// doorbell: node 0 makes the access; the FirmwareFault must name node 0, the register (as the
// register map docs/ni-registers.md spells it) and the reason. Node 1 first sends node 0 one
// 4-byte message, so the receive side can also be tested with a message queued.

enum class Machine { kOnePort, kPath, kAllPort, kQueueOfOne };

struct FaultCase {
  const char* name;
  Machine machine;
  // The faulting access (the earlier ones in it must not fault).
  std::function<void(ProcessorBus&, const Network&)> access;
  const char* reg;     // register as named in the message
  const char* reason;  // part of the reason
};

void stage(ProcessorBus& bus, int channel, NodeId dst, std::uint32_t len) {
  const std::vector<std::uint8_t> bytes(len, 7);
  bus.write_block(ni::kTxWindow + ni::kWindowStride * static_cast<std::uint64_t>(channel),
                  bytes.data(), bytes.size());
  const std::uint64_t reg = ni::kTxBase + ni::kChannelStride * static_cast<std::uint64_t>(channel);
  bus.write32(reg + ni::kTxDst, dst);
  bus.write32(reg + ni::kTxLen, len);
}

void wait_for_message(ProcessorBus& bus) {
  while (bus.read32(ni::kRxBase + ni::kRxCount) == 0) bus.busy(1);
}

constexpr std::uint64_t kTx3 = ni::kTxBase + 3 * ni::kChannelStride;
constexpr std::uint64_t kRx3 = ni::kRxBase + 3 * ni::kChannelStride;
// Block accesses of `len` (<= 8) bytes whose contents do not matter.
void block_write(ProcessorBus& bus, std::uint64_t addr, std::size_t len) {
  const std::uint8_t bytes[8] = {};
  bus.write_block(addr, bytes, len);
}
void block_read(ProcessorBus& bus, std::uint64_t addr, std::size_t len) {
  std::uint8_t bytes[8] = {};
  bus.read_block(addr, bytes, len);
}

const FaultCase kFaultCases[] = {
    {"TxWindowOfAMissingChannel", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       block_write(b, ni::kTxWindow + 3 * ni::kWindowStride, 4);
     },
     "TX3_WINDOW+0x0", "TX channel 3 does not exist (1 channels)"},
    {"TxWindowRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { block_read(b, ni::kTxWindow, 4); }, "TX0_WINDOW+0x0",
     "the TX window is write-only"},
    {"TxWindowWritePastItsEnd", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       block_write(b, ni::kTxWindow + ni::kMaxMessageBytes - 2, 4);
     },
     "TX0_WINDOW+0xfffffe", "a 4-byte write runs past the 16777216-byte window"},
    {"RxWindowOfAMissingChannel", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       block_read(b, ni::kRxWindow + 3 * ni::kWindowStride, 4);
     },
     "RX3_WINDOW+0x0", "RX channel 3 does not exist (1 channels)"},
    {"RxWindowWrite", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { block_write(b, ni::kRxWindow, 4); }, "RX0_WINDOW+0x0",
     "the RX window is read-only"},
    {"RxWindowReadWithNothingQueued", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { block_read(b, ni::kRxWindow, 4); }, "RX0_WINDOW+0x0",
     "read with an empty receive queue"},
    {"RxWindowReadPastTheMessage", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       wait_for_message(b);
       block_read(b, ni::kRxWindow + 2, 4);
     },
     "RX0_WINDOW+0x2", "a 4-byte read at offset 2 runs past the 4-byte message"},
    {"UnalignedRegisterRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kCycleLo + 2); }, "unmapped",
     "registers take aligned 4-byte accesses (got 4 bytes)"},
    {"EightByteRegisterWrite", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { block_write(b, ni::kIrqEnable, 8); }, "IRQ_ENABLE",
     "registers take aligned 4-byte accesses (got 8 bytes)"},
    {"TxRegisterOfAMissingChannelWritten", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(kTx3 + ni::kTxDst, 1); }, "TX3_DST",
     "TX channel 3 does not exist (1 channels)"},
    {"TxDoorbellRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kTxBase + ni::kTxDoorbell); },
     "TX0_DOORBELL", "not readable"},
    {"TxDlistRead", Machine::kPath,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kTxBase + ni::kTxDlist); }, "TX0_DLIST",
     "not readable"},
    {"RxRegisterOfAMissingChannelRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(kRx3 + ni::kRxCount); }, "RX3_COUNT",
     "RX channel 3 does not exist (1 channels)"},
    {"RxRegisterOfAMissingChannelWritten", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(kRx3 + ni::kRxPop, 1); }, "RX3_POP",
     "RX channel 3 does not exist (1 channels)"},
    {"RxPopRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kRxBase + ni::kRxPop); }, "RX0_POP",
     "not readable"},
    {"RxTagReadWithNothingQueued", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kRxBase + ni::kRxTag); }, "RX0_TAG",
     "read with an empty receive queue"},
    {"WriteOnlyRegisterRead", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.read32(ni::kIrqAck); }, "IRQ_ACK",
     "not a readable register"},
    {"DlistWithoutMultidestinationWorms", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kTxBase + ni::kTxDlist, 5); }, "TX0_DLIST",
     "this network has no multidestination worms (network.router.multidest: none)"},
    {"DlistLongerThanTheNetwork", Machine::kPath,
     [](ProcessorBus& b, const Network&) {
       for (std::uint32_t d = 0; d <= 16; ++d) b.write32(ni::kTxBase + ni::kTxDlist, d);
     },
     "TX0_DLIST", "more destinations than the 16 nodes"},
    {"DcountWrittenNonZero", Machine::kPath,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kTxBase + ni::kTxDcount, 3); },
     "TX0_DCOUNT", "write 0 to clear the list (got 3)"},
    {"DoorbellWrittenTwo", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kTxBase + ni::kTxDoorbell, 2); },
     "TX0_DOORBELL", "write 1 to ring the doorbell (got 2)"},
    {"TxStatusWritten", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kTxBase + ni::kTxStatus, 1); },
     "TX0_STATUS", "read-only"},
    {"TxDoneWritten", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kTxBase + ni::kTxDone, 1); }, "TX0_DONE",
     "read-only"},
    {"RxSrcWritten", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(ni::kRxBase + ni::kRxSrc, 1); }, "RX0_SRC",
     "read-only"},
    {"RxPopWrittenTwo", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       wait_for_message(b);
       b.write32(ni::kRxBase + ni::kRxPop, 2);
     },
     "RX0_POP", "write 1 to pop (got 2)"},
    {"UnmappedWrite", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) { b.write32(0x0fff0, 1); }, "unmapped",
     "not a writable register"},
    {"MulticastListNamingTheSource", Machine::kPath,
     [](ProcessorBus& b, const Network&) {
       stage(b, 0, 3, 4);
       for (std::uint32_t d : {3u, 0u}) b.write32(ni::kTxBase + ni::kTxDlist, d);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);
     },
     "TX0_DLIST", "destination 0 is the source itself"},
    {"MulticastListNamingANodeTwice", Machine::kPath,
     [](ProcessorBus& b, const Network&) {
       stage(b, 0, 3, 4);
       for (std::uint32_t d : {3u, 3u}) b.write32(ni::kTxBase + ni::kTxDlist, d);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);
     },
     "TX0_DLIST", "destination 3 is listed twice"},
    {"SendToItself", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       stage(b, 0, 0, 4);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);
     },
     "TX0_DST", "destination 0 is this node"},
    {"LengthBeyondTheLargestMessage", Machine::kOnePort,
     [](ProcessorBus& b, const Network&) {
       stage(b, 0, 3, 4);
       b.write32(ni::kTxBase + ni::kTxLen, ni::kMaxMessageBytes + 1);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);
     },
     "TX0_LEN", "16777217 bytes exceed the 16777216-byte maximum message"},
    {"DescriptorQueueFull", Machine::kQueueOfOne,
     [](ProcessorBus& b, const Network&) {
       stage(b, 0, 3, 4);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);
       stage(b, 0, 3, 4);
       b.write32(ni::kTxBase + ni::kTxDoorbell, 1);  // the first one has not left yet
     },
     "TX0_DOORBELL", "descriptor queue full (1 entries)"},
    {"AllPortSendOnAChannelThatIsNotTheFirstHop", Machine::kAllPort,
     [](ProcessorBus& b, const Network& net) {
       const int first = net.route_compute().first_hop_port(0, 1);
       const int other = (first + 1) % 4;
       stage(b, other, 1, 4);
       b.write32(
           ni::kTxBase + ni::kChannelStride * static_cast<std::uint64_t>(other) + ni::kTxDoorbell,
           1);
     },
     "_DOORBELL", "all-port: a message to node 1 leaves on TX channel"},
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

class NiFaultPath : public ::testing::TestWithParam<FaultCase> {};

TEST_P(NiFaultPath, NamesNodeRegisterAndReason) {
  const FaultCase& fc = GetParam();
  Config c = small_mesh();
  if (fc.machine == Machine::kPath) c.network.router.multidest = MultidestMode::kPath;
  if (fc.machine == Machine::kAllPort) c.network.router.port_model = PortModel::kAllPort;
  if (fc.machine == Machine::kQueueOfOne) c.node.tx_queue_depth = 1;
  std::string fault = "no fault";
  NodeRig rig(c, [&](NodeId id, ProcessorBus& bus, const Network& net) {
    if (id == 1) {
      stage(bus, 0, 0, 4);
      bus.write32(ni::kTxBase + ni::kTxDoorbell, 1);
    }
    if (id != 0) return;
    try {
      fc.access(bus, net);
    } catch (const FirmwareFault& e) {
      fault = e.what();
    }
  });
  sc_core::sc_start();
  EXPECT_NE(fault.find("node 0, cycle "), std::string::npos) << fault;
  EXPECT_NE(fault.find(std::string(fc.reg) + " (0x"), std::string::npos) << fault;
  EXPECT_NE(fault.find(fc.reason), std::string::npos) << fault;
}

INSTANTIATE_TEST_SUITE_P(EveryCheck, NiFaultPath, ::testing::ValuesIn(kFaultCases),
                         [](const ::testing::TestParamInfo<FaultCase>& i) { return i.param.name; });

// Byte enables cannot be expressed through ProcessorBus; a TLM initiator could set them.
TEST(NiFaultDirect, ByteEnablesAreAnAddressErrorNamingTheRegister) {
  NodeRig rig(small_mesh(), [](NodeId, ProcessorBus&, const Network&) {});
  tlm::tlm_generic_payload trans;
  std::uint8_t data[4] = {};
  std::uint8_t enables[4] = {0xff, 0, 0xff, 0};
  trans.set_command(tlm::TLM_READ_COMMAND);
  trans.set_address(ni::kNodeId);
  trans.set_data_ptr(data);
  trans.set_data_length(4);
  trans.set_byte_enable_ptr(enables);
  trans.set_byte_enable_length(4);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  // Through the target socket's forward interface, as a TLM initiator would call it.
  rig.nodes[0]->ni().socket.get_base_export()->b_transport(trans, delay);
  EXPECT_EQ(trans.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  NiFault* ext = nullptr;
  trans.get_extension(ext);
  ASSERT_NE(ext, nullptr);
  EXPECT_NE(ext->message.find("NODE_ID (0x0): byte enables are not supported"), std::string::npos)
      << ext->message;
  trans.clear_extension(ext);
  delete ext;
}

// Every NI offers 2 flits/cycle of background traffic, twice what its injection channel can
// carry, so its background queue never empties: node 0's firmware messages still leave (the
// wire alternates between the two queues), TX0_STATUS shows the channel idle for the firmware
// while background flits use the wire, and node 1 receives exactly node 0's messages.
TEST(NodeBackground, SaturatingBackgroundNeitherStarvesNorReachesTheFirmware) {
  Config c = small_mesh();
  c.collective.background.load = 2;
  c.collective.background.packet_length = 4;
  std::vector<Node*>* nodes = nullptr;
  std::uint32_t status_before_send = 0;
  std::vector<fw::Message> received;
  NodeRig rig(c, [&](NodeId id, ProcessorBus& bus, const Network& net) {
    fw::Runtime rt(bus, net.topology(), net.route_compute(), net.layout());
    if (id == 0) {
      rt.compute(50);
      status_before_send = bus.read32(ni::kTxBase + ni::kTxStatus);
      for (std::uint32_t k = 1; k <= 3; ++k)
        rt.send(1, std::vector<std::uint8_t>(40, static_cast<std::uint8_t>(k)), k);
    } else if (id == 1) {
      for (int k = 0; k < 3; ++k) received.push_back(rt.receive());
      for (Node* n : *nodes) n->ni().stop_background(net.current_cycle() + 1);
    }
  });
  nodes = &rig.nodes;
  sc_core::sc_start();
  rig.net->finish();
  EXPECT_EQ(status_before_send >> 16, 0u);       // not busy for the firmware
  EXPECT_EQ(status_before_send & 0xffffu, 16u);  // every descriptor slot free
  ASSERT_EQ(received.size(), 3u);
  for (std::uint32_t k = 1; k <= 3; ++k) {
    const fw::Message& m = received[k - 1];
    EXPECT_EQ(m.src, 0u);
    EXPECT_EQ(m.tag, k);
    EXPECT_EQ(m.data, std::vector<std::uint8_t>(40, static_cast<std::uint8_t>(k)));
  }
  std::uint64_t created = 0;
  std::uint64_t delivered = 0;
  for (const Node* n : rig.nodes) {
    EXPECT_EQ(n->ni().unread_messages(), 0u);
    created += n->ni().background().created;
    delivered += n->ni().background().delivered;
  }
  EXPECT_GT(delivered, 0u);
  EXPECT_EQ(created, delivered);  // stopped, then drained
  EXPECT_EQ(rig.net->scoreboard().live_packets(), 0u);
  EXPECT_EQ(rig.net->scoreboard().violation_count(), 0u);
  EXPECT_EQ(rig.log.records().size(), 3u);  // the message log holds the firmware's only
}

}  // namespace
}  // namespace wormsim::node_test
