// The Verilated RTL router (rtl/wormsim_router.sv) behind the C++ router's interface
// (DESIGN.md section 10, docs/rtl.md): a network built from a config can use it at every node
// or at a listed subset (network.router.implementation, network.router.rtl_nodes). Each step
// drives the cycle's arriving flits and credits into the model, evaluates it, sends the flits
// and credits it puts out on the links, and clocks it. The base class's buffers, VC states and
// owner table mirror the RTL state (deadlock reports, probes, flits_in_network); flits leave
// with the full C++ flit of the mirror after a check that the RTL carried every field it
// holds unchanged (a multidestination branch restamps only its target and path position). A
// multidestination head carries its whole header from the network's multicast table into
// the RTL (systemc/cosim/rtl_flit.h). An RTL assertion failure or a corrupted flit throws std::logic_error naming
// the router and the cycle.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <variant>

#include "config.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "router.h"
#include "rtl_flit.h"
#include "topology.h"

class Vwormsim_router;
class Vwormsim_router_uc;
class Vwormsim_router_uc1;
class Vwormsim_router_wide;
class Vwormsim_router_cube;
class Vwormsim_router_cube1;
class Vwormsim_router_wide1;
class Vwormsim_router_min;
class Vwormsim_router_wide_min;
class VerilatedContext;
class VerilatedFstC;

namespace wormsim {

// The cfg_t straps of node `id`'s router for `config` (rtl/wormsim_pkg.sv).
std::array<std::uint32_t, (rtl::kCfgW + 31) / 32> rtl_straps(const Config& config,
                                                             const Topology& topology,
                                                             const PortLayout& layout, NodeId id);

// One Verilator context for the RTL routers of a network (they share its time and its error
// flag; a failure is attributed to the router whose evaluation raised it).
std::shared_ptr<VerilatedContext> make_rtl_context(bool tracing);

class RtlRouter : public Router {
 public:
  // `fst_file`: non-empty = write the model's waveform (FST) there; cycle c is dumped at
  // c * period_ps (after the clock edge that registers its inputs: this cycle's inputs and
  // outputs) and half a period later (clock low).
  // `multicast`/`table`: multidestination routing and headers; null without multidest.
  RtlRouter(const sc_core::sc_module_name& name, const RouterParams& params,
            const RouteCompute& route_compute, const MulticastRoute* multicast,
            const MulticastTable* table, const Config& config, const Topology& topology,
            std::shared_ptr<VerilatedContext> context, const std::string& fst_file = {},
            std::uint64_t period_ps = 1000);
  ~RtlRouter() override;

  const char* implementation() const override { return "rtl"; }
  // Flushes and closes the FST waveform, if any (further cycles are not traced).
  void close_trace();

 protected:
  StepResult step_unchecked(Cycle now, ActivityCalendar& calendar, bool measuring) override;

 private:
  // The same code drives every build of the RTL router (rtl/CMakeLists.txt, docs/rtl.md):
  // Vwormsim_router (narrow, with the multidestination hardware), Vwormsim_router_uc (narrow,
  // without it), Vwormsim_router_uc1, Vwormsim_router_wide1 and Vwormsim_router_cube1 (the
  // narrow, wide and cube unicast builds with one injection and one ejection channel and no
  // speculative allocator),
  // Vwormsim_router_min and Vwormsim_router_wide_min (narrow and wide, the minimal path-IR
  // router's hardware),
  // Vwormsim_router_wide (wide, with it) and Vwormsim_router_cube (8- to 16-cubes,
  // without it). They differ in port counts and in what Verilator made of their signal widths.
  template <class Model>
  void reset_model(Model& m, const std::array<std::uint32_t, (rtl::kCfgW + 31) / 32>& straps,
                   const std::string& fst_file);
  template <class Model>
  StepResult step_model(Model& m, Cycle now, ActivityCalendar& calendar, bool measuring);
  template <class Model>
  void evaluate(Model& m, bool clock);
  template <class Model>
  void mirror_state(const Model& m);
  rtl::FlitBits flit_bits(const Flit& f) const {
    return rtl::to_bits(f, f.mcast != 0 && table_ != nullptr ? &table_->at(f.mcast) : nullptr,
                        list_format_);
  }
  int rtl_in(int port) const { return rtl::rtl_port(port, layout_.network, rtl_net_); }
  int rtl_out(int port) const { return rtl::rtl_port(port, layout_.network, rtl_net_); }
  int sc_port(int rtl_port) const { return rtl::cpp_port(rtl_port, layout_.network, rtl_net_); }

  PortLayout layout_;
  int rtl_net_;       // network ports of the model's build
  int rtl_ports_;     // its input (= output) ports: network ports, then NI channels
  unsigned in_vc_w_;  // InVcW of the model's build: bits of an input VC index
  const MulticastTable* table_;
  // The minimal path-IR router (path_ir minimal, address flits): Vwormsim_router_min or
  // Vwormsim_router_wide_min.
  bool address_flits_;
  rtl::ListFormat list_format_;  // how multidestination heads carry their lists
  std::shared_ptr<VerilatedContext> context_;
  // The model of this router's build (set by the constructor).
  std::variant<std::unique_ptr<Vwormsim_router>, std::unique_ptr<Vwormsim_router_uc>,
               std::unique_ptr<Vwormsim_router_uc1>, std::unique_ptr<Vwormsim_router_wide>,
               std::unique_ptr<Vwormsim_router_cube>, std::unique_ptr<Vwormsim_router_cube1>,
               std::unique_ptr<Vwormsim_router_min>, std::unique_ptr<Vwormsim_router_wide1>,
               std::unique_ptr<Vwormsim_router_wide_min>>
      model_;
  std::unique_ptr<VerilatedFstC> trace_;
  std::uint64_t period_ps_;
  std::vector<MulticastBranch> branch_scratch_;
  // Per input port, bit v: mirror_state left VC v other than idle (state, branches), so an
  // empty VC the RTL holds idle and the mirror shows idle is not visited again.
  std::vector<std::uint32_t> mirrored_;
};

}  // namespace wormsim
