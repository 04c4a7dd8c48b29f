// Whether the network's cycle loop gives cache hints (docs/architecture.md, "Cache hints";
// simulation.cache_hints). The hints change no state, only the speed, and whether they pay
// depends on the machine's caches as much as on the network: on the project's AMD EPYC VM
// they cost 8-20 % on a 32x32 mesh and saved 15-22 % from 64x64 on; on its Intel Xeon VM they
// saved 8-17 % on 32x32 and cost 36-76 % on 8x8 and 16x16 (docs/performance.md, "Cache hints
// chosen by trial"). So under CacheHints::kAuto networks below kTrialMinRouters routers get
// no hints, networks of kHintMinRouters routers or more always get them (they paid on both
// machines), and the ones between are decided by timing: trials of alternating windows of
// kWindowCycles cycles with and without hints compare the wall-clock time per component step
// of the two and keep the faster, again every kTrialInterval cycles (the load changes between
// warm-up, measurement and drain). kOn and kOff fix the choice.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "config.h"
#include "flit.h"

namespace wormsim {

class HintTuner {
 public:
  // Monotonic seconds; the default reads std::chrono::steady_clock (tests give their own).
  using Clock = std::function<double()>;

  static constexpr std::size_t kTrialMinRouters = 512;
  static constexpr std::size_t kHintMinRouters = 4096;
  static constexpr Cycle kWindowCycles = 64;
  // A trial ends once each mode has had this many windows and this many component steps; a
  // network that idles through kMaxTrialWindows windows gets no hints until the next trial.
  static constexpr int kWindowsPerMode = 4;
  static constexpr std::uint64_t kMinStepsPerMode = 16384;
  static constexpr int kMaxTrialWindows = 64;
  static constexpr Cycle kTrialInterval = Cycle{1} << 14;

  HintTuner(CacheHints mode, std::size_t routers, Clock clock = {});

  // Whether this cycle's steps get hints.
  bool hinting() const { return hinting_; }
  // Accounts a finished cycle `now` whose loop stepped `steps` components; may switch the
  // hints for the next cycle. Cheap outside trials.
  void after_cycle(Cycle now, std::size_t steps) {
    window_steps_ += steps;
    if (now + 1 >= next_event_) advance(now);
  }
  // Trials finished so far and how many of them chose hints (for tests).
  int trials() const { return trials_; }
  int trials_with_hints() const { return trials_with_hints_; }

 private:
  void advance(Cycle now);
  void start_trial(Cycle now);
  void decide(Cycle now, bool hints);

  Clock clock_;
  bool hinting_ = false;
  bool trialing_ = false;
  Cycle next_event_;  // the cycle whose start ends the current window or begins a trial
  double window_start_ = 0;
  std::uint64_t window_steps_ = 0;
  int windows_ = 0;                       // windows of the current trial
  std::array<double, 2> seconds_{};       // per mode (0 = off, 1 = on): time in this trial
  std::array<std::uint64_t, 2> steps_{};  // component steps in this trial
  std::array<int, 2> mode_windows_{};
  int trials_ = 0;
  int trials_with_hints_ = 0;
};

}  // namespace wormsim
