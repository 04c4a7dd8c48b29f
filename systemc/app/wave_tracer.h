// Waveform tracing of selected routers: a VCD (sc_trace) with every flit field decoded on
// every input and output port (valid, VC, head, tail, packet id, source, destination, flit
// index), the occupancy of every input VC buffer, and the cycle number; plus a GTKWave save
// file (.gtkw) that groups the signals per router and per port. Traced routers are evaluated
// every cycle, so tracing slows a run; trace a few routers only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "network.h"

namespace wormsim {

class WaveTracer {
 public:
  // base_path without extension: writes base_path.vcd during the run and, at finish(),
  // base_path.gtkw: a layout naming the VCD by absolute path (and itself in [savefile], so
  // GTKWave also finds the VCD next to a moved layout) that opens at the first cycle a traced
  // port carried a flit.
  WaveTracer(Network& network, const std::vector<NodeId>& routers, const std::string& base_path);
  // Without finish(): closes the VCD and writes the layout, ignoring errors.
  ~WaveTracer();
  WaveTracer(const WaveTracer&) = delete;
  WaveTracer& operator=(const WaveTracer&) = delete;

  // After the simulation: closes (flushes) the VCD and writes the .gtkw layout. Throws
  // std::runtime_error if the layout cannot be written.
  void finish();

  const std::string& vcd_path() const { return vcd_path_; }
  const std::string& gtkw_path() const { return gtkw_path_; }
  // Full VCD names (scope.signal) of every traced signal, grouped as in the .gtkw file.
  const std::vector<std::string>& signals() const { return signals_; }
  // Time (ps) of the first flit on a traced port (a *_valid signal at 1) in the closed VCD,
  // or nullopt when none moved; set by finish().
  const std::optional<std::uint64_t>& first_activity_ps() const { return first_activity_ps_; }

 private:
  void write_layout();

  sc_core::sc_trace_file* file_ = nullptr;
  std::string vcd_path_;
  std::string gtkw_path_;
  std::vector<std::string> signals_;
  std::string layout_body_;  // the signal groups of the .gtkw, built with the trace
  double period_ps_ = 1;
  std::optional<std::uint64_t> first_activity_ps_;
  sc_dt::uint64 cycle_probe_ = 0;
};

// Time (ps, the VCD's unit) of the first rise to 1 of a 1-bit VCD variable whose name ends
// in "_valid", or nullopt. Reads the VCD written by sc_trace (one change per line).
std::optional<std::uint64_t> first_valid_time(const std::string& vcd_path);

// Name of a router port in signal names: xp/xm/yp/.. (mesh, torus), d0.. (hypercube),
// inj0../ej0.. (NI channels).
std::string port_signal_name(const Topology& topology, const PortLayout& layout, int port,
                             bool input);

}  // namespace wormsim
