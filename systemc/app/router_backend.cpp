#include "router_backend.h"

#include "rtl_limits.h"
#ifdef WORMSIM_HAS_RTL
#include "rtl_router_factory.h"
#endif

namespace wormsim {

bool rtl_available() {
#ifdef WORMSIM_HAS_RTL
  return true;
#else
  return false;
#endif
}

void check_router_implementation(const Config& config) {
  if (config.network.router.implementation != RouterImplementation::kRtl) return;
  if (!rtl_available())
    throw ConfigError("network.router.implementation",
                      "'rtl' needs the Verilated RTL router, and this wormsim was built without "
                      "it: install Verilator (apt-get install verilator) and reconfigure with "
                      "cmake -DWORMSIM_RTL=ON (docs/rtl.md)");
  check_rtl_limits(config);
}

std::shared_ptr<RouterFactory> make_router_factory(const Config& config,
                                                   const std::string& trace_prefix,
                                                   const std::vector<NodeId>& traced) {
  check_router_implementation(config);
  if (config.network.router.implementation != RouterImplementation::kRtl) return nullptr;
#ifdef WORMSIM_HAS_RTL
  return std::make_shared<RtlRouterFactory>(trace_prefix, traced);
#else
  (void)trace_prefix;
  (void)traced;
  return nullptr;  // unreachable: check_router_implementation threw
#endif
}

}  // namespace wormsim
