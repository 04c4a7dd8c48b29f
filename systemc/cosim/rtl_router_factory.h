// The router factory of networks with Verilated RTL routers (network.router.implementation
// rtl, docs/rtl.md): the RTL router at every node the config lists (rtl_nodes, or all), the
// C++ router elsewhere, all RTL routers sharing one Verilator context. Routers in `traced`
// write an FST waveform to <trace_prefix>_r<id>.fst when trace_prefix is not empty.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "router_factory.h"

class VerilatedContext;

namespace wormsim {

class RtlRouter;

class RtlRouterFactory : public RouterFactory {
 public:
  explicit RtlRouterFactory(std::string trace_prefix = {}, std::vector<NodeId> traced = {});
  std::unique_ptr<Router> make(const char* name, const RouterContext& context) override;
  std::vector<std::string> trace_files() const override { return trace_files_; }
  void close_traces() override;

 private:
  std::string trace_prefix_;
  std::vector<NodeId> traced_;
  std::shared_ptr<VerilatedContext> context_;
  std::vector<std::string> trace_files_;
  std::vector<RtlRouter*> rtl_routers_;  // owned by the network
};

}  // namespace wormsim
