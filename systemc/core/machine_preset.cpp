#include "machine_preset.h"

#include <cmath>

#include <fmt/format.h>

namespace wormsim {

long MachinePreset::alpha_cycles() const { return std::lround(alpha_us / beta_us_per_byte); }
long MachinePreset::gamma_cycles() const { return std::lround(gamma_us / beta_us_per_byte); }
long MachinePreset::send_packet_cycles() const {
  return std::lround(send_packet_us / beta_us_per_byte);
}
long MachinePreset::receive_packet_cycles() const {
  return std::lround(receive_packet_us / beta_us_per_byte);
}

namespace {

// Table 5.1 of seed 000 gives T_s (combined one-way start-up, us) and T_n (us/byte) fitted
// to published ping-pong results. It does not split T_s into send and receive parts; we
// split it evenly (alpha = gamma = T_s / 2).
MachinePreset table_5_1(const char* name, const char* machine, const char* software, double ts,
                        double tn) {
  MachinePreset p;
  p.name = name;
  p.machine = machine;
  p.source =
      fmt::format("seed 000 Table 5.1 ({}: T_s = {:g} us, T_n = {:g} us/byte)", software, ts, tn);
  p.beta_us_per_byte = tn;
  p.alpha_us = ts / 2;
  p.gamma_us = ts / 2;
  p.note = "alpha = gamma = T_s / 2 (the table gives only the combined start-up)";
  return p;
}

std::vector<MachinePreset> build() {
  std::vector<MachinePreset> v;
  MachinePreset p;
  p = {};
  p.name = "ncube2";
  p.machine = "nCUBE-2";
  p.source = "seed 000 section 3.3.5 (Figs. 3.14-3.15): 0.45 us/byte, 170 us combined start-up";
  p.beta_us_per_byte = 0.45;
  p.alpha_us = 85;
  p.gamma_us = 85;
  p.note = "the combined 170 us start-up is split evenly between send and receive";
  v.push_back(p);

  p = {};
  p.name = "ncube2_ch4";
  p.machine = "nCUBE-2 (torus study)";
  p.source =
      "seed 000 section 4.4.3 (Fig. 4.14(b)): 0.5 us/byte, 100 us sending and 100 us "
      "receiving latency";
  p.beta_us_per_byte = 0.5;
  p.alpha_us = 100;
  p.gamma_us = 100;
  v.push_back(p);

  p = {};
  p.name = "t3d";
  p.machine = "Cray T3D";
  p.source =
      "seed 000 section 3.3.5 (Figs. 3.16-3.17) and section 3.4.5 (Fig. 3.25(a)): 300 MB/s per "
      "channel, "
      "1.5 us start-up = 0.75 us sending + 0.75 us receiving";
  p.beta_us_per_byte = 1.0 / 300.0;
  p.alpha_us = 0.75;
  p.gamma_us = 0.75;
  v.push_back(p);

  p = {};
  p.name = "t3d_low_startup";
  p.machine = "Cray T3D, start-up reduced tenfold";
  p.source =
      "seed 000 section 3.4.5 (Fig. 3.25(b)): 300 MB/s, 0.075 us sending + 0.075 us "
      "receiving";
  p.beta_us_per_byte = 1.0 / 300.0;
  p.alpha_us = 0.075;
  p.gamma_us = 0.075;
  v.push_back(p);

  p = {};
  p.name = "scatter_ts10";
  p.machine = "Banikazemi and Panda's simulated 8x8 k-ary n-cube";
  p.source =
      "seed 003 abstract and Eq. (1): t_s = 10.0 us start-up per message, T_LB = t_s + "
      "(P-1) l t_p; t_p is not in the seed text, so the T3D's 300 MB/s (seed 000 "
      "section 3.3.5) is used";
  p.beta_us_per_byte = 1.0 / 300.0;
  p.alpha_us = 10.0;
  p.gamma_us = 0.0;
  p.note = "t_s is charged at the sender (alpha); seed 003's model has no receive overhead";
  v.push_back(p);

  v.push_back(table_5_1("t3d_pingpong", "Cray T3D", "MAX 1.2.0.2 (SM)", 3.0, 0.00781));
  v.push_back(table_5_1("paragon", "Intel Paragon", "SUNMOS 1.6.2", 25.0, 0.00585));
  // The Touchstone Delta of seed 002 (Hambrusch, Hameed and Khokhar). The seed states no
  // cost figure; these are read off its tables (docs/presets.md, "The Delta"): 255 sends
  // of L <= 64 bytes take 26.04-26.45 ms at the source (Fig. 2, 1-lev-dir), 255 receives
  // 16.37-16.76 ms at the destination (Fig. 6, 1-lev-dir); each further 512-byte packet adds
  // (1650.3 - 147.5) / 32 = 47.0 us per send (Fig. 2, L = 512 -> 16384) and (904.2 - 157.9) /
  // 7 = 106.6 us per receive (Fig. 6, L = 512 -> 4096). Set-up: receive below send; per
  // packet: receive above send, as seed 002 sections 3.1 and 4.1 say.
  p = {};
  p.name = "delta";
  p.machine = "Intel Touchstone Delta";
  p.source =
      "seed 000 Table 5.1 (NX 3.3.10: T_n = 0.125 us/byte) for beta; seed 002 section 2 for "
      "the 512-byte packets with 30 bytes of header; seed 002 Figs. 2 and 6 (1-lev-dir) for "
      "alpha 102.7 us, gamma 65 us and the per-packet costs 47.0 us (send) and 106.6 us "
      "(receive)";
  p.beta_us_per_byte = 0.125;
  p.alpha_us = 102.7;
  p.gamma_us = 65;
  p.send_packet_us = 47.0;
  p.receive_packet_us = 106.6;
  p.max_packet_bytes = 512;
  p.header_bytes = 30;
  p.note =
      "alpha + gamma = 167.7 us is not Table 5.1's T_s = 77 us (a ping-pong fit); seed 002's own "
      "tables are used";
  v.push_back(p);
  v.push_back(table_5_1("ipsc860", "Intel iPSC/860", "NX 3.3.2", 65.0, 0.333));
  v.push_back(table_5_1("ipsc2", "Intel iPSC/2", "NX 3.3.2", 370.0, 0.357));
  v.push_back(table_5_1("sp1", "IBM SP-1", "MPL", 270.0, 0.143));
  v.push_back(table_5_1("sp2", "IBM SP-2", "MPI", 35.0, 0.0286));
  v.push_back(table_5_1("ksr1", "KSR-1", "OSF R1.2.2", 73.0, 0.125));
  v.push_back(table_5_1("cs2", "Meiko CS-2", "Solaris 2.3 (SM)", 11.0, 0.0250));
  v.push_back(table_5_1("ncube2_pingpong", "nCUBE-2", "Vertex 2.0", 154.0, 0.589));
  v.push_back(table_5_1("ncube1", "nCUBE-1", "Vertex 2.3", 384.0, 2.5));
  v.push_back(table_5_1("cenju3", "NEC Cenju-3", "End. Rel. 1.5d (SM)", 34.0, 0.04));
  v.push_back(table_5_1("sgi", "SGI", "IRIX 6.1", 10.0, 0.0156));
  v.push_back(table_5_1("cm5", "Thinking Machines CM-5", "CMMD 2.0", 95.0, 0.111));
  // The MIT J-Machine, the second machine of seed 004's reduction comparison (section 5,
  // Table 2, whose numbers are cut from the seed text; docs/presets.md, "The J-Machine").
  p = {};
  p.name = "jmachine";
  p.machine = "MIT J-Machine";
  p.source =
      "seed 004 section 5 (Table 2, values cut from the seed text) from Nuth and Dally, 'The "
      "J-Machine network', ICCD 1992: 9-bit channels at 32 MHz, one byte "
      "per 31.25 ns cycle; Horwat, Keen, Dally, Chien and Fiske, 'The J-Machine: a "
      "fine-grain concurrent computer', MIT VLSI Memo 89-532, 1989: a message reaches any node in "
      "< 2 us, a task is dispatched on arrival in "
      "< 1 us";
  p.beta_us_per_byte = 0.03125;
  p.alpha_us = 1.0;
  p.gamma_us = 1.0;
  p.note = "the < 2 us end-to-end send is split evenly, alpha = gamma = 1 us";
  v.push_back(p);
  return v;
}

}  // namespace

void apply_machine_preset(Config& config) {
  if (config.machine.preset == kNoPreset) return;
  const std::optional<MachinePreset> p = find_machine_preset(config.machine.preset);
  if (!p) throw ConfigError("machine.preset", unknown_preset_message(config.machine.preset));
  config.network.clock_period_ns = p->clock_period_ns();
  config.network.flit_bytes = p->flit_bytes();
  config.node.alpha_cycles = static_cast<Cycle>(p->alpha_cycles());
  config.node.gamma_cycles = static_cast<Cycle>(p->gamma_cycles());
  config.node.send_packet_cycles = static_cast<Cycle>(p->send_packet_cycles());
  config.node.receive_packet_cycles = static_cast<Cycle>(p->receive_packet_cycles());
  config.node.max_packet_bytes = p->max_packet_bytes;
  config.node.header_bytes = p->header_bytes;
}

std::string unknown_preset_message(const std::string& name) {
  std::string names;
  for (const MachinePreset& p : machine_presets()) names += (names.empty() ? "" : ", ") + p.name;
  return fmt::format("unknown machine preset '{}'; allowed: {}, {}", name, kNoPreset, names);
}

const std::vector<MachinePreset>& machine_presets() {
  static const std::vector<MachinePreset> presets = build();
  return presets;
}

std::optional<MachinePreset> find_machine_preset(const std::string& name) {
  for (const MachinePreset& p : machine_presets())
    if (p.name == name) return p;
  return std::nullopt;
}

}  // namespace wormsim
