#include "network.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <fmt/format.h>

#include "prefetch.h"

namespace wormsim {

std::string to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::kCompleted: return "completed";
    case RunOutcome::kDrainIncomplete: return "drain_incomplete";
    case RunOutcome::kDeadlock: return "deadlock";
  }
  return "?";
}

namespace {
// With simulation.threads 0 a network gets one thread per this many routers at most: smaller
// networks rarely have enough active routers in a cycle to pay for the hand-off to the threads
// (simulation.parallel_min_routers; docs/performance.md "Threads").
constexpr int kRoutersPerAutoThread = 512;
// With `simulation.threads: 0`, up to this many threads give way to the flat engine.
constexpr int kFlatOverThreads = 2;

// Network::evaluate's cache hints: stage s of a component is given kPrefetchDistance *
// (kPrefetchStages - s) positions before its step (Router::prefetch, NetworkEndpoint::prefetch).
// Which cycles get them: HintTuner (simulation.cache_hints).
constexpr int kPrefetchStages = 4;
constexpr std::size_t kPrefetchDistance = 4;

// The cache hints due at position i of a sequence of n steps (component_at(k): the component of
// position k): stage s for position i + kPrefetchDistance * (kPrefetchStages - s), from stage -1
// (the component's table entry) to kPrefetchStages - 1. The steps of large networks are
// memory-bound; the hints let several steps' cache misses overlap. They change nothing.
template <typename ComponentAt, typename Hint>
void prefetch_ahead(std::size_t i, std::size_t n, ComponentAt component_at, Hint hint) {
  for (int stage = -1; stage < kPrefetchStages; ++stage) {
    const std::size_t ahead =
        i + kPrefetchDistance * static_cast<std::size_t>(kPrefetchStages - stage);
    if (ahead < n) hint(component_at(ahead), stage);
  }
}

// In-order delivery per (source, destination) is guaranteed when routing is deterministic,
// every dateline class has a single VC and a source cannot start two packets in parallel.
bool order_guaranteed(const Config& c) {
  const RouterConfig& r = c.network.router;
  const bool torus_classes =
      c.network.topology.kind == TopologyKind::kTorus && c.network.routing.dateline;
  const bool one_vc_per_class = torus_classes ? r.vcs == 2 : r.vcs == 1;
  const bool serial_injection = r.port_model != PortModel::kKPort || r.ports == 1;
  return one_vc_per_class && serial_injection;
}
}  // namespace

Network::Network(const sc_core::sc_module_name& name, const Config& config,
                 const NetworkOptions& options)
    : sc_core::sc_module(name),
      config_(config),
      options_(options),
      topology_(config.network.topology),
      layout_(PortLayout::make(config.network.router.port_model, topology_.network_ports(),
                               config.network.router.ports,
                               config.network.router.consumption_channels)),
      route_compute_(topology_, config.network.routing, layout_, config.network.router.vcs,
                     config.network.router.multidest == MultidestMode::kNone
                         ? 0
                         : config.network.router.multidest_vcs),
      multicast_route_(
          topology_, route_compute_, multicast_table_, config.network.router.path_ir,
          addresses_per_header_flit(config.network.router.header_encoding,
                                    config.network.router.path_ir,
                                    node_count(config.network.topology), config.network.flit_bytes),
          HeaderReading{config.network.router.header_decode, config.network.router.header_encoding,
                        node_count(config.network.topology), config.network.flit_bytes}),
      scoreboard_(topology_.nodes(), order_guaranteed(config)),
      stats_(topology_.nodes(),
             options.mode == RunMode::kHosted ? 0 : config.simulation.warmup_cycles,
             options.mode == RunMode::kHosted ? ActivityCalendar::kNever / 2
                                              : config.simulation.measure_cycles),
      calendar_(2 * node_count(config.network.topology)),
      stacks_(static_cast<std::size_t>(node_count(config.network.topology)),
              std::getenv("WORMSIM_STACK_HIGH_WATER") != nullptr),
      period_(config.network.clock_period_ns, sc_core::SC_NS),
      hints_(config.simulation.cache_hints,
             static_cast<std::size_t>(node_count(config.network.topology))) {
  if (options.record_packets) stats_.enable_packet_log();
  stats_.track_consumption(layout_.ejection);
  const RouterConfig& rc = config.network.router;
  const int nodes = topology_.nodes();
  RouterParams rp;
  rp.layout = layout_;
  rp.vcs = rc.vcs;
  rp.buffer_depth = rc.buffer_depth;
  rp.pipeline_depth = rc.pipeline_depth;
  rp.pipeline = rc.pipeline;
  rp.allocator = rc.allocator;
  rp.replication = rc.replication;
  rp.replication_flow = rc.replication_flow;
  const MulticastRoute* multicast =
      rc.multidest == MultidestMode::kNone ? nullptr : &multicast_route_;
  const auto period_ps =
      static_cast<std::uint64_t>(std::llround(config.network.clock_period_ns * 1000.0));
  if (!options_.make_endpoint)
    throw std::invalid_argument("Network: NetworkOptions::make_endpoint is required");
  if (!options_.router_factory && rc.implementation != RouterImplementation::kSystemC)
    throw ConfigError("network.router.implementation",
                      fmt::format("'{}' routers need a router factory that makes them; this "
                                  "network was given none (the C++ router only)",
                                  to_string(rc.implementation)));
  for (int n = 0; n < nodes; ++n) {
    rp.id = static_cast<NodeId>(n);
    const std::string router_name = fmt::format("r{}", n);
    if (options_.router_factory) {
      const RouterContext ctx{rp,      route_compute_, multicast, &multicast_table_,
                              config_, topology_,      period_ps};
      routers_.push_back(options_.router_factory->make(router_name.c_str(), ctx));
    } else {
      routers_.push_back(
          std::make_unique<Router>(router_name.c_str(), rp, route_compute_, multicast));
    }
    if (options_.mode == RunMode::kWindowed) routers_.back()->count_blocking();
  }
  for (int n = 0; n < nodes; ++n) {
    EndpointContext ctx;
    ctx.id = static_cast<NodeId>(n);
    ctx.component = terminal_component(ctx.id);
    ctx.topology = &topology_;
    ctx.layout = &layout_;
    ctx.route_compute = &route_compute_;
    ctx.multicast = &multicast_table_;
    ctx.scoreboard = &scoreboard_;
    ctx.stats = &stats_;
    ctx.host = this;
    ctx.stacks = &stacks_;
    endpoints_.push_back(options_.make_endpoint(ctx));
  }
  for (int n = 0; n < nodes; ++n) {
    const NodeId id = static_cast<NodeId>(n);
    for (int p = 0; p < layout_.network; ++p) {
      const NodeId nb = topology_.neighbor(id, p);
      if (nb == kNoNode) continue;
      const int back = topology_.reverse_port(p);
      Link& l = make_link(rc.link_latency, rc.credit_latency, {n, p}, {static_cast<int>(nb), back});
      routers_[id]->attach_output(p, &l);
      routers_[nb]->attach_input(back, &l);
    }
    const int term = terminal_component(id);
    for (int c = 0; c < layout_.injection; ++c) {
      Link& l = make_link(1, rc.credit_latency, {term, c}, {n, layout_.network + c});
      endpoints_[id]->attach_injection(c, &l);
      routers_[id]->attach_input(layout_.network + c, &l);
    }
    for (int c = 0; c < layout_.ejection; ++c) {
      Link& l = make_link(1, rc.credit_latency, {n, layout_.network + c}, {term, c});
      routers_[id]->attach_output(layout_.network + c, &l);
      endpoints_[id]->attach_ejection(c, &l);
    }
  }
  for (auto& t : endpoints_) t->start(calendar_);
  const int threads = resolve_threads(config);
  if (threads > 1) {
    pool_ = std::make_unique<WorkerPool>(threads);
    for (int r = 0; r < nodes; ++r)
      router_thread_.push_back(static_cast<std::uint8_t>(thread_block(r)));
    // Router-to-router links between the blocks of two threads (evaluate_parallel).
    for (const Link& l : links_)
      if (l.upstream.component < nodes && l.downstream.component < nodes &&
          thread_block(l.upstream.component) != thread_block(l.downstream.component)) {
        routers_[static_cast<std::size_t>(l.upstream.component)]->mark_cross_thread(
            false, l.upstream.port);
        routers_[static_cast<std::size_t>(l.downstream.component)]->mark_cross_thread(
            true, l.downstream.port);
      }
  }
  // The engine (simulation.engine): flat where the run allows it under auto, always under flat
  // (an error naming the feature that rules it out), never under reference.
  const Engine engine = config.simulation.engine;
  if (engine != Engine::kReference) {
    std::string why = FlatRouters::ineligible(config, threads);
    if (why.empty() && options_.mode != RunMode::kWindowed) why = "a hosted (firmware) run";
    if (why.empty() && options_.router_factory) why = "a router factory (other router models)";
    if (engine == Engine::kFlat && !why.empty())
      throw ConfigError("simulation.engine",
                        fmt::format("'flat' cannot run this network: {}; use 'auto' or "
                                    "'reference'",
                                    why));
    if (why.empty()) {
      flat_ = std::make_unique<FlatRouters>(config, topology_, layout_, route_compute_);
      flat_->attach(links_, nodes);
      // Payload-free flits when every endpoint takes them (their payloads are fill_payload's).
      bool payload_free = true;
      for (auto& e : endpoints_) payload_free = e->set_payload_free(true) && payload_free;
      if (!payload_free)
        for (auto& e : endpoints_) e->set_payload_free(false);
      flat_->set_payload_free(payload_free);
      // Its step takes no cache hints: no trials for them either.
      hints_ = HintTuner(CacheHints::kOff, static_cast<std::size_t>(nodes));
    }
  }
  min_parallel_routers_ = static_cast<std::size_t>(config.simulation.parallel_min_routers);
  stuck_watch_ = config.workload == Workload::kCollective && config.collective.background.load > 0;
  next_progress_report_ = config.simulation.progress_interval;
  next_progress_wall_ = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  SC_METHOD(tick);
}

Network::~Network() {
  if (stacks_.poisoned() && stacks_.stacks() > 0)
    std::cerr << fmt::format("wormsim: fibre stacks: deepest use {} of {} bytes ({} stacks)\n",
                             stacks_.high_water(), stacks_.slot_bytes() - StackArena::kCanaryBytes,
                             stacks_.stacks());
}

Link& Network::make_link(int latency, int credit_latency, Endpoint up, Endpoint down) {
  links_.emplace_back(latency, credit_latency);
  links_.back().upstream = up;
  links_.back().downstream = down;
  return links_.back();
}

int Network::resolve_threads(const Config& config) {
  // RTL routers share one Verilated context per network: serial.
  if (config.network.router.implementation != RouterImplementation::kSystemC) return 1;
  const int requested = config.simulation.threads;
  if (requested > 0) return requested;
  // Collective runs: their routers report contention and blocking to the per-operation
  // statistics, which a parallel step leaves to the serial commit, and their NIs and processors
  // step serially, so a second thread costs more than it saves (2-core VM, 2026-11-28: the
  // 256x256 all-port EDN broadcast took 121 s of simulation on 2 threads and 57.6 s on one;
  // docs/performance.md, "Threads").
  if (config.workload == Workload::kCollective) return 1;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int useful = node_count(config.network.topology) / kRoutersPerAutoThread;
  const int threads = std::max(1, std::min(cores, useful));
  // One flat-engine thread ran 32x32 at 0.1 31 % faster than two reference-engine threads and
  // 64x64 at 0.02 17 % faster, leaving a core free (2-core VM, 2026-11-29; docs/performance.md,
  // "The flat engine, third pass"), so where the flat engine can run, `auto` takes it rather
  // than a second thread. From three threads on the reference engine keeps them (a crossover
  // not measured: these machines have two cores).
  if (threads <= kFlatOverThreads && config.simulation.engine != Engine::kReference &&
      FlatRouters::ineligible(config, 1).empty())
    return 1;
  return threads;
}

void Network::use_reference_engine(const char* why) {
  if (!flat_) return;
  if (config_.simulation.engine == Engine::kFlat)
    throw ConfigError(
        "simulation.engine",
        fmt::format("'flat' cannot run this network: {}; use 'auto' or 'reference'", why));
  if (evaluated_ > 0)
    throw std::logic_error(fmt::format("Network: {} attached after the run started", why));
  flat_.reset();
  for (auto& e : endpoints_) e->set_payload_free(false);
  hints_ = HintTuner(config_.simulation.cache_hints, routers_.size());
  // Give the endpoints' links back to the Router objects (FlatRouters::attach took their watches).
  for (Link& l : links_) {
    const int routers = static_cast<int>(routers_.size());
    if (l.downstream.component < routers)
      routers_[static_cast<std::size_t>(l.downstream.component)]->attach_input(l.downstream.port,
                                                                               &l);
    if (l.upstream.component < routers)
      routers_[static_cast<std::size_t>(l.upstream.component)]->attach_output(l.upstream.port, &l);
  }
}

void Network::enable_probes(const std::vector<NodeId>& routers) {
  use_reference_engine("router probes (waveforms)");
  for (NodeId r : routers) {
    routers_.at(r)->enable_probes();
    probed_.push_back(r);
    calendar_.wake(static_cast<int>(r), 0);
  }
}

std::vector<std::string> Network::router_trace_files() const {
  return options_.router_factory ? options_.router_factory->trace_files()
                                 : std::vector<std::string>{};
}

void Network::close_router_traces() {
  if (options_.router_factory) options_.router_factory->close_traces();
}

std::uint64_t Network::flits_in_network() const {
  std::uint64_t n = 0;
  if (flat_)
    n += flat_->flits_held();
  else
    for (const auto& r : routers_) n += static_cast<std::uint64_t>(r->buffered());
  for (const Link& l : links_) n += static_cast<std::uint64_t>(l.flits.size());
  return n;
}

void Network::evaluate(Cycle now) {
  calendar_.take(now, active_);
  if (cycle_probe_ != nullptr) *cycle_probe_ = now;
  if (options_.reverse_evaluation) std::reverse(active_.begin(), active_.end());
  const bool measuring = stats_.measuring(now);
  const int router_count = static_cast<int>(routers_.size());
  int moved = 0;
  const auto active_routers = [&] {
    std::size_t n = 0;
    for (int c : active_) n += c < router_count ? 1 : 0;
    return n;
  };
  if (pool_ && active_.size() >= min_parallel_routers_ &&
      active_routers() >= min_parallel_routers_) {
    moved = evaluate_parallel(now, measuring);
  } else if (flat_) {
    FlatRouters& flat = *flat_;
    flat.begin_cycle(now);
    for (const int c : active_)
      moved += c < router_count ? flat.step(c, now, calendar_, measuring)
                                : step_endpoint(c, now, measuring);
  } else {
    const std::size_t n = active_.size();
    const bool hinting = hints_.hinting();
    for (std::size_t i = 0; i < n; ++i) {
      if (hinting)
        prefetch_ahead(
            i, n, [&](std::size_t k) { return active_[k]; },
            [&](int component, int stage) { prefetch(component, stage); });
      const int c = active_[i];
      if (c < router_count)
        moved += account_router_step(
            c, routers_[static_cast<std::size_t>(c)]->step(now, calendar_, measuring));
      else
        moved += step_endpoint(c, now, measuring);
    }
  }
  if (probe_until_ > 0 && now + 1 >= probe_until_ && !probed_.empty()) {
    for (NodeId r : probed_) routers_[r]->disable_probes();
    probed_.clear();
  }
  for (NodeId r : probed_) calendar_.wake(static_cast<int>(r), now + 1);
  hints_.after_cycle(now, active_.size());
  ++evaluated_;
  if (notify_evaluated_) evaluated_event_.notify(sc_core::SC_ZERO_TIME);
  if (moved > 0) last_progress_ = now;
  const std::uint64_t in_flight = stats_.flits_in_flight();
  const Cycle watchdog = config_.simulation.watchdog_cycles;
  if (in_flight > 0 && now - last_progress_ >= watchdog) {
    if (flat_) flat_->export_state(routers_);
    deadlock_ = build_deadlock_report(routers_, topology_, now, last_progress_, in_flight);
    outcome_ = RunOutcome::kDeadlock;
  } else if (stuck_watch_ && in_flight > 0 && now >= next_stuck_check_) {
    // Stuck-flit watchdog (docs/safety-nets.md), for collective runs with background traffic
    // only: that traffic stops when the last operation ends, so worms deadlocked among
    // themselves while it flows around them would keep the run going forever (a synthetic
    // run stops generating and drains, where the global watchdog above catches them). A front
    // flit of an input VC that has not moved for watchdog_cycles, with a wait-for cycle and a
    // set of VCs that wait only for each other (has_deadlocked_core), is reported as a
    // deadlock. Not a proof: on synthetic runs this check flagged a hotspot point that a long
    // drain completes, which is why it is limited to the runs that have no drain. Scanned a
    // few times per watchdog period.
    next_stuck_check_ = now + std::max<Cycle>(1, watchdog / 4);
    Cycle oldest = ActivityCalendar::kNever;
    for (const auto& r : routers_) oldest = std::min(oldest, r->oldest_waiting_front());
    if (oldest != ActivityCalendar::kNever && now - std::min(oldest, now) >= watchdog) {
      DeadlockReport report = build_deadlock_report(routers_, topology_, now, oldest, in_flight);
      if (!report.cycle.empty() && has_deadlocked_core(report)) {
        report.partial = true;
        deadlock_ = std::move(report);
        outcome_ = RunOutcome::kDeadlock;
      }
    }
  }
  if (!options_.quiet) report_progress(now, in_flight);
}

void Network::prefetch(int component, int stage) const {
  const std::size_t routers = routers_.size();
  const std::size_t c = static_cast<std::size_t>(component);
  if (stage < 0) {
    prefetch_line(c < routers ? static_cast<const void*>(&routers_[c]) : &endpoints_[c - routers]);
  } else if (c < routers) {
    routers_[c]->prefetch(stage);
  } else if (stage == 0) {
    prefetch_line(endpoints_[c - routers].get());
  } else {
    endpoints_[c - routers]->prefetch(stage);
  }
}

// A router step's effects on the network: statistics and its own next wake-up.
int Network::account_router_step(int component, const Router::StepResult& r) {
  if (r.replicated > 0) stats_.on_flits_replicated(r.replicated);
  if (r.stripped > 0) stats_.on_flits_stripped(r.stripped);
  if (r.wake_at != ActivityCalendar::kNever) calendar_.wake(component, r.wake_at);
  return r.moved;
}

// Steps endpoint `component` (an NI, after the routers in the calendar's numbering).
int Network::step_endpoint(int component, Cycle now, bool measuring) {
  return account_endpoint_step(
      component,
      endpoints_[static_cast<std::size_t>(component) - routers_.size()]->step(now, calendar_,
                                                                              measuring),
      now);
}

// An endpoint step's effect on the network: its own next wake-up.
int Network::account_endpoint_step(int component, const NetworkEndpoint::StepResult& r, Cycle now) {
  if (r.busy) calendar_.wake(component, now + 1);
  return r.moved;
}

// The thread that steps router `component` in the parallel phase: one contiguous block of
// router ids per thread, the same every cycle (neighbours share links, so a block keeps most
// link and router state in one core's cache, and only the links between blocks are
// cross-thread).
std::size_t Network::thread_block(int component) const {
  return static_cast<std::size_t>(component) * static_cast<std::size_t>(pool_->threads()) /
         routers_.size();
}

// docs/architecture.md, "One cycle". The parallel phase: each router's deferred step writes
// only its own state and the links between routers of its thread's block and to its own
// endpoint, and records its cross-thread sends, the wake-ups of its sends and its observer
// events; a deferring endpoint records its calls on the statistics, scoreboard and calendar.
// The commit (this thread, in active_ order) makes the cross-thread sends and then, component
// by component, what a serial evaluation makes in that order, so every shared structure sees
// the same sequence of operations whatever the thread count. The deferred steps read only
// state that arrived in earlier cycles (links and credits take >= 1 cycle), so they compute
// what the serial steps compute.
int Network::evaluate_parallel(Cycle now, bool measuring) {
  const int router_count = static_cast<int>(routers_.size());
  const std::size_t n = active_.size();
  if (step_results_.size() < n) {
    step_results_.resize(n);
    step_errors_.resize(n);
    deferred_counts_.resize(n);
    endpoint_results_.resize(n);
  }
  const std::size_t threads = static_cast<std::size_t>(pool_->threads());
  buckets_.resize(threads);
  deferred_.resize(threads);
  endpoint_effects_.resize(threads);
  for (auto& b : buckets_) b.clear();
  // An endpoint steps on the thread of its router, which alone writes its links.
  const bool endpoints = parallel_endpoints_;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = active_[i];
    if (c < router_count)
      buckets_[router_thread_[static_cast<std::size_t>(c)]].push_back(i);
    else if (endpoints)
      buckets_[router_thread_[static_cast<std::size_t>(c - router_count)]].push_back(i);
  }
  // The parallel phase: each thread steps its routers (and endpoints). Routers send on the
  // links inside their thread's block themselves and leave the sends on cross-thread links,
  // and every send's wake-up, to the thread's Deferred; endpoints leave their calls on the
  // statistics, scoreboard and calendar to the thread's EndpointEffects. Each position's count
  // of wake-ups or events lets the commit below take them without touching the components.
  const bool hinting = hints_.hinting();
  const std::function<void(std::size_t)> step = [&](std::size_t t) {
    const std::vector<std::size_t>& bucket = buckets_[t];
    Router::Deferred& deferred = deferred_[t];
    EndpointEffects& effects = endpoint_effects_[t];
    deferred.wakes.clear();
    deferred.pushes.clear();
    effects.clear();
    for (std::size_t k = 0; k < bucket.size(); ++k) {
      // Hints for this thread's own components only (they read only the component's state).
      if (hinting)
        prefetch_ahead(
            k, bucket.size(), [&](std::size_t b) { return active_[bucket[b]]; },
            [&](int component, int stage) { prefetch(component, stage); });
      const std::size_t i = bucket[k];
      const int c = active_[i];
      try {
        if (c < router_count) {
          const std::size_t before = deferred.wakes.size();
          step_results_[i] =
              routers_[static_cast<std::size_t>(c)]->step(now, calendar_, measuring, &deferred);
          deferred_counts_[i] = static_cast<std::uint32_t>(deferred.wakes.size() - before);
        } else {
          const std::size_t before = effects.size();
          endpoint_results_[i] =
              endpoints_[static_cast<std::size_t>(c - router_count)]->step_deferred(
                  now, calendar_, measuring, effects);
          deferred_counts_[i] = static_cast<std::uint32_t>(effects.size() - before);
        }
      } catch (...) {
        step_errors_[i] = std::current_exception();
      }
    }
  };
  pool_->run_each(step);
  ++parallel_cycles_;
  // The sends on cross-thread links, now that their receivers have read them (each link has
  // one sender per direction, so their order does not matter; their wake-ups are made below).
  for (const Router::Deferred& d : deferred_)
    for (const Router::Push& p : d.pushes) {
      if (p.credit_vc >= 0)
        p.link->send_credit(now, static_cast<std::uint8_t>(p.credit_vc));
      else
        p.link->send_flit(now, p.flit);
    }
  // The commit, in the order of active_, as a serial evaluation has it.
  int moved = 0;
  wake_cursors_.assign(threads, 0);
  effect_cursors_.assign(threads, 0);
  for (EndpointEffects& e : endpoint_effects_) e.rewind();
  for (std::size_t i = 0; i < n; ++i) {
    const int c = active_[i];
    if (c < router_count || endpoints) {
      if (step_errors_[i]) {
        const std::exception_ptr e = step_errors_[i];
        std::fill(step_errors_.begin(), step_errors_.end(), nullptr);
        std::rethrow_exception(e);
      }
    }
    if (c < router_count) {
      if (step_results_[i].noted) routers_[static_cast<std::size_t>(c)]->commit(now);
      const std::size_t t = router_thread_[static_cast<std::size_t>(c)];
      const Router::Wake* w = deferred_[t].wakes.data() + wake_cursors_[t];
      for (std::uint32_t k = 0; k < deferred_counts_[i]; ++k)
        calendar_.wake(w[k].component, w[k].at);
      wake_cursors_[t] += deferred_counts_[i];
      moved += account_router_step(c, step_results_[i]);
    } else if (endpoints) {
      const std::size_t t = router_thread_[static_cast<std::size_t>(c - router_count)];
      endpoint_effects_[t].replay(effect_cursors_[t], effect_cursors_[t] + deferred_counts_[i],
                                  scoreboard_, stats_, calendar_);
      effect_cursors_[t] += deferred_counts_[i];
      ++parallel_endpoint_steps_;
      moved += account_endpoint_step(c, endpoint_results_[i], now);
    } else {
      moved += step_endpoint(c, now, measuring);
    }
  }
  return moved;
}

void Network::report_progress(Cycle now, std::uint64_t in_flight) {
  const Cycle interval = config_.simulation.progress_interval;
  bool due = false;
  if (interval > 0) {
    due = now >= next_progress_report_;
    if (due) next_progress_report_ = now - now % interval + interval;
  } else if (evaluated_ % 4096 == 0) {
    // No interval configured: report every few seconds of wall time, so long runs are visible.
    const auto wall = std::chrono::steady_clock::now();
    due = wall >= next_progress_wall_;
    if (due) next_progress_wall_ = wall + std::chrono::seconds(5);
  }
  if (!due) return;
  std::cerr << fmt::format(
      "[wormsim] cycle {}: {} flits injected, {} ejected, {} in flight, "
      "{} packets outstanding\n",
      now, stats_.flits_injected(), stats_.flits_ejected(), in_flight, scoreboard_.live_packets());
}

void Network::external_wake(int component, Cycle at) {
  if (at <= current_cycle())
    throw std::logic_error(fmt::format("external_wake: cycle {} is not after the current cycle {}",
                                       at, current_cycle()));
  calendar_.wake(component, at);
  wake_event_.notify(sc_core::SC_ZERO_TIME);
}

Cycle Network::current_cycle() const { return sc_core::sc_time_stamp().value() / period_.value(); }

void Network::set_parallel_endpoints(bool on) {
  parallel_endpoints_ =
      on && std::all_of(endpoints_.begin(), endpoints_.end(),
                        [](const std::unique_ptr<NetworkEndpoint>& e) { return e->defers(); });
}

void Network::stop_statistics(Cycle end) {
  stats_.stop_at(end);
  // Blocked flit-cycles by class (windowed runs; Router::count_blocking), as sums, which do
  // not depend on the order of the reports.
  for (bool multidest : {false, true}) {
    std::uint64_t cycles = 0;
    if (flat_)
      cycles = multidest ? 0 : flat_->blocked_flit_cycles();
    else
      for (const auto& r : routers_) cycles += r->blocked_flit_cycles(multidest);
    if (cycles > 0) stats_.on_blocked(multidest, cycles);
  }
  if (flat_) flat_->finish();
}

void Network::finish() {
  if (finished_) return;
  finished_ = true;
  cycle_ = std::max(next_unevaluated_, current_cycle());
  stop_statistics(cycle_);
  outcome_ =
      scoreboard_.live_packets() == 0 ? RunOutcome::kCompleted : RunOutcome::kDrainIncomplete;
}

bool Network::done(Cycle now) {
  if (deadlock_) return true;
  if (hosted()) return false;
  const Cycle generation_end = stats_.window_end();
  if (now + 1 >= generation_end && now >= last_scripted_ && scoreboard_.live_packets() == 0) {
    outcome_ = RunOutcome::kCompleted;
    return true;
  }
  if (now >= generation_end + config_.simulation.drain_max_cycles) {
    outcome_ = RunOutcome::kDrainIncomplete;
    return true;
  }
  return false;
}

void Network::tick() {
  if (finished_) return;
  if (hosted()) {
    tick_hosted();
    return;
  }
  const Cycle first = cycle_;
  for (int batch = 0;; ++batch) {
    const Cycle now = cycle_;
    evaluate(now);
    if (done(now)) {
      finished_ = true;
      stop_statistics(now + 1);
      cycle_ = now + 1;
      return;
    }
    Cycle next = probed_.empty() ? calendar_.next_cycle(now) : now + 1;
    // Visit the phase boundaries even when nothing is scheduled there.
    const Cycle generation_end = stats_.window_end();
    // With flits in flight, visit the cycle the watchdog would fire in: blocked components
    // sleep until something arrives, so a deadlocked network schedules nothing by itself.
    const Cycle watchdog = stats_.flits_in_flight() > 0
                               ? last_progress_ + config_.simulation.watchdog_cycles
                               : ActivityCalendar::kNever;
    for (Cycle boundary : {generation_end - 1, generation_end + config_.simulation.drain_max_cycles,
                           last_scripted_, next_progress_report_, watchdog})
      if (boundary > now && boundary < next) next = boundary;
    cycle_ = next;
    // Observers of each evaluated cycle (LockstepChecker) run between activations.
    if (batch + 1 >= options_.cycles_per_activation || notify_evaluated_) break;
  }
  next_trigger(period_ * static_cast<double>(cycle_ - first));
}

// Hosted mode: the method also wakes on wake_event_ (a processor rang a doorbell). It evaluates
// the current cycle only if that cycle was planned and not yet evaluated; processors' register
// writes in cycle c take effect in cycle c + 1 at the earliest, so whether SystemC runs the
// processor before or after this method within one time step does not change any result.
void Network::tick_hosted() {
  const Cycle now = current_cycle();
  if (now == cycle_ && now >= next_unevaluated_) {
    evaluate(now);
    next_unevaluated_ = now + 1;
    if (deadlock_) {
      finished_ = true;
      stop_statistics(now + 1);
      cycle_ = now + 1;
      sc_core::sc_stop();
      return;
    }
  }
  Cycle next = calendar_.next_cycle(now);
  const Cycle watchdog = stats_.flits_in_flight() > 0
                             ? last_progress_ + config_.simulation.watchdog_cycles
                             : ActivityCalendar::kNever;
  for (Cycle boundary : {next_progress_report_, watchdog})
    if (boundary > now && boundary < next) next = boundary;
  if (next == ActivityCalendar::kNever) {
    cycle_ = ActivityCalendar::kNever;
    next_trigger(wake_event_);
    return;
  }
  cycle_ = next;
  next_trigger(period_ * static_cast<double>(next - now), wake_event_);
}

}  // namespace wormsim
