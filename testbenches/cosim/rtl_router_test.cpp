// Router-level testbench of the Verilated RTL router (rtl/wormsim_router.sv) driven directly,
// without a network: timing of one worm through the router against the closed formula of
// docs/timing-model.md (a flit arriving in cycle t leaves in cycle t + pipeline_depth - 1,
// its slot is credited upstream in the same cycle; under a staged pipeline model, t +
// stages - 1), and two worms sharing an output port on
// different VCs, interleaved flit by flit. With `+trace` on the command line each test writes
// an FST waveform (rtl_router_<test>.fst in $WORMSIM_TRACE_DIR or the working directory),
// which traces/rtl_router.gtkw displays.
#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <string>

#include "config.h"
#include "port_layout.h"
#include "rtl_flit.h"
#include "rtl_router.h"
#include "topology.h"

using sc_core::sc_time_stamp;
#include "Vwormsim_router.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace wormsim {
namespace {

constexpr int kInjection = rtl::kNarrowPorts;  // RTL port of injection channel 0
constexpr int kEjection = rtl::kNarrowPorts;   // RTL port of ejection channel 0

bool trace_requested() {
  for (int i = 0; i < sc_core::sc_argc(); ++i)
    if (std::string(sc_core::sc_argv()[i]) == "+trace") return true;
  return false;
}

struct Departure {
  int cycle;
  int port;
  rtl::FlitBits flit;
};

// One router of a 4x4 mesh (node 5 = (1,1)), one-port, 4 VCs, depth 4.
class RouterBench {
 public:
  explicit RouterBench(int pipeline, int vcs = 4, PipelineModel model = PipelineModel::kDelay) {
    config_.network.topology.dims = {4, 4};
    config_.network.router.pipeline_depth = pipeline;
    config_.network.router.pipeline = model;
    config_.network.router.vcs = vcs;
    config_.network.router.port_model = PortModel::kOnePort;
    Topology topology(config_.network.topology);
    const PortLayout layout = PortLayout::make(PortModel::kOnePort, 4, 1);
    context_.fatalOnError(false);
    const bool trace = trace_requested();
    if (trace) context_.traceEverOn(true);
    model_ = std::make_unique<Vwormsim_router>(&context_, "tb");
    const auto straps = rtl_straps(config_, topology, layout, 5);
    for (std::size_t i = 0; i < straps.size(); ++i) model_->cfg_i[i] = straps[i];
    if (trace) {
      const char* dir = std::getenv("WORMSIM_TRACE_DIR");
      const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
      fst_ = std::make_unique<VerilatedFstC>();
      model_->trace(fst_.get(), 99);
      fst_->open(((dir != nullptr ? std::string(dir) + "/" : std::string()) + "rtl_router_" + test +
                  ".fst")
                     .c_str());
    }
    model_->clk_i = 0;
    model_->rst_ni = 1;
    model_->eval();
    model_->rst_ni = 0;  // a real negative edge: the flops reset asynchronously
    model_->eval();
    model_->rst_ni = 1;
  }
  ~RouterBench() {
    if (fst_) fst_->close();
    model_->final();
  }

  // Queues a packet of `length` flits to `dst` on RTL input `port`, VC `vc`; with
  // `from_index` > 0 only the flits from that index on (a worm without its head).
  void offer(int port, int vc, NodeId src, NodeId dst, int length, std::uint32_t packet,
             int from_index = 0) {
    for (int i = from_index; i < length; ++i) {
      rtl::FlitBits f;
      f.type = length == 1       ? FlitType::kHeadTail
               : i == 0          ? FlitType::kHead
               : i == length - 1 ? FlitType::kTail
                                 : FlitType::kBody;
      f.vc = static_cast<unsigned>(vc);
      f.packet = packet;
      f.index = static_cast<std::uint16_t>(i);
      f.src = static_cast<std::uint16_t>(src);
      f.dst = static_cast<std::uint16_t>(dst);
      f.data = 0x1000u * packet + static_cast<std::uint64_t>(i);
      queue_[port].push_back(f);
    }
  }

  // One cycle: each input sends its next queued flit if its upstream credit allows (credits
  // come back with latency 1), the model is evaluated and clocked, departures and credits are
  // recorded. Network outputs get their credits back the cycle after a departure.
  void cycle() {
    std::uint32_t* words = model_->in_flit_i.data();
    std::uint32_t valid = 0;
    for (auto& [port, q] : queue_) {
      if (q.empty()) continue;
      int& credits = upstream_credits_[port * 4 + static_cast<int>(q.front().vc)];
      if (credits == 0) continue;
      --credits;
      rtl::pack(q.front(), words, static_cast<unsigned>(port) * rtl::kFlitW);
      valid |= 1u << port;
      arrivals_.push_back({now_, port, q.front()});
      q.pop_front();
    }
    model_->in_valid_i = static_cast<std::uint8_t>(valid);
    model_->out_credit_i = static_cast<std::uint8_t>(pending_credit_valid_);
    model_->out_credit_vc_i = pending_credit_vc_;
    // The model registers its inputs (RegIn, rtl/CMakeLists.txt): this clock edge takes them
    // (and the previous cycle's next state), after it the outputs are this cycle's.
    model_->clk_i = 1;
    model_->eval();
    if (fst_) fst_->dump(static_cast<std::uint64_t>(now_) * 1000);
    pending_credit_valid_ = 0;
    pending_credit_vc_ = 0;
    for (int o = 0; o < 8; ++o) {
      if (((model_->out_valid_o >> o) & 1u) == 0) continue;
      const rtl::FlitBits f =
          rtl::unpack(model_->out_flit_o.data(), static_cast<unsigned>(o) * rtl::kFlitW);
      departures_.push_back({now_, o, f});
      if (o < rtl::kNarrowPorts) {  // the downstream router frees the slot at once
        pending_credit_valid_ |= 1u << o;
        pending_credit_vc_ |= f.vc << (4 * o);
      }
    }
    for (int p = 0; p < 8; ++p)
      if ((model_->in_credit_o >> p) & 1u)
        ++upstream_credits_[p * 4 + static_cast<int>((model_->in_credit_vc_o >> (4 * p)) & 0xfu)];
    model_->clk_i = 0;
    model_->eval();
    if (fst_) fst_->dump(static_cast<std::uint64_t>(now_) * 1000 + 500);
    if (expect_clean_) {
      // Assertions sample at the clock edge: this one checked the previous cycle.
      EXPECT_FALSE(context_.gotError()) << "RTL assertion failed in cycle " << now_ - 1;
    }
    ++now_;
  }

  // Negative tests: a failed RTL assertion is what the test expects.
  void expect_assertion_failures() { expect_clean_ = false; }
  bool assertion_failed() { return context_.gotError(); }
  const std::vector<Departure>& departures() const { return departures_; }
  const std::vector<Departure>& arrivals() const { return arrivals_; }
  int upstream_credits(int port, int vc) { return upstream_credits_[port * 4 + vc]; }

 private:
  Config config_;
  VerilatedContext context_;
  std::unique_ptr<Vwormsim_router> model_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::map<int, std::deque<rtl::FlitBits>> queue_;
  std::map<int, int> upstream_credits_ = [] {
    std::map<int, int> m;
    for (int i = 0; i < 32; ++i) m[i] = 4;
    return m;
  }();
  std::uint32_t pending_credit_valid_ = 0;
  std::uint32_t pending_credit_vc_ = 0;
  std::vector<Departure> departures_;
  std::vector<Departure> arrivals_;
  int now_ = 0;
  bool expect_clean_ = true;
};

class RtlRouterPipeline : public ::testing::TestWithParam<int> {};

// Node 5 = (1,1) to node 7 = (3,1): out through x+ (port 0), each flit pipeline_depth - 1
// cycles after it arrived, body flits right behind the head, all credits returned.
TEST_P(RtlRouterPipeline, WormLeavesPipelineDepthMinusOneCyclesAfterArrival) {
  const int pipeline = GetParam();
  RouterBench tb(pipeline);
  tb.offer(kInjection, 0, 5, 7, 6, 42);
  for (int c = 0; c < 30; ++c) tb.cycle();
  ASSERT_EQ(tb.departures().size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const Departure& d = tb.departures()[i];
    EXPECT_EQ(d.port, 0);
    EXPECT_EQ(d.flit.index, i);
    EXPECT_EQ(d.flit.packet, 42u);
    EXPECT_EQ(d.flit.data, 0x1000u * 42 + i);
    EXPECT_EQ(d.cycle, tb.arrivals()[i].cycle + pipeline - 1) << "flit " << i;
  }
  // Depth 4 and a credit round trip of 1 + (pipeline - 1) cycles: the injection stream only
  // stalls when the round trip exceeds the depth, never here.
  EXPECT_EQ(tb.arrivals().back().cycle, 5);
  EXPECT_EQ(tb.upstream_credits(kInjection, 0), 4);
}

INSTANTIATE_TEST_SUITE_P(Depths, RtlRouterPipeline, ::testing::Values(1, 2, 3, 4));

class RtlRouterStagedPipeline : public ::testing::TestWithParam<PipelineModel> {};

// Staged models at zero load (docs/rtl.md, "Staged pipelines"): a head passes one stage per
// cycle (RC unless lookahead, VA, SA, with VA and SA in one when combined or when the
// speculative SA succeeds, as it does on an idle router) and crosses the switch in the cycle
// after SA, so it leaves pipeline_stages - 1 cycles after its buffer write; the body flits
// follow one per cycle, each as many cycles after its own arrival.
TEST_P(RtlRouterStagedPipeline, WormLeavesStagesMinusOneCyclesAfterArrival) {
  const PipelineModel model = GetParam();
  const int stages = pipeline_stages(model);
  RouterBench tb(stages, 4, model);
  tb.offer(kInjection, 0, 5, 7, 6, 42);
  for (int c = 0; c < 30; ++c) tb.cycle();
  ASSERT_EQ(tb.departures().size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const Departure& d = tb.departures()[i];
    EXPECT_EQ(d.port, 0);
    EXPECT_EQ(d.flit.index, i);
    EXPECT_EQ(d.cycle, tb.arrivals()[i].cycle + stages - 1) << "flit " << i;
  }
  EXPECT_EQ(tb.arrivals().back().cycle, 5);
  EXPECT_EQ(tb.upstream_credits(kInjection, 0), 4);
}

INSTANTIATE_TEST_SUITE_P(Models, RtlRouterStagedPipeline,
                         ::testing::Values(PipelineModel::kClassic, PipelineModel::kLookahead,
                                           PipelineModel::kSpeculative, PipelineModel::kCombined,
                                           PipelineModel::kLookaheadSpeculative,
                                           PipelineModel::kLookaheadCombined),
                         [](const ::testing::TestParamInfo<PipelineModel>& param) {
                           std::string name = to_string(param.param);
                           name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
                           return name;
                         });

// A worm for the local node takes the ejection channel.
TEST(RtlRouter, WormForThisNodeIsEjected) {
  RouterBench tb(1);
  tb.offer(1, 0, 6, 5, 3, 9);  // from x- neighbour (port 1) to node 5 itself
  for (int c = 0; c < 10; ++c) tb.cycle();
  ASSERT_EQ(tb.departures().size(), 3u);
  for (const Departure& d : tb.departures()) EXPECT_EQ(d.port, kEjection);
}

// Two worms for the same output on different input ports: they get different output VCs and
// share the physical channel flit by flit (round-robin switch allocation); each stays in order.
TEST(RtlRouter, TwoWormsShareAnOutputFlitByFlitOnDifferentVcs) {
  RouterBench tb(1);
  tb.offer(kInjection, 0, 5, 7, 8, 1);
  tb.offer(1, 0, 4, 7, 8, 2);  // from (0,1) through x-... arrives on port 1 (from the x- side)
  for (int c = 0; c < 40; ++c) tb.cycle();
  ASSERT_EQ(tb.departures().size(), 16u);
  int last_index[3] = {-1, -1, -1};
  unsigned vc_of[3] = {99, 99, 99};
  for (std::size_t i = 0; i < tb.departures().size(); ++i) {
    const Departure& d = tb.departures()[i];
    EXPECT_EQ(d.port, 0);
    EXPECT_EQ(d.flit.index, last_index[d.flit.packet] + 1);
    last_index[d.flit.packet] = d.flit.index;
    if (vc_of[d.flit.packet] == 99) vc_of[d.flit.packet] = d.flit.vc;
    EXPECT_EQ(d.flit.vc, vc_of[d.flit.packet]);
    if (i > 0) {
      EXPECT_NE(d.flit.packet, tb.departures()[i - 1].flit.packet) << "departure " << i;
      EXPECT_EQ(d.cycle, tb.departures()[i - 1].cycle + 1);
    }
  }
  EXPECT_NE(vc_of[1], vc_of[2]);
}

// The router's own contracts fire on traffic that breaks them (the block contracts have their
// negative tests in rtl_<block>_test.cpp): a flit on a VC the configuration does not use, and a
// body flit reaching the front of a VC that has no packet in progress.
TEST(RtlRouter, AFlitOnAVcNotInUseFailsAnAssertion) {
  RouterBench tb(1, 2);
  tb.expect_assertion_failures();
  tb.offer(kInjection, 3, 5, 7, 2, 11);
  for (int c = 0; c < 4; ++c) tb.cycle();
  EXPECT_TRUE(tb.assertion_failed());
}

TEST(RtlRouter, ABodyFlitWithNoPacketInProgressFailsAnAssertion) {
  RouterBench tb(1);
  tb.expect_assertion_failures();
  tb.offer(kInjection, 0, 5, 7, 4, 12, 1);  // flits 1..3 of a worm whose head never came
  for (int c = 0; c < 4; ++c) tb.cycle();
  EXPECT_TRUE(tb.assertion_failed());
}

// The same traffic with its head is clean: the two tests above fail for the contract alone.
TEST(RtlRouter, AWholeWormOnAVcInUseIsClean) {
  RouterBench tb(1, 2);
  tb.offer(kInjection, 1, 5, 7, 4, 12);
  for (int c = 0; c < 10; ++c) tb.cycle();
  EXPECT_FALSE(tb.assertion_failed());
  EXPECT_EQ(tb.departures().size(), 4u);
}

}  // namespace
}  // namespace wormsim
