// What a router reports to whoever observes it (the collective harness's message log, the
// lock-step checker's flit event log): the router calls these and knows nothing else about
// its observers. An observer that does not override a method ignores that kind of event; a
// router computes contention events only while some observer wants_contention().
#pragma once

#include <ostream>
#include <vector>

#include "flit.h"
#include "flit_event_log.h"

namespace wormsim {

class RouterObserver {
 public:
  virtual ~RouterObserver() = default;
  // Whether to compute contention events, and blocking events with them (they cost a scan per
  // cycle).
  virtual bool wants_contention() const { return false; }
  // Whether to report blocking (on_blocked, on_blocked_by); these cost no scan of their own.
  virtual bool wants_blocking() const { return wants_contention(); }
  // Whether to report departures (on_departure, one call per flit leaving a router).
  virtual bool wants_departures() const { return true; }
  // A flit of `waiting` could not advance at `router` because `holder` held the channel
  // (output port `port`) it needs (seed 000 section 4.2 contention), in cycle `now`.
  virtual void on_contention(PacketId waiting, PacketId holder, NodeId router, int port,
                             Cycle now) {
    (void)waiting, (void)holder, (void)router, (void)port, (void)now;
  }
  // The head flit of `packet` waited `cycles` cycles in a router.
  virtual void on_blocked(PacketId packet, Cycle cycles) { (void)packet, (void)cycles; }
  // `packet` lost one cycle of switch allocation to `winner`.
  virtual void on_blocked_by(PacketId packet, PacketId winner) { (void)packet, (void)winner; }
  // Either of the two above, by class: `cycles` (1 for on_blocked_by) of a unicast packet or
  // a multidestination worm, reported in cycle `now`.
  virtual void on_blocked_flits(bool multidest, Cycle cycles, Cycle now) {
    (void)multidest, (void)cycles, (void)now;
  }
  // A flit left a router (docs/rtl.md, lock-step equivalence).
  virtual void on_departure(const FlitEvent& event) { (void)event; }
};

// Appends every departure to a vector (LockstepChecker).
class FlitEventRecorder : public RouterObserver {
 public:
  explicit FlitEventRecorder(std::vector<FlitEvent>* log) : log_(log) {}
  void on_departure(const FlitEvent& event) override { log_->push_back(event); }

 private:
  std::vector<FlitEvent>* log_;
};

// Writes every departure as one line (to_string(FlitEvent)) in canonical order
// (canonical_order: by cycle, then by router), one cycle at a time (`wormsim run --flit-log`):
// the same run gives the same bytes for any thread count and either engine. flush() writes the
// last cycle's lines.
class FlitEventWriter : public RouterObserver {
 public:
  explicit FlitEventWriter(std::ostream* out) : out_(out) {}
  void on_departure(const FlitEvent& event) override {
    if (!cycle_.empty() && event.cycle != cycle_.front().cycle) flush();
    cycle_.push_back(event);
  }
  void flush() {
    canonical_order(cycle_);
    for (const FlitEvent& e : cycle_) *out_ << to_string(e) << '\n';
    cycle_.clear();
  }

 private:
  std::ostream* out_;
  std::vector<FlitEvent> cycle_;  // the events of the cycle being reported
};

}  // namespace wormsim
