#include "collective_harness.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "collective_data.h"

namespace wormsim {

namespace {

std::uint64_t fnv1a(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

// "once", "twice", "3 times".
std::string times(std::size_t n) {
  return n == 1 ? "once" : n == 2 ? "twice" : fmt::format("{} times", n);
}

const char* exception_kind(const std::exception& e) {
  if (dynamic_cast<const std::logic_error*>(&e) != nullptr) return "std::logic_error";
  if (dynamic_cast<const std::runtime_error*>(&e) != nullptr) return "std::runtime_error";
  return "an exception";
}

}  // namespace

std::string describe_operation(const fw::Operation& op) {
  if (is_rootless(op.algorithm))
    return fmt::format("operation {} ({}, {} bytes)", op.index, to_string(op.algorithm), op.bytes);
  return fmt::format("operation {} ({}, root {}, {} bytes)", op.index, to_string(op.algorithm),
                     op.root, op.bytes);
}

CollectiveHarness::CollectiveHarness(const sc_core::sc_module_name& name, const Config& config,
                                     NetworkOptions options, CollectiveFirmware firmware)
    : sc_core::sc_module(name),
      config_(config),
      firmware_(std::move(firmware)),
      tables_(fw::make_firmware_tables(config)) {
  const int nodes = node_count(config.network.topology);
  deliveries_.resize(static_cast<std::size_t>(nodes));
  returned_.assign(static_cast<std::size_t>(nodes), false);
  nodes_.assign(static_cast<std::size_t>(nodes), nullptr);
  options.make_endpoint = [this](const EndpointContext& ctx) -> std::unique_ptr<NetworkEndpoint> {
    auto node =
        std::make_unique<Node>(fmt::format("n{}", ctx.id).c_str(), node_params(config_, ctx), ctx,
                               log_, [this](ProcessorBus& bus) { program(bus); });
    nodes_[ctx.id] = node.get();
    return node;
  };
  options.mode = RunMode::kHosted;
  if (!options.router_factory) options.router_factory = make_router_factory(config);
  network_ = std::make_unique<Network>("net", config, std::move(options));
  network_->add_router_observer(&log_);
  build_operations();
  SC_THREAD(director);
}

void CollectiveHarness::build_operations() {
  const Topology& topo = network_->topology();
  const int nodes = topo.nodes();
  const CollectiveConfig& c = config_.collective;
  const std::vector<NodeId> roots = collective_roots(config_);  // config.h
  const std::vector<NodeId> one_root{0};  // rootless operations run once per size
  for (CollectiveAlgorithm alg : c.algorithms)
    for (std::uint32_t bytes : c.message_bytes)
      for (NodeId root : is_rootless(alg) ? one_root : roots) {
        fw::Operation op;
        op.index = static_cast<int>(ops_.size());
        op.algorithm = alg;
        op.root = root;
        op.bytes = bytes;
        op.reduce_op = c.reduce_op;
        op.reduce_type = c.reduce_type;
        op.split_gamma = c.split_gamma;
        op.segments = c.segments;
        if (alg == CollectiveAlgorithm::kPingPong) {
          NodeId peer = kNoNode;
          if (c.peer >= 0) {
            peer = static_cast<NodeId>(c.peer);
          } else {
            for (int p = 0; p < topo.network_ports() && peer == kNoNode; ++p)
              peer = topo.neighbor(root, p);
          }
          if (peer == root)
            throw ConfigError("collective.peer",
                              fmt::format("ping_pong peer {} is the root itself", peer));
          op.destinations.push_back(peer);
        } else if (c.random_destinations > 0) {
          // The same random set for a root in every algorithm and size (and every variant
          // of a comparison), so the runs compare like with like.
          std::vector<NodeId> others;
          for (int n = 0; n < nodes; ++n)
            if (static_cast<NodeId>(n) != root) others.push_back(static_cast<NodeId>(n));
          std::mt19937_64 pick(c.seed * 0x9e3779b97f4a7c15ull + root);
          std::shuffle(others.begin(), others.end(), pick);
          others.resize(static_cast<std::size_t>(c.random_destinations));
          std::sort(others.begin(), others.end());
          op.destinations = std::move(others);
        } else if (c.destinations.empty()) {
          for (int n = 0; n < nodes; ++n)
            if (static_cast<NodeId>(n) != root) op.destinations.push_back(static_cast<NodeId>(n));
        } else {
          op.destinations.insert(op.destinations.end(), c.destinations.begin(),
                                 c.destinations.end());
          std::sort(op.destinations.begin(), op.destinations.end());
          op.destinations.erase(std::unique(op.destinations.begin(), op.destinations.end()),
                                op.destinations.end());
          op.destinations.erase(std::remove(op.destinations.begin(), op.destinations.end(), root),
                                op.destinations.end());
        }
        ops_.push_back(std::move(op));
      }
}

void CollectiveHarness::program(ProcessorBus& bus) {
  fw::Runtime rt(bus, network_->topology(), network_->route_compute(), network_->layout());
  const NodeId self = rt.id();
  for (;;) {
    nodes_[self]->cpu().wait_event(start_event_);
    if (shutting_down_) return;
    const fw::Operation& op = ops_[current_];
    const Topology& topo = network_->topology();
    const auto expected = fw::expected_delivery(op, self, topo);
    // Whatever the firmware throws ends the run as a firmware error naming this node, the
    // cycle and the operation (the processor would only catch NI faults, without the
    // operation; anything else would escape into the SystemC kernel).
    try {
      firmware_(
          rt, op, fw::input_data(op, self, topo),
          [&](const std::vector<std::uint8_t>& data) {
            const bool correct = expected.has_value() && data == *expected;
            deliveries_[self].push_back({network_->current_cycle(), correct,
                                         correct ? kNoNode : whose_delivery(op, self, data)});
          },
          tables_);
    } catch (const FirmwareFault& e) {
      // "node N, cycle C: <register and reason>" (NetworkInterface::fault, Processor).
      std::string what = e.what();
      const std::string head = fmt::format("node {}, cycle ", self);
      const std::size_t colon = what.find(": ");
      if (what.rfind(head, 0) == 0 && colon != std::string::npos)
        what.insert(colon, ", in " + describe_operation(op));
      else
        what = fmt::format("node {}, cycle {}, in {}: {}", self, network_->current_cycle(),
                           describe_operation(op), what);
      stop_for_fault(std::move(what));
      return;
    } catch (const std::exception& e) {
      stop_for_fault(fmt::format("node {}, cycle {}, in {}: the firmware threw {}: {}", self,
                                 network_->current_cycle(), describe_operation(op),
                                 exception_kind(e), e.what()));
      return;
    }
    returned_[self] = true;
    if (++done_count_ == static_cast<int>(nodes_.size()))
      all_done_event_.notify(sc_core::SC_ZERO_TIME);
  }
}

void CollectiveHarness::stop_for_fault(std::string message) {
  if (!fault_) fault_ = std::move(message);
  sc_core::sc_stop();
}

NodeId CollectiveHarness::whose_delivery(const fw::Operation& op, NodeId self,
                                         const std::vector<std::uint8_t>& data) {
  const Topology& topo = network_->topology();
  if (!expected_hashes_) {
    expected_hashes_.emplace();
    for (int n = 0; n < topo.nodes(); ++n)
      if (const auto e = fw::expected_delivery(op, static_cast<NodeId>(n), topo))
        expected_hashes_->emplace_back(fnv1a(*e), static_cast<NodeId>(n));
    std::sort(expected_hashes_->begin(), expected_hashes_->end());
  }
  const std::uint64_t h = fnv1a(data);
  for (auto it = std::lower_bound(expected_hashes_->begin(), expected_hashes_->end(),
                                  std::make_pair(h, NodeId{0}));
       it != expected_hashes_->end() && it->first == h; ++it)
    if (it->second != self && fw::expected_delivery(op, it->second, topo) == data)
      return it->second;
  return kNoNode;
}

void CollectiveHarness::director() {
  const sc_core::sc_time period = network_->clock_period();
  sc_core::wait(period);  // every processor has read its NI and waits for the first start
  if (background_enabled())
    sc_core::wait(period * static_cast<double>(config_.collective.background.warmup_cycles));
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    current_ = i;
    done_count_ = 0;
    for (auto& d : deliveries_) d.clear();
    std::fill(returned_.begin(), returned_.end(), false);
    expected_hashes_.reset();
    op_start_ = network_->current_cycle();
    log_.set_operation(static_cast<int>(i));
    start_event_.notify(sc_core::SC_ZERO_TIME);
    wait_for_operation();
    if (stall_) return;
    collect(ops_[i]);
    sc_core::wait(period);  // one idle cycle between operations
  }
  shutting_down_ = true;
  start_event_.notify(sc_core::SC_ZERO_TIME);
  // Background generation stops from the next cycle on (whether the network evaluates this
  // cycle before or after this process, its arrivals in this cycle happen).
  if (background_enabled())
    for (Node* n : nodes_) n->ni().stop_background(network_->current_cycle() + 1);
}

void CollectiveHarness::wait_for_operation() {
  if (!background_enabled()) {
    sc_core::wait(all_done_event_);
    return;
  }
  const sc_core::sc_time interval =
      network_->clock_period() * static_cast<double>(config_.simulation.watchdog_cycles);
  bool stalled_before = false;
  while (done_count_ < static_cast<int>(nodes_.size())) {
    sc_core::wait(interval, all_done_event_);
    if (done_count_ == static_cast<int>(nodes_.size())) return;
    const bool stalled = firmware_stalled();
    if (stalled && stalled_before) {
      stall_ = stall_message();
      sc_core::sc_stop();
      return;
    }
    stalled_before = stalled;
  }
}

bool CollectiveHarness::firmware_stalled() const {
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    if (!returned_[n] && !nodes_[n]->cpu().waiting()) return false;
    if (nodes_[n]->ni().unread_messages() > 0) return false;
  }
  for (const MessageRecord& m : log_.records())
    if (m.operation == static_cast<int>(current_) && m.delivered == MessageRecord::kNone)
      return false;
  return true;
}

BackgroundResult CollectiveHarness::background() const {
  BackgroundResult r;
  std::uint64_t latency = 0;
  std::uint64_t network_latency = 0;
  for (const Node* n : nodes_) {
    const BackgroundCounts& c = n->ni().background();
    r.packets_created += c.created;
    r.packets_delivered += c.delivered;
    r.packets_measured += c.measured;
    latency += c.latency_sum;
    network_latency += c.network_latency_sum;
  }
  if (r.packets_measured > 0) {
    r.mean_latency = static_cast<double>(latency) / static_cast<double>(r.packets_measured);
    r.mean_network_latency =
        static_cast<double>(network_latency) / static_cast<double>(r.packets_measured);
  }
  return r;
}

void CollectiveHarness::collect(const fw::Operation& op) {
  OperationResult r;
  r.op = op;
  r.start = op_start_;
  r.end = network_->current_cycle();
  // Exactly-once delivery of the right bytes at every receiver, nothing elsewhere
  // (fw::expected_delivery).
  const int nodes = static_cast<int>(nodes_.size());
  const bool ping_pong = op.algorithm == CollectiveAlgorithm::kPingPong;
  for (std::size_t n = 0; n < nodes_.size(); ++n) {
    const auto& dl = deliveries_[n];
    const auto expected = fw::expected_delivery(op, static_cast<NodeId>(n), network_->topology());
    if (!expected) {
      if (!dl.empty())
        r.errors.push_back(
            fmt::format("node {} delivered {} but is not a receiver", n, times(dl.size())));
    } else {
      if (dl.empty())
        r.errors.push_back(fmt::format("node {} never delivered", n));
      else if (dl.size() > 1)
        r.errors.push_back(fmt::format("node {} delivered {}", n, times(dl.size())));
      for (const Delivery& d : dl) {
        if (d.correct) continue;
        if (d.meant_for != kNoNode)
          r.errors.push_back(
              fmt::format("node {} delivered the bytes meant for node {}", n, d.meant_for));
        else
          r.errors.push_back(fmt::format("node {} delivered wrong bytes", n));
      }
    }
    if (nodes_[n]->ni().unread_messages() > 0)
      r.errors.push_back(
          fmt::format("node {} left {} messages unread", n, nodes_[n]->ni().unread_messages()));
  }
  // An operation without destinations delivered nothing: not a success (validate() rejects
  // the configs that would make one).
  if (op.destinations.empty() && !ping_pong)
    r.errors.emplace_back("the operation has no destinations");
  // A barrier lets nobody out before the last node is in (fw::barrier_arrival).
  if (kind_of(op.algorithm) == CollectiveKind::kBarrier) {
    NodeId last = 0;
    for (int n = 1; n < nodes; ++n)
      if (fw::barrier_arrival(op, static_cast<NodeId>(n)) > fw::barrier_arrival(op, last))
        last = static_cast<NodeId>(n);
    const Cycle all_in = r.start + fw::barrier_arrival(op, last);
    for (std::size_t n = 0; n < nodes_.size(); ++n)
      for (const Delivery& d : deliveries_[n])
        if (d.at < all_in)
          r.errors.push_back(fmt::format(
              "node {} left the barrier at cycle {}, before node {} entered at cycle {}", n, d.at,
              last, all_in));
  }
  // Latency per receiver.
  double sum = 0;
  for (NodeId d : fw::receivers(op, network_->topology())) {
    const Cycle at = deliveries_[d].empty() ? r.end : deliveries_[d].front().at;
    r.latency.push_back(at - r.start);
  }
  if (ping_pong) {
    // One-way latency = round trip / 2 (seed 000 section 5.2).
    const Cycle at = deliveries_[op.root].empty() ? r.end : deliveries_[op.root].front().at;
    r.max_latency = r.avg_latency = static_cast<double>(at - r.start) / 2.0;
  } else {
    for (Cycle l : r.latency) {
      r.max_latency = std::max(r.max_latency, static_cast<double>(l));
      sum += static_cast<double>(l);
    }
    r.avg_latency = r.latency.empty() ? 0 : sum / static_cast<double>(r.latency.size());
  }
  // Steps, link usage and path length from the message log.
  std::vector<std::size_t> mine;
  const auto& recs = log_.records();
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (recs[i].operation == op.index) mine.push_back(i);
  std::sort(mine.begin(), mine.end(),
            [&](std::size_t a, std::size_t b) { return recs[a].doorbell < recs[b].doorbell; });
  // The firmware tags every message with its message-passing step (fw::SendGroups).
  std::map<std::size_t, int> step_of;
  double hops = 0;
  for (std::size_t i : mine) {
    const MessageRecord& m = recs[i];
    const int step = static_cast<int>(m.tag);
    step_of[i] = step;
    r.steps = std::max(r.steps, step);
    r.flit_hops += m.flit_hops;
    r.header_flits += m.list_header_flits;
    r.blocked_cycles += m.blocked_cycles;
    hops += m.hops;
    if (m.delivered == MessageRecord::kNone)
      r.errors.push_back(
          fmt::format("message {} -> {} (seq {}) never arrived", m.src, m.dst, m.seq));
  }
  r.messages = mine.size();
  // Set-ups per node: a multidestination worm has one record per destination but one send.
  std::vector<std::size_t> sends(nodes_.size(), 0);
  std::vector<std::size_t> receives(nodes_.size(), 0);
  std::set<std::pair<NodeId, std::uint32_t>> sent;
  for (std::size_t i : mine) {
    const MessageRecord& m = recs[i];
    if (sent.insert({m.src, m.seq}).second) ++sends[m.src];
    if (m.delivered != MessageRecord::kNone) ++receives[m.dst];
  }
  r.max_sends = *std::max_element(sends.begin(), sends.end());
  r.max_receives = *std::max_element(receives.begin(), receives.end());
  r.avg_path_length = mine.empty() ? 0 : hops / static_cast<double>(mine.size());
  for (const ContentionEvent& e : log_.contention()) {
    if (recs[e.waiting].operation != op.index || recs[e.holder].operation != op.index) continue;
    if (step_of[e.waiting] == step_of[e.holder])
      ++r.contention_stepwise;
    else
      ++r.contention_depth;
  }
  results_.push_back(std::move(r));
}

void CollectiveHarness::finish() {
  network_->finish();
  if (!fault_) {
    for (const Node* n : nodes_)
      if (n->cpu().fault()) {
        fault_ = *n->cpu().fault();
        break;
      }
  }
  if (fault_ || stall_ || network_->deadlock() || all_operations_run()) return;
  stall_ = stall_message();
}

std::string CollectiveHarness::stall_message() const {
  const fw::Operation& op = ops_[current_];
  std::vector<std::string> waiting;
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (!returned_[n] && nodes_[n]->cpu().waiting()) waiting.push_back(std::to_string(n));
  std::string list;
  for (std::size_t i = 0; i < waiting.size() && i < 16; ++i) list += (i ? ", " : "") + waiting[i];
  if (waiting.size() > 16) list += fmt::format(", ... ({} in all)", waiting.size());
  return fmt::format(
      "firmware stalled at cycle {} in {}: {} and {} {} in receive() for a message that never "
      "comes",
      network_->current_cycle(), describe_operation(op),
      background_enabled() ? "no message of the operation is in flight" : "the network is idle",
      waiting.size() == 1 ? "node " + list : "nodes " + (list.empty() ? "(none)" : list),
      waiting.size() == 1 ? "waits" : "wait");
}

std::size_t CollectiveHarness::verification_errors() const {
  std::size_t n = 0;
  for (const OperationResult& r : results_) n += r.errors.size();
  return n;
}

}  // namespace wormsim
