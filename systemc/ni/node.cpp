#include "node.h"

#include <stdexcept>

namespace wormsim {

namespace {

StackArena& firmware_stacks(const EndpointContext& ctx) {
  if (ctx.stacks == nullptr)
    throw std::invalid_argument("Node: EndpointContext::stacks is required (firmware stacks)");
  return *ctx.stacks;
}

}  // namespace

NodeParams node_params(const Config& config, const EndpointContext& ctx) {
  NodeParams p;
  p.ni.id = ctx.id;
  p.ni.nodes = node_count(config.network.topology);
  p.ni.component = ctx.component;
  p.ni.layout = *ctx.layout;
  p.ni.vcs = config.network.router.vcs;
  p.ni.buffer_depth = config.network.router.buffer_depth;
  p.ni.flit_bytes = config.network.flit_bytes;
  p.ni.max_packet_bytes = config.node.max_packet_bytes;
  p.ni.header_bytes = config.node.header_bytes;
  p.ni.tx_queue_depth = config.node.tx_queue_depth;
  p.ni.multidest = config.network.router.multidest;
  p.ni.header_encoding = config.network.router.header_encoding;
  p.ni.path_ir = config.network.router.path_ir;
  if (config.workload == Workload::kCollective) {
    const BackgroundConfig& bg = config.collective.background;
    p.ni.background_load = bg.load;
    p.ni.background_packet_length = bg.packet_length;
    p.ni.background_pattern = bg.pattern;
    p.ni.background_warmup = bg.warmup_cycles;
    p.ni.background_seed = bg.seed;
  }
  p.cpu.id = ctx.id;
  p.cpu.alpha_cycles = config.node.alpha_cycles;
  p.cpu.gamma_cycles = config.node.gamma_cycles;
  p.cpu.send_packet_cycles = config.node.send_packet_cycles;
  p.cpu.receive_packet_cycles = config.node.receive_packet_cycles;
  p.cpu.send_mode = config.node.send_mode;
  p.cpu.clock_period = ctx.host->clock_period();
  return p;
}

Node::Node(const sc_core::sc_module_name& name, const NodeParams& params,
           const EndpointContext& ctx, MessageLog& log, Processor::Program program)
    : sc_core::sc_module(name),
      ni_("ni", params.ni, *ctx.route_compute, *ctx.multicast, *ctx.scoreboard, *ctx.stats,
          *ctx.host, log, ctx.topology),
      cpu_("cpu", params.cpu, ni_.interrupt(), log, std::move(program), firmware_stacks(ctx)) {
  cpu_.socket.bind(ni_.socket);
}

}  // namespace wormsim
