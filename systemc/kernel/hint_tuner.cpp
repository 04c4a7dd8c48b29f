#include "hint_tuner.h"

#include <chrono>

#include "activity_calendar.h"

namespace wormsim {

namespace {
double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

HintTuner::HintTuner(CacheHints mode, std::size_t routers, Clock clock)
    : clock_(clock ? std::move(clock) : Clock(steady_seconds)),
      hinting_(mode == CacheHints::kOn ||
               (mode == CacheHints::kAuto && routers >= kHintMinRouters)),
      next_event_(ActivityCalendar::kNever) {
  if (mode == CacheHints::kAuto && routers >= kTrialMinRouters && routers < kHintMinRouters)
    next_event_ = 0;
}

void HintTuner::start_trial(Cycle now) {
  trialing_ = true;
  windows_ = 0;
  seconds_ = {};
  steps_ = {};
  mode_windows_ = {};
  hinting_ = true;
  window_steps_ = 0;
  window_start_ = clock_();
  next_event_ = now + kWindowCycles;
}

void HintTuner::decide(Cycle now, bool hints) {
  trialing_ = false;
  hinting_ = hints;
  ++trials_;
  trials_with_hints_ += hints ? 1 : 0;
  next_event_ = now + kTrialInterval;
}

// Called after the cycle before next_event_: the start of a trial (the first cycle of a run
// included) or the end of one of its windows.
void HintTuner::advance(Cycle now) {
  const Cycle next = now + 1;
  if (!trialing_) {
    start_trial(next);
    return;
  }
  const double t = clock_();
  const std::size_t m = hinting_ ? 1 : 0;
  seconds_[m] += t - window_start_;
  steps_[m] += window_steps_;
  ++mode_windows_[m];
  ++windows_;
  const bool enough = mode_windows_[0] >= kWindowsPerMode && mode_windows_[1] >= kWindowsPerMode &&
                      steps_[0] >= kMinStepsPerMode && steps_[1] >= kMinStepsPerMode;
  if (enough) {
    // Time per step with hints against without (cross-multiplied: no division by zero).
    decide(next, seconds_[1] * static_cast<double>(steps_[0]) <
                     seconds_[0] * static_cast<double>(steps_[1]));
    return;
  }
  if (windows_ >= kMaxTrialWindows) {
    decide(next, false);  // too little work to tell, and so little that hints cannot matter
    return;
  }
  hinting_ = !hinting_;
  window_steps_ = 0;
  window_start_ = clock_();
  next_event_ = next + kWindowCycles;
}

}  // namespace wormsim
