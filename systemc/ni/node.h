// A node of the multicomputer (DESIGN.md section 6): processor + network interface, with the
// processor's TLM-2.0 initiator socket bound to the NI's target socket and the NI interrupt
// wired to the processor. The router belongs to the network; the node is what the network
// sees behind the router's injection and ejection channels.
#pragma once

#include <systemc>

#include "network_endpoint.h"
#include "network_interface.h"
#include "processor.h"

namespace wormsim {

struct NodeParams {
  NiParams ni;
  ProcessorParams cpu;
};

// NI parameters of node `ctx.id` from the run's config.
NodeParams node_params(const Config& config, const EndpointContext& ctx);

class Node : public sc_core::sc_module, public NetworkEndpoint {
 public:
  Node(const sc_core::sc_module_name& name, const NodeParams& params, const EndpointContext& ctx,
       MessageLog& log, Processor::Program program);

  NetworkInterface& ni() { return ni_; }
  const NetworkInterface& ni() const { return ni_; }
  Processor& cpu() { return cpu_; }
  const Processor& cpu() const { return cpu_; }

  void attach_injection(int channel, Link* link) override { ni_.attach_injection(channel, link); }
  void attach_ejection(int channel, Link* link) override { ni_.attach_ejection(channel, link); }
  void start(ActivityCalendar& calendar) override { ni_.start(calendar); }
  StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring) override {
    return ni_.step(now, calendar, measuring);
  }
  void prefetch(int stage) const override { ni_.prefetch(stage); }
  std::size_t queued_packets() const override { return ni_.queued_packets(); }

 private:
  NetworkInterface ni_;
  Processor cpu_;
};

}  // namespace wormsim
