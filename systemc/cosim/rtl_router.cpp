#include "rtl_router.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "rtl_limits.h"

// verilated.h reads the simulation time through sc_time_stamp() when SystemC is present.
using sc_core::sc_time_stamp;
#include "Vwormsim_router.h"
#include "Vwormsim_router_uc.h"
#include "Vwormsim_router_uc1.h"
#include "Vwormsim_router_wide.h"
#include "Vwormsim_router_wide1.h"
#include "Vwormsim_router_wide_min.h"
#include "Vwormsim_router_cube.h"
#include "Vwormsim_router_cube1.h"
#include "Vwormsim_router_min.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace wormsim {

namespace {
constexpr unsigned clog2(unsigned n) { return n <= 1 ? 0 : 1 + clog2((n + 1) / 2); }
// Widths of the router's state outputs (localparams of rtl/wormsim_router.sv). A build with
// `ports` input (= output) ports has InVcW = clog2(ports * NumVcs).
constexpr unsigned in_vc_width(int ports) {
  return clog2(static_cast<unsigned>(ports * rtl::kMaxVcs));
}
constexpr unsigned kVcIdxW = rtl::kMaxVcs > 1 ? clog2(rtl::kMaxVcs) : 1;  // VcIdxW
static_assert(in_vc_width(2 * rtl::kNarrowPorts) == 5 && in_vc_width(rtl::kNarrowPorts + 1) == 5 &&
                  in_vc_width(2 * rtl::kWidePorts) == 6 && in_vc_width(rtl::kWidePorts + 1) == 5 &&
                  in_vc_width(2 * rtl::kCubePorts) == 7 && in_vc_width(rtl::kCubePorts + 1) == 7 &&
                  kVcIdxW == 2,
              "the Verilated models' state widths");

// Routers served by the one-port unicast builds (Vwormsim_router_uc1, Vwormsim_router_wide1,
// Vwormsim_router_cube1: the narrow, wide and cube shapes with one injection and one ejection
// channel, no multidestination hardware and no speculative switch allocator).
bool one_port_unicast(const Config& config, const PortLayout& layout, int rtl_net) {
  const RouterConfig& rc = config.network.router;
  return (rtl_net == rtl::kNarrowPorts || rtl_net == rtl::kWidePorts ||
          rtl_net == rtl::kCubePorts) &&
         rc.multidest == MultidestMode::kNone && layout.injection <= 1 && layout.ejection <= 1 &&
         rc.pipeline != PipelineModel::kSpeculative &&
         rc.pipeline != PipelineModel::kLookaheadSpeculative;
}
// Per-port masks (one bit per input or output port) fit 64 bits; per-VC masks and per-port
// fields are read through field() and bit_of(), whatever width Verilator gave them.
static_assert(2 * rtl::kCubePorts <= 64, "per-port masks are 64-bit words");
// Per-port VC fields of the largest build (the cube build: 128 bits), in 32-bit words.
constexpr std::size_t kVcFieldWords = (2 * rtl::kCubePorts * rtl::kVcW + 31) / 32;
using VcFieldWords = std::array<std::uint32_t, kVcFieldWords>;

// A model port set from the low bits of `v`, whichever C++ type Verilator gave it.
template <typename T>
void set_port(T& port, std::uint64_t v) {
  port = static_cast<T>(v);
}
// A model port of at most 64 bits set from little-endian 32-bit words (the rest are zero).
template <typename T>
void set_port(T& port, const VcFieldWords& words) {
  static_assert(sizeof(T) <= 8, "a port of at most two words");
  set_port(port, std::uint64_t{words[0]} | (std::uint64_t{words[1]} << 32));
}
// A wide model port set from little-endian 32-bit words.
template <std::size_t N>
void set_port(VlWide<N>& port, const VcFieldWords& words) {
  static_assert(N <= kVcFieldWords, "a port wider than the largest build's");
  std::copy_n(words.begin(), N, port.data());
}

bool bit(std::uint64_t v, int i) { return ((v >> i) & 1u) != 0; }

// Bits [lsb, lsb + width) of a model port, whichever C++ type Verilator gave it.
template <std::size_t N>
std::uint64_t field(const VlWide<N>& sig, unsigned lsb, unsigned width) {
  return rtl::get_bits(sig.data(), lsb, width);
}
template <typename T>
std::uint64_t field(T sig, unsigned lsb, unsigned width) {
  const auto v = static_cast<std::uint64_t>(sig);
  return width >= 64 ? v >> lsb : (v >> lsb) & ((std::uint64_t{1} << width) - 1);
}
// Bit i of a model port of any width.
template <typename T>
bool bit_of(const T& sig, int i) {
  return field(sig, static_cast<unsigned>(i), 1) != 0;
}
}  // namespace

std::array<std::uint32_t, (rtl::kCfgW + 31) / 32> rtl_straps(const Config& config,
                                                             const Topology& topology,
                                                             const PortLayout& layout, NodeId id) {
  using namespace rtl;
  std::array<std::uint32_t, (kCfgW + 31) / 32> w{};
  const NetworkConfig& net = config.network;
  const RouterConfig& rc = net.router;
  const bool cube = topology.kind() == TopologyKind::kHypercube;
  set_bits(
      w.data(), kCfgTopoLsb, pkg::kTopoW,
      static_cast<unsigned>(topology.kind() == TopologyKind::kMesh    ? pkg::Topo::kTopoMesh
                            : topology.kind() == TopologyKind::kTorus ? pkg::Topo::kTopoTorus
                                                                      : pkg::Topo::kTopoHypercube));
  set_bits(w.data(), kCfgDimsLsb, kCfgDimsW, static_cast<unsigned>(topology.dimensions()));
  std::uint64_t stride = 1;
  for (int d = 0; d < 3 && !cube && d < topology.dimensions(); ++d) {
    set_bits(w.data(), kCfgSideLsb + 16u * static_cast<unsigned>(d), 16,
             static_cast<std::uint64_t>(topology.side(d)));
    set_bits(w.data(), kCfgStrideLsb + 16u * static_cast<unsigned>(d), 16, stride);
    stride *= static_cast<std::uint64_t>(topology.side(d));
  }
  std::vector<int> order = net.routing.order;
  if (order.empty())
    for (int d = 0; d < topology.dimensions(); ++d) order.push_back(d);
  for (std::size_t i = 0; i < order.size() && i < 3 && !cube; ++i)
    set_bits(w.data(), kCfgOrderLsb + 2u * static_cast<unsigned>(i), 2,
             static_cast<std::uint64_t>(order[i]));
  set_bits(w.data(), kCfgEcubeLsb, 1, net.routing.ecube_order == EcubeOrder::kHighToLow);
  set_bits(w.data(), kCfgHamiltonianLsb, 1,
           net.routing.algorithm == RoutingAlgorithm::kHamiltonian);
  set_bits(w.data(), kCfgDatelineLsb, 1,
           topology.kind() == TopologyKind::kTorus && net.routing.dateline);
  set_bits(w.data(), kCfgVcsLsb, 5, static_cast<std::uint64_t>(rc.vcs));
  set_bits(w.data(), kCfgDepthLsb, 9, static_cast<std::uint64_t>(rc.buffer_depth));
  set_bits(w.data(), kCfgPipelineLsb, 3, static_cast<std::uint64_t>(rc.pipeline_depth));
  // PipelineModel and pipe_e list the models in the same order (rtl/wormsim_pkg.sv).
  set_bits(w.data(), pkg::kCfgStagesLsb, pkg::kPipeW, static_cast<std::uint64_t>(rc.pipeline));
  set_bits(w.data(), kCfgAllocLsb, pkg::kAllocW,
           static_cast<unsigned>(rc.allocator == AllocatorKind::kSeparableOutputFirst
                                     ? pkg::Alloc::kAllocOutputFirst
                                     : pkg::Alloc::kAllocInputFirst));
  set_bits(w.data(), kCfgNetPortsLsb, kPortW, static_cast<std::uint64_t>(layout.network));
  set_bits(w.data(), kCfgEjectionLsb, kPortW, static_cast<std::uint64_t>(layout.ejection));
  set_bits(w.data(), kCfgEjectByDirLsb, 1, layout.eject_by_direction);
  set_bits(w.data(), kCfgNodeLsb, 16, id);
  set_bits(w.data(), kCfgMultidestLsb, pkg::kMultidestW,
           static_cast<unsigned>(rc.multidest == MultidestMode::kNone ? pkg::Multidest::kMcNone
                                 : rc.multidest == MultidestMode::kPath
                                     ? (rc.path_ir == PathIr::kMinimal ? pkg::Multidest::kMcPathMin
                                                                       : pkg::Multidest::kMcPath)
                                     : pkg::Multidest::kMcTree));
  set_bits(w.data(), kCfgSyncLsb, 1, rc.replication == Replication::kSynchronous);
  const ListFormat list = rtl_list_format(config);
  set_bits(w.data(), pkg::kCfgListBitStringLsb, 1, list.bit_string);
  set_bits(w.data(), pkg::kCfgListAddrWLsb, pkg::kCfgListAddrWW, list.address_bits);
  set_bits(w.data(), pkg::kCfgFlitBitsLsb, pkg::kCfgFlitBitsW, list.bits);
  return w;
}

namespace {
// The parameters of the C++ side of an RTL router, which mirrors the RTL's buffers and sends
// the flits and credits the RTL puts out. Under a staged pipeline the RTL runs the stages,
// the ST register included (docs/rtl.md, "Staged pipelines"): its flits are eligible from their
// buffer write and leave when the RTL puts them out, so the mirror runs as a delay model
// without delay.
RouterParams mirror_params(RouterParams params) {
  if (params.pipeline != PipelineModel::kDelay) {
    params.pipeline = PipelineModel::kDelay;
    params.pipeline_depth = 1;
  }
  return params;
}
}  // namespace

std::shared_ptr<VerilatedContext> make_rtl_context(bool tracing) {
  auto context = std::make_shared<VerilatedContext>();
  // Assertion failures set gotError() instead of exiting; step() turns them into exceptions.
  context->fatalOnError(false);
  context->errorLimit(1000000);
  if (tracing) context->traceEverOn(true);
  return context;
}

RtlRouter::RtlRouter(const sc_core::sc_module_name& name, const RouterParams& params,
                     const RouteCompute& route_compute, const MulticastRoute* multicast,
                     const MulticastTable* table, const Config& config, const Topology& topology,
                     std::shared_ptr<VerilatedContext> context, const std::string& fst_file,
                     std::uint64_t period_ps)
    : Router(name, mirror_params(params), route_compute, multicast),
      layout_(params.layout),
      rtl_net_(rtl::rtl_build_ports(params.layout.network,
                                    std::max(params.layout.injection, params.layout.ejection))),
      rtl_ports_(one_port_unicast(config, params.layout, rtl_net_) ? rtl_net_ + 1 : 2 * rtl_net_),
      in_vc_w_(in_vc_width(rtl_ports_)),
      table_(table),
      address_flits_(config.network.router.path_ir == PathIr::kMinimal),
      list_format_(rtl_list_format(config)),
      context_(std::move(context)),
      period_ps_(period_ps),
      mirrored_(inputs_.size(), 0) {
  const auto straps = rtl_straps(config, topology, layout_, params.id);
  // The narrowest build with enough ports (rtl::rtl_build_ports). Among the narrow ones, a
  // network without multidestination worms gets the unicast-only build (the same RTL without
  // the path/tree hardware, docs/rtl.md): same ports, same behaviour, a smaller and faster
  // model; one-port routers get it shaped with one injection and one ejection channel
  // (Vwormsim_router_uc1, docs/rtl.md "Lean flits and build shapes").
  const bool multidest = config.network.router.multidest != MultidestMode::kNone;
  if (rtl_net_ == 0)
    throw std::logic_error(
        fmt::format("{}: no RTL router build has {} network ports and {} "
                    "injection/ejection channels",
                    this->name(), layout_.network, std::max(layout_.injection, layout_.ejection)));
  if (rtl_net_ == rtl::kCubePorts) {
    // Only 8- to 16-cubes need this build, which has no multidestination hardware;
    // check_rtl_limits (rtl_limits.h) rejects multidestination worms there first.
    if (multidest)
      throw std::logic_error(
          fmt::format("{}: the RTL router with {} ports is built without the "
                      "multidestination hardware",
                      this->name(), rtl_net_));
    if (rtl_ports_ == rtl_net_ + 1)
      model_ = std::make_unique<Vwormsim_router_cube1>(context_.get(), this->name());
    else
      model_ = std::make_unique<Vwormsim_router_cube>(context_.get(), this->name());
  } else if (address_flits_) {
    // The minimal path-IR router is built in the narrow and wide shapes (the cube build has
    // no multidestination hardware, handled above).
    if (rtl_net_ == rtl::kWidePorts)
      model_ = std::make_unique<Vwormsim_router_wide_min>(context_.get(), this->name());
    else
      model_ = std::make_unique<Vwormsim_router_min>(context_.get(), this->name());
  } else if (rtl_net_ == rtl::kWidePorts && rtl_ports_ == rtl_net_ + 1)
    model_ = std::make_unique<Vwormsim_router_wide1>(context_.get(), this->name());
  else if (rtl_net_ == rtl::kWidePorts)
    model_ = std::make_unique<Vwormsim_router_wide>(context_.get(), this->name());
  else if (rtl_ports_ == rtl_net_ + 1)
    model_ = std::make_unique<Vwormsim_router_uc1>(context_.get(), this->name());
  else if (!multidest)
    model_ = std::make_unique<Vwormsim_router_uc>(context_.get(), this->name());
  else
    model_ = std::make_unique<Vwormsim_router>(context_.get(), this->name());
  std::visit([&](auto& m) { reset_model(*m, straps, fst_file); }, model_);
  if (context_->gotError())
    throw std::logic_error(fmt::format("{}: RTL assertion failed during reset", this->name()));
}

template <class Model>
void RtlRouter::reset_model(Model& m,
                            const std::array<std::uint32_t, (rtl::kCfgW + 31) / 32>& straps,
                            const std::string& fst_file) {
  for (std::size_t i = 0; i < straps.size(); ++i) m.cfg_i[i] = straps[i];
  if (!fst_file.empty()) {
    trace_ = std::make_unique<VerilatedFstC>();
    m.trace(trace_.get(), 99);
    trace_->open(fst_file.c_str());
  }
  // A real negative edge on rst_ni (the flops reset asynchronously).
  m.clk_i = 0;
  m.rst_ni = 1;
  m.eval();
  m.rst_ni = 0;
  m.eval();
  m.rst_ni = 1;
  m.eval();
}

void RtlRouter::close_trace() {
  if (trace_) trace_->close();
  trace_.reset();
}

RtlRouter::~RtlRouter() {
  // Verilator finds "the" context of a model being destroyed through a thread-local pointer
  // set by the last context constructed; with several networks it must be pointed at ours.
  Verilated::threadContextp(context_.get());
  if (trace_) trace_->close();
  std::visit(
      [](auto& m) {
        if (m) m->final();
        m.reset();
      },
      model_);
}

template <class Model>
void RtlRouter::evaluate(Model& m, bool clock) {
  m.clk_i = clock ? 1 : 0;
  m.eval();
  if (context_->gotError())
    throw std::logic_error(
        fmt::format("RTL assertion failed (the message above names it){}",
                    clock ? " at the clock edge, on the router's previous evaluated cycle" : ""));
}

Router::StepResult RtlRouter::step_unchecked(Cycle now, ActivityCalendar& calendar,
                                             bool measuring) {
  return std::visit([&](auto& m) { return step_model(*m, now, calendar, measuring); }, model_);
}

template <class Model>
Router::StepResult RtlRouter::step_model(Model& m, Cycle now, ActivityCalendar& calendar,
                                         bool measuring) {
  using namespace rtl;
  if (probes_enabled_) {
    for (FlitProbe& p : in_probes_) p.clear();
    for (FlitProbe& p : out_probes_) p.clear();
  }
  // Arrivals: at most one flit per input link and one credit per output link per cycle.
  std::uint32_t* in_words = m.in_flit_i.data();
  std::uint64_t in_valid = 0;
  const Cycle pipeline_delay = static_cast<Cycle>(params_.pipeline_depth - 1);
  for (std::uint64_t ports = flits_pending_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    InputPort& in = inputs_[static_cast<std::size_t>(p)];
    Link* link = in.link;
    if (link->flits.ready(now)) {
      const Flit& f = link->flits.front();
      buffer_arrival(p, f, link->flits.front_arrival() + pipeline_delay);
      const int rp = rtl_in(p);
      pack(flit_bits(f), in_words, static_cast<unsigned>(rp) * kFlitW);
      in_valid |= std::uint64_t{1} << rp;
      link->flits.pop();
      if (link->flits.ready(now))
        throw std::logic_error(fmt::format("input {}: two flits arrive in one cycle", p));
    }
    if (link->flits.empty()) flits_pending_ &= ~(std::uint64_t{1} << p);
  }
  std::uint64_t credit_valid = 0;
  VcFieldWords credit_vc{};
  for (std::uint64_t ports = credits_pending_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    OutputPort& out = outputs_[static_cast<std::size_t>(p)];
    Link* link = out.link;
    if (link->credits.ready(now)) {
      const int rp = rtl_out(p);
      const std::uint8_t vc = link->credits.front();
      credit_valid |= std::uint64_t{1} << rp;
      set_bits(credit_vc.data(), kVcW * static_cast<unsigned>(rp), kVcW, vc);
      out.credits[vc].give();
      link->credits.pop();
      if (link->credits.ready(now))
        throw std::logic_error(fmt::format("output {}: two credits arrive in one cycle", p));
    }
    if (link->credits.empty()) credits_pending_ &= ~(std::uint64_t{1} << p);
  }
  set_port(m.in_valid_i, in_valid);
  set_port(m.out_credit_i, credit_valid);
  set_port(m.out_credit_vc_i, credit_vc);
  // The builds register their inputs (RegIn, rtl/CMakeLists.txt): the clock edge takes this
  // cycle's inputs and the state its previous cycle computed, after which the outputs are this
  // cycle's and the state outputs the state after it. One evaluation of the logic per cycle
  // (docs/rtl.md, "Registered inputs"); the clock goes low again at the end of the step. A
  // router the network does not step holds no flits and gets no flits or credits: its state
  // stays as it is, so the edge of its next step takes the state of the last one.
  evaluate(m, true);
  if (trace_) trace_->dump(now * period_ps_);

  // Departures: each is a flit of the mirror's buffer of the input VC the RTL names, carried
  // unchanged (a replicating branch restamps the target and path position).
  int moved = 0;
  const std::uint32_t* out_words = m.out_flit_o.data();
  const std::uint64_t out_valid = m.out_valid_o;
  const int out_ports = rtl_ports_;
  for (int ro = 0; ro < out_ports; ++ro) {
    if (!bit(out_valid, ro)) continue;
    const int o = sc_port(ro);
    const FlitBits got = unpack(out_words, static_cast<unsigned>(ro) * kFlitW);
    const int ri =
        static_cast<int>(field(m.out_src_o, in_vc_w_ * static_cast<unsigned>(ro), in_vc_w_));
    const int p = sc_port(ri / kMaxVcs);
    const int vc = ri % kMaxVcs;
    const Flit* source = nullptr;
    if (o < static_cast<int>(outputs_.size()) && p < static_cast<int>(inputs_.size()) &&
        vc < params_.vcs) {
      const InputVc& ivc = inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(vc)];
      const FlitBuffer& buf = ivc.buffer;
      // Only a replicating worm's branches send flits behind the front (asynchronous
      // replication); every other departure is the front flit.
      const int candidates = ivc.branches.empty() ? std::min(1, buf.size()) : buf.size();
      for (int k = 0; k < candidates && source == nullptr; ++k)
        if (static_cast<std::uint32_t>(buf.at(k).flit.packet_id) == got.packet &&
            buf.at(k).flit.index == got.index)
          source = &buf.at(k).flit;
    }
    if (source == nullptr)
      throw std::logic_error(
          fmt::format("RTL sent flit {} of packet {} on output {} from input {} "
                      "VC {}, which does not hold it",
                      got.index, got.packet, o, p, vc));
    Flit flit = *source;
    if (flit.mcast != 0 && !address_flits_) {
      flit.dst = got.dst;
      flit.mpos = static_cast<std::uint16_t>(got.mpos);
    }
    // The minimal path-IR router promotes the flit behind a stripped address flit to head and
    // carries its path position on (Router::allocate_vcs); it rewrites nothing else.
    if (address_flits_ && flit.mcast != 0 && !flit.head() &&
        (got.type == FlitType::kHead || got.type == FlitType::kHeadTail) &&
        (got.type == FlitType::kHeadTail) == flit.tail()) {
      flit.type = got.type;
      flit.mpos = static_cast<std::uint16_t>(got.mpos);
    }
    FlitBits expect = flit_bits(flit);
    expect.vc = got.vc;
    // Builds without the full path/tree hardware keep lean flits (rtl/wormsim_pkg.sv
    // lean_flit_t): no source or mc bit. Their outputs carry those as zeros; a unicast or
    // address flit has no mc bit to lose.
    if constexpr (!std::is_same_v<Model, Vwormsim_router> &&
                  !std::is_same_v<Model, Vwormsim_router_wide>)
      expect.src = 0;
    if (!(got == expect) || static_cast<int>(got.vc) >= params_.vcs)
      throw std::logic_error(
          fmt::format("RTL corrupted flit {} of packet {} on output {}", got.index, got.packet, o));
    send(now, calendar, measuring, o, static_cast<int>(got.vc), flit);
    ++moved;
  }
  // Slots freed this cycle (after every branch took their flit), credited upstream.
  int freed = 0;
  int stripped = 0;  // minimal path-IR router: address flits dropped without being sent
  const std::uint64_t credits_out = m.in_credit_o;
  const int in_ports = rtl_ports_;
  for (int rp = 0; rp < in_ports; ++rp) {
    if (!bit(credits_out, rp)) continue;
    const int p = sc_port(rp);
    const int vc =
        static_cast<int>(field(m.in_credit_vc_o, kVcW * static_cast<unsigned>(rp), kVcW));
    if (p >= static_cast<int>(inputs_.size()) || vc >= params_.vcs ||
        inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(vc)].buffer.empty())
      throw std::logic_error(fmt::format("RTL freed a slot of empty input {} VC {}", p, vc));
    // A head addressed here with more addresses behind it is never sent: the RTL stripped it.
    const Flit& front =
        inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(vc)].buffer.front().flit;
    if (address_flits_ && multicast_ != nullptr && front.mcast != 0 && front.head() &&
        multicast_->strips(params_.id, front))
      ++stripped;
    pop_input(now, calendar, p, vc);
    ++freed;
  }
  freed -= stripped;
  if (freed > moved)
    throw std::logic_error(fmt::format("RTL freed {} slots but sent {} flits", freed, moved));
  mirror_state(m);
  evaluate(m, false);
  if (trace_) trace_->dump(now * period_ps_ + period_ps_ / 2);

  StepResult result;
  result.moved = moved;
  result.replicated = moved - freed;
  result.stripped = stripped;
  // The model must be clocked every cycle while it holds flits (their pipeline countdowns).
  if (buffered_ > 0) result.wake_at = now + 1;
  if (probes_enabled_) update_occupancy_probes();
  return result;
}

// VC states and the owner table from the RTL's registered state, in C++ port numbering.
template <class Model>
void RtlRouter::mirror_state(const Model& m) {
  using namespace rtl;
  const auto& active = m.vc_active_o;
  const auto& replicating = m.vc_replicating_o;
  const auto& owned = m.owner_valid_o;
  const int vcs = params_.vcs;
  for (std::size_t p = 0; p < inputs_.size(); ++p)
    for (int v = 0; v < vcs; ++v) {
      const int ri = rtl_in(static_cast<int>(p)) * kMaxVcs + v;
      const std::uint32_t vbit = std::uint32_t{1} << v;
      // Empty, idle in the RTL and already idle in the mirror: nothing to update.
      if (((busy_vcs_[p] | mirrored_[p]) & vbit) == 0 && !bit_of(replicating, ri) &&
          !bit_of(active, ri))
        continue;
      InputVc& ivc = inputs_[p].vcs[static_cast<std::size_t>(v)];
      ivc.branches.clear();
      if (bit_of(replicating, ri)) {
        // A replicating worm: its live branches are the output VCs it holds.
        ivc.state = VcState::kActive;
        ivc.out_port = ivc.out_vc = -1;
        for (int ro = 0; ro < rtl_ports_ * kMaxVcs; ++ro)
          if (bit_of(owned, ro) &&
              static_cast<int>(field(m.owner_o, in_vc_w_ * static_cast<unsigned>(ro), in_vc_w_)) ==
                  ri) {
            ReplicaBranch b;
            b.out_port = sc_port(ro / kMaxVcs);
            b.out_vc = ro % kMaxVcs;
            b.target.route = {b.out_port, b.out_port + 1, b.out_vc, b.out_vc + 1};
            ivc.branches.push_back(b);
          }
      } else if (bit_of(active, ri)) {
        ivc.state = VcState::kActive;
        ivc.out_port = sc_port(static_cast<int>(
            field(m.vc_out_port_o, rtl::kPortW * static_cast<unsigned>(ri), rtl::kPortW)));
        ivc.out_vc =
            static_cast<int>(field(m.vc_out_vc_o, kVcIdxW * static_cast<unsigned>(ri), kVcIdxW));
      } else {
        ivc.state = ivc.buffer.empty() ? VcState::kIdle : VcState::kRouted;
        ivc.out_port = ivc.out_vc = -1;
        // The head's candidates, as the RTL computed them at buffer write (deadlock reports
        // read them); a pure function of node, destination, input port and VC.
        if (!ivc.buffer.empty() && ivc.buffer.front().flit.head()) {
          const Flit& head = ivc.buffer.front().flit;
          if (head.mcast == 0 || multicast_ == nullptr) {
            ivc.route = route_compute_.route(params_.id, head.dst, static_cast<int>(p), v);
          } else {
            multicast_->branches(params_.id, head, static_cast<int>(p), v, branch_scratch_);
            if (branch_scratch_.size() == 1)
              ivc.route = branch_scratch_.front().route;
            else
              for (const MulticastBranch& b : branch_scratch_) ivc.branches.push_back({b});
          }
        }
      }
      if (!ivc.buffer.empty()) ivc.packet = ivc.buffer.front().flit.packet_id;
      if (ivc.state != VcState::kIdle || !ivc.branches.empty())
        mirrored_[p] |= vbit;
      else
        mirrored_[p] &= ~vbit;
    }
  for (std::size_t o = 0; o < outputs_.size(); ++o)
    for (int v = 0; v < vcs; ++v) {
      const int ro = rtl_out(static_cast<int>(o)) * kMaxVcs + v;
      int holder = -1;
      if (bit_of(owned, ro)) {
        const int ri =
            static_cast<int>(field(m.owner_o, in_vc_w_ * static_cast<unsigned>(ro), in_vc_w_));
        holder = sc_port(ri / kMaxVcs) * vcs + ri % kMaxVcs;
      }
      owner_[o * static_cast<std::size_t>(vcs) + static_cast<std::size_t>(v)] = holder;
    }
}

}  // namespace wormsim
