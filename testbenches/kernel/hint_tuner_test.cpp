// Tests of the cache-hint tuner (kernel/hint_tuner.h): on and off fix the choice; auto gives
// small networks no hints and large ones always, and lets timed trials decide between, by time
// per component step, again every kTrialInterval cycles. A simulated clock stands for the wall clock: each
// cycle costs its steps times a per-step cost that depends on whether it had hints.
#include "hint_tuner.h"

#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

namespace wormsim::hint_tuner_test {
namespace {

// Drives a tuner through cycles [from, to): `steps` component steps per cycle (with hints,
// `steps_hinted`), each costing `cost_off` or `cost_on` simulated seconds. Returns the cycles
// that had hints.
struct Driver {
  double now_s = 0;
  HintTuner tuner;
  Driver(CacheHints mode, std::size_t routers) : tuner(mode, routers, [this] { return now_s; }) {}
  std::uint64_t run(Cycle from, Cycle to, std::size_t steps, std::size_t steps_hinted,
                    double cost_off, double cost_on) {
    std::uint64_t hinted = 0;
    for (Cycle c = from; c < to; ++c) {
      const bool h = tuner.hinting();
      const std::size_t n = h ? steps_hinted : steps;
      now_s += static_cast<double>(n) * (h ? cost_on : cost_off);
      hinted += h ? 1 : 0;
      tuner.after_cycle(c, n);
    }
    return hinted;
  }
};

constexpr Cycle kLong = 4 * HintTuner::kTrialInterval;

TEST(HintTuner, OnAndOffFixTheChoiceAndRunNoTrials) {
  Driver on(CacheHints::kOn, 16);
  EXPECT_EQ(on.run(0, kLong, 100, 100, 1.0, 9.0), kLong);
  EXPECT_EQ(on.tuner.trials(), 0);
  Driver off(CacheHints::kOff, 1u << 20);
  EXPECT_EQ(off.run(0, kLong, 100, 100, 9.0, 1.0), 0u);
  EXPECT_EQ(off.tuner.trials(), 0);
}

TEST(HintTuner, AutoGivesSmallNetworksNoHintsAndLargeOnesAlways) {
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters - 1);
  EXPECT_EQ(d.run(0, kLong, 100, 100, 9.0, 1.0), 0u);
  EXPECT_EQ(d.tuner.trials(), 0);
  Driver e(CacheHints::kAuto, HintTuner::kHintMinRouters);
  EXPECT_EQ(e.run(0, kLong, 100, 100, 1.0, 9.0), kLong);
  EXPECT_EQ(e.tuner.trials(), 0);
}

TEST(HintTuner, AutoKeepsHintsWhenTheyAreFasterPerStep) {
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  // 100 steps per cycle: each mode reaches kMinStepsPerMode in 164 cycles, three windows.
  // The trial starts after cycle 0 and takes eight windows.
  const Cycle decided = 1 + 2 * HintTuner::kWindowsPerMode * HintTuner::kWindowCycles;
  d.run(0, decided, 100, 100, 2.0, 1.0);
  EXPECT_EQ(d.tuner.trials(), 1);
  EXPECT_EQ(d.tuner.trials_with_hints(), 1);
  EXPECT_TRUE(d.tuner.hinting());
  // Until the next trial every cycle has them.
  const Cycle next = decided + HintTuner::kTrialInterval;
  EXPECT_EQ(d.run(decided, next, 100, 100, 2.0, 1.0), next - decided);
  EXPECT_EQ(d.tuner.trials(), 1);
}

TEST(HintTuner, AutoDropsHintsWhenTheyAreSlowerPerStep) {
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  const std::uint64_t hinted = d.run(0, HintTuner::kTrialInterval, 100, 100, 1.0, 1.5);
  EXPECT_EQ(d.tuner.trials(), 1);
  EXPECT_EQ(d.tuner.trials_with_hints(), 0);
  EXPECT_FALSE(d.tuner.hinting());
  // Only the trial's hinted windows had them: kWindowsPerMode windows and one cycle at most
  // (the cycle that started the trial ran without).
  EXPECT_GT(hinted, 0u);
  EXPECT_LE(hinted, HintTuner::kWindowsPerMode * HintTuner::kWindowCycles);
}

TEST(HintTuner, AutoComparesTimePerStepNotPerWindow) {
  // Hinted windows take longer in all but do three times the steps: cheaper per step.
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  d.run(0, HintTuner::kTrialInterval, 100, 300, 1.0, 0.5);
  EXPECT_EQ(d.tuner.trials_with_hints(), 1);
  // And the converse: fewer steps in hinted windows, less time, dearer per step.
  Driver e(CacheHints::kAuto, HintTuner::kHintMinRouters - 1);
  e.run(0, HintTuner::kTrialInterval, 300, 100, 0.5, 1.0);
  EXPECT_EQ(e.tuner.trials(), 1);
  EXPECT_EQ(e.tuner.trials_with_hints(), 0);
}

TEST(HintTuner, AutoTriesAgainAsTheMachineOrLoadChanges) {
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  d.run(0, HintTuner::kTrialInterval, 100, 100, 2.0, 1.0);
  ASSERT_TRUE(d.tuner.hinting());
  // Now hints cost more: the next trial, kTrialInterval cycles after the first, drops them.
  d.run(HintTuner::kTrialInterval, 2 * HintTuner::kTrialInterval, 100, 100, 1.0, 2.0);
  EXPECT_EQ(d.tuner.trials(), 2);
  EXPECT_EQ(d.tuner.trials_with_hints(), 1);
  EXPECT_FALSE(d.tuner.hinting());
}

TEST(HintTuner, AutoGivesNoHintsWhenTheTrialSeesTooLittleWork) {
  // One step per cycle: neither mode reaches kMinStepsPerMode within kMaxTrialWindows windows.
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  d.run(0, HintTuner::kTrialInterval, 1, 1, 2.0, 1.0);
  EXPECT_EQ(d.tuner.trials(), 1);
  EXPECT_EQ(d.tuner.trials_with_hints(), 0);
  EXPECT_FALSE(d.tuner.hinting());
}

TEST(HintTuner, SkippedCyclesEndWindows) {
  // The network evaluates only cycles with work; a window ends at the first cycle past it.
  Driver d(CacheHints::kAuto, HintTuner::kTrialMinRouters);
  for (Cycle c = 0; c < HintTuner::kTrialInterval; c += 10) {
    const bool h = d.tuner.hinting();
    d.now_s += 1000.0 * (h ? 1.0 : 3.0);
    d.tuner.after_cycle(c, 1000);
  }
  EXPECT_EQ(d.tuner.trials(), 1);
  EXPECT_TRUE(d.tuner.hinting());
}

}  // namespace
}  // namespace wormsim::hint_tuner_test
