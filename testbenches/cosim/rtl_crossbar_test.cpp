// Block-level test of rtl/wormsim_crossbar.sv (Verilated with NumIn = NumOut = 5, W = 8):
// random legal connection sets (built through the C++ Crossbar, systemc/router/crossbar.h, which
// rejects a port used twice) route each input's data to its outputs, unselected outputs are
// invalid and zero; the assertion fires when one input drives two outputs and when an output
// selects an input that does not exist.
#include <cstdint>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "Vwormsim_crossbar.h"
#include "crossbar.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

constexpr int kIn = 5;  // rtl/CMakeLists.txt: wormsim_crossbar NumIn=5 NumOut=5 W=8
constexpr int kOut = 5;
constexpr unsigned kW = 8;
constexpr unsigned kSelW = 3;
using Xbar = rtl_test::ClockedBlock<Vwormsim_crossbar>;

std::uint64_t data_word(const std::uint8_t (&data)[kIn]) {
  std::uint64_t w = 0;
  for (int i = 0; i < kIn; ++i) w |= std::uint64_t{data[i]} << (kW * static_cast<unsigned>(i));
  return w;
}

void drive(Xbar& rtl, const std::uint8_t (&data)[kIn], const int (&sel)[kOut]) {
  std::uint32_t valid = 0;
  std::uint32_t sel_bits = 0;
  for (int o = 0; o < kOut; ++o) {
    if (sel[o] < 0) continue;
    valid |= 1u << o;
    sel_bits |= static_cast<std::uint32_t>(sel[o]) << (kSelW * static_cast<unsigned>(o));
  }
  rtl->data_i = data_word(data);
  rtl->sel_valid_i = static_cast<std::uint8_t>(valid);
  rtl->sel_i = static_cast<std::uint16_t>(sel_bits);
  rtl.eval();
}

TEST(RtlCrossbar, RoutesDataPerSelection) {
  std::mt19937_64 rng(23);
  Xbar rtl;
  Crossbar cpp(kIn, kOut);
  long routed = 0;
  for (int t = 0; t < 20000; ++t) {
    cpp.release();
    std::uint8_t data[kIn];
    for (std::uint8_t& d : data) d = static_cast<std::uint8_t>(rng());
    // Random attempts; the C++ crossbar refuses a second use of a port.
    const int attempts = static_cast<int>(rng() % 8);
    for (int a = 0; a < attempts; ++a) {
      try {
        cpp.connect(static_cast<int>(rng() % kIn), static_cast<int>(rng() % kOut));
      } catch (const std::logic_error&) {
      }
    }
    int sel[kOut];
    for (int o = 0; o < kOut; ++o) sel[o] = cpp.driver_of(o);
    drive(rtl, data, sel);
    for (int o = 0; o < kOut; ++o) {
      const unsigned shift = kW * static_cast<unsigned>(o);
      const auto got = static_cast<std::uint8_t>(rtl->data_o >> shift);
      ASSERT_EQ(((rtl->valid_o >> o) & 1u) != 0, sel[o] >= 0) << "t " << t << " out " << o;
      ASSERT_EQ(got, sel[o] >= 0 ? data[sel[o]] : 0) << "t " << t << " out " << o;
      if (sel[o] >= 0) ++routed;
    }
    ASSERT_EQ(rtl->data_o >> (kW * kOut), 0u);
    rtl.tick();
    ASSERT_FALSE(rtl.error()) << "assertion failed at t " << t;
  }
  EXPECT_GT(routed, 20000);
}

TEST(RtlCrossbar, OneInputOnTwoOutputsFiresAssertion) {
  for (int o1 = 0; o1 < kOut; ++o1) {
    for (int o2 = o1 + 1; o2 < kOut; ++o2) {
      Xbar rtl;
      const std::uint8_t data[kIn] = {1, 2, 3, 4, 5};
      int sel[kOut] = {-1, -1, -1, -1, -1};
      const int in = (o1 + o2) % kIn;
      sel[o1] = in;
      drive(rtl, data, sel);
      rtl.tick();
      ASSERT_FALSE(rtl.error()) << "single use flagged, out " << o1;
      sel[o2] = in;
      drive(rtl, data, sel);
      rtl.tick();
      EXPECT_TRUE(rtl.error()) << "input " << in << " on outputs " << o1 << " and " << o2;
    }
  }
}

TEST(RtlCrossbar, NonexistentInputFiresAssertion) {
  Xbar rtl;
  const std::uint8_t data[kIn] = {1, 2, 3, 4, 5};
  int sel[kOut] = {-1, -1, -1, -1, -1};
  sel[2] = kIn;  // selector value 5 of a 3-bit field
  drive(rtl, data, sel);
  rtl.tick();
  EXPECT_TRUE(rtl.error());
}

}  // namespace
}  // namespace wormsim
