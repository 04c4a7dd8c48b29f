// A network whose every node is a synthetic-traffic Terminal (ni/terminal.h): the windowed
// run of latency-load experiments (warm-up, measurement, drain; fabric/network.h) with
// Bernoulli sources drawing destinations from traffic.pattern, plus scripted packets and
// multidestination worms for tests and experiments. The terminals are made through the
// network's EndpointFactory, exactly as the node layer makes its NIs.
#pragma once

#include <memory>
#include <vector>

#include "network.h"
#include "terminal.h"
#include "traffic_pattern.h"

namespace wormsim {

class SyntheticNetwork : public Network {
 public:
  // options.make_endpoint and options.mode are set here (terminals, windowed). With
  // traffic.injection_rate 0 only scripted packets flow.
  SyntheticNetwork(const sc_core::sc_module_name& name, const Config& config,
                   NetworkOptions options = {});

  // Scripted traffic: a packet of `length` flits from src to dst created in cycle `at`.
  // Call before sc_start() or from a later cycle's callback; std::invalid_argument naming the
  // packet for a node that does not exist, a length outside 1..65535 or a past cycle.
  void schedule_packet(NodeId src, NodeId dst, int length, Cycle at);
  // Scripted multidestination worm (network.router.multidest path or tree): `length` flits of
  // payload plus the header flits its destination list costs. A path list must conform to the
  // base routing (std::invalid_argument naming the destination otherwise).
  void schedule_multicast(NodeId src, const std::vector<NodeId>& dests, int length, Cycle at);

  Terminal& terminal(NodeId n) { return *terminals_->at(n); }

 private:
  SyntheticNetwork(const sc_core::sc_module_name& name, const Config& config,
                   NetworkOptions options, std::shared_ptr<std::vector<Terminal*>> terminals);
  void check_future(Cycle at, const std::string& what) const;

  std::shared_ptr<std::vector<Terminal*>> terminals_;
};

}  // namespace wormsim
