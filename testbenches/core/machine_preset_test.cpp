// Machine presets: values as cited from the seeds, conversion to cycles, and their use
// through the config loader.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "config_loader.h"
#include "machine_preset.h"

namespace wormsim::machine_preset_test {
namespace {

TEST(MachinePreset, EveryPresetCitesASeedAndConvertsToWholeCycles) {
  std::set<std::string> names;
  for (const MachinePreset& p : machine_presets()) {
    SCOPED_TRACE(p.name);
    EXPECT_TRUE(names.insert(p.name).second) << "duplicate name";
    EXPECT_NE(p.source.find("seed 00"), std::string::npos);
    EXPECT_GT(p.beta_us_per_byte, 0);
    EXPECT_DOUBLE_EQ(p.clock_period_ns(), p.beta_us_per_byte * 1000.0);
    EXPECT_EQ(p.flit_bytes(), 1);
    // Rounded to the nearest whole cycle: never off by more than half a cycle.
    EXPECT_LE(std::abs(static_cast<double>(p.alpha_cycles()) * p.beta_us_per_byte - p.alpha_us),
              p.beta_us_per_byte / 2 + 1e-12);
    EXPECT_LE(std::abs(static_cast<double>(p.gamma_cycles()) * p.beta_us_per_byte - p.gamma_us),
              p.beta_us_per_byte / 2 + 1e-12);
  }
  EXPECT_GE(names.size(), 16u);
}

// The parameters the seeds state, checked against the text (seed 000 sections 3.3.5, 3.4.5,
// 4.4.3, Table 5.1; seed 002 section 2; seed 003's abstract).
TEST(MachinePreset, SeedValues) {
  const auto t3d = find_machine_preset("t3d");
  ASSERT_TRUE(t3d);
  EXPECT_NEAR(1.0 / t3d->beta_us_per_byte, 300.0, 1e-9);  // 300 MB/s
  EXPECT_DOUBLE_EQ(t3d->alpha_us + t3d->gamma_us, 1.5);
  EXPECT_EQ(t3d->alpha_cycles(), 225);  // 0.75 us at 3.33 ns per byte
  const auto low = find_machine_preset("t3d_low_startup");
  ASSERT_TRUE(low);
  EXPECT_DOUBLE_EQ(low->alpha_us, 0.075);
  EXPECT_DOUBLE_EQ(low->gamma_us, 0.075);
  const auto ncube = find_machine_preset("ncube2");
  ASSERT_TRUE(ncube);
  EXPECT_DOUBLE_EQ(ncube->beta_us_per_byte, 0.45);
  EXPECT_DOUBLE_EQ(ncube->alpha_us + ncube->gamma_us, 170.0);
  EXPECT_EQ(ncube->alpha_cycles(), 189);  // 85 us / 0.45 us = 188.9
  const auto ch4 = find_machine_preset("ncube2_ch4");
  ASSERT_TRUE(ch4);
  EXPECT_DOUBLE_EQ(ch4->beta_us_per_byte, 0.5);
  const auto scatter = find_machine_preset("scatter_ts10");  // seed 003: t_s = 10 us
  ASSERT_TRUE(scatter);
  EXPECT_EQ(scatter->alpha_cycles(), 3000);
  EXPECT_EQ(scatter->gamma_cycles(), 0);
  // Seed 004's J-Machine (Table 2 cut; docs/presets.md): 9-bit channels at 32 MHz (Nuth and
  // Dally 1992), a message to any node in < 2 us (Horwat et al. 1989), split evenly.
  const auto jm = find_machine_preset("jmachine");
  ASSERT_TRUE(jm);
  EXPECT_DOUBLE_EQ(jm->beta_us_per_byte, 1.0 / 32.0);
  EXPECT_DOUBLE_EQ(jm->alpha_us + jm->gamma_us, 2.0);
  EXPECT_EQ(jm->alpha_cycles(), 32);
  const auto delta = find_machine_preset("delta");
  ASSERT_TRUE(delta);
  EXPECT_EQ(delta->max_packet_bytes, 512);
  EXPECT_EQ(delta->header_bytes, 30);
  EXPECT_DOUBLE_EQ(delta->beta_us_per_byte, 0.125);  // seed 000 Table 5.1, NX 3.3.10
  // Seed 002's tables (1-lev-dir, 255 messages, times in ms): the per-message set-ups from
  // L = 16..64 and the per-packet costs from the growth between two sizes (ceil(L / 482)
  // packets: 2 at 512, 9 at 4096, 34 at 16384).
  EXPECT_GE(delta->alpha_us, 26.04e3 / 255);  // Fig. 2: 26.04-26.45 ms
  EXPECT_LE(delta->alpha_us, 26.45e3 / 255);
  EXPECT_GE(delta->gamma_us, 16.37e3 / 255);  // Fig. 6: 16.37-16.76 ms
  EXPECT_LE(delta->gamma_us, 16.76e3 / 255);
  EXPECT_NEAR(delta->send_packet_us, (420.82 - 37.61) * 1e3 / 255 / (34 - 2), 0.05);    // Fig. 2
  EXPECT_NEAR(delta->receive_packet_us, (230.57 - 40.26) * 1e3 / 255 / (9 - 2), 0.05);  // Fig. 6
  // Seed 002 sections 3.1 and 4.1: receive set-up below send set-up, receiving data slower.
  EXPECT_LT(delta->gamma_us, delta->alpha_us);
  EXPECT_GT(delta->receive_packet_us, delta->send_packet_us);
  for (const char* name : {"paragon", "ipsc860", "sp2", "cm5", "cs2", "ncube2_pingpong"})
    EXPECT_TRUE(find_machine_preset(name)) << name;
  EXPECT_FALSE(find_machine_preset("cray_xyz"));
}

TEST(MachinePreset, ApplySetsClockAndFlitWidth) {
  Config c;
  c.machine.preset = "paragon";
  apply_machine_preset(c);
  EXPECT_DOUBLE_EQ(c.network.clock_period_ns, 5.85);
  EXPECT_EQ(c.network.flit_bytes, 1);
  EXPECT_NO_THROW(c.validate());
  c.machine.preset = "nonesuch";
  EXPECT_THROW(apply_machine_preset(c), ConfigError);
  try {
    c.validate();
    FAIL() << "unknown preset accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "machine.preset");
  }
}

TEST(MachinePreset, LoadedFromConfig) {
  const Config c = load_config("machine:\n  preset: t3d\n", "test.yaml");
  EXPECT_NEAR(c.network.clock_period_ns, 10.0 / 3.0, 1e-12);
  EXPECT_EQ(c.network.flit_bytes, 1);
  try {
    load_config("machine:\n  preset: t3d\nnetwork:\n  clock_period_ns: 2\n", "test.yaml");
    FAIL() << "conflicting clock accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "network.clock_period_ns");
    EXPECT_EQ(e.line(), 4);
  }
  // The same value as the preset's is accepted (a resolved config loads back).
  EXPECT_NO_THROW(load_config(
      "machine: {preset: ncube2}\nnetwork: {clock_period_ns: 450, flit_bytes: 1}\n", "test.yaml"));
  EXPECT_THROW(load_config("machine: {preset: ncube2}\nnetwork: {flit_bytes: 2}\n", "test.yaml"),
               ConfigError);
  try {
    load_config("machine:\n  preset: t3e\n", "test.yaml");
    FAIL() << "unknown preset accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "machine.preset");
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("t3d_low_startup"), std::string::npos);
  }
}

}  // namespace
}  // namespace wormsim::machine_preset_test
