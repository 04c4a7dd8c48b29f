// Helpers shared by the system tests: small configs and a one-shot simulation runner.
// Each TEST runs in its own process (gtest_discover_tests), so each elaborates one Network.
#pragma once

#include <systemc>

#include <memory>

#include "config.h"
#include "network.h"

namespace wormsim::testing {

inline Config mesh_config(std::vector<int> dims) {
  Config c;
  c.network.topology.kind = TopologyKind::kMesh;
  c.network.topology.dims = std::move(dims);
  c.simulation.progress_interval = 0;
  return c;
}

inline Config torus_config(std::vector<int> dims) {
  Config c = mesh_config(std::move(dims));
  c.network.topology.kind = TopologyKind::kTorus;
  return c;
}

inline Config hypercube_config(int n) {
  Config c;
  c.network.topology.kind = TopologyKind::kHypercube;
  c.network.topology.hypercube_dimension = n;
  c.network.routing.algorithm = RoutingAlgorithm::kEcube;
  c.simulation.progress_interval = 0;
  return c;
}

// Builds the network (validating the config first) and runs it to completion.
inline std::unique_ptr<Network> run(const Config& config, NetworkOptions options = {},
                                    const std::function<void(Network&)>& before = {}) {
  config.validate();
  options.quiet = true;
  auto net = std::make_unique<Network>("net", config, options);
  if (before) before(*net);
  sc_core::sc_start();
  return net;
}

}  // namespace wormsim::testing
