// The node's processor (DESIGN.md section 6): runs the node's firmware (SPMD: every node runs
// the same program), a TLM-2.0 initiator socket to the NI registers, and the NI interrupt.
// Time passes only where firmware says so: busy(alpha) before a send's doorbell, busy(gamma)
// after taking a message, busy(n) for compute, and sleeping in wait_interrupt(). Register
// accesses themselves take no simulated time (their cost is part of alpha and gamma, as in the
// seeds' cost model). A firmware fault stops the simulation.
//
// The firmware runs on a fibre (kernel/fibre.h) with a stack from the network's arena, driven
// by one SystemC method: the method resumes the fibre; the fibre runs until it blocks in
// busy(), wait_interrupt() or wait_event() and switches back; the method then waits, through
// next_trigger(), for what the fibre waits for. A SystemC thread per node would give each
// node a stack mapping of its own (docs/architecture.md, "Firmware fibres"). An overflow of
// the fibre's stack (its canary, checked at every switch back) is a firmware fault.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "fibre.h"
#include "message_log.h"
#include "processor_bus.h"
#include "stack_arena.h"

namespace wormsim {

struct ProcessorParams {
  NodeId id = 0;
  Cycle alpha_cycles = 0;
  Cycle gamma_cycles = 0;
  Cycle send_packet_cycles = 0;
  Cycle receive_packet_cycles = 0;
  SendMode send_mode = SendMode::kNonBlocking;
  sc_core::sc_time clock_period{1, sc_core::SC_NS};
};

class Processor : public sc_core::sc_module, public ProcessorBus {
 public:
  using Program = std::function<void(ProcessorBus&)>;
  // Each firmware fibre's stack slot (the stack is kStackBytes - 64, the canary below it):
  // 9 times the deepest use measured over the firmware test suites, 7,144 bytes on a fault
  // path (docs/architecture.md, "Firmware fibres"). Only touched pages cost memory.
  static constexpr std::size_t kStackBytes = std::size_t{64} * 1024;

  tlm_utils::simple_initiator_socket<Processor> socket;

  SC_HAS_PROCESS(Processor);
  Processor(const sc_core::sc_module_name& name, const ProcessorParams& params,
            const sc_core::sc_event& interrupt, MessageLog& log, Program program,
            StackArena& stacks);

  std::uint32_t read32(std::uint64_t addr) override;
  void write32(std::uint64_t addr, std::uint32_t value) override;
  void read_block(std::uint64_t addr, std::uint8_t* data, std::size_t bytes) override;
  void write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t bytes) override;
  void busy(Cycle cycles) override;
  void wait_interrupt() override;
  Cycle alpha_cycles() const override { return params_.alpha_cycles; }
  Cycle gamma_cycles() const override { return params_.gamma_cycles; }
  Cycle send_packet_cycles() const override { return params_.send_packet_cycles; }
  Cycle receive_packet_cycles() const override { return params_.receive_packet_cycles; }
  SendMode send_mode() const override { return params_.send_mode; }
  void note_send(std::uint32_t seq, Cycle begin) override;
  void note_receive(NodeId src, std::uint32_t seq, Cycle begin, Cycle end) override;
  // Firmware side, like wait_interrupt(): sleeps until `event` (the collective harness's
  // start of an operation).
  void wait_event(const sc_core::sc_event& event);

  bool finished() const { return finished_; }
  bool waiting() const { return waiting_; }  // asleep in wait_interrupt()
  const std::optional<std::string>& fault() const { return fault_; }
  Cycle cycle() const;

 private:
  void step();  // the SystemC method
  void run();   // the fibre's body
  void transport(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, std::size_t bytes);

  ProcessorParams params_;
  const sc_core::sc_event& interrupt_;
  MessageLog& log_;
  Program program_;
  bool finished_ = false;
  bool waiting_ = false;
  std::optional<std::string> fault_;
  StackArena& stacks_;
  Fibre fibre_;
  // What the fibre waits for when it switches back: `wake_event_`, or `wake_delay_` if null.
  const sc_core::sc_event* wake_event_ = nullptr;
  sc_core::sc_time wake_delay_;
};

}  // namespace wormsim
