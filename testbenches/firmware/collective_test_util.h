// Shared by the tests that run collectives through the simulator (testbenches/firmware and
// testbenches/app): run an elaborated CollectiveHarness to its end and check that it ran clean.
#pragma once

#include <gtest/gtest.h>
#include <systemc>

#include "collective_harness.h"
#include "collective_report.h"

namespace wormsim::testing {

// Runs the simulation of `h` (constructed, not yet started) to its end, closes it with
// h.finish(), then requires a clean run: no firmware fault, no firmware stall, no network
// deadlock, every operation run (fatal: later checks would read missing results), no
// verification error and no scoreboard violation. Fatal failures return from here only, so
// callers write ASSERT_NO_FATAL_FAILURE(run_collective_clean(h)) before reading results.
// A test that expects a fault, a stall or a deadlock does not use this.
inline void run_collective_clean(CollectiveHarness& h) {
  sc_core::sc_start();
  h.finish();
  ASSERT_FALSE(h.firmware_fault()) << *h.firmware_fault();
  ASSERT_FALSE(h.stall()) << *h.stall();
  ASSERT_FALSE(h.network().deadlock()) << h.network().deadlock()->text();
  ASSERT_TRUE(h.all_operations_run())
      << h.results().size() << " of " << h.operations().size() << " operations ran\n"
      << collective_summary_text(h);
  EXPECT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  EXPECT_EQ(h.network().scoreboard().violation_count(), 0u);
}

}  // namespace wormsim::testing
