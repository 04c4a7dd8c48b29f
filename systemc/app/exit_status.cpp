#include "exit_status.h"

#include <fmt/format.h>

#include "collective_harness.h"
#include "synthetic_network.h"

namespace wormsim {

RunStatus collective_status(const CollectiveHarness& harness) {
  const Network& net = harness.network();
  if (harness.firmware_fault())
    return {ExitCode::kError, "wormsim: firmware error: " + *harness.firmware_fault() + "\n"};
  if (net.deadlock()) return {ExitCode::kDeadlock, net.deadlock()->text()};
  if (harness.stall()) return {ExitCode::kDeadlock, "wormsim: " + *harness.stall() + "\n"};
  const std::size_t violations = net.scoreboard().violation_count();
  const std::size_t errors = harness.verification_errors();
  if (violations > 0 || errors > 0) {
    std::string first;  // the first collective error, with its operation
    for (const OperationResult& r : harness.results())
      if (!r.errors.empty()) {
        first = fmt::format("; first: {}: {}", describe_operation(r.op), r.errors.front());
        break;
      }
    return {ExitCode::kError,
            fmt::format("wormsim: verification failed: {} collective errors, {} scoreboard "
                        "violations{} (see the ERROR lines and results.json)\n",
                        errors, violations, first)};
  }
  return {};
}

RunStatus synthetic_status(const SyntheticNetwork& network) {
  if (network.deadlock()) return {ExitCode::kDeadlock, network.deadlock()->text()};
  const std::size_t violations = network.scoreboard().violation_count();
  if (violations > 0)
    return {ExitCode::kError,
            fmt::format("wormsim: verification failed: {} scoreboard violations (lost, "
                        "duplicated, corrupted or reordered packets; see results.json)\n",
                        violations)};
  if (network.outcome() == RunOutcome::kDrainIncomplete)
    return {ExitCode::kDrainIncomplete,
            fmt::format("wormsim: drain incomplete: {} packets outstanding after {} drain cycles\n",
                        network.scoreboard().live_packets(),
                        network.config().simulation.drain_max_cycles)};
  return {};
}

}  // namespace wormsim
