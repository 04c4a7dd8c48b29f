// Block-level tests of one Router (systemc/router/router.h, docs/timing-model.md): a single router of
// a 3x3 mesh (the centre node 4 = (1,1)) with hand-made links on some of its ports, driven
// cycle by cycle by the test. The test plays the neighbours: upstream senders that respect the
// router's input-buffer credits, and downstream receivers that record every flit and, when
// asked, return credits. Expectations are computed from the timing contract, not read back
// from the router.
//
// Port numbering at node 4 (docs/architecture.md): 0 = x+ (to node 5), 1 = x- (node 3),
// 2 = y+ (node 7), 3 = y- (node 1), 4 = injection input / ejection output (one-port).
#include "router.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "activity_calendar.h"
#include "link.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim::router_test {
namespace {

constexpr NodeId kHere = 4;  // centre of the 3x3 mesh
constexpr int kXPlus = 0;
constexpr int kXMinus = 1;
constexpr int kYPlus = 2;
constexpr int kYMinus = 3;
constexpr int kLocal = 4;    // injection input / ejection output
constexpr NodeId kEast = 5;  // (2,1): leaves through x+
constexpr Cycle kNever = ActivityCalendar::kNever;

struct BenchConfig {
  int vcs = 2;
  int buffer_depth = 4;
  int pipeline_depth = 1;
  PipelineModel pipeline = PipelineModel::kDelay;
  int in_latency = 1;      // flit latency of every input link
  int out_latency = 1;     // flit latency of every output link
  int credit_latency = 1;  // credit latency of every link
  AllocatorKind allocator = AllocatorKind::kSeparableInputFirst;
  bool calendar_driven = false;  // step the router only when the calendar says so
  // Multidestination worms (tree worms from the bench's multicast table).
  MultidestMode multidest = MultidestMode::kNone;
  Replication replication = Replication::kSynchronous;
  ReplicationFlow replication_flow = ReplicationFlow::kWormhole;
  int multidest_vcs = 0;
  // Give the router every stage of its cache hints (Router::prefetch) before each step.
  bool prefetch = false;
};

Flit make_flit(PacketId id, int index, int length, NodeId dst, int vc) {
  Flit f;
  f.packet_id = id;
  f.src = 3;
  f.dst = dst;
  f.index = static_cast<std::uint16_t>(index);
  f.vc = static_cast<std::uint8_t>(vc);
  const bool head = index == 0;
  const bool tail = index == length - 1;
  f.type = head ? (tail ? FlitType::kHeadTail : FlitType::kHead)
                : (tail ? FlitType::kTail : FlitType::kBody);
  f.payload_bytes = 8;
  for (std::size_t b = 0; b < 8; ++b)
    f.payload[b] = static_cast<std::uint8_t>(id * 31 + static_cast<PacketId>(index) * 7 + b);
  f.hops = 2;
  return f;
}

// One flit or credit seen on a link: the cycle it was pushed and the cycle the receiver saw
// it (first cycle DelayLine::ready was true; the bench polls every cycle).
struct FlitEvent {
  Cycle pushed = 0;
  Cycle visible = kNever;
  Flit flit;
};
struct CreditEvent {
  Cycle pushed = 0;
  Cycle visible = kNever;
  int vc = 0;
};

class RouterBench {
 public:
  explicit RouterBench(const BenchConfig& c, const char* name = "router")
      : cfg_(c),
        topology_(mesh3x3()),
        layout_(PortLayout::make(PortModel::kOnePort, topology_.network_ports(), 1)),
        route_compute_(topology_, RoutingConfig{}, layout_, c.vcs, c.multidest_vcs),
        multicast_route_(topology_, route_compute_, multicast_table_),
        router_(name, params(c, layout_), route_compute_,
                c.multidest == MultidestMode::kNone ? nullptr : &multicast_route_),
        calendar_(1 + layout_.inputs() + layout_.outputs()),
        senders_(static_cast<std::size_t>(layout_.inputs())),
        receivers_(static_cast<std::size_t>(layout_.outputs())) {}

  static TopologyConfig mesh3x3() {
    TopologyConfig t;
    t.kind = TopologyKind::kMesh;
    t.dims = {3, 3};
    return t;
  }
  static RouterParams params(const BenchConfig& c, const PortLayout& layout) {
    RouterParams p;
    p.id = kHere;
    p.layout = layout;
    p.vcs = c.vcs;
    p.buffer_depth = c.buffer_depth;
    p.pipeline_depth = c.pipeline_depth;
    p.pipeline = c.pipeline;
    p.allocator = c.allocator;
    p.replication = c.replication;
    p.replication_flow = c.replication_flow;
    return p;
  }
  // A worm header for `dests` from node 3 (the x- neighbour) of `flits` flits; its handle goes
  // into Flit::mcast.
  std::uint32_t add_worm(std::vector<NodeId> dests, int flits) {
    return multicast_table_.add(cfg_.multidest, 3, std::move(dests), flits);
  }

  // Calendar components: 0 = the router, 1 + p = upstream of input p, 1 + inputs + p =
  // downstream of output p.
  int upstream_component(int port) const { return 1 + port; }
  int downstream_component(int port) const { return 1 + layout_.inputs() + port; }

  void connect_input(int port) {
    Sender& s = senders_[static_cast<std::size_t>(port)];
    s.link = std::make_unique<Link>(cfg_.in_latency, cfg_.credit_latency);
    s.link->upstream = {upstream_component(port), 0};
    s.link->downstream = {0, port};
    s.credits.assign(static_cast<std::size_t>(cfg_.vcs), cfg_.buffer_depth);
    router_.attach_input(port, s.link.get());
  }
  // auto_credit: the receiver frees each flit's slot the cycle it sees it (a consumer that
  // forwards at once), returning the credit upstream then.
  void connect_output(int port, bool auto_credit) {
    Receiver& r = receivers_[static_cast<std::size_t>(port)];
    r.link = std::make_unique<Link>(cfg_.out_latency, cfg_.credit_latency);
    r.link->upstream = {0, port};
    r.link->downstream = {downstream_component(port), 0};
    r.auto_credit = auto_credit;
    router_.attach_output(port, r.link.get());
  }

  // Queue a packet on input `port`, VC `vc`; its flits are sent one per cycle from cycle
  // `from` on, as upstream credits allow (the sender honours the router's buffer depth).
  void queue_packet(int port, PacketId id, int length, NodeId dst, int vc, Cycle from) {
    Sender& s = senders_[static_cast<std::size_t>(port)];
    for (int i = 0; i < length; ++i) s.queue.push_back({from, make_flit(id, i, length, dst, vc)});
  }
  void queue_flit(int port, const Flit& f, Cycle from) {
    senders_[static_cast<std::size_t>(port)].queue.push_back({from, f});
  }
  // Downstream of output `port` frees one slot of VC `vc` in cycle `now`.
  void return_credit(int port, int vc, Cycle now) {
    Link& l = *receivers_[static_cast<std::size_t>(port)].link;
    calendar_.wake(0, l.send_credit(now, static_cast<std::uint8_t>(vc)));
  }

  // One cycle: the neighbours act (receive, return credits, send), then the router steps
  // (every cycle, or only when scheduled in calendar-driven mode).
  Router::StepResult tick(Cycle now) {
    calendar_.take(now, active_);
    active_log_.push_back(active_);
    for (Receiver& r : receivers_) {
      if (!r.link) continue;
      while (r.link->flits.ready(now)) {
        r.events[r.next_visible++].visible = now;
        if (r.auto_credit) calendar_.wake(0, r.link->send_credit(now, r.link->flits.front().vc));
        r.link->flits.pop();
      }
    }
    for (Sender& s : senders_) {
      if (!s.link) continue;
      while (s.link->credits.ready(now)) {
        const int vc = s.link->credits.front();
        s.credit_events[s.next_credit_visible++].visible = now;
        ++s.credits[static_cast<std::size_t>(vc)];
        EXPECT_LE(s.credits[static_cast<std::size_t>(vc)], cfg_.buffer_depth)
            << "more credits than buffer slots on VC " << vc;
        s.link->credits.pop();
      }
      if (!s.queue.empty() && s.queue.front().from <= now) {
        const Flit& f = s.queue.front().flit;
        int& credit = s.credits[f.vc];
        if (credit > 0) {
          --credit;
          calendar_.wake(0, s.link->send_flit(now, f));
          s.sent.push_back({now, kNever, f});
          s.queue.pop_front();
        }
      }
    }
    std::vector<int> before_out;
    for (Receiver& r : receivers_) before_out.push_back(r.link ? r.link->flits.size() : 0);
    std::vector<int> before_credit;
    for (Sender& s : senders_) before_credit.push_back(s.link ? s.link->credits.size() : 0);

    Router::StepResult result;
    const bool scheduled = std::find(active_.begin(), active_.end(), 0) != active_.end();
    if (!cfg_.calendar_driven || scheduled) {
      if (cfg_.prefetch)
        for (int stage = 0; stage < 4; ++stage) router_.prefetch(stage);
      result = router_.step(now, calendar_, true);
      ++steps_;
      if (result.wake_at != kNever) calendar_.wake(0, result.wake_at);
    }
    for (std::size_t p = 0; p < receivers_.size(); ++p) {
      Receiver& r = receivers_[p];
      if (!r.link) continue;
      for (int i = before_out[p]; i < r.link->flits.size(); ++i)
        r.events.push_back({now, kNever, r.link->flits.at(i)});
    }
    for (std::size_t p = 0; p < senders_.size(); ++p) {
      Sender& s = senders_[p];
      if (!s.link) continue;
      for (int i = before_credit[p]; i < s.link->credits.size(); ++i)
        s.credit_events.push_back({now, kNever, s.link->credits.at(i)});
    }
    return result;
  }
  void run(Cycle from, Cycle to) {
    for (Cycle t = from; t < to; ++t) tick(t);
  }

  Router& router() { return router_; }
  // Flits the router pushed onto output `port`, in order.
  const std::vector<FlitEvent>& out(int port) const {
    return receivers_[static_cast<std::size_t>(port)].events;
  }
  // Credits the router pushed onto input link `port`, in order.
  const std::vector<CreditEvent>& credits_sent(int port) const {
    return senders_[static_cast<std::size_t>(port)].credit_events;
  }
  // Flits the test pushed onto input link `port`, in order.
  const std::vector<FlitEvent>& in(int port) const {
    return senders_[static_cast<std::size_t>(port)].sent;
  }
  const std::vector<int>& active(Cycle c) const { return active_log_[static_cast<std::size_t>(c)]; }
  int steps() const { return steps_; }
  ActivityCalendar& calendar() { return calendar_; }

 private:
  struct Queued {
    Cycle from;
    Flit flit;
  };
  struct Sender {
    std::unique_ptr<Link> link;
    std::deque<Queued> queue;
    std::vector<int> credits;
    std::vector<FlitEvent> sent;
    std::vector<CreditEvent> credit_events;
    std::size_t next_credit_visible = 0;
  };
  struct Receiver {
    std::unique_ptr<Link> link;
    bool auto_credit = false;
    std::vector<FlitEvent> events;
    std::size_t next_visible = 0;
  };

  BenchConfig cfg_;
  Topology topology_;
  PortLayout layout_;
  RouteCompute route_compute_;
  MulticastTable multicast_table_;
  MulticastRoute multicast_route_;
  Router router_;
  ActivityCalendar calendar_;
  std::vector<Sender> senders_;
  std::vector<Receiver> receivers_;
  std::vector<int> active_;
  std::vector<std::vector<int>> active_log_;
  int steps_ = 0;
};

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// ---- Pipeline timing -----------------------------------------------------------------------
struct TimingCase {
  int pipeline;
  int in_latency;
  int out_latency;
  int credit_latency;
  PipelineModel model = PipelineModel::kDelay;
};

class RouterTiming : public ::testing::TestWithParam<TimingCase> {};

// A 3-flit packet enters on x- (from node 3) in VC 1 and goes on to node 5 through x+. Each
// flit written into its buffer in cycle a leaves (is pushed onto the output link) in cycle
// a + P - 1, is visible downstream link_latency later, and frees its buffer slot with a
// credit on the input link in the same cycle, visible credit_latency later. Staged models:
// the head leaves after its P - 1 stages before ST and the body flits right behind it, so
// the same cycles; the winners of SA count as moved only in their ST cycle.
TEST_P(RouterTiming, FlitsLeaveAfterPipelineDelayAndReturnCredits) {
  const TimingCase tc = GetParam();
  BenchConfig c;
  c.vcs = 2;
  c.buffer_depth = 4;
  c.pipeline_depth = tc.pipeline;
  c.pipeline = tc.model;
  c.in_latency = tc.in_latency;
  c.out_latency = tc.out_latency;
  c.credit_latency = tc.credit_latency;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  const Cycle t0 = 5;
  const int in_vc = 1;
  b.queue_packet(kXMinus, 77, 3, kEast, in_vc, t0);
  const Cycle a = t0 + static_cast<Cycle>(tc.in_latency);  // head written into the buffer
  const Cycle p1 = static_cast<Cycle>(tc.pipeline - 1);
  int out_vc = -2;
  for (Cycle t = 0; t < 40; ++t) {
    const Router::StepResult r = b.tick(t);
    const bool leaves = t >= a + p1 && t < a + p1 + 3;
    EXPECT_EQ(r.moved, leaves ? 1 : 0) << "cycle " << t;
    if (t == a + p1) {
      // The head holds an output VC of x+ from now until its tail leaves.
      int held = 0;
      for (int v = 0; v < c.vcs; ++v)
        if (b.router().owner(kXPlus, v) == kXMinus * c.vcs + in_vc) {
          out_vc = v;
          ++held;
        }
      EXPECT_EQ(held, 1);
    }
  }
  // The packet was sent upstream in cycles t0, t0+1, t0+2.
  ASSERT_EQ(b.in(kXMinus).size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(b.in(kXMinus)[i].pushed, t0 + i);

  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_GE(out_vc, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    const Cycle leave = a + i + p1;
    EXPECT_EQ(out[i].pushed, leave) << "flit " << i;
    EXPECT_EQ(out[i].visible, leave + static_cast<Cycle>(tc.out_latency)) << "flit " << i;
    EXPECT_EQ(out[i].flit.index, i);
    EXPECT_EQ(out[i].flit.packet_id, 77u);
    EXPECT_EQ(out[i].flit.vc, out_vc) << "VC not rewritten to the allocated output VC";
    EXPECT_EQ(out[i].flit.hops, 3u) << "network output must count a hop";
    EXPECT_EQ(out[i].flit.payload, make_flit(77, static_cast<int>(i), 3, kEast, in_vc).payload);
    // The downstream neighbour is woken exactly when the flit becomes visible to it.
    EXPECT_TRUE(contains(b.active(out[i].visible), b.downstream_component(kXPlus))) << "flit " << i;
  }
  EXPECT_EQ(out[0].flit.type, FlitType::kHead);
  EXPECT_EQ(out[1].flit.type, FlitType::kBody);
  EXPECT_EQ(out[2].flit.type, FlitType::kTail);
  // Output VC released after the tail.
  EXPECT_EQ(b.router().owner(kXPlus, out_vc), -1);

  const auto& credits = b.credits_sent(kXMinus);
  ASSERT_EQ(credits.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(credits[i].pushed, out[i].pushed) << "credit " << i;
    EXPECT_EQ(credits[i].visible, out[i].pushed + static_cast<Cycle>(tc.credit_latency));
    EXPECT_EQ(credits[i].vc, in_vc) << "credit for the wrong input VC";
    EXPECT_TRUE(contains(b.active(credits[i].visible), b.upstream_component(kXMinus)));
  }
  EXPECT_EQ(b.router().buffered(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Pipeline, RouterTiming,
    ::testing::Values(TimingCase{1, 1, 1, 1}, TimingCase{2, 1, 1, 1}, TimingCase{3, 1, 1, 1},
                      TimingCase{4, 1, 1, 1}, TimingCase{1, 2, 3, 2}, TimingCase{2, 3, 2, 4},
                      TimingCase{3, 2, 1, 3}, TimingCase{4, 3, 3, 3},
                      TimingCase{4, 1, 1, 1, PipelineModel::kClassic},
                      TimingCase{4, 2, 3, 2, PipelineModel::kClassic},
                      TimingCase{3, 1, 2, 1, PipelineModel::kLookahead},
                      TimingCase{3, 1, 1, 1, PipelineModel::kSpeculative},
                      TimingCase{3, 3, 1, 2, PipelineModel::kCombined},
                      TimingCase{2, 1, 1, 3, PipelineModel::kLookaheadSpeculative},
                      TimingCase{2, 2, 2, 1, PipelineModel::kLookaheadCombined}),
    [](const auto& p) {
      const TimingCase& tc = p.param;
      return (tc.model == PipelineModel::kDelay ? std::string() : to_string(tc.model) + "_") + "P" +
             std::to_string(tc.pipeline) + "_In" + std::to_string(tc.in_latency) + "_Lk" +
             std::to_string(tc.out_latency) + "_Cr" + std::to_string(tc.credit_latency);
    });

// A packet for this node leaves on the ejection port without counting a hop; one injected
// here and leaving on a network port counts one.
// ---- Staged pipelines: speculation --------------------------------------------------------
class RouterSpeculation : public ::testing::TestWithParam<PipelineModel> {};

// Packet A streams from x- to x+ (every cycle a non-speculative SA request); a one-flit packet
// B arrives on the injection input for x+ while A streams, and gets a free output VC at once.
// The output arbiter favours B (A won last). Combined VA.SA: B bids in its VA cycle with A and
// wins; a separate SA stage (classic, lookahead): B bids the cycle after VA and wins; both leave
// P - 1 cycles after B's buffer write, as at zero load. Speculative: B's bid in its VA cycle is
// speculative and loses to A's non-speculative one, so B leaves one cycle later
// (docs/timing-model.md, "Router pipeline").
TEST_P(RouterSpeculation, SpeculativeBidLosesToANonSpeculativeOne) {
  const PipelineModel model = GetParam();
  BenchConfig c;
  c.vcs = 2;
  c.buffer_depth = 8;
  c.pipeline = model;
  c.pipeline_depth = pipeline_stages(model);
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kLocal);
  b.connect_output(kXPlus, true);
  b.queue_packet(kXMinus, 1, 16, kEast, 0, 0);
  const Cycle b_sent = 6;
  b.queue_packet(kLocal, 2, 1, kEast, 0, b_sent);
  b.run(0, 60);
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), 17u);
  const Cycle written = b_sent + 1;
  const bool speculative =
      model == PipelineModel::kSpeculative || model == PipelineModel::kLookaheadSpeculative;
  const Cycle expected = written + static_cast<Cycle>(c.pipeline_depth - 1) + (speculative ? 1 : 0);
  int seen = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].flit.packet_id != 2) continue;
    ++seen;
    EXPECT_EQ(out[i].pushed, expected);
    // A was streaming on both sides of B: B took a cycle A's next flit would have had.
    ASSERT_GT(i, 0u);
    ASSERT_LT(i + 1, out.size());
    EXPECT_EQ(out[i - 1].pushed + 1, out[i].pushed);
    EXPECT_EQ(out[i + 1].pushed, out[i].pushed + 1);
  }
  EXPECT_EQ(seen, 1);
}

INSTANTIATE_TEST_SUITE_P(Models, RouterSpeculation,
                         ::testing::Values(PipelineModel::kClassic, PipelineModel::kLookahead,
                                           PipelineModel::kSpeculative, PipelineModel::kCombined,
                                           PipelineModel::kLookaheadSpeculative,
                                           PipelineModel::kLookaheadCombined),
                         [](const auto& p) { return to_string(p.param); });

TEST(RouterHops, CountedOnNetworkOutputsOnly) {
  BenchConfig c;
  RouterBench b(c);
  b.connect_input(kYMinus);
  b.connect_input(kLocal);
  b.connect_output(kLocal, false);  // ejection: unlimited credits, none returned
  b.connect_output(kYPlus, true);
  b.queue_packet(kYMinus, 1, 2, kHere, 0, 0);  // from node 1, for this node
  b.queue_packet(kLocal, 2, 2, 7, 0, 0);       // injected here, for node 7 (y+)
  b.run(0, 20);
  ASSERT_EQ(b.out(kLocal).size(), 2u);
  for (const FlitEvent& e : b.out(kLocal)) {
    EXPECT_EQ(e.flit.packet_id, 1u);
    EXPECT_EQ(e.flit.hops, 2u);
  }
  ASSERT_EQ(b.out(kYPlus).size(), 2u);
  for (const FlitEvent& e : b.out(kYPlus)) {
    EXPECT_EQ(e.flit.packet_id, 2u);
    EXPECT_EQ(e.flit.hops, 3u);
  }
}

// Ejection never back-pressures (docs/timing-model.md): with no credit ever returned by the
// NI, a packet much longer than the buffer depth leaves on the ejection port one flit per
// cycle.
TEST(RouterEjection, NeverBackPressured) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 2;
  c.credit_latency = 1;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kLocal, false);
  const int length = 12;
  b.queue_packet(kXMinus, 8, length, kHere, 0, 0);
  b.run(0, 40);
  const auto& out = b.out(kLocal);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(length));
  // Upstream is the only limit: input depth 2, credit round trip Lin + Cr = 2, so every cycle.
  for (std::size_t k = 0; k < out.size(); ++k) EXPECT_EQ(out[k].pushed, 1 + k) << "flit " << k;
}

// Two packets interleaved on two VCs of one input: every flit that leaves returns one credit
// for its own input VC, in the cycle it leaves, at most one per cycle.
TEST(RouterCredits, EachDepartureCreditsItsOwnInputVc) {
  BenchConfig c;
  c.vcs = 3;
  c.credit_latency = 2;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.connect_output(kYPlus, true);
  // Alternate the flits of packet 10 (VC 2, to node 5) and packet 20 (VC 0, to node 7).
  for (int i = 0; i < 4; ++i) {
    b.queue_flit(kXMinus, make_flit(10, i, 4, kEast, 2), 0);
    b.queue_flit(kXMinus, make_flit(20, i, 4, 7, 0), 0);
  }
  b.run(0, 40);
  const auto& credits = b.credits_sent(kXMinus);
  ASSERT_EQ(credits.size(), 8u);
  // Collect the departures from both outputs and match them with the credits by cycle.
  std::vector<FlitEvent> departures(b.out(kXPlus));
  departures.insert(departures.end(), b.out(kYPlus).begin(), b.out(kYPlus).end());
  ASSERT_EQ(departures.size(), 8u);
  std::sort(departures.begin(), departures.end(),
            [](const FlitEvent& x, const FlitEvent& y) { return x.pushed < y.pushed; });
  for (std::size_t i = 0; i < 8; ++i) {
    if (i > 0) {
      EXPECT_LT(departures[i - 1].pushed, departures[i].pushed)
          << "one input port sent two flits in one cycle";
    }
    EXPECT_EQ(credits[i].pushed, departures[i].pushed);
    EXPECT_EQ(credits[i].visible, departures[i].pushed + 2);
    const int expected_vc = departures[i].flit.packet_id == 10 ? 2 : 0;
    EXPECT_EQ(credits[i].vc, expected_vc) << "departure " << i;
  }
}

// The cache hints (Router::prefetch) change nothing: the same traffic, with two packets
// competing for x+, one held by a VC without credits and ports left unconnected (no link),
// leaves at the same cycles with the same flits and credits whether every stage of the hints
// precedes every step or none does.
TEST(RouterPrefetch, HintsChangeNoDepartureOrCredit) {
  const auto run = [](bool prefetch) {
    BenchConfig c;
    c.vcs = 2;
    c.buffer_depth = 2;
    c.prefetch = prefetch;
    auto b = std::make_unique<RouterBench>(c, prefetch ? "with_hints" : "without_hints");
    b->connect_input(kXMinus);
    b->connect_input(kLocal);
    b->connect_output(kXPlus, true);
    b->connect_output(kYPlus, false);  // never returns a credit: y+ stalls after two flits
    b->queue_packet(kXMinus, 1, 6, kEast, 0, 0);
    b->queue_packet(kLocal, 2, 5, kEast, 1, 1);
    b->queue_packet(kXMinus, 3, 4, 7, 1, 2);
    b->run(0, 40);
    return b;
  };
  const auto plain = run(false);
  const auto hinted = run(true);
  for (int port : {kXPlus, kYPlus}) {
    ASSERT_EQ(plain->out(port).size(), hinted->out(port).size()) << "port " << port;
    for (std::size_t i = 0; i < plain->out(port).size(); ++i) {
      EXPECT_EQ(plain->out(port)[i].pushed, hinted->out(port)[i].pushed);
      EXPECT_EQ(plain->out(port)[i].flit.packet_id, hinted->out(port)[i].flit.packet_id);
      EXPECT_EQ(plain->out(port)[i].flit.index, hinted->out(port)[i].flit.index);
    }
  }
  EXPECT_EQ(plain->out(kXPlus).size(), 11u);
  EXPECT_EQ(plain->out(kYPlus).size(), 2u);
  for (int port : {kXMinus, kLocal}) {
    ASSERT_EQ(plain->credits_sent(port).size(), hinted->credits_sent(port).size());
    for (std::size_t i = 0; i < plain->credits_sent(port).size(); ++i) {
      EXPECT_EQ(plain->credits_sent(port)[i].pushed, hinted->credits_sent(port)[i].pushed);
      EXPECT_EQ(plain->credits_sent(port)[i].vc, hinted->credits_sent(port)[i].vc);
    }
  }
  EXPECT_EQ(plain->router().buffered(), hinted->router().buffered());
}

// ---- Multidestination worms: reserved VCs, cut-through replication --------------------------

// A packet of `length` flits (from node 3) on input VC `vc`, as a worm with header `mcast`.
void queue_worm(RouterBench& b, int port, PacketId id, int length, std::uint32_t mcast, int vc,
                Cycle from) {
  for (int i = 0; i < length; ++i) {
    Flit f = make_flit(id, i, length, kEast, vc);
    f.mcast = mcast;
    b.queue_flit(port, f, from);
  }
}

// network.router.multidest_vcs 1 of 3 VCs: three unicast heads for x+ (tails never sent, so
// they keep what they get) take VCs 0 and 1 by cycle 2 and the third waits, though VC 2 is
// free; a tree worm for node 5 then gets VC 2 at once, the cycle after its head is sent
// (pipeline 1).
TEST(RouterReservedVcs, UnicastNeverTakesAReservedVcAndWormsOnlyThose) {
  BenchConfig c;
  c.vcs = 3;
  c.multidest = MultidestMode::kTree;
  c.multidest_vcs = 1;
  RouterBench b(c);
  for (int p : {kXMinus, kYMinus, kYPlus, kLocal}) b.connect_input(p);
  b.connect_output(kXPlus, false);
  b.queue_flit(kXMinus, make_flit(1, 0, 8, kEast, 0), 0);
  b.queue_flit(kYMinus, make_flit(2, 0, 8, kEast, 1), 0);
  b.queue_flit(kYPlus, make_flit(3, 0, 8, kEast, 0), 0);
  const std::uint32_t worm = b.add_worm({kEast}, 8);
  Flit head = make_flit(4, 0, 8, kEast, 2);  // injected in the worms' VC
  head.mcast = worm;
  b.queue_flit(kLocal, head, 5);
  b.run(0, 30);
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), 3u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_NE(out[k].flit.packet_id, 4u);
    EXPECT_LT(out[k].flit.vc, 2) << "unicast packet " << out[k].flit.packet_id;
    EXPECT_LE(out[k].pushed, 2u);
  }
  EXPECT_NE(out[0].flit.vc, out[1].flit.vc);
  EXPECT_EQ(out[2].flit.packet_id, 4u);
  EXPECT_EQ(out[2].flit.vc, 2);
  EXPECT_EQ(out[2].pushed, 6u);
}

// Cut-through replication at a branch point (eject here + x+ to node 5), one VC, 4-flit
// buffers. A 2-flit unicast packet U for node 5 goes first (flits sent upstream in cycles 0,
// 1; out on x+ in 1, 2); the x+ receiver keeps both credits until the test returns them in
// cycles 10 and 11 (visible in 11 and 12). A 4-flit tree worm W follows on the same input VC
// (sent in 2..5, in the router from 3..6). x+ VC 0 is free from cycle 3 with 2 credits.
//   wormhole, synchronous:    W0, W1 out on both branches in 3, 4; W2, W3 one per returned
//                             credit in 11, 12.
//   wormhole, asynchronous:   x+ as synchronous; the ejection copy runs ahead: 3, 4, 5, 6.
//   cut-through (both):       W waits for 4 credits on x+ (cycle 12), then 12, 13, 14, 15
//                             on both branches: nothing of W leaves before every branch has
//                             room for all of it.
struct CutThroughCase {
  const char* name;
  Replication replication;
  ReplicationFlow flow;
  std::vector<Cycle> x_plus;  // W's flits on x+
  std::vector<Cycle> eject;   // W's flits on the ejection channel
};

class RouterCutThrough : public ::testing::TestWithParam<CutThroughCase> {};

TEST_P(RouterCutThrough, ReplicatingHeadWaitsForRoomForTheWholeWormOnEveryBranch) {
  const CutThroughCase& k = GetParam();
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 4;
  c.multidest = MultidestMode::kTree;
  c.replication = k.replication;
  c.replication_flow = k.flow;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, false);
  b.connect_output(kLocal, false);
  b.queue_packet(kXMinus, 1, 2, kEast, 0, 0);
  queue_worm(b, kXMinus, 2, 4, b.add_worm({kHere, kEast}, 4), 0, 2);
  for (Cycle t = 0; t < 40; ++t) {
    if (t == 10 || t == 11) b.return_credit(kXPlus, 0, t);
    b.tick(t);
  }
  auto cycles_of = [](const std::vector<FlitEvent>& events) {
    std::vector<Cycle> out;
    for (const FlitEvent& e : events)
      if (e.flit.packet_id == 2) out.push_back(e.pushed);
    return out;
  };
  EXPECT_EQ(cycles_of(b.out(kXPlus)), k.x_plus);
  EXPECT_EQ(cycles_of(b.out(kLocal)), k.eject);
  ASSERT_EQ(b.out(kXPlus).size(), 6u);
  EXPECT_EQ(b.out(kXPlus)[0].pushed, 1u);  // U
  EXPECT_EQ(b.out(kXPlus)[1].pushed, 2u);
}

INSTANTIATE_TEST_SUITE_P(Flow, RouterCutThrough,
                         ::testing::Values(CutThroughCase{"wormhole_sync",
                                                          Replication::kSynchronous,
                                                          ReplicationFlow::kWormhole,
                                                          {3, 4, 11, 12},
                                                          {3, 4, 11, 12}},
                                           CutThroughCase{"wormhole_async",
                                                          Replication::kAsynchronous,
                                                          ReplicationFlow::kWormhole,
                                                          {3, 4, 11, 12},
                                                          {3, 4, 5, 6}},
                                           CutThroughCase{"cut_through_sync",
                                                          Replication::kSynchronous,
                                                          ReplicationFlow::kCutThrough,
                                                          {12, 13, 14, 15},
                                                          {12, 13, 14, 15}},
                                           CutThroughCase{"cut_through_async",
                                                          Replication::kAsynchronous,
                                                          ReplicationFlow::kCutThrough,
                                                          {12, 13, 14, 15},
                                                          {12, 13, 14, 15}}),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// The router refuses a worm longer than its buffers under cut-through (Config::validate()
// prevents it; the contract names the router).
TEST(RouterCutThrough, WormLongerThanTheBuffersIsAContractViolation) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 4;
  c.multidest = MultidestMode::kTree;
  c.replication_flow = ReplicationFlow::kCutThrough;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.connect_output(kLocal, false);
  queue_worm(b, kXMinus, 2, 5, b.add_worm({kHere, kEast}, 5), 0, 0);
  b.tick(0);
  try {
    b.tick(1);
    FAIL() << "accepted a 5-flit worm with 4-flit buffers";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("router: cycle 1: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(5 flits)"), std::string::npos) << e.what();
  }
}

// ---- VC ownership --------------------------------------------------------------------------
class RouterVcHold : public ::testing::TestWithParam<int> {};

// With one VC, packet A (from x-) holds x+ VC 0 from head to tail; packet B (injected
// locally, head arrived one cycle after A's) must wait, and its head gets the VC - and,
// being long eligible, leaves - in the cycle after A's tail left. No interleaving.
TEST_P(RouterVcHold, SecondPacketWaitsForTheTail) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 8;
  c.pipeline_depth = GetParam();
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kLocal);
  b.connect_output(kXPlus, true);
  b.queue_packet(kXMinus, 100, 5, kEast, 0, 0);  // head written in cycle 1
  b.queue_packet(kLocal, 200, 3, kEast, 0, 1);   // head written in cycle 2
  const Cycle p1 = static_cast<Cycle>(GetParam() - 1);
  for (Cycle t = 0; t < 40; ++t) {
    b.tick(t);
    // While A is between head and tail, it owns the only output VC.
    if (t >= 1 + p1 && t < 1 + p1 + 4) {
      EXPECT_EQ(b.router().owner(kXPlus, 0), kXMinus * 1 + 0) << "cycle " << t;
    }
  }
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), 8u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(out[i].flit.packet_id, 100u) << "flit " << i << " interleaved";
    EXPECT_EQ(out[i].pushed, 1 + p1 + i);
  }
  const Cycle tail_a = out[4].pushed;
  for (std::size_t i = 5; i < 8; ++i) {
    EXPECT_EQ(out[i].flit.packet_id, 200u);
    EXPECT_EQ(out[i].flit.index, i - 5);
  }
  EXPECT_EQ(out[5].pushed, tail_a + 1) << "head of B must get the VC the cycle after A's tail";
  EXPECT_EQ(out[7].pushed, tail_a + 3);
}

INSTANTIATE_TEST_SUITE_P(Pipeline, RouterVcHold, ::testing::Values(1, 2, 3, 4),
                         [](const auto& p) { return "P" + std::to_string(p.param); });

// ---- Credit flow control -------------------------------------------------------------------
class RouterCreditStall : public ::testing::TestWithParam<int> {};

// Downstream depth B and no credits back: exactly B flits leave, then nothing; the router
// sleeps (kNever) until a credit arrives, and each returned credit lets exactly one more
// flit leave, in the cycle the credit becomes visible.
TEST_P(RouterCreditStall, ExactlyBufferDepthFlitsThenOnePerCredit) {
  const int depth = GetParam();
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = depth;
  c.credit_latency = 3;
  c.calendar_driven = false;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, false);
  b.queue_packet(kXMinus, 9, 3 * depth + 2, kEast, 0, 0);
  Cycle last_move = 0;
  Router::StepResult r;
  for (Cycle t = 0; t < 60; ++t) {
    r = b.tick(t);
    if (r.moved > 0) last_move = t;
  }
  EXPECT_EQ(b.out(kXPlus).size(), static_cast<std::size_t>(depth));
  EXPECT_EQ(b.router().output(kXPlus).credits[0].credits(), 0);
  // Blocked on credit with the input buffer full: nothing to do until something arrives.
  EXPECT_EQ(r.moved, 0);
  EXPECT_EQ(r.wake_at, kNever);
  EXPECT_EQ(b.router().buffered(), depth) << "upstream refilled the freed slots";
  EXPECT_EQ(last_move, static_cast<Cycle>(depth)) << "flits 0..B-1 leave in cycles 1..B";

  // Return one credit in cycle 60: visible in 63, one flit leaves in 63, then nothing.
  b.return_credit(kXPlus, 0, 60);
  b.tick(60);
  for (Cycle t = 61; t < 63; ++t) EXPECT_EQ(b.tick(t).moved, 0) << "cycle " << t;
  EXPECT_EQ(b.tick(63).moved, 1);
  EXPECT_TRUE(contains(b.active(63), 0)) << "the credit must wake the router";
  for (Cycle t = 64; t < 80; ++t) EXPECT_EQ(b.tick(t).moved, 0) << "cycle " << t;
  ASSERT_EQ(b.out(kXPlus).size(), static_cast<std::size_t>(depth + 1));
  EXPECT_EQ(b.out(kXPlus).back().pushed, 63u);
  EXPECT_EQ(b.out(kXPlus).back().flit.index, depth);

  // Two credits returned in 80 and 81 (visible in 83 and 84): two more flits.
  b.return_credit(kXPlus, 0, 80);
  b.tick(80);
  b.return_credit(kXPlus, 0, 81);
  b.run(81, 100);
  ASSERT_EQ(b.out(kXPlus).size(), static_cast<std::size_t>(depth + 3));
  EXPECT_EQ(b.out(kXPlus)[static_cast<std::size_t>(depth + 1)].pushed, 83u);
  // With B = 1 the input buffer held only the flit that left in 83; its replacement is
  // sent upstream when that credit is back (83 + Cr) and written one link cycle later.
  const Cycle second = depth >= 2 ? 84 : 83 + 3 + 1;
  EXPECT_EQ(b.out(kXPlus)[static_cast<std::size_t>(depth + 2)].pushed, second);
}

INSTANTIATE_TEST_SUITE_P(Depth, RouterCreditStall, ::testing::Values(1, 2, 4, 7),
                         [](const auto& p) { return "B" + std::to_string(p.param); });

// With credits returned by the downstream neighbour, the sender reuses a slot one round
// trip R = Lk + (P-1) + Cr after sending into it; here the downstream returns the credit the
// cycle a flit is visible (as a P = 1 router that forwards at once), so R = Lk + Cr and a
// long packet leaves in bursts of B every max(B, R) cycles (docs/timing-model.md, S(L)).
TEST(RouterCredits, ShallowBuffersThrottleToTheRoundTrip) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 2;
  c.out_latency = 2;
  c.credit_latency = 3;
  c.in_latency = 1;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  const int length = 9;
  b.queue_packet(kXMinus, 5, length, kEast, 0, 0);
  b.run(0, 80);
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(length));
  const Cycle depth = 2;
  const Cycle round_trip = 2 + 3;  // out link + credit
  // The upstream (injection-like) sender has the same depth and its own round trip
  // 1 (link) + 3 (credit) = 4 < 5, so the output side is the bottleneck.
  for (std::size_t k = 0; k < out.size(); ++k) {
    const Cycle expect = 1 + (k / depth) * std::max(depth, round_trip) + k % depth;
    EXPECT_EQ(out[k].pushed, expect) << "flit " << k;
  }
}

// ---- Arbitration fairness ------------------------------------------------------------------
class RouterFairness : public ::testing::TestWithParam<AllocatorKind> {};

std::string allocator_name(const ::testing::TestParamInfo<AllocatorKind>& info) {
  return info.param == AllocatorKind::kSeparableInputFirst ? "InputFirst" : "OutputFirst";
}

// One VC: x- and y- each offer 20 two-flit packets to x+. The single output VC goes to the
// two inputs alternately, packet by packet, and the link never idles between packets.
TEST_P(RouterFairness, PacketsAlternateForOneOutputVc) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 4;
  c.allocator = GetParam();
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kYMinus);
  b.connect_output(kXPlus, true);
  const int packets = 20;
  for (int i = 0; i < packets; ++i) {
    b.queue_packet(kXMinus, 1000 + static_cast<PacketId>(i), 2, kEast, 0, 0);
    b.queue_packet(kYMinus, 2000 + static_cast<PacketId>(i), 2, kEast, 0, 0);
  }
  b.run(0, 200);
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(4 * packets));
  std::vector<PacketId> order;
  for (std::size_t i = 0; i < out.size(); i += 2) {
    // Both flits of a packet leave back to back (the VC is held).
    EXPECT_EQ(out[i].flit.packet_id, out[i + 1].flit.packet_id) << "flit " << i;
    order.push_back(out[i].flit.packet_id);
  }
  int from_x = 0;
  int from_y = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const bool x = order[i] < 2000;
    (x ? from_x : from_y)++;
    if (i > 0) {
      EXPECT_NE(order[i - 1] < 2000, x) << "input served twice in a row at packet " << i;
    }
    // Each input's packets leave in its own order.
    EXPECT_EQ(order[i], x ? 1000 + static_cast<PacketId>(from_x - 1)
                          : 2000 + static_cast<PacketId>(from_y - 1));
  }
  EXPECT_EQ(from_x, packets);
  EXPECT_EQ(from_y, packets);
  for (std::size_t i = 1; i < out.size(); ++i)
    EXPECT_EQ(out[i].pushed, out[i - 1].pushed + 1) << "idle output cycle before flit " << i;
}

// Two VCs: x- and y- each send one long packet to x+; they hold different output VCs and
// share the physical channel flit by flit, alternating every cycle.
TEST_P(RouterFairness, FlitsAlternateOnOnePhysicalChannel) {
  BenchConfig c;
  c.vcs = 2;
  c.buffer_depth = 4;
  c.allocator = GetParam();
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kYMinus);
  b.connect_output(kXPlus, true);
  const int length = 30;
  b.queue_packet(kXMinus, 1, length, kEast, 0, 0);
  b.queue_packet(kYMinus, 2, length, kEast, 0, 0);
  b.run(0, 150);
  const auto& out = b.out(kXPlus);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(2 * length));
  // Both worms are in progress from the second departure on: strict alternation until one
  // of them has sent its tail, no idle cycle.
  int sent1 = 0;
  int sent2 = 0;
  std::size_t i = 0;
  for (; i < out.size() && sent1 < length && sent2 < length; ++i) {
    (out[i].flit.packet_id == 1 ? sent1 : sent2)++;
    if (i >= 2) {
      EXPECT_NE(out[i].flit.packet_id, out[i - 1].flit.packet_id) << "departure " << i;
    }
    if (i >= 1) {
      EXPECT_EQ(out[i].pushed, out[i - 1].pushed + 1) << "departure " << i;
    }
  }
  EXPECT_GE(i, static_cast<std::size_t>(2 * length - 3));
  // The two packets hold distinct output VCs, each for all of its flits.
  std::map<PacketId, int> vc_of;
  for (const FlitEvent& e : out) {
    const auto [it, first] = vc_of.emplace(e.flit.packet_id, e.flit.vc);
    if (!first) {
      EXPECT_EQ(e.flit.vc, it->second) << "packet " << e.flit.packet_id << " changed VC";
    }
  }
  ASSERT_EQ(vc_of.size(), 2u);
  EXPECT_NE(vc_of[1], vc_of[2]);
}

INSTANTIATE_TEST_SUITE_P(Allocator, RouterFairness,
                         ::testing::Values(AllocatorKind::kSeparableInputFirst,
                                           AllocatorKind::kSeparableOutputFirst),
                         allocator_name);

// ---- Protocol errors -----------------------------------------------------------------------
TEST(RouterProtocol, BodyFlitWithoutHeadThrows) {
  BenchConfig c;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.queue_flit(kXMinus, make_flit(3, 1, 3, kEast, 1), 0);  // a body, never its head
  EXPECT_NO_THROW(b.tick(0));
  EXPECT_THROW(b.run(1, 10), std::logic_error);
}

TEST(RouterProtocol, TailFlitWithoutHeadThrows) {
  BenchConfig c;
  c.pipeline_depth = 3;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.queue_flit(kXMinus, make_flit(3, 2, 3, kEast, 0), 0);
  EXPECT_NO_THROW(b.tick(0));
  EXPECT_THROW(b.run(1, 10), std::logic_error);
}

// A body flit on an idle VC is an error even when another VC of the same port carries a
// proper packet.
TEST(RouterProtocol, BodyOnIdleVcThrowsBesideAValidPacket) {
  BenchConfig c;
  c.vcs = 2;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.queue_packet(kXMinus, 1, 3, kEast, 0, 0);
  b.queue_flit(kXMinus, make_flit(2, 1, 3, kEast, 1), 0);
  EXPECT_NO_THROW(b.run(0, 4));  // the valid packet's flits arrive in 1..3
  EXPECT_THROW(b.run(4, 10), std::logic_error);
}

// ---- Wake-ups ------------------------------------------------------------------------------
TEST(RouterWake, IdleRouterNeverNeedsAWakeUp) {
  BenchConfig c;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  for (Cycle t = 0; t < 5; ++t) {
    const Router::StepResult r = b.tick(t);
    EXPECT_EQ(r.moved, 0);
    EXPECT_EQ(r.wake_at, kNever);
  }
}

// After a move with flits still buffered: next cycle. After the last flit left: never.
TEST(RouterWake, NextCycleAfterAMoveNeverWhenEmpty) {
  BenchConfig c;
  c.buffer_depth = 8;
  c.pipeline_depth = 4;
  RouterBench b4(c);
  b4.connect_input(kXMinus);
  b4.connect_output(kXPlus, true);
  b4.queue_packet(kXMinus, 1, 4, kEast, 0, 0);  // written in 1..4, leave in 4..7
  for (Cycle t = 0; t < 12; ++t) {
    const Router::StepResult r = b4.tick(t);
    if (t >= 4 && t <= 6) {
      EXPECT_EQ(r.moved, 1) << "cycle " << t;
      EXPECT_EQ(r.wake_at, t + 1) << "cycle " << t;
    } else if (t == 7) {
      EXPECT_EQ(r.moved, 1);
      EXPECT_EQ(r.wake_at, kNever) << "nothing left after the tail";
    } else if (t > 7) {
      EXPECT_EQ(r.moved, 0);
      EXPECT_EQ(r.wake_at, kNever);
    }
  }
}

// A lone head inside its pipeline delay: a step that changes nothing asks to be woken
// exactly in the head's eligibility cycle. (The arrival step itself routes the head and may
// ask for an earlier wake-up, but never a later one.)
TEST(RouterWake, EligibilityCycleWhileInPipelineDelay) {
  BenchConfig c;
  c.pipeline_depth = 4;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.queue_packet(kXMinus, 1, 1, kEast, 0, 0);  // written in cycle 1, eligible in cycle 4
  EXPECT_EQ(b.tick(0).wake_at, kNever);
  const Router::StepResult arrival = b.tick(1);
  EXPECT_EQ(arrival.moved, 0);
  EXPECT_GT(arrival.wake_at, 1u);
  EXPECT_LE(arrival.wake_at, 4u);
  const Router::StepResult idle = b.tick(2);
  EXPECT_EQ(idle.moved, 0);
  EXPECT_EQ(idle.wake_at, 4u);
  EXPECT_EQ(b.tick(3).wake_at, 4u);
  const Router::StepResult leave = b.tick(4);
  EXPECT_EQ(leave.moved, 1);
  EXPECT_EQ(leave.wake_at, kNever);
}

// Everything buffered is blocked on credit: kNever (a credit arrival wakes the router).
TEST(RouterWake, NeverWhenAllFlitsWaitForCredit) {
  BenchConfig c;
  c.vcs = 2;
  c.buffer_depth = 2;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kYMinus);
  b.connect_output(kXPlus, false);
  b.queue_packet(kXMinus, 1, 6, kEast, 0, 0);
  b.queue_packet(kYMinus, 2, 6, kEast, 1, 0);
  Router::StepResult r;
  for (Cycle t = 0; t < 30; ++t) r = b.tick(t);
  EXPECT_EQ(b.out(kXPlus).size(), 4u);  // 2 output VCs x 2 credits
  EXPECT_EQ(b.router().buffered(), 4);
  EXPECT_EQ(r.moved, 0);
  EXPECT_EQ(r.wake_at, kNever);
}

// A head waiting for an output VC that another packet holds, while that packet is blocked
// on credit: also kNever.
TEST(RouterWake, NeverWhenWaitingForAVcHeldByABlockedPacket) {
  BenchConfig c;
  c.vcs = 1;
  c.buffer_depth = 2;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_input(kYMinus);
  b.connect_output(kXPlus, false);
  b.queue_packet(kXMinus, 1, 6, kEast, 0, 0);
  b.queue_packet(kYMinus, 2, 2, kEast, 0, 2);
  Router::StepResult r;
  for (Cycle t = 0; t < 30; ++t) r = b.tick(t);
  EXPECT_EQ(b.out(kXPlus).size(), 2u);
  EXPECT_EQ(r.moved, 0);
  EXPECT_EQ(r.wake_at, kNever);
}

// The wake-up contract as the network uses it: a router stepped only in cycles its calendar
// schedules (its own wake_at, flit and credit arrivals) behaves exactly like one stepped
// every cycle, under contention, pipeline delays and credit stalls.
TEST(RouterWake, CalendarDrivenEqualsSteppedEveryCycle) {
  for (int pipeline : {1, 3, 4}) {
    std::vector<std::vector<FlitEvent>> results[2];
    for (int mode = 0; mode < 2; ++mode) {
      BenchConfig c;
      c.vcs = 2;
      c.buffer_depth = 3;
      c.pipeline_depth = pipeline;
      c.out_latency = 2;
      c.credit_latency = 2;
      c.calendar_driven = mode == 1;
      const std::string name = "r_p" + std::to_string(pipeline) + "_m" + std::to_string(mode);
      RouterBench b(c, name.c_str());
      for (int p : {kXMinus, kYMinus, kYPlus, kLocal}) b.connect_input(p);
      b.connect_output(kXPlus, true);
      b.connect_output(kLocal, false);   // ejection: never back-pressures
      b.connect_output(kYMinus, false);  // starves after 2 x 3 flits
      PacketId id = 1;
      for (int k = 0; k < 6; ++k) {
        const Cycle at = static_cast<Cycle>(7 * k);
        b.queue_packet(kXMinus, id++, 1 + k % 4, kEast, k % 2, at);
        b.queue_packet(kYMinus, id++, 3, kHere, (k + 1) % 2, at + 3);
        b.queue_packet(kYPlus, id++, 2 + k % 3, 1, k % 2, at + 1);  // to node 1: y-
        b.queue_packet(kLocal, id++, 4, kEast, 1, at + 20);
      }
      b.run(0, 40);
      b.return_credit(kYMinus, 0, 40);
      b.run(40, 45);
      b.return_credit(kYMinus, 1, 45);
      b.run(45, 200);
      if (mode == 1) {
        EXPECT_LT(b.steps(), 200) << "calendar-driven router was stepped every cycle";
      }
      for (int p : {kXPlus, kLocal, kYMinus}) results[mode].push_back(b.out(p));
    }
    for (std::size_t p = 0; p < results[0].size(); ++p) {
      ASSERT_EQ(results[0][p].size(), results[1][p].size()) << "P=" << pipeline << " port " << p;
      ASSERT_FALSE(results[0][p].empty());
      for (std::size_t i = 0; i < results[0][p].size(); ++i) {
        EXPECT_EQ(results[0][p][i].pushed, results[1][p][i].pushed)
            << "P=" << pipeline << " port " << p << " flit " << i;
        EXPECT_EQ(results[0][p][i].flit.packet_id, results[1][p][i].flit.packet_id);
        EXPECT_EQ(results[0][p][i].flit.index, results[1][p][i].flit.index);
      }
    }
  }
}

// ---- Probes --------------------------------------------------------------------------------
// The output probe shows the departing flit (with its output VC) in the cycle it leaves and
// is cleared in the next cycle; the input probe shows a flit in the cycle it is written.
TEST(RouterProbes, ShowTheFlitForOneCycle) {
  BenchConfig c;
  c.vcs = 2;
  c.pipeline_depth = 2;
  RouterBench b(c);
  b.connect_input(kXMinus);
  b.connect_output(kXPlus, true);
  b.router().enable_probes();
  Flit f = make_flit(0x1234567890ull, 0, 1, kEast, 1);
  f.src = 3;
  b.queue_flit(kXMinus, f, 0);  // written in 1, leaves in 2
  b.tick(0);
  EXPECT_FALSE(b.router().input_probes()[kXMinus].valid);
  b.tick(1);
  const FlitProbe& in = b.router().input_probes()[kXMinus];
  EXPECT_TRUE(in.valid);
  EXPECT_EQ(in.packet, 0x1234567890ull);
  EXPECT_EQ(in.vc, 1u);
  EXPECT_FALSE(b.router().output_probes()[kXPlus].valid);
  EXPECT_EQ(b.router().occupancy_probes()[kXMinus * 2 + 1], 1u);
  b.tick(2);
  EXPECT_FALSE(b.router().input_probes()[kXMinus].valid);
  EXPECT_EQ(b.router().occupancy_probes()[kXMinus * 2 + 1], 0u);
  ASSERT_EQ(b.out(kXPlus).size(), 1u);
  const FlitProbe& out = b.router().output_probes()[kXPlus];
  EXPECT_TRUE(out.valid);
  EXPECT_EQ(out.vc, static_cast<unsigned>(b.out(kXPlus)[0].flit.vc));
  EXPECT_TRUE(out.head);
  EXPECT_TRUE(out.tail);
  EXPECT_EQ(out.packet, 0x1234567890ull);
  EXPECT_EQ(out.src, 3u);
  EXPECT_EQ(out.dst, kEast);
  EXPECT_EQ(out.index, 0u);
  for (int p = 0; p < 5; ++p) {
    if (p != kXPlus) {
      EXPECT_FALSE(b.router().output_probes()[static_cast<std::size_t>(p)].valid) << p;
    }
  }
  b.tick(3);
  EXPECT_FALSE(b.router().output_probes()[kXPlus].valid) << "probe must clear the next cycle";
}

TEST(RouterProbes, BodyFlitFieldsInTheCycleItLeaves) {
  BenchConfig c;
  c.vcs = 1;
  RouterBench b(c);
  b.connect_input(kLocal);
  b.connect_output(kYPlus, true);
  b.router().enable_probes();
  b.queue_packet(kLocal, 42, 3, 7, 0, 0);  // leaves in 1, 2, 3
  for (Cycle t = 0; t < 6; ++t) {
    b.tick(t);
    const FlitProbe& p = b.router().output_probes()[kYPlus];
    if (t >= 1 && t <= 3) {
      ASSERT_TRUE(p.valid) << "cycle " << t;
      EXPECT_EQ(p.index, t - 1);
      EXPECT_EQ(p.head, t == 1);
      EXPECT_EQ(p.tail, t == 3);
      EXPECT_EQ(p.packet, 42u);
      EXPECT_EQ(p.dst, 7u);
    } else {
      EXPECT_FALSE(p.valid) << "cycle " << t;
    }
  }
}

}  // namespace
}  // namespace wormsim::router_test
