// What the network needs from the component at each node behind the router's injection and
// ejection channels: the synthetic-traffic Terminal or the node's NetworkInterface. The
// network steps it, like a router, only in cycles the activity calendar schedules it.
#pragma once

#include <cstddef>

#include "activity_calendar.h"
#include "link.h"

namespace wormsim {

class NetworkEndpoint {
 public:
  virtual ~NetworkEndpoint() = default;

  virtual void attach_injection(int channel, Link* link) = 0;
  virtual void attach_ejection(int channel, Link* link) = 0;
  // Called once before simulation starts (arms sources in the calendar).
  virtual void start(ActivityCalendar& calendar) = 0;

  struct StepResult {
    int moved = 0;      // flits injected plus flits consumed this cycle
    bool busy = false;  // must be evaluated next cycle even if nothing arrives
  };
  virtual StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring) = 0;
  // Packets waiting at this node to enter the network.
  virtual std::size_t queued_packets() const = 0;
};

}  // namespace wormsim
