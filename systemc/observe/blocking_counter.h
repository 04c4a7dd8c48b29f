// Blocking of synthetic packets, by traffic class (Statistics::on_blocked): the blocked
// flit-cycles routers report (router_observer.h: on_blocked, and one cycle per on_blocked_by;
// the definition of MessageRecord::blocked_cycles) of every packet created inside the
// measurement window. It asks routers for blocking only (no contention scan, no departures);
// each report costs one scoreboard lookup of the packet.
#pragma once

#include "router_observer.h"
#include "scoreboard.h"
#include "statistics.h"

namespace wormsim {

class BlockingCounter : public RouterObserver {
 public:
  BlockingCounter(const Scoreboard& scoreboard, Statistics& stats)
      : scoreboard_(scoreboard), stats_(stats) {}

  bool wants_contention() const override { return false; }
  bool wants_blocking() const override { return true; }
  bool wants_departures() const override { return false; }
  void on_blocked(PacketId packet, Cycle cycles) override {
    if (cycles > 0) add(packet, cycles);
  }
  void on_blocked_by(PacketId packet, PacketId winner) override {
    (void)winner;
    add(packet, 1);
  }

 private:
  void add(PacketId packet, Cycle cycles) {
    const auto it = scoreboard_.live().find(packet);
    if (it == scoreboard_.live().end() || !it->second.measured) return;
    stats_.on_blocked(it->second.multidestination, cycles);
  }

  const Scoreboard& scoreboard_;
  Statistics& stats_;
};

}  // namespace wormsim
