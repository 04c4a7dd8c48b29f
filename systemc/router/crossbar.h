// Crossbar: connects input ports to output ports for one cycle. Its contract is the
// physical one: per cycle each input port drives at most one output and each output port is
// driven by at most one input (the switch allocator's grants must respect this; a violation
// throws). A replicating worm (multidestination) drives several outputs from one input in the
// same cycle through connect_replica; that input then carries nothing else. The connection
// matrix of the current cycle is kept for tracing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace wormsim {

// At most 64 input and 64 output ports (a router's port masks are 64 bits wide).
class Crossbar {
 public:
  Crossbar(int inputs, int outputs) : driver_(static_cast<std::size_t>(outputs), -1) {
    if (inputs > 64 || outputs > 64)
      throw std::logic_error("crossbar: more than 64 input or output ports");
  }

  void connect(int in, int out) {
    const std::uint64_t in_bit = std::uint64_t{1} << in;
    const std::uint64_t out_bit = std::uint64_t{1} << out;
    if (((inputs_ | replica_inputs_) & in_bit) != 0 || (outputs_ & out_bit) != 0)
      throw std::logic_error("crossbar: port used twice in one cycle");
    inputs_ |= in_bit;
    outputs_ |= out_bit;
    driver_[static_cast<std::size_t>(out)] = in;
  }
  void connect_replica(int in, int out) {
    const std::uint64_t in_bit = std::uint64_t{1} << in;
    const std::uint64_t out_bit = std::uint64_t{1} << out;
    if ((inputs_ & in_bit) != 0 || (outputs_ & out_bit) != 0)
      throw std::logic_error("crossbar: port used twice in one cycle");
    replica_inputs_ |= in_bit;
    outputs_ |= out_bit;
    driver_[static_cast<std::size_t>(out)] = in;
  }
  // Clears the connections of the previous cycle.
  void release() { inputs_ = replica_inputs_ = outputs_ = 0; }
  int driver_of(int out) const {
    return ((outputs_ >> out) & 1u) != 0 ? driver_[static_cast<std::size_t>(out)] : -1;
  }

 private:
  std::uint64_t inputs_ = 0;          // inputs driving one output this cycle
  std::uint64_t replica_inputs_ = 0;  // inputs driving one or more outputs as replicas
  std::uint64_t outputs_ = 0;         // outputs driven this cycle
  std::vector<int> driver_;           // per output: its input, valid while its bit is set
};

}  // namespace wormsim
