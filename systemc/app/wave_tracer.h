// Waveform tracing of selected routers: a VCD (sc_trace) with every flit field decoded on
// every input and output port (valid, VC, head, tail, packet id, source, destination, flit
// index), the occupancy of every input VC buffer, and the cycle number; plus a GTKWave save
// file (.gtkw) that groups the signals per router and per port. Traced routers are evaluated
// every cycle, so tracing slows a run; trace a few routers only.
#pragma once

#include <string>
#include <systemc>
#include <vector>

#include "network.h"

namespace wormsim {

class WaveTracer {
 public:
  // base_path without extension: writes base_path.vcd (at the end of simulation) and
  // base_path.gtkw (now).
  WaveTracer(Network& network, const std::vector<NodeId>& routers, const std::string& base_path);
  ~WaveTracer();
  WaveTracer(const WaveTracer&) = delete;
  WaveTracer& operator=(const WaveTracer&) = delete;

  const std::string& vcd_path() const { return vcd_path_; }
  const std::string& gtkw_path() const { return gtkw_path_; }
  // Full VCD names (scope.signal) of every traced signal, grouped as in the .gtkw file.
  const std::vector<std::string>& signals() const { return signals_; }

 private:
  sc_core::sc_trace_file* file_ = nullptr;
  std::string vcd_path_;
  std::string gtkw_path_;
  std::vector<std::string> signals_;
  sc_dt::uint64 cycle_probe_ = 0;
};

// Name of a router port in signal names: xp/xm/yp/.. (mesh, torus), d0.. (hypercube),
// inj0../ej0.. (NI channels).
std::string port_signal_name(const Topology& topology, const PortLayout& layout, int port,
                             bool input);

}  // namespace wormsim
