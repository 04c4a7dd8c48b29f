// What firmware sees of its processor: loads and stores to the NI's memory-mapped registers
// (over the processor's TLM-2.0 initiator socket), time (busy waiting for the software cost
// model, sleeping until the NI interrupt) and sideband annotations for the message timeline.
// The firmware runtime (firmware/runtime.h) is written against this interface only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "config.h"
#include "flit.h"

namespace wormsim {

// A firmware error (bad register access, send to a node that does not exist, ...): stops the
// run; the message names node, cycle and register.
class FirmwareFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ProcessorBus {
 public:
  virtual ~ProcessorBus() = default;

  virtual std::uint32_t read32(std::uint64_t addr) = 0;
  virtual void write32(std::uint64_t addr, std::uint32_t value) = 0;
  virtual void read_block(std::uint64_t addr, std::uint8_t* data, std::size_t bytes) = 0;
  virtual void write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t bytes) = 0;

  // The processor is busy for `cycles` (software cost: alpha, gamma, compute).
  virtual void busy(Cycle cycles) = 0;
  // Sleeps until the NI raises its interrupt (IRQ_ENABLE selects the sources).
  virtual void wait_interrupt() = 0;

  // The software cost model of this processor (machine preset or node.* config), in cycles.
  // alpha: a send's set-up (its first packet included); gamma: a receive's.
  virtual Cycle alpha_cycles() const = 0;
  virtual Cycle gamma_cycles() const = 0;
  // Each further packet of a multi-packet message (seed 002 section 2: the Delta's software
  // handles messages in 512-byte packets; its receives are slower than its sends).
  virtual Cycle send_packet_cycles() const = 0;
  virtual Cycle receive_packet_cycles() const = 0;
  // Whether a send returns once the descriptor is queued or once the message has left the NI.
  virtual SendMode send_mode() const = 0;

  // Timeline annotations (simulator sideband, not registers): send() started at `begin`
  // and was given sequence number `seq`; a receive of message (src, seq) took the message at
  // `begin` and finished its overhead at `end`.
  virtual void note_send(std::uint32_t seq, Cycle begin) = 0;
  virtual void note_receive(NodeId src, std::uint32_t seq, Cycle begin, Cycle end) = 0;
};

}  // namespace wormsim
