#include "rtl_router_factory.h"

#include <algorithm>

#include <fmt/format.h>

#include "rtl_router.h"

namespace wormsim {

RtlRouterFactory::RtlRouterFactory(std::string trace_prefix, std::vector<NodeId> traced)
    : trace_prefix_(std::move(trace_prefix)), traced_(std::move(traced)) {}

std::unique_ptr<Router> RtlRouterFactory::make(const char* name, const RouterContext& c) {
  const NodeId id = c.params.id;
  if (!c.config.network.router.rtl_at(id))
    return std::make_unique<Router>(name, c.params, c.route_compute, c.multicast);
  std::string fst;
  if (!trace_prefix_.empty() && std::find(traced_.begin(), traced_.end(), id) != traced_.end())
    fst = fmt::format("{}_r{}.fst", trace_prefix_, id);
  if (!fst.empty()) trace_files_.push_back(fst);
  if (!context_) context_ = make_rtl_context(!trace_prefix_.empty());
  auto router = std::make_unique<RtlRouter>(name, c.params, c.route_compute, c.multicast, c.table,
                                            c.config, c.topology, context_, fst, c.period_ps);
  rtl_routers_.push_back(router.get());
  return router;
}

void RtlRouterFactory::close_traces() {
  for (RtlRouter* r : rtl_routers_) r->close_trace();
}

}  // namespace wormsim
