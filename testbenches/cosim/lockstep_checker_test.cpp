// LockstepChecker (systemc/cosim/lockstep_checker.h) on two C++ networks elaborated side by side:
// identical configurations agree in every cycle; configurations one pipeline stage apart are
// reported at the first cycle a flit leaves a router of the faster one, with both sides'
// router state after that cycle. A third network, identical to the faster one and logged
// without the checker, says which cycle that is.
#include <gtest/gtest.h>

#include <systemc>

#include "lockstep_checker.h"
#include "synthetic_network.h"
#include "network_test_util.h"

namespace wormsim {
namespace {

Config loaded() {
  Config c = testing::mesh_config({4, 4});
  c.traffic.injection_rate = 0.2;
  c.traffic.packet_length = 4;
  c.traffic.seed = 3;
  c.simulation.warmup_cycles = 50;
  c.simulation.measure_cycles = 500;
  return c;
}

NetworkOptions quiet() {
  NetworkOptions o;
  o.quiet = true;
  return o;
}

TEST(LockstepChecker, IdenticalNetworksAgreeInEveryCycle) {
  SyntheticNetwork a("a", loaded(), quiet());
  SyntheticNetwork b("b", loaded(), quiet());
  LockstepChecker checker("check", a, b);
  sc_core::sc_start();
  const FlitLogComparison& r = checker.finish();
  EXPECT_GT(checker.events_a(), 2000u);
  EXPECT_EQ(r.compared, checker.events_a());
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatch;
}

TEST(LockstepChecker, OnePipelineStageMoreIsReportedAtTheFirstDepartureWithBothStates) {
  Config slower = loaded();
  slower.network.router.pipeline_depth = 2;
  SyntheticNetwork a("fast", loaded(), quiet());
  SyntheticNetwork b("slow", slower, quiet());
  SyntheticNetwork reference("reference", loaded(), quiet());
  std::vector<FlitEvent> reference_log;
  FlitEventRecorder recorder(&reference_log);
  reference.add_router_observer(&recorder);
  LockstepChecker checker("check", a, b, "fast", "slow");
  sc_core::sc_start();
  const FlitLogComparison& r = checker.finish();
  ASSERT_FALSE(reference_log.empty());
  const FlitEvent first = *std::min_element(reference_log.begin(), reference_log.end());
  ASSERT_GT(r.mismatches, 0u);
  EXPECT_EQ(r.first_cycle, first.cycle);
  const std::string& s = r.first_mismatch;
  EXPECT_NE(s.find("first differing cycle " + std::to_string(first.cycle)), std::string::npos) << s;
  EXPECT_NE(s.find(to_string(first)), std::string::npos) << s;
  EXPECT_NE(s.find("only in slow (0 events)"), std::string::npos) << s;
  // Both sides' state of the router that sent the first flit, after that cycle: the slower
  // router still holds the head the faster one has sent.
  const std::string router = "router " + std::to_string(first.router) + " (systemc";
  const std::size_t fast_state = s.find("state of fast after cycle");
  const std::size_t slow_state = s.find("state of slow after cycle");
  ASSERT_NE(fast_state, std::string::npos) << s;
  ASSERT_NE(slow_state, std::string::npos) << s;
  EXPECT_NE(s.find(router, fast_state), std::string::npos) << s;
  EXPECT_NE(s.find(router, slow_state), std::string::npos) << s;
  const std::string head = " " + std::to_string(first.packet) + ".0";
  EXPECT_NE(s.find(head, slow_state), std::string::npos) << s;
  std::cout << s;
}

TEST(LockstepChecker, NetworksWithDifferentClocksAreRejected) {
  Config other = loaded();
  other.network.clock_period_ns = 2.0;
  SyntheticNetwork a("a", loaded(), quiet());
  SyntheticNetwork b("b", other, quiet());
  EXPECT_THROW(LockstepChecker("check", a, b), std::invalid_argument);
}

}  // namespace
}  // namespace wormsim
