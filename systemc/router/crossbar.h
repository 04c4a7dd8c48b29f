// Crossbar: connects input ports to output ports for one cycle. Its contract is the
// physical one: per cycle each input port drives at most one output and each output port is
// driven by at most one input (the switch allocator's grants must respect this; a violation
// throws). A replicating worm (multidestination) drives several outputs from one input in the
// same cycle through connect_replica; that input then carries nothing else. The connection
// matrix of the current cycle is kept for tracing.
#pragma once

#include <stdexcept>
#include <vector>

namespace wormsim {

class Crossbar {
 public:
  Crossbar(int inputs, int outputs)
      : input_to_output_(static_cast<std::size_t>(inputs), -1),
        output_to_input_(static_cast<std::size_t>(outputs), -1) {}

  void connect(int in, int out) {
    int& o = input_to_output_[static_cast<std::size_t>(in)];
    int& i = output_to_input_[static_cast<std::size_t>(out)];
    if (o != -1 || i != -1) throw std::logic_error("crossbar: port used twice in one cycle");
    o = out;
    i = in;
    used_.push_back(in);
  }
  void connect_replica(int in, int out) {
    int& o = input_to_output_[static_cast<std::size_t>(in)];
    int& i = output_to_input_[static_cast<std::size_t>(out)];
    if (i != -1 || (o != -1 && o != kReplicating))
      throw std::logic_error("crossbar: port used twice in one cycle");
    if (o == -1) used_.push_back(in);
    o = kReplicating;
    i = in;
    replica_outputs_.push_back(out);
  }
  // Clears the connections of the previous cycle.
  void release() {
    for (int in : used_) {
      int& o = input_to_output_[static_cast<std::size_t>(in)];
      if (o != kReplicating) output_to_input_[static_cast<std::size_t>(o)] = -1;
      o = -1;
    }
    for (int out : replica_outputs_) output_to_input_[static_cast<std::size_t>(out)] = -1;
    used_.clear();
    replica_outputs_.clear();
  }
  int driver_of(int out) const { return output_to_input_[static_cast<std::size_t>(out)]; }

 private:
  std::vector<int> input_to_output_;
  std::vector<int> output_to_input_;
  std::vector<int> used_;
  std::vector<int> replica_outputs_;
  static constexpr int kReplicating = -2;
};

}  // namespace wormsim
