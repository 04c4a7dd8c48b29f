// Blocking in synthetic runs, by traffic class (Statistics::on_blocked): the blocked
// flit-cycles routers report (router_observer.h: on_blocked, and one cycle per on_blocked_by;
// the definition of MessageRecord::blocked_cycles) in reports made inside the measurement
// window. It asks routers for blocking only (no contention scan, no departures) and keeps no
// per-packet state: a report costs an add.
#pragma once

#include "router_observer.h"
#include "statistics.h"

namespace wormsim {

class BlockingCounter : public RouterObserver {
 public:
  explicit BlockingCounter(Statistics& stats) : stats_(stats) {}

  bool wants_contention() const override { return false; }
  bool wants_blocking() const override { return true; }
  bool wants_departures() const override { return false; }
  void on_blocked_flits(bool multidest, Cycle cycles, Cycle now) override {
    if (cycles > 0 && stats_.measuring(now)) stats_.on_blocked(multidest, cycles);
  }

 private:
  Statistics& stats_;
};

}  // namespace wormsim
