// The network: topology, routers, NIs (terminals) and links, driven by one SystemC method
// that runs the global cycle loop (DESIGN.md section 3). Each evaluated cycle it takes the
// components with work from the activity calendar and steps them; all interaction goes
// through links of latency >= 1, so the order of evaluation within a cycle does not matter
// (tested by running the same workload in reverse order). Between busy cycles simulated time
// jumps straight to the next scheduled activity, so idle networks cost nothing.
//
// Routers come from a RouterFactory (fabric/router_factory.h) and the component at every node
// from an EndpointFactory (fabric/network_endpoint.h): the fabric names neither the synthetic
// terminal nor the NI nor the RTL router, which live in the layers above it.
//
// Run modes. Windowed (synthetic traffic, ni/synthetic_network.h): warm-up [0, W), measurement
// [W, W+M), drain from W+M (endpoints generate no new packets) until every packet is delivered
// or drain_max_cycles pass; the network ends the run. Hosted (node firmware): the run ends
// when the SystemC simulation runs out of events (firmware finished or stalled) or on a
// deadlock, and the measurement window spans the whole run. In both, the watchdog stops the
// run when no flit moved for watchdog_cycles while flits are in flight.
#pragma once

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <systemc>
#include <vector>

#include "activity_calendar.h"
#include "config.h"
#include "deadlock_detector.h"
#include "flat_routers.h"
#include "hint_tuner.h"
#include "link.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "network_endpoint.h"
#include "route_compute.h"
#include "router.h"
#include "router_factory.h"
#include "scoreboard.h"
#include "stack_arena.h"
#include "statistics.h"
#include "topology.h"
#include "worker_pool.h"

namespace wormsim {

enum class RunOutcome { kCompleted, kDrainIncomplete, kDeadlock };
std::string to_string(RunOutcome o);

enum class RunMode { kWindowed, kHosted };

struct NetworkOptions {
  RunMode mode = RunMode::kWindowed;
  bool reverse_evaluation = false;  // evaluate components in descending order (a test hook)
  bool quiet = false;               // no progress lines on stderr
  bool record_packets = false;      // keep a log of every delivered packet (Statistics)
  // Windowed runs: cycles evaluated per activation of the network's SystemC process, at most.
  // Above 1, SystemC time advances only between batches: for runs in which nothing else
  // watches it (the CLI's synthetic runs without waveforms or RTL routers; docs/performance.md,
  // "The flat engine, fourth pass").
  int cycles_per_activation = 1;
  // The component at every node (required).
  EndpointFactory make_endpoint;
  // The router at every node; null = the C++ router (config implementation systemc only).
  std::shared_ptr<RouterFactory> router_factory;
};

class Network : public sc_core::sc_module, public EndpointHost {
 public:
  SC_HAS_PROCESS(Network);
  // Throws ConfigError naming network.router.implementation if the config asks for routers
  // that options.router_factory cannot make (none given and implementation rtl).
  Network(const sc_core::sc_module_name& name, const Config& config, const NetworkOptions& options);
  ~Network() override;

  const Config& config() const { return config_; }
  const Topology& topology() const { return topology_; }
  const RouteCompute& route_compute() const { return route_compute_; }
  const PortLayout& layout() const { return layout_; }
  const Statistics& stats() const { return stats_; }
  const Scoreboard& scoreboard() const { return scoreboard_; }
  const MulticastTable& multicast_table() const { return multicast_table_; }
  // The Router objects, holding the routers' state now (with the flat engine, a copy of its
  // state made by this call: FlatRouters::export_state).
  const std::vector<std::unique_ptr<Router>>& routers() const {
    if (flat_) flat_->export_state(routers_);
    return routers_;
  }
  const std::deque<Link>& links() const { return links_; }
  const StackArena& fibre_stacks() const { return stacks_; }
  // Router `n`, holding its state now (with the flat engine, a copy of its state made by this
  // call: FlatRouters::export_router).
  Router& router(NodeId n) {
    Router& r = *routers_.at(n);
    if (flat_) flat_->export_router(static_cast<int>(n), r);
    return r;
  }
  NetworkEndpoint& endpoint(NodeId n) { return *endpoints_[n]; }
  bool hosted() const { return options_.mode == RunMode::kHosted; }
  sc_core::sc_time clock_period() const override { return period_; }

  bool finished() const { return finished_; }
  RunOutcome outcome() const { return outcome_; }
  Cycle cycles() const { return cycle_; }                // last evaluated cycle + 1
  Cycle evaluated_cycles() const { return evaluated_; }  // cycles with any activity
  // The engine that evaluates the routers (simulation.engine resolved: reference or flat).
  Engine engine() const { return flat_ ? Engine::kFlat : Engine::kReference; }
  // Threads that evaluate routers (simulation.threads resolved; 1 = serial). Results do not
  // depend on it (docs/architecture.md, "One cycle").
  int threads() const { return pool_ ? pool_->threads() : 1; }
  // Cycles whose routers were evaluated in parallel (the others had too few active routers).
  Cycle parallel_cycles() const { return parallel_cycles_; }
  // The cache-hint choice (simulation.cache_hints): its trials so far, for tests.
  const HintTuner& hint_tuner() const { return hints_; }
  // Endpoint steps made in the parallel phase (set_parallel_endpoints).
  std::uint64_t parallel_endpoint_steps() const { return parallel_endpoint_steps_; }
  const std::optional<DeadlockReport>& deadlock() const { return deadlock_; }
  // EndpointHost (hosted mode for the wake-up; see fabric/network_endpoint.h).
  void external_wake(int component, Cycle at) override;
  Cycle current_cycle() const override;
  void hold_until(Cycle at) override { last_scripted_ = std::max(last_scripted_, at); }
  ActivityCalendar& calendar() override { return calendar_; }
  // Hosted mode: called after sc_start() returns to close the run at the current cycle.
  void finish();
  // Flits held in router buffers and on links right now (for the conservation check).
  std::uint64_t flits_in_network() const;

  // Evaluate the traced routers every cycle so their probes are valid in every cycle.
  void enable_probes(const std::vector<NodeId>& routers);
  // Probes stop (and read zero) from cycle `until` on; 0 = never.
  void set_probe_window(Cycle until) { probe_until_ = until; }
  // Waveform files the routers write (RTL routers, fabric/router_factory.h), and closing them.
  std::vector<std::string> router_trace_files() const;
  void close_router_traces();
  // Every router reports to `observer` (observe/router_observer.h; not owned): the collective
  // harness's message log (contention), the lock-step checker's flit event log (departures).
  void add_router_observer(RouterObserver* observer) {
    if (flat_ && !observer->wants_contention() && !observer->wants_blocking()) {
      if (observer->wants_departures()) flat_->add_departure_observer(observer);
      return;
    }
    use_reference_engine("router observers of contention or blocking (a message log)");
    for (auto& r : routers_) r->add_observer(observer);
  }
  // A traced cycle counter, updated every evaluated cycle.
  void set_cycle_probe(sc_dt::uint64* probe) { cycle_probe_ = probe; }
  // Notified (delta) after every evaluated cycle, at that cycle's time, from the first call on
  // (LockstepChecker); a network nobody asked it of does not notify it.
  const sc_core::sc_event& evaluated_event() {
    notify_evaluated_ = true;
    return evaluated_event_;
  }

 protected:
  // Whether the endpoints step in the parallel phase, like the routers (SyntheticNetwork: runs
  // without multicasts); only when every endpoint defers (NetworkEndpoint::defers). Off by
  // default.
  void set_parallel_endpoints(bool on);

 private:
  // Before the run starts: a feature that needs the Router objects (`why`) switches an auto
  // engine from flat to the reference engine; an explicit simulation.engine: flat is a
  // ConfigError naming `why`.
  void use_reference_engine(const char* why);
  void tick();
  void tick_hosted();
  void evaluate(Cycle now);
  // The routers among active_ (and the endpoints, with parallel_endpoints_) step concurrently
  // (deferred), then every component is committed or stepped in active_ order.
  int evaluate_parallel(Cycle now, bool measuring);
  // Ends the statistics at `end`, with the blocked flit-cycles the routers counted.
  void stop_statistics(Cycle end);
  std::size_t thread_block(int component) const;
  int account_router_step(int component, const Router::StepResult& r);
  // Stage `stage` of the cache hints for `component`'s step: -1 its entry in routers_ or
  // endpoints_, 0 the object, 1 and up Router::prefetch or NetworkEndpoint::prefetch.
  void prefetch(int component, int stage) const;
  int step_endpoint(int component, Cycle now, bool measuring);
  int account_endpoint_step(int component, const NetworkEndpoint::StepResult& r, Cycle now);
  static int resolve_threads(const Config& config);
  bool done(Cycle now);
  void report_progress(Cycle now, std::uint64_t in_flight);
  Link& make_link(int latency, int credit_latency, Endpoint up, Endpoint down);
  int terminal_component(NodeId n) const { return static_cast<int>(routers_.size() + n); }

  Config config_;
  NetworkOptions options_;
  Topology topology_;
  PortLayout layout_;
  RouteCompute route_compute_;
  MulticastTable multicast_table_;
  MulticastRoute multicast_route_;
  Scoreboard scoreboard_;
  Statistics stats_;
  ActivityCalendar calendar_;
  std::deque<Link> links_;
  std::vector<std::unique_ptr<Router>> routers_;
  // The endpoints' firmware stacks: one reserved mapping for all nodes, declared before the
  // endpoints so it outlives them. WORMSIM_STACK_HIGH_WATER (any value) poisons it and reports
  // the deepest stack use on stderr when the network is destroyed (docs/architecture.md).
  StackArena stacks_;
  std::vector<std::unique_ptr<NetworkEndpoint>> endpoints_;
  sc_core::sc_event wake_event_;
  sc_core::sc_event evaluated_event_;
  bool notify_evaluated_ = false;
  Cycle next_unevaluated_ = 0;  // hosted mode: cycles below this were evaluated
  std::vector<NodeId> probed_;
  Cycle probe_until_ = 0;
  sc_dt::uint64* cycle_probe_ = nullptr;

  sc_core::sc_time period_;
  Cycle cycle_ = 0;  // the cycle evaluated next
  Cycle evaluated_ = 0;
  Cycle last_progress_ = 0;
  Cycle next_stuck_check_ = 0;  // the stuck-flit watchdog's next scan (evaluate)
  bool stuck_watch_ = false;    // that watchdog is on (collective runs with background load)
  Cycle last_scripted_ = 0;
  Cycle next_progress_report_ = 0;
  std::chrono::steady_clock::time_point next_progress_wall_;
  bool finished_ = false;
  RunOutcome outcome_ = RunOutcome::kCompleted;
  std::optional<DeadlockReport> deadlock_;
  std::vector<int> active_;
  std::unique_ptr<WorkerPool> pool_;               // null: serial
  std::vector<Router::StepResult> step_results_;   // parallel phase: per position in active_
  std::vector<std::exception_ptr> step_errors_;    // parallel phase: per position in active_
  std::vector<std::vector<std::size_t>> buckets_;  // parallel phase: positions per thread
  std::vector<std::uint8_t> router_thread_;        // parallel phase: thread_block()
  std::vector<Router::Deferred> deferred_;         // parallel phase: per thread
  std::vector<EndpointEffects> endpoint_effects_;  // parallel phase: per thread
  std::vector<NetworkEndpoint::StepResult> endpoint_results_;  // per position in active_
  std::vector<std::uint32_t> deferred_counts_;  // per position: its wake-ups or endpoint events
  std::vector<std::size_t> wake_cursors_;       // commit: next wake-up per thread
  std::vector<std::size_t> effect_cursors_;     // commit: next endpoint event per thread
  bool parallel_endpoints_ = false;             // set_parallel_endpoints
  std::uint64_t parallel_endpoint_steps_ = 0;
  Cycle parallel_cycles_ = 0;
  std::size_t min_parallel_routers_ = 1;
  HintTuner hints_;  // whether this cycle's steps get cache hints (simulation.cache_hints)
  // The flat engine (simulation.engine), or null: the Router objects are stepped. With it the
  // Router objects only hold the state copied for a deadlock report.
  std::unique_ptr<FlatRouters> flat_;
};

}  // namespace wormsim
