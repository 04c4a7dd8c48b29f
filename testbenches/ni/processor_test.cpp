// The processor (ni/processor.h): firmware on a fibre driven by a SystemC method. busy(n)
// resumes exactly n cycles later, wait_event() in the cycle of the notification; every node's
// stack comes from the network's one arena mapping; a firmware stack overflow is a firmware
// fault naming the node and the cycle of the switch back that found the canary broken, and
// stops the run with no fibre running again; an exception other than a FirmwareFault leaves
// the simulation as from any SystemC process.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "message_log.h"
#include "network.h"
#include "network_test_util.h"
#include "node.h"

namespace wormsim::processor_test {
namespace {

using Program = std::function<void(NodeId, Processor&)>;

// A network whose nodes all run `program` (given the node id).
struct Rig {
  Rig(const Config& config, Program program) {
    NetworkOptions options;
    options.quiet = true;
    options.mode = RunMode::kHosted;
    options.make_endpoint =
        [this, program, config](const EndpointContext& ctx) -> std::unique_ptr<NetworkEndpoint> {
      auto node = std::make_unique<Node>(
          ("n" + std::to_string(ctx.id)).c_str(), node_params(config, ctx), ctx, log,
          [this, program, id = ctx.id](ProcessorBus&) { program(id, nodes[id]->cpu()); });
      nodes.push_back(node.get());
      return node;
    };
    net = std::make_unique<Network>("net", config, options);
  }
  MessageLog log;
  std::vector<Node*> nodes;
  std::unique_ptr<Network> net;
};

Config mesh(int x, int y) {
  Config c = testing::mesh_config({x, y});
  c.workload = Workload::kCollective;
  return c;
}

// Uses about `frames` KiB of stack, writing all of it.
__attribute__((noinline)) int deep(int frames) {
  volatile char frame[1024];
  for (volatile char& b : frame) b = static_cast<char>(frames);
  if (frames == 0) return frame[0];
  return deep(frames - 1) + frame[1023];
}

TEST(Processor, EveryNodesStackComesFromOneArenaMapping) {
  Rig rig(mesh(8, 8), [](NodeId, Processor&) {});
  EXPECT_EQ(rig.net->fibre_stacks().mappings(), 1u);
  EXPECT_EQ(rig.net->fibre_stacks().stacks(), 64u);
  EXPECT_EQ(rig.net->fibre_stacks().slot_bytes(), Processor::kStackBytes);
}

TEST(Processor, BusyTakesExactlyItsCyclesAndWaitEventWakesInTheCycleOfTheNotification) {
  sc_core::sc_event go;
  std::vector<Cycle> seen;
  Rig rig(mesh(2, 2), [&](NodeId id, Processor& cpu) {
    if (id == 0) {
      cpu.busy(3);
      seen.push_back(cpu.cycle());  // 3
      cpu.wait_event(go);
      seen.push_back(cpu.cycle());  // 10
      cpu.busy(0);                  // no time, no switch
      seen.push_back(cpu.cycle());  // 10
    } else if (id == 1) {
      cpu.busy(10);
      go.notify(sc_core::SC_ZERO_TIME);
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(seen, (std::vector<Cycle>{3, 10, 10}));
  for (const Node* n : rig.nodes) {
    EXPECT_TRUE(n->cpu().finished());
    EXPECT_FALSE(n->cpu().fault().has_value());
  }
}

TEST(Processor, StackOverflowIsAFirmwareFaultNamingNodeAndCycle) {
  bool after_overflow = false;
  bool late = false;
  Rig rig(mesh(4, 4), [&](NodeId id, Processor& cpu) {
    if (id == 5) {
      cpu.busy(7);
      deep(static_cast<int>(Processor::kStackBytes / 1024) + 8);  // 8 KiB past the stack
      cpu.busy(1);  // the switch back finds the canary broken
      after_overflow = true;
    } else if (id == 9) {
      cpu.busy(100);
      late = true;
    }
  });
  sc_core::sc_start();
  const auto& fault = rig.nodes[5]->cpu().fault();
  ASSERT_TRUE(fault.has_value());
  EXPECT_NE(fault->find("node 5, cycle 7: firmware stack overflow"), std::string::npos) << *fault;
  EXPECT_FALSE(after_overflow);
  EXPECT_FALSE(late);  // sc_stop() ended the run in cycle 7
  EXPECT_EQ(rig.net->current_cycle(), 7u);
  EXPECT_TRUE(rig.net->fibre_stacks().overflowed());
  for (NodeId n = 0; n < 16; ++n)
    if (n != 5) {
      EXPECT_FALSE(rig.nodes[n]->cpu().fault().has_value()) << "node " << n;
    }
}

TEST(Processor, AnExceptionOtherThanAFirmwareFaultLeavesTheSimulation) {
  Rig rig(mesh(2, 2), [](NodeId id, Processor& cpu) {
    cpu.busy(2);
    if (id == 3) throw std::logic_error("firmware bug");
  });
  EXPECT_ANY_THROW(sc_core::sc_start());
  EXPECT_FALSE(rig.nodes[3]->cpu().fault().has_value());  // not a firmware fault
}

}  // namespace
}  // namespace wormsim::processor_test
