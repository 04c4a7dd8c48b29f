// Collective harness (DESIGN.md section 6): builds the network in node mode (processor + NI
// per node running the collective firmware), runs every configured operation (algorithm x
// message size x root; operations without a root once per size) one at a time on an idle
// network, gives every node its input and checks that every receiver delivered exactly what
// the operation's kind prescribes, exactly once, and nothing else arrived (one definition:
// firmware/collective_data.h), and measures each operation from the message log:
//   - latency per receiver: operation start (the root begins its first send) to the
//     receiver's delivery (after its receive overhead gamma); max and average over the
//     receivers (seed 000 section 3.3.5);
//   - steps: the largest message-passing step of the operation's messages (the firmware tags
//     each message with its step: a node that received in step s sends its g-th group of
//     sends in step s + 1 + g; fw::SendGroups);
//   - link usage (flit-hops) and average path length (hops per message);
//   - header flits the destination lists of multidestination worms added, and blocked
//     cycles: flit-cycles lost to other messages for an output VC or the switch, at every
//     router (MessageRecord);
//   - contention events among the operation's messages (a flit waiting for a channel held by,
//     or granted to, another message of the same operation), split into stepwise (both
//     messages in the same step) and depth contention (different steps), seed 000 sec. 4.2;
//   - message set-ups (seed 002 section 3.2): the most sends any one node issued (a
//     multidestination worm is one send) and the most messages any one node received.
// Background load (collective.background.load > 0; docs/collectives.md): the NIs inject
// unicast background packets from cycle 0; the first operation starts at cycle
// warmup_cycles + 1, so it meets a network in steady state; generation stops in the cycle after
// the last operation ends and the network drains. Background packets never reach the firmware
// and take no part in any operation's verification or metrics, but they do delay its messages
// (blocked cycles include flit-cycles lost to them). While background runs the network is
// never idle, so a firmware stall is detected here instead: every node still in the operation
// asleep in wait_interrupt(), none of its messages undelivered or unread, at two checks
// simulation.watchdog_cycles apart.
// Verification errors name the node and what went wrong (docs/safety-nets.md, "Collective
// verification"); a firmware exception or a stall ends the run with the node, the cycle and
// describe_operation().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "collective.h"
#include "message_log.h"
#include "network.h"
#include "router_backend.h"
#include "node.h"

namespace wormsim {

// Background traffic of a run, summed over the NIs (ni/network_interface.h BackgroundCounts);
// latencies in cycles over the packets created from collective.background.warmup_cycles on.
struct BackgroundResult {
  std::uint64_t packets_created = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t packets_measured = 0;
  double mean_latency = 0;          // tail consumed - created (source queueing included)
  double mean_network_latency = 0;  // tail consumed - head injected
};

struct OperationResult {
  fw::Operation op;
  Cycle start = 0;
  Cycle end = 0;               // every node's firmware returned
  std::vector<Cycle> latency;  // per receiver (fw::receivers order), cycles
  double max_latency = 0;      // cycles
  double avg_latency = 0;
  int steps = 0;
  std::size_t messages = 0;
  std::uint64_t flit_hops = 0;
  double avg_path_length = 0;
  std::size_t contention_stepwise = 0;
  std::size_t contention_depth = 0;
  std::uint64_t header_flits = 0;    // flits the destination lists added (multidestination)
  std::uint64_t blocked_cycles = 0;  // flit-cycles lost to other messages (MessageRecord)
  // Message set-ups (seed 002 section 3.2): the most messages one node sent (each send()
  // and each multidestination worm counts once) and the most one node received (messages
  // that reached its NI; a worm counts at each of its destinations).
  std::size_t max_sends = 0;
  std::size_t max_receives = 0;
  std::vector<std::string> errors;  // verification failures, each naming its node
};

// "operation 3 (reduce_binomial, root 5, 16 bytes)"; an operation without a root:
// "operation 3 (allgather_ring, 16 bytes)". Every message about an operation names it so.
std::string describe_operation(const fw::Operation& op);

// What every node runs for one operation (fw::run_collective's contract: `data` is the root's
// message, every destination calls deliver exactly once). Anything it throws ends the run:
// firmware_fault() names the node, the cycle and the operation. Tests give firmware that
// breaks the contract to prove the harness's checks and the exit codes (testbenches/app).
using CollectiveFirmware =
    std::function<void(fw::Runtime&, const fw::Operation&, const std::vector<std::uint8_t>&,
                       const fw::Deliver&, const fw::FirmwareTables&)>;

class CollectiveHarness : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(CollectiveHarness);
  CollectiveHarness(const sc_core::sc_module_name& name, const Config& config,
                    NetworkOptions options = {}, CollectiveFirmware firmware = fw::run_collective);

  Network& network() { return *network_; }
  const Network& network() const { return *network_; }
  const MessageLog& log() const { return log_; }
  const std::vector<fw::Operation>& operations() const { return ops_; }
  const std::vector<OperationResult>& results() const { return results_; }
  double cycle_us() const { return config_.network.clock_period_ns / 1000.0; }
  const Config& config() const { return config_; }

  // After sc_start() returns: closes the run and reports why it ended early, if it did.
  void finish();
  bool all_operations_run() const { return results_.size() == ops_.size(); }
  // The first firmware exception or NI fault: "node N, cycle C, in <describe_operation>: ...".
  const std::optional<std::string>& firmware_fault() const { return fault_; }
  // Set by finish() when the simulation ran out of events with operations left: the cycle,
  // the operation and the nodes waiting in receive().
  const std::optional<std::string>& stall() const { return stall_; }
  std::size_t verification_errors() const;
  // Whether the run has background traffic, and its counts (after finish()).
  bool background_enabled() const { return config_.collective.background.load > 0; }
  BackgroundResult background() const;

 private:
  void build_operations();
  void director();
  void program(ProcessorBus& bus);
  void collect(const fw::Operation& op);
  // Records the first firmware fault of the run and stops the simulation.
  void stop_for_fault(std::string message);
  // "firmware stalled at cycle ... in <operation>: ... nodes wait ..." for the operation in
  // progress.
  std::string stall_message() const;
  // Background runs: whether the operation in progress can no longer progress (see above).
  bool firmware_stalled() const;
  void wait_for_operation();

  Config config_;
  CollectiveFirmware firmware_;
  MessageLog log_;
  fw::FirmwareTables tables_;
  std::vector<fw::Operation> ops_;
  std::unique_ptr<Network> network_;
  std::vector<Node*> nodes_;
  std::vector<OperationResult> results_;

  // Operation in progress.
  std::size_t current_ = 0;
  bool shutting_down_ = false;
  int done_count_ = 0;
  Cycle op_start_ = 0;
  struct Delivery {
    Cycle at;
    bool correct;
    NodeId meant_for;  // wrong bytes that are another node's expected delivery; else kNoNode
  };
  // Which other node must deliver `data` in the current operation (kNoNode: none).
  NodeId whose_delivery(const fw::Operation& op, NodeId self,
                        const std::vector<std::uint8_t>& data);
  std::vector<std::vector<Delivery>> deliveries_;  // per node, this operation
  std::vector<bool> returned_;                     // per node, this operation
  // Hash of every node's expected delivery, built at the first wrong delivery of an operation.
  std::optional<std::vector<std::pair<std::uint64_t, NodeId>>> expected_hashes_;
  sc_core::sc_event start_event_;
  sc_core::sc_event all_done_event_;
  std::optional<std::string> fault_;
  std::optional<std::string> stall_;
};

}  // namespace wormsim
