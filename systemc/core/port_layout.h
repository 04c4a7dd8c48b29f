// Port numbering of one router (DESIGN.md section 4; seed 000 Figs. 2.3-2.5, seed 001 Fig. 1).
// Inputs:  [0, network) from neighbours, then `injection` channels from the NI.
// Outputs: [0, network) to neighbours, then `ejection` channels to the NI.
// one-port: 1 injection + 1 ejection channel; k-port: k of each; all-port: one internal
// channel per external channel, and a packet uses the internal channel of its first-hop
// direction (injection) or of the direction it arrived from (ejection). A explicit number of
// consumption channels (network.router.consumption_channels) replaces the ejection channels:
// a packet then takes any free one of them.
#pragma once

#include "config.h"

namespace wormsim {

struct PortLayout {
  PortModel model = PortModel::kOnePort;
  int network = 0;
  int injection = 1;
  int ejection = 1;
  bool eject_by_direction = false;  // all-port default: ejection channel = arrival direction

  static PortLayout make(PortModel model, int network_ports, int k, int consumption = 0) {
    PortLayout p;
    p.model = model;
    p.network = network_ports;
    p.injection = p.ejection =
        model == PortModel::kOnePort ? 1 : (model == PortModel::kKPort ? k : network_ports);
    p.eject_by_direction = model == PortModel::kAllPort;
    if (consumption > 0) {
      p.ejection = consumption;
      p.eject_by_direction = false;
    }
    return p;
  }
  int inputs() const { return network + injection; }
  int outputs() const { return network + ejection; }
  bool is_network(int port) const { return port < network; }
};

}  // namespace wormsim
