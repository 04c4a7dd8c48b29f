#include "synthetic_network.h"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace wormsim {

namespace {
// The terminal at every node, drawing destinations from one picker shared by all of them.
EndpointFactory terminal_factory(const Config& config,
                                 const std::shared_ptr<std::vector<Terminal*>>& terminals) {
  auto picker = std::make_shared<std::optional<DestinationPicker>>();
  return
      [config, terminals, picker](const EndpointContext& ctx) -> std::unique_ptr<NetworkEndpoint> {
        if (!picker->has_value()) picker->emplace(*ctx.topology, config.traffic);
        const RouterConfig& rc = config.network.router;
        TerminalParams tp;
        tp.id = ctx.id;
        tp.nodes = ctx.topology->nodes();
        tp.component = ctx.component;
        tp.layout = *ctx.layout;
        tp.vcs = rc.vcs;
        tp.buffer_depth = rc.buffer_depth;
        tp.flit_bytes = config.network.flit_bytes;
        tp.packet_length = config.traffic.packet_length;
        tp.injection_rate = config.traffic.injection_rate;
        tp.generate_until = ctx.stats->window_end();
        tp.seed = config.traffic.seed;
        tp.multidest = rc.multidest;
        tp.header_encoding = rc.header_encoding;
        tp.path_ir = rc.path_ir;
        tp.multicast_fraction = config.traffic.multicast_fraction;
        tp.multicast_destinations = config.traffic.multicast_destinations;
        if (config.traffic.multicast_fraction > 0)
          tp.multicast_pattern = config.traffic.multicast_pattern;
        tp.hotspots = config.traffic.hotspot.nodes;
        auto t = std::make_unique<Terminal>(tp, **picker, *ctx.topology, *ctx.route_compute,
                                            *ctx.multicast, *ctx.scoreboard, *ctx.stats);
        terminals->push_back(t.get());
        return t;
      };
}

NetworkOptions windowed(NetworkOptions options, EndpointFactory factory) {
  options.mode = RunMode::kWindowed;
  options.make_endpoint = std::move(factory);
  return options;
}
}  // namespace

SyntheticNetwork::SyntheticNetwork(const sc_core::sc_module_name& name, const Config& config,
                                   NetworkOptions options)
    : SyntheticNetwork(name, config, std::move(options),
                       std::make_shared<std::vector<Terminal*>>()) {}

SyntheticNetwork::SyntheticNetwork(const sc_core::sc_module_name& name, const Config& config,
                                   NetworkOptions options,
                                   std::shared_ptr<std::vector<Terminal*>> terminals)
    : Network(name, config, windowed(std::move(options), terminal_factory(config, terminals))),
      terminals_(std::move(terminals)),
      software_(config.traffic.software_multicast, config.traffic.software_forward_cycles) {
  for (Terminal* t : *terminals_) t->attach_software_multicast(&software_, this);
  // The terminals step in the parallel phase unless multicasts touch the shared multicast
  // table or software-multicast state in a step (Terminal::step_deferred).
  set_parallel_endpoints(config.traffic.multicast_fraction == 0);
}

void SyntheticNetwork::check_future(Cycle at, const std::string& what) const {
  if (evaluated_cycles() > 0 && at <= cycles())
    throw std::invalid_argument(
        fmt::format("{} for cycle {} is not in the future (now {})", what, at, cycles()));
}

void SyntheticNetwork::schedule_packet(NodeId src, NodeId dst, int length, Cycle at) {
  const auto nodes = static_cast<NodeId>(topology().nodes());
  if (src >= nodes || dst >= nodes)
    throw std::invalid_argument(fmt::format(
        "schedule_packet: packet {} -> {} at cycle {}: node {} does not exist ({} nodes)", src, dst,
        at, src >= nodes ? src : dst, nodes));
  if (length < 1 || length > 65535)
    throw std::invalid_argument(fmt::format(
        "schedule_packet: packet {} -> {} at cycle {}: length {} flits is outside 1..65535", src,
        dst, at, length));
  check_future(at, fmt::format("schedule_packet: packet {} -> {}", src, dst));
  terminals_->at(src)->schedule_packet(dst, length, at, calendar());
  hold_until(at);
}

void SyntheticNetwork::schedule_multicast(NodeId src, const std::vector<NodeId>& dests, int length,
                                          Cycle at) {
  const MultidestMode mode = config().network.router.multidest;
  if (src >= static_cast<NodeId>(topology().nodes()))
    throw std::invalid_argument(
        fmt::format("schedule_multicast: source node {} does not exist", src));
  const std::string why =
      multicast_list_violation(route_compute(), mode, src, dests, topology().nodes());
  if (!why.empty())
    throw std::invalid_argument(fmt::format("schedule_multicast: {} from {}: {}",
                                            mode == MultidestMode::kNone ? "multicast" : "worm",
                                            src, why));
  if (length < 1 || length > 65535)
    throw std::invalid_argument(
        fmt::format("schedule_multicast: length {} flits is outside 1..65535", length));
  check_future(at, "schedule_multicast: worm");
  set_parallel_endpoints(false);
  terminals_->at(src)->schedule_multicast(dests, length, at, calendar());
  hold_until(at);
}

}  // namespace wormsim
