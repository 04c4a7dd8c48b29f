// Which router model a run uses (network.router.implementation, docs/rtl.md), decided once for
// the application: the C++ router always exists; the Verilated RTL router exists only in
// builds with WORMSIM_RTL=ON (CMake option, on where Verilator is installed). A config that
// asks for RTL routers in a build without them is a config error naming the key and saying
// how to enable the RTL build; with them, it is checked against the RTL build's limits.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "router_factory.h"

namespace wormsim {

// True when this binary was built with the Verilated RTL router (WORMSIM_RTL=ON).
bool rtl_available();

// The load-time check of the router implementation (pass it to load_config, so errors carry
// the key's line): ConfigError for implementation rtl without the RTL build or beyond its
// limits (cosim/rtl_limits.h).
void check_router_implementation(const Config& config);

// The router factory for `config`: null (the C++ router everywhere) for implementation
// systemc, the RTL factory for rtl (FST waveforms of `traced` routers to
// <trace_prefix>_r<id>.fst when trace_prefix is not empty). Calls
// check_router_implementation first.
std::shared_ptr<RouterFactory> make_router_factory(const Config& config,
                                                   const std::string& trace_prefix = {},
                                                   const std::vector<NodeId>& traced = {});

}  // namespace wormsim
