// Block-level tests of the network interface (systemc/ni/terminal.h): one Terminal with
// hand-made injection and ejection links, driven cycle by cycle. The test plays the router:
// it records every flit the NI injects and returns injection credits (the cycle it sees a
// flit, like a P = 1 router forwarding at once, or only when told), and it pushes flits onto
// the ejection links. Expectations come from docs/timing-model.md ("Network interface
// channels") and the contracts in terminal.h / scoreboard.h, computed independently.
//
// The terminal is node 4 = (1,1) of a 3x3 mesh unless a test says otherwise.
#include "terminal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "activity_calendar.h"
#include "link.h"
#include "route_compute.h"
#include "scoreboard.h"
#include "statistics.h"
#include "topology.h"
#include "traffic_pattern.h"

namespace wormsim::terminal_test {
namespace {

constexpr Cycle kNever = ActivityCalendar::kNever;
constexpr int kTerminal = 0;  // calendar components of the bench
constexpr int kRouter = 1;

struct NiConfig {
  TopologyKind kind = TopologyKind::kMesh;
  std::vector<int> dims{3, 3};
  PortModel model = PortModel::kOnePort;
  int ports = 1;  // k for k_port
  NodeId id = 4;
  int vcs = 2;
  int buffer_depth = 4;
  int credit_latency = 1;
  int flit_bytes = 8;
  int packet_length = 1;
  double injection_rate = 0;
  Cycle generate_until = 0;
  std::uint64_t seed = 1;
  bool auto_credit = true;       // router side returns a credit the cycle it sees a flit
  bool calendar_driven = false;  // step the NI only when the calendar says so
  bool payload_free = false;     // NetworkEndpoint::set_payload_free
};

struct FlitEvent {
  Cycle pushed = 0;
  Cycle visible = kNever;
  Flit flit;
};

class NiBench {
 public:
  explicit NiBench(const NiConfig& c)
      : cfg_(c),
        topology_(topology_config(c)),
        layout_(PortLayout::make(c.model, topology_.network_ports(), c.ports)),
        route_compute_(topology_, RoutingConfig{}, layout_, c.vcs),
        picker_(topology_, TrafficConfig{}),
        scoreboard_(topology_.nodes(), true),
        stats_(topology_.nodes(), 0, 1000000000),
        calendar_(2),
        injection_(static_cast<std::size_t>(layout_.injection)),
        terminal_(params(c, layout_, topology_.nodes()), picker_, topology_, route_compute_,
                  multicast_, scoreboard_, stats_) {
    stats_.enable_packet_log();
    for (int ch = 0; ch < layout_.injection; ++ch) {
      RouterSide& r = injection_[static_cast<std::size_t>(ch)];
      r.link = std::make_unique<Link>(1, c.credit_latency);
      r.link->upstream = {kTerminal, ch};
      r.link->downstream = {kRouter, layout_.network + ch};
      terminal_.attach_injection(ch, r.link.get());
    }
    for (int ch = 0; ch < layout_.ejection; ++ch) {
      ejection_.push_back(std::make_unique<Link>(1, c.credit_latency));
      ejection_.back()->upstream = {kRouter, layout_.network + ch};
      ejection_.back()->downstream = {kTerminal, ch};
      terminal_.attach_ejection(ch, ejection_.back().get());
    }
    EXPECT_TRUE(terminal_.set_payload_free(c.payload_free));
    terminal_.start(calendar_);
  }

  static TopologyConfig topology_config(const NiConfig& c) {
    TopologyConfig t;
    t.kind = c.kind;
    t.dims = c.dims;
    return t;
  }
  static TerminalParams params(const NiConfig& c, const PortLayout& layout, int nodes) {
    TerminalParams p;
    p.id = c.id;
    p.nodes = nodes;
    p.component = kTerminal;
    p.layout = layout;
    p.vcs = c.vcs;
    p.buffer_depth = c.buffer_depth;
    p.flit_bytes = c.flit_bytes;
    p.packet_length = c.packet_length;
    p.injection_rate = c.injection_rate;
    p.generate_until = c.generate_until;
    p.seed = c.seed;
    return p;
  }

  void schedule(NodeId dst, int length, Cycle at) {
    terminal_.schedule_packet(dst, length, at, calendar_);
  }
  // The router side pushes `f` onto ejection channel `ch` in cycle `at` (visible at + 1).
  void eject_at(int ch, const Flit& f, Cycle at) { ejections_.insert({at, {ch, f}}); }
  // The router side frees one injection buffer slot of VC `vc` in cycle `now`.
  void return_credit(int ch, int vc, Cycle now) {
    Link& l = *injection_[static_cast<std::size_t>(ch)].link;
    calendar_.wake(kTerminal, l.send_credit(now, static_cast<std::uint8_t>(vc)));
  }

  Terminal::StepResult tick(Cycle now) {
    calendar_.take(now, active_);
    active_log_[now] = active_;
    now_ = now + 1;
    for (RouterSide& r : injection_) {
      while (r.link->flits.ready(now)) {
        r.events[r.next_visible++].visible = now;
        if (cfg_.auto_credit)
          calendar_.wake(kTerminal, r.link->send_credit(now, r.link->flits.front().vc));
        r.link->flits.pop();
      }
    }
    for (auto it = ejections_.lower_bound(now); it != ejections_.end() && it->first == now; ++it) {
      Link& l = *ejection_[static_cast<std::size_t>(it->second.first)];
      calendar_.wake(kTerminal, l.send_flit(now, it->second.second));
    }
    std::vector<int> before;
    for (RouterSide& r : injection_) before.push_back(r.link->flits.size());
    Terminal::StepResult result;
    const bool scheduled = std::find(active_.begin(), active_.end(), kTerminal) != active_.end();
    if (!cfg_.calendar_driven || scheduled) {
      result = terminal_.step(now, calendar_, true);
      ++steps_;
      if (result.busy) calendar_.wake(kTerminal, now + 1);
    }
    for (std::size_t ch = 0; ch < injection_.size(); ++ch) {
      RouterSide& r = injection_[ch];
      for (int i = before[ch]; i < r.link->flits.size(); ++i)
        r.events.push_back({now, kNever, r.link->flits.at(i)});
    }
    return result;
  }
  void run(Cycle from, Cycle to) {
    for (Cycle t = from; t < to; ++t) tick(t);
  }
  // Steps every cycle from the one after the last ticked up to `to` (exclusive).
  void run_to(Cycle to) { run(now_, to); }

  // Flits the NI pushed onto injection channel `ch`, in order.
  const std::vector<FlitEvent>& injected(int ch = 0) const {
    return injection_[static_cast<std::size_t>(ch)].events;
  }
  const std::vector<int>& active(Cycle c) const { return active_log_.at(c); }
  Terminal& terminal() { return terminal_; }
  Scoreboard& scoreboard() { return scoreboard_; }
  Statistics& stats() { return stats_; }
  const RouteCompute& route_compute() const { return route_compute_; }
  const Topology& topology() const { return topology_; }
  ActivityCalendar& calendar() { return calendar_; }
  int steps() const { return steps_; }

 private:
  struct RouterSide {
    std::unique_ptr<Link> link;
    std::vector<FlitEvent> events;
    std::size_t next_visible = 0;
  };

  NiConfig cfg_;
  Topology topology_;
  PortLayout layout_;
  RouteCompute route_compute_;
  MulticastTable multicast_;
  DestinationPicker picker_;
  Scoreboard scoreboard_;
  Statistics stats_;
  ActivityCalendar calendar_;
  std::vector<RouterSide> injection_;
  std::vector<std::unique_ptr<Link>> ejection_;
  Terminal terminal_;
  std::multimap<Cycle, std::pair<int, Flit>> ejections_;
  std::vector<int> active_;
  std::map<Cycle, std::vector<int>> active_log_;
  Cycle now_ = 0;
  int steps_ = 0;
};

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

FlitType expected_type(int index, int length) {
  if (length == 1) return FlitType::kHeadTail;
  if (index == 0) return FlitType::kHead;
  return index == length - 1 ? FlitType::kTail : FlitType::kBody;
}

// Reference checksum of a packet as the scoreboard defines it: 64-bit FNV-1a (offset basis
// 14695981039346656037, prime 1099511628211) over the payload bytes of flits 0..L-1 in order.
std::uint64_t reference_checksum(PacketId id, int length, int bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < length; ++i) {
    Flit f;
    fill_payload(id, static_cast<std::uint32_t>(i), bytes, f);
    for (int b = 0; b < bytes; ++b) {
      h ^= f.payload[static_cast<std::size_t>(b)];
      h *= 1099511628211ull;
    }
  }
  return h;
}

// ---- Injection of scheduled packets --------------------------------------------------------
class TerminalScheduled : public ::testing::TestWithParam<bool> {};

// Three packets: A (5 flits, to node 0) and B (1 flit, to node 8) created in cycle 10, C (3
// flits, to node 2) in cycle 20. One channel, one packet at a time, one flit per cycle: A in
// 10..14, B in 15, C in 20..22, each flit fully formed.
TEST_P(TerminalScheduled, FlitsOnePerCyclePerPacketWithPayload) {
  NiConfig c;
  c.calendar_driven = GetParam();
  c.flit_bytes = 12;
  NiBench b(c);
  b.schedule(0, 5, 10);
  b.schedule(8, 1, 10);
  b.schedule(2, 3, 20);
  b.run(0, 40);
  struct Expect {
    NodeId dst;
    int length;
    Cycle created;
    Cycle first;
  };
  const std::vector<Expect> packets{{0, 5, 10, 10}, {8, 1, 10, 15}, {2, 3, 20, 20}};
  const auto& flits = b.injected();
  ASSERT_EQ(flits.size(), 9u);
  std::size_t k = 0;
  std::set<PacketId> ids;
  for (std::size_t p = 0; p < packets.size(); ++p) {
    const Expect& e = packets[p];
    const PacketId id = flits[k].flit.packet_id;
    EXPECT_TRUE(ids.insert(id).second) << "packet id reused";
    // Ids encode (sequence, source) as the scoreboard's order check assumes.
    EXPECT_EQ(id % 9, 4u);
    EXPECT_EQ(id / 9, p);
    const int vc = flits[k].flit.vc;
    for (int i = 0; i < e.length; ++i, ++k) {
      const Flit& f = flits[k].flit;
      EXPECT_EQ(flits[k].pushed, e.first + static_cast<Cycle>(i))
          << "packet " << p << " flit " << i;
      EXPECT_EQ(flits[k].visible, flits[k].pushed + 1) << "injection channel latency is 1";
      EXPECT_TRUE(contains(b.active(flits[k].visible), kRouter)) << "router not woken";
      EXPECT_EQ(f.packet_id, id);
      EXPECT_EQ(f.type, expected_type(i, e.length)) << "packet " << p << " flit " << i;
      EXPECT_EQ(f.index, static_cast<std::uint16_t>(i));
      EXPECT_EQ(f.src, 4u);
      EXPECT_EQ(f.dst, e.dst);
      EXPECT_EQ(f.vc, vc) << "a packet changes VC on its channel";
      EXPECT_LT(f.vc, c.vcs);
      EXPECT_EQ(f.hops, 0u);
      Flit ref;
      fill_payload(id, static_cast<std::uint32_t>(i), c.flit_bytes, ref);
      EXPECT_EQ(f.payload_bytes, 12u);
      EXPECT_EQ(f.payload, ref.payload) << "packet " << p << " flit " << i;
    }
    auto it = b.scoreboard().live().find(id);
    ASSERT_NE(it, b.scoreboard().live().end());
    const PacketRecord& r = it->second;
    EXPECT_EQ(r.src, 4u);
    EXPECT_EQ(r.dst, e.dst);
    EXPECT_EQ(r.length, static_cast<std::uint32_t>(e.length));
    EXPECT_EQ(r.created, e.created);
    EXPECT_EQ(r.injected, e.first) << "injected = cycle the head left";
    EXPECT_EQ(r.checksum, reference_checksum(id, e.length, c.flit_bytes));
    EXPECT_TRUE(r.measured);
  }
  EXPECT_TRUE(contains(b.active(10), kTerminal));
  EXPECT_TRUE(contains(b.active(20), kTerminal));
  EXPECT_EQ(b.stats().packets_created(), 3u);
  EXPECT_EQ(b.stats().flits_injected(), 9u);
  EXPECT_EQ(b.terminal().queued_packets(), 0u);
  if (GetParam()) {
    EXPECT_LT(b.steps(), 25) << "an idle NI must not be stepped";
  }
}

INSTANTIATE_TEST_SUITE_P(Drive, TerminalScheduled, ::testing::Bool(),
                         [](const auto& p) { return p.param ? "CalendarDriven" : "EveryCycle"; });

// ---- Injection credits ---------------------------------------------------------------------
class TerminalCredits : public ::testing::TestWithParam<bool> {};

// B = 2 credits, none returned: two flits, then nothing; each credit returned lets exactly
// one more flit go, in the cycle the credit is visible.
TEST_P(TerminalCredits, StopsWithoutCreditsAndResumesPerCredit) {
  NiConfig c;
  c.vcs = 1;
  c.buffer_depth = 2;
  c.credit_latency = 3;
  c.auto_credit = false;
  c.calendar_driven = GetParam();
  NiBench b(c);
  b.schedule(0, 4, 5);
  b.run(0, 30);
  b.return_credit(0, 0, 30);
  b.run(30, 40);
  b.return_credit(0, 0, 40);
  b.run(40, 60);
  const auto& flits = b.injected();
  ASSERT_EQ(flits.size(), 4u);
  EXPECT_EQ(flits[0].pushed, 5u);
  EXPECT_EQ(flits[1].pushed, 6u);
  EXPECT_EQ(flits[2].pushed, 33u);
  EXPECT_EQ(flits[3].pushed, 43u);
  EXPECT_EQ(flits[3].flit.type, FlitType::kTail);
}

INSTANTIATE_TEST_SUITE_P(Drive, TerminalCredits, ::testing::Bool(),
                         [](const auto& p) { return p.param ? "CalendarDriven" : "EveryCycle"; });

struct ThrottleCase {
  int depth;
  int credit_latency;
};
class TerminalThrottle : public ::testing::TestWithParam<ThrottleCase> {};

// With the router returning each credit the cycle it sees the flit, a slot is reusable
// R = 1 (channel) + Cr cycles after it was filled: a long packet goes in bursts of B every
// max(B, R) cycles.
TEST_P(TerminalThrottle, BurstsOfBufferDepthEveryRoundTrip) {
  const ThrottleCase tc = GetParam();
  NiConfig c;
  c.vcs = 1;
  c.buffer_depth = tc.depth;
  c.credit_latency = tc.credit_latency;
  NiBench b(c);
  const int length = 13;
  b.schedule(7, length, 3);
  b.run(0, 120);
  const auto& flits = b.injected();
  ASSERT_EQ(flits.size(), static_cast<std::size_t>(length));
  const Cycle depth = static_cast<Cycle>(tc.depth);
  const Cycle round_trip = 1 + static_cast<Cycle>(tc.credit_latency);
  for (std::size_t k = 0; k < flits.size(); ++k)
    EXPECT_EQ(flits[k].pushed, 3 + (k / depth) * std::max(depth, round_trip) + k % depth)
        << "flit " << k;
}

INSTANTIATE_TEST_SUITE_P(Credits, TerminalThrottle,
                         ::testing::Values(ThrottleCase{1, 1}, ThrottleCase{2, 1},
                                           ThrottleCase{2, 2}, ThrottleCase{3, 4},
                                           ThrottleCase{4, 2}, ThrottleCase{5, 3}),
                         [](const auto& p) {
                           return "B" + std::to_string(p.param.depth) + "_Cr" +
                                  std::to_string(p.param.credit_latency);
                         });

// A new packet takes a VC whose credits are all home (its downstream buffer is empty) in
// preference to the round-robin choice, and otherwise any VC with a credit.
TEST(TerminalCredits, PrefersAVcWithAllCreditsReturned) {
  NiConfig c;
  c.vcs = 2;
  c.buffer_depth = 4;
  c.auto_credit = false;
  NiBench b(c);
  b.schedule(1, 2, 0);   // A: both VCs empty, round robin starts at VC 0
  b.schedule(1, 1, 5);   // B: VC 0 holds A's flits, VC 1 is empty
  b.schedule(1, 1, 12);  // C: after B's credit is back, VC 1 is empty again, VC 0 is not
  b.schedule(1, 1, 15);  // D: neither VC is empty; both have credits
  b.run(0, 8);
  b.return_credit(0, 1, 8);  // B's slot on VC 1 is free again from cycle 9
  b.run(8, 30);
  const auto& flits = b.injected();
  ASSERT_EQ(flits.size(), 5u);
  EXPECT_EQ(flits[0].flit.vc, 0);
  EXPECT_EQ(flits[1].flit.vc, 0);
  EXPECT_EQ(flits[2].flit.vc, 1) << "B must avoid the VC holding A's flits";
  EXPECT_EQ(flits[3].flit.vc, 1) << "C must take the VC whose credits are all returned";
  EXPECT_EQ(flits[4].flit.vc, 0);
  EXPECT_EQ(flits[2].pushed, 5u);
  EXPECT_EQ(flits[3].pushed, 12u);
  EXPECT_EQ(flits[4].pushed, 15u);
}

// On a torus the NI injects only into dateline class 0 (VCs [0, ceil(V/2))), and waits for a
// credit of that class rather than use class 1.
TEST(TerminalCredits, TorusInjectsIntoDatelineClassZeroOnly) {
  NiConfig c;
  c.kind = TopologyKind::kTorus;
  c.vcs = 4;
  c.buffer_depth = 1;
  c.auto_credit = false;
  NiBench b(c);
  b.schedule(5, 1, 0);
  b.schedule(5, 1, 2);
  b.schedule(5, 1, 4);  // VCs 0 and 1 are out of credits: waits
  b.run(0, 10);
  b.return_credit(0, 1, 10);  // visible in 11
  b.run(10, 20);
  const auto& flits = b.injected();
  ASSERT_EQ(flits.size(), 3u);
  EXPECT_EQ(flits[0].flit.vc, 0);
  EXPECT_EQ(flits[1].flit.vc, 1);
  EXPECT_EQ(flits[2].flit.vc, 1);
  EXPECT_EQ(flits[2].pushed, 11u);
}

// ---- Port models ---------------------------------------------------------------------------
// All-port: a packet enters on the injection channel of its first-hop direction, which under
// XY routing from (1,1) is x+ (0) / x- (1) if the x coordinate differs, else y+ (2) / y- (3).
TEST(TerminalPorts, AllPortInjectsOnTheFirstHopChannel) {
  NiConfig c;
  c.model = PortModel::kAllPort;
  NiBench b(c);
  const std::vector<NodeId> dsts{5, 3, 7, 1, 8, 0, 2, 6};
  auto expected_channel = [](NodeId dst) {
    const int x = static_cast<int>(dst % 3);
    const int y = static_cast<int>(dst / 3);
    if (x != 1) return x > 1 ? 0 : 1;
    return y > 1 ? 2 : 3;
  };
  for (std::size_t i = 0; i < dsts.size(); ++i) b.schedule(dsts[i], 2 + static_cast<int>(i), 0);
  b.run(0, 60);
  std::map<NodeId, int> seen_on;
  std::size_t total = 0;
  for (int ch = 0; ch < 4; ++ch) {
    for (const FlitEvent& e : b.injected(ch)) {
      ++total;
      EXPECT_EQ(expected_channel(e.flit.dst), ch) << "dst " << e.flit.dst;
      EXPECT_EQ(b.route_compute().first_hop_port(4, e.flit.dst), ch) << "dst " << e.flit.dst;
      seen_on[e.flit.dst] = ch;
    }
    // Each channel sends one packet at a time, in creation order.
    const auto& ev = b.injected(ch);
    for (std::size_t i = 1; i < ev.size(); ++i) {
      EXPECT_EQ(ev[i].pushed, ev[i - 1].pushed + 1);
      if (ev[i].flit.packet_id != ev[i - 1].flit.packet_id) {
        EXPECT_TRUE(ev[i - 1].flit.tail());
        EXPECT_TRUE(ev[i].flit.head());
      }
    }
    if (!ev.empty()) {
      EXPECT_EQ(ev.front().pushed, 0u) << "channel " << ch << " started late";
    }
  }
  EXPECT_EQ(seen_on.size(), dsts.size());
  std::size_t flits = 0;
  for (std::size_t i = 0; i < dsts.size(); ++i) flits += 2 + i;
  EXPECT_EQ(total, flits);
}

// k-port (k = 2): a packet takes the first idle injection channel.
TEST(TerminalPorts, KPortSecondPacketUsesChannelOneWhileZeroIsBusy) {
  NiConfig c;
  c.model = PortModel::kKPort;
  c.ports = 2;
  NiBench b(c);
  b.schedule(0, 6, 0);   // channel 0, cycles 0..5
  b.schedule(8, 3, 1);   // channel 0 busy: channel 1, cycles 1..3
  b.schedule(2, 2, 10);  // both idle: channel 0, cycles 10..11
  b.schedule(6, 2, 11);  // channel 0 sends its tail in 11: channel 1, cycles 11..12
  b.run(0, 30);
  const auto& ch0 = b.injected(0);
  const auto& ch1 = b.injected(1);
  ASSERT_EQ(ch0.size(), 8u);
  ASSERT_EQ(ch1.size(), 5u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(ch0[i].flit.dst, 0u);
    EXPECT_EQ(ch0[i].pushed, i);
  }
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ch1[i].flit.dst, 8u);
    EXPECT_EQ(ch1[i].pushed, 1 + i);
  }
  EXPECT_EQ(ch0[6].flit.dst, 2u);
  EXPECT_EQ(ch0[6].pushed, 10u);
  EXPECT_EQ(ch1[3].flit.dst, 6u);
  EXPECT_EQ(ch1[3].pushed, 11u);
}

// ---- Ejection and reassembly ---------------------------------------------------------------
// Loopback: packets this NI sends to itself are captured on the injection link and replayed
// onto an ejection channel (as the router would, after `transit` cycles, with `hops` set).
struct Captured {
  std::vector<Flit> flits;
  Cycle created = 0;
  Cycle injected = 0;
};

Captured capture(NiBench& b, int length, Cycle at) {
  b.schedule(4, length, at);
  const std::size_t start = b.injected().size();
  b.run_to(at + static_cast<Cycle>(length) + 3);
  Captured c;
  for (std::size_t i = start; i < b.injected().size(); ++i) c.flits.push_back(b.injected()[i].flit);
  c.created = at;
  c.injected = b.injected()[start].pushed;
  return c;
}

TEST(TerminalEjection, CorrectPacketIsDeliveredAndRecorded) {
  NiConfig c;
  NiBench b(c);
  const Captured p = capture(b, 6, 2);
  ASSERT_EQ(p.flits.size(), 6u);
  const PacketId id = p.flits[0].packet_id;
  const Cycle first = 20;
  for (std::size_t i = 0; i < p.flits.size(); ++i) {
    Flit f = p.flits[i];
    f.hops = 0;
    f.vc = 1;  // the router may deliver on any ejection VC
    b.eject_at(0, f, first + i);
  }
  const Cycle tail_visible = first + p.flits.size();  // pushed first+5, visible one later
  b.run_to(tail_visible);
  EXPECT_EQ(b.scoreboard().delivered_packets(), 0u) << "delivered before the tail was visible";
  b.run_to(tail_visible + 5);
  EXPECT_EQ(b.scoreboard().violation_count(), 0u)
      << (b.scoreboard().violations().empty() ? "" : b.scoreboard().violations()[0]);
  EXPECT_EQ(b.scoreboard().delivered_packets(), 1u);
  EXPECT_EQ(b.scoreboard().live_packets(), 0u);
  EXPECT_EQ(b.stats().packets_delivered(), 1u);
  EXPECT_EQ(b.stats().flits_ejected(), 6u);
  ASSERT_EQ(b.stats().packet_log().size(), 1u);
  const DeliveredPacket& d = b.stats().packet_log()[0];
  EXPECT_EQ(d.id, id);
  EXPECT_EQ(d.delivered, tail_visible);
  EXPECT_EQ(d.record.created, p.created);
  EXPECT_EQ(d.record.injected, p.injected);
  EXPECT_EQ(d.hops, 0);
  ASSERT_EQ(b.stats().latencies().size(), 1u);
  EXPECT_EQ(b.stats().latencies()[0], tail_visible - p.created);
  EXPECT_EQ(b.stats().network_latencies()[0], tail_visible - p.injected);
}

// A packet from another node: its record is registered by hand (as node 0's NI would) and
// the flits arrive on the second ejection channel of a k-port NI, having crossed 3 links.
TEST(TerminalEjection, PacketFromAnotherNodeOnAnotherChannel) {
  NiConfig c;
  c.model = PortModel::kKPort;
  c.ports = 2;
  NiBench b(c);
  const PacketId id = 9 * 7 + 0;  // node 0's 8th packet
  const int length = 3;
  PacketRecord r;
  r.src = 0;
  r.dst = 4;
  r.length = length;
  r.created = 1;
  r.injected = 2;
  r.checksum = reference_checksum(id, length, c.flit_bytes);
  r.measured = true;
  b.scoreboard().on_created(id, r);
  for (int i = 0; i < length; ++i) {
    Flit f;
    f.packet_id = id;
    f.src = 0;
    f.dst = 4;
    f.index = static_cast<std::uint16_t>(i);
    f.vc = 0;
    f.type = expected_type(i, length);
    f.hops = 3;
    fill_payload(id, static_cast<std::uint32_t>(i), c.flit_bytes, f);
    b.eject_at(1, f, 10 + static_cast<Cycle>(i));
  }
  b.run(0, 20);
  EXPECT_EQ(b.scoreboard().violation_count(), 0u)
      << (b.scoreboard().violations().empty() ? "" : b.scoreboard().violations()[0]);
  ASSERT_EQ(b.stats().packet_log().size(), 1u);
  EXPECT_EQ(b.stats().packet_log()[0].delivered, 13u);
  EXPECT_EQ(b.stats().packet_log()[0].hops, 3);
  ASSERT_EQ(b.stats().hops().size(), 1u);
  EXPECT_EQ(b.stats().hops()[0], 3u);
  EXPECT_EQ(b.stats().latencies()[0], 12u);
}

TEST(TerminalEjection, CorruptedPayloadByteIsAViolation) {
  NiConfig c;
  NiBench b(c);
  const Captured p = capture(b, 4, 2);
  ASSERT_EQ(p.flits.size(), 4u);
  for (std::size_t i = 0; i < p.flits.size(); ++i) {
    Flit f = p.flits[i];
    if (i == 2) f.payload[5] ^= 0x10;  // one bit of one byte of one body flit
    b.eject_at(0, f, 20 + i);
  }
  b.run_to(40);
  ASSERT_EQ(b.scoreboard().violation_count(), 1u);
  EXPECT_NE(b.scoreboard().violations()[0].find("corrupted"), std::string::npos)
      << b.scoreboard().violations()[0];
  EXPECT_EQ(b.stats().packets_delivered(), 0u) << "a corrupted packet must not count";
}

// Payload-free flits (the flat engine's terminals): no payload bytes, only their length, and
// the end-to-end check over the lengths (FNV-1a over one length byte per flit).
TEST(TerminalEjection, PayloadFreeFlitsCarryTheirLengthAndAreDelivered) {
  NiConfig c;
  c.payload_free = true;
  c.flit_bytes = 12;
  NiBench b(c);
  const Captured p = capture(b, 4, 2);
  ASSERT_EQ(p.flits.size(), 4u);
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t i = 0; i < p.flits.size(); ++i) {
    const Flit& f = p.flits[i];
    EXPECT_EQ(f.payload_bytes, 12u);
    EXPECT_TRUE(std::all_of(f.payload.begin(), f.payload.end(), [](auto x) { return x == 0; }))
        << "flit " << i << " carries payload bytes";
    h = (h ^ 12u) * 1099511628211ull;
    b.eject_at(0, f, 20 + i);
  }
  const PacketId id = p.flits[0].packet_id;
  ASSERT_EQ(b.scoreboard().live().count(id), 1u);
  EXPECT_EQ(b.scoreboard().live().at(id).checksum, h);
  b.run_to(40);
  EXPECT_EQ(b.scoreboard().violation_count(), 0u)
      << (b.scoreboard().violations().empty() ? "" : b.scoreboard().violations()[0]);
  EXPECT_EQ(b.stats().packets_delivered(), 1u);
}

TEST(TerminalEjection, PayloadFreeFlitOfTheWrongLengthIsAViolation) {
  NiConfig c;
  c.payload_free = true;
  NiBench b(c);
  const Captured p = capture(b, 4, 2);
  ASSERT_EQ(p.flits.size(), 4u);
  for (std::size_t i = 0; i < p.flits.size(); ++i) {
    Flit f = p.flits[i];
    if (i == 2) f.payload_bytes = static_cast<std::uint8_t>(f.payload_bytes - 1);
    b.eject_at(0, f, 20 + i);
  }
  b.run_to(40);
  ASSERT_EQ(b.scoreboard().violation_count(), 1u);
  EXPECT_NE(b.scoreboard().violations()[0].find("corrupted"), std::string::npos)
      << b.scoreboard().violations()[0];
  EXPECT_EQ(b.stats().packets_delivered(), 0u);
}

TEST(TerminalEjection, MissingHeadIsAViolation) {
  NiConfig c;
  NiBench b(c);
  const Captured p = capture(b, 3, 2);
  ASSERT_EQ(p.flits.size(), 3u);
  b.eject_at(0, p.flits[1], 20);  // body and tail only
  b.eject_at(0, p.flits[2], 21);
  b.run_to(40);
  ASSERT_GE(b.scoreboard().violation_count(), 1u);
  EXPECT_NE(b.scoreboard().violations()[0].find("without its head"), std::string::npos)
      << b.scoreboard().violations()[0];
  EXPECT_EQ(b.scoreboard().delivered_packets(), 0u);
  EXPECT_EQ(b.scoreboard().live_packets(), 1u);
  EXPECT_EQ(b.stats().packets_delivered(), 0u);
}

TEST(TerminalEjection, MissingBodyFlitIsAViolation) {
  NiConfig c;
  NiBench b(c);
  const Captured p = capture(b, 4, 2);
  ASSERT_EQ(p.flits.size(), 4u);
  b.eject_at(0, p.flits[0], 20);
  b.eject_at(0, p.flits[1], 21);
  b.eject_at(0, p.flits[3], 22);  // flit 2 lost
  b.run_to(40);
  EXPECT_GE(b.scoreboard().violation_count(), 1u);
  EXPECT_EQ(b.stats().packets_delivered(), 0u);
}

// Two packets interleaved flit by flit on one ejection channel are reassembled per VC; the
// same interleaving on a single VC is a protocol violation.
TEST(TerminalEjection, ReassemblyIsPerVirtualChannel) {
  for (bool same_vc : {false, true}) {
    NiConfig c;
    NiBench b(c);
    const Captured p1 = capture(b, 3, 2);
    const Captured p2 = capture(b, 3, 10);
    ASSERT_EQ(p1.flits.size(), 3u);
    ASSERT_EQ(p2.flits.size(), 3u);
    Cycle t = 30;
    for (std::size_t i = 0; i < 3; ++i) {
      Flit a = p1.flits[i];
      Flit d = p2.flits[i];
      a.vc = 0;
      d.vc = same_vc ? 0 : 1;
      b.eject_at(0, a, t++);
      b.eject_at(0, d, t++);
    }
    b.run_to(50);
    if (same_vc) {
      EXPECT_GE(b.scoreboard().violation_count(), 1u);
      EXPECT_LT(b.stats().packets_delivered(), 2u);
    } else {
      EXPECT_EQ(b.scoreboard().violation_count(), 0u)
          << (b.scoreboard().violations().empty() ? "" : b.scoreboard().violations()[0]);
      EXPECT_EQ(b.stats().packets_delivered(), 2u);
      ASSERT_EQ(b.stats().packet_log().size(), 2u);
      EXPECT_EQ(b.stats().packet_log()[0].delivered, 35u);  // p1's tail pushed in 34
      EXPECT_EQ(b.stats().packet_log()[1].delivered, 36u);
    }
  }
}

// ---- Synthetic source ----------------------------------------------------------------------
struct SourceCase {
  double rate;
  int length;
  std::uint64_t seed;
};
class TerminalSynthetic : public ::testing::TestWithParam<SourceCase> {};

// Bernoulli arrivals with probability p = rate / length per cycle over G cycles: the count is
// Binomial(G, p); accept 5 standard deviations. Nothing is created at or after G.
TEST_P(TerminalSynthetic, PacketCountMatchesTheRateAndStopsAtGenerateUntil) {
  const SourceCase sc = GetParam();
  NiConfig c;
  c.injection_rate = sc.rate;
  c.packet_length = sc.length;
  c.seed = sc.seed;
  c.generate_until = 20000;
  NiBench b(c);
  b.run(0, 21000);
  const double p = std::min(1.0, sc.rate / sc.length);
  const double g = static_cast<double>(c.generate_until);
  const double mean = g * p;
  const double sigma = std::sqrt(g * p * (1 - p));
  const double created = static_cast<double>(b.stats().packets_created());
  EXPECT_NEAR(created, mean, 5 * sigma) << "rate " << sc.rate << " length " << sc.length;
  // Packets are never delivered here, so every one is still in the scoreboard.
  ASSERT_EQ(static_cast<double>(b.scoreboard().live().size()), created);
  Cycle last = 0;
  std::set<Cycle> cycles;
  for (const auto& [id, r] : b.scoreboard().live()) {
    EXPECT_LT(r.created, c.generate_until) << "packet " << id;
    EXPECT_NE(r.dst, 4u) << "uniform traffic never sends to itself";
    EXPECT_LT(r.dst, 9u);
    EXPECT_EQ(r.length, static_cast<std::uint32_t>(sc.length));
    EXPECT_TRUE(cycles.insert(r.created).second) << "two arrivals in one cycle";
    last = std::max(last, r.created);
  }
  // Arrivals continue up to the end (a gap of 50/p cycles is vanishingly unlikely).
  EXPECT_GT(static_cast<double>(last), g - 50 / p);
  // Every created packet was injected completely (offered load < 1 flit/cycle).
  EXPECT_EQ(b.stats().flits_injected(),
            b.stats().packets_created() * static_cast<std::uint64_t>(sc.length));
}

INSTANTIATE_TEST_SUITE_P(Rates, TerminalSynthetic,
                         ::testing::Values(SourceCase{0.3, 3, 1}, SourceCase{0.05, 1, 2},
                                           SourceCase{0.8, 4, 3}, SourceCase{0.5, 5, 4},
                                           SourceCase{0.02, 2, 5}),
                         [](const auto& p) { return "case" + std::to_string(p.index); });

// p = 1: exactly one packet in every cycle before generate_until, none after.
TEST(TerminalSynthetic, SaturatedSourceCreatesOnePacketPerCycleUntilTheEnd) {
  NiConfig c;
  c.injection_rate = 1.0;
  c.packet_length = 1;
  c.generate_until = 50;
  NiBench b(c);
  b.run(0, 100);
  EXPECT_EQ(b.stats().packets_created(), 50u);
  std::set<Cycle> cycles;
  for (const auto& [id, r] : b.scoreboard().live()) cycles.insert(r.created);
  ASSERT_EQ(cycles.size(), 50u);
  EXPECT_EQ(*cycles.begin(), 0u);
  EXPECT_EQ(*cycles.rbegin(), 49u);
  ASSERT_EQ(b.injected().size(), 50u);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(b.injected()[i].pushed, i);
}

TEST(TerminalSynthetic, NothingWhenGenerateUntilIsZero) {
  NiConfig c;
  c.injection_rate = 1.0;
  c.generate_until = 0;
  NiBench b(c);
  EXPECT_EQ(b.calendar().next_cycle(0), kNever) << "start() armed a source that must not run";
  b.run(0, 100);
  EXPECT_EQ(b.stats().packets_created(), 0u);
  EXPECT_TRUE(b.injected().empty());
}

// The synthetic source driven only by its calendar wake-ups (as in the network) creates and
// injects exactly what it does when stepped every cycle, including credit stalls.
TEST(TerminalSynthetic, CalendarDrivenEqualsSteppedEveryCycle) {
  std::vector<FlitEvent> runs[2];
  int steps[2] = {0, 0};
  for (int mode = 0; mode < 2; ++mode) {
    NiConfig c;
    c.injection_rate = 0.3;
    c.packet_length = 4;
    c.buffer_depth = 2;
    c.credit_latency = 2;  // round trip 3 > 2 credits: the NI stalls inside packets
    c.generate_until = 3000;
    c.seed = 11;
    c.calendar_driven = mode == 1;
    NiBench b(c);
    b.run(0, 3500);
    runs[mode] = b.injected();
    steps[mode] = b.steps();
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  ASSERT_GT(runs[0].size(), 100u);
  for (std::size_t i = 0; i < runs[0].size(); ++i) {
    EXPECT_EQ(runs[0][i].pushed, runs[1][i].pushed) << "flit " << i;
    EXPECT_EQ(runs[0][i].flit.packet_id, runs[1][i].flit.packet_id) << "flit " << i;
    EXPECT_EQ(runs[0][i].flit.dst, runs[1][i].flit.dst) << "flit " << i;
  }
  EXPECT_LT(steps[1], steps[0]);
}

}  // namespace
}  // namespace wormsim::terminal_test
