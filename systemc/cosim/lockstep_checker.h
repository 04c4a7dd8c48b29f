// Lock-step equivalence checker (DESIGN.md section 10, docs/rtl.md): two networks elaborated
// side by side in one SystemC simulation, e.g. C++ routers and Verilated RTL routers running
// the same workload, are compared cycle by cycle while they run. The flits that leave the
// routers in each cycle (FlitEvent: cycle, router, output port, VC, packet id, flit index)
// must be the same on both sides, as sets. The check of cycle c runs half a clock period after
// cycle c's evaluation: both networks have completed cycle c and neither has started c + 1,
// so at the first differing cycle the checker records the differing events together with both
// sides' state of the routers involved (input VCs with their buffered flits, held output VCs,
// credits). Both networks must have the same clock period.
#pragma once

#include <string>
#include <vector>

#include <systemc>

#include "flit_event_log.h"
#include "network.h"

namespace wormsim {

class LockstepChecker : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(LockstepChecker);
  // Takes over both networks' flit event logs. std::invalid_argument if the clock periods differ.
  LockstepChecker(const sc_core::sc_module_name& name, Network& a, Network& b,
                  std::string a_name = "a", std::string b_name = "b");

  // Compares what the last check did not see (a run ended by sc_stop) and returns the whole
  // result. Call after sc_start() returns.
  const FlitLogComparison& finish();
  std::size_t events_a() const { return events_a_; }

 private:
  void check();
  void compare_pending();

  Network& a_;
  Network& b_;
  std::string a_name_;
  std::string b_name_;
  std::vector<FlitEvent> log_a_;  // events since the last check
  std::vector<FlitEvent> log_b_;
  FlitEventRecorder recorder_a_{&log_a_};
  FlitEventRecorder recorder_b_{&log_b_};
  std::size_t events_a_ = 0;
  std::size_t events_b_ = 0;
  bool check_scheduled_ = false;
  std::string first_report_;  // the first differing cycle, with both sides' state
  FlitLogComparison result_;
};

// The state of one router for a divergence report: every non-idle input VC (state, buffered
// flits as packet.index, held output VC or replica branches) and every output VC that is held
// or owed credits.
std::string describe_router_state(const Network& network, NodeId router);

}  // namespace wormsim
