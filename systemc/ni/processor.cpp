#include "processor.h"

#include <exception>

#include <fmt/format.h>

#include "network_interface.h"

namespace wormsim {

Processor::Processor(const sc_core::sc_module_name& name, const ProcessorParams& params,
                     const sc_core::sc_event& interrupt, MessageLog& log, Program program,
                     StackArena& stacks)
    : sc_core::sc_module(name),
      socket("socket"),
      params_(params),
      interrupt_(interrupt),
      log_(log),
      program_(std::move(program)),
      stacks_(stacks),
      fibre_(stacks.allocate(kStackBytes), [this] { run(); }) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  sc_core::sc_spawn(sc_bind(&Processor::step, this), "firmware", &opts);
}

void Processor::step() {
  // After an overflow the stack below the overflowing one is garbage: no fibre runs again.
  if (fibre_.finished() || stacks_.overflowed()) return;
  fibre_.resume();
  if (!fibre_.stack_intact()) {
    stacks_.mark_overflowed();
    fault_ = fmt::format(
        "node {}, cycle {}: firmware stack overflow: the firmware used more than its {}-byte "
        "stack (Processor::kStackBytes)",
        params_.id, cycle(), kStackBytes - StackArena::kCanaryBytes);
    sc_core::sc_stop();
    return;
  }
  if (fibre_.finished()) {
    // Not a firmware fault (run() catches those): what SystemC does with an exception that
    // leaves a process.
    if (fibre_.error()) std::rethrow_exception(fibre_.error());
    return;
  }
  if (wake_event_ != nullptr)
    sc_core::next_trigger(*wake_event_);
  else
    sc_core::next_trigger(wake_delay_);
}

Cycle Processor::cycle() const {
  return sc_core::sc_time_stamp().value() / params_.clock_period.value();
}

void Processor::run() {
  try {
    program_(*this);
  } catch (const FirmwareFault& e) {
    fault_ = e.what();
    sc_core::sc_stop();
  }
  finished_ = true;
}

void Processor::transport(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data,
                          std::size_t bytes) {
  tlm::tlm_generic_payload trans;
  trans.set_command(cmd);
  trans.set_address(addr);
  trans.set_data_ptr(data);
  trans.set_data_length(static_cast<unsigned>(bytes));
  trans.set_streaming_width(static_cast<unsigned>(bytes));
  trans.set_byte_enable_ptr(nullptr);
  trans.set_dmi_allowed(false);
  trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(trans, delay);
  if (trans.is_response_ok()) return;
  std::string message = fmt::format("node {}, cycle {}: {} at 0x{:x}: {}", params_.id, cycle(),
                                    cmd == tlm::TLM_READ_COMMAND ? "read" : "write", addr,
                                    trans.get_response_string());
  if (NiFault* f = trans.get_extension<NiFault>()) {
    message = f->message;
    trans.clear_extension(f);
    delete f;
  }
  throw FirmwareFault(message);
}

std::uint32_t Processor::read32(std::uint64_t addr) {
  std::uint32_t v = 0;
  transport(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<std::uint8_t*>(&v), 4);
  return v;
}

void Processor::write32(std::uint64_t addr, std::uint32_t value) {
  transport(tlm::TLM_WRITE_COMMAND, addr, reinterpret_cast<std::uint8_t*>(&value), 4);
}

void Processor::read_block(std::uint64_t addr, std::uint8_t* data, std::size_t bytes) {
  if (bytes > 0) transport(tlm::TLM_READ_COMMAND, addr, data, bytes);
}

void Processor::write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t bytes) {
  // TLM data pointers are non-const; the NI only reads from it on a write.
  if (bytes > 0) transport(tlm::TLM_WRITE_COMMAND, addr, const_cast<std::uint8_t*>(data), bytes);
}

void Processor::busy(Cycle cycles) {
  if (cycles == 0) return;
  wake_event_ = nullptr;
  wake_delay_ = params_.clock_period * static_cast<double>(cycles);
  fibre_.suspend();
}

void Processor::wait_interrupt() {
  waiting_ = true;
  wait_event(interrupt_);
  waiting_ = false;
}

void Processor::wait_event(const sc_core::sc_event& event) {
  wake_event_ = &event;
  fibre_.suspend();
}

void Processor::note_send(std::uint32_t seq, Cycle begin) {
  for (MessageRecord& r : log_.copies(params_.id, seq)) r.send_begin = begin;
}

void Processor::note_receive(NodeId src, std::uint32_t seq, Cycle begin, Cycle end) {
  if (MessageRecord* r = log_.find(src, seq, params_.id)) {
    r->receive_begin = begin;
    r->received = end;
  }
}

}  // namespace wormsim
