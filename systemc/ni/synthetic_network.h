// A network whose every node is a synthetic-traffic Terminal (ni/terminal.h): the windowed
// run of latency-load experiments (warm-up, measurement, drain; fabric/network.h) with
// Bernoulli sources drawing destinations from traffic.pattern, plus scripted packets and
// multicasts for tests and experiments. With network.router.multidest none a multicast is a
// software tree of unicast packets (ni/software_multicast.h); a windowed run is not complete
// while one of its packets is live or a forward waits for its node's software. The terminals are made through the
// network's EndpointFactory, exactly as the node layer makes its NIs.
#pragma once

#include <memory>
#include <vector>

#include "network.h"
#include "software_multicast.h"
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
  // Scripted multicast created in cycle `at`: with network.router.multidest path or tree one
  // worm of `length` flits of payload plus the header flits its destination list costs (a path
  // list must conform to the base routing); with none a software multicast of `length`-flit
  // unicast packets (traffic.software_multicast). std::invalid_argument naming the destination
  // for a bad list.
  void schedule_multicast(NodeId src, const std::vector<NodeId>& dests, int length, Cycle at);

  Terminal& terminal(NodeId n) { return *terminals_->at(n); }
  // Software multicast operations and their measured latencies (multidest none).
  const SoftwareMulticast& software_multicast() const { return software_; }

 private:
  SyntheticNetwork(const sc_core::sc_module_name& name, const Config& config,
                   NetworkOptions options, std::shared_ptr<std::vector<Terminal*>> terminals);
  void check_future(Cycle at, const std::string& what) const;

  std::shared_ptr<std::vector<Terminal*>> terminals_;
  SoftwareMulticast software_;  // shared by the terminals
};

}  // namespace wormsim
