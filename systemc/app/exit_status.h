// How a `wormsim run` ended, as its exit code and the line for stderr (docs/cli.md, "Exit
// codes"). One place decides it, in the order the table gives precedence: a firmware error
// before a deadlock before a firmware stall before a verification failure (the first
// explains the others), so tests check every code on the harness and network themselves.
#pragma once

#include <string>

namespace wormsim {

class CollectiveHarness;
class SyntheticNetwork;

enum class ExitCode : int {
  kOk = 0,
  kError = 1,            // internal, scoreboard, verification or firmware error
  kConfigError = 2,      // bad config, usage or output location
  kDeadlock = 3,         // the watchdog fired, or the firmware stalled on an idle network
  kDrainIncomplete = 4,  // packets outstanding after simulation.drain_max_cycles
};

struct RunStatus {
  ExitCode code = ExitCode::kOk;
  std::string message;  // for stderr, ends with a newline; empty when the run succeeded
};

// After CollectiveHarness::finish().
RunStatus collective_status(const CollectiveHarness& harness);
// After sc_start() returned on a synthetic run.
RunStatus synthetic_status(const SyntheticNetwork& network);

}  // namespace wormsim
