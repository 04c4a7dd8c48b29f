// Machine presets: clock period, flit width and the software cost model (alpha = send
// start-up, gamma = receive overhead) of machines the seeds measured or simulated. Every
// preset cites its seed source. The network model moves one flit per cycle per channel, so
// beta (time per byte per channel) is clock_period / flit_bytes; presets use 1-byte flits,
// which makes one cycle exactly the seeds' per-byte time and L bytes exactly L flits.
// alpha and gamma are held in cycles, rounded to the nearest cycle of the preset's clock;
// the rounding error is reported by `wormsim list` and docs/presets.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config.h"

namespace wormsim {

inline constexpr const char* kNoPreset = "none";

struct MachinePreset {
  std::string name;
  std::string machine;      // e.g. "Cray T3D"
  std::string source;       // seed and section/figure/table
  double beta_us_per_byte;  // channel time per byte
  double alpha_us;          // send start-up (charged on the sending processor)
  double gamma_us;          // receive overhead (charged on the receiving processor)
  // Software cost of each packet of a message after the first (seed 002 section 2).
  double send_packet_us = 0;
  double receive_packet_us = 0;
  int max_packet_bytes = 0;  // 0: a message travels as one packet
  int header_bytes = 0;      // bytes of every packet taken by the header (seed 002: 30 of 512)
  std::string note;          // assumptions we made where the source is silent

  int flit_bytes() const { return 1; }
  double clock_period_ns() const { return beta_us_per_byte * 1000.0; }
  long alpha_cycles() const;
  long gamma_cycles() const;
  long send_packet_cycles() const;
  long receive_packet_cycles() const;
};

const std::vector<MachinePreset>& machine_presets();
// nullopt when unknown.
std::optional<MachinePreset> find_machine_preset(const std::string& name);
// Sets network.clock_period_ns, network.flit_bytes, node.alpha_cycles, node.gamma_cycles,
// node.send_packet_cycles, node.receive_packet_cycles, node.max_packet_bytes and
// node.header_bytes from config.machine.preset (no-op for "none");
// throws ConfigError naming machine.preset when the name is unknown.
void apply_machine_preset(Config& config);
std::string unknown_preset_message(const std::string& name);

}  // namespace wormsim
