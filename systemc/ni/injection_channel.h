// One injection channel from a node into its router, as the NI's DMA engine and the synthetic
// terminal both drive it (DESIGN.md section 6): it sends one packet at a time, one flit per
// cycle while it holds a credit for the packet's VC (credit-based flow control against the
// router's input buffer of `buffer_depth` flits per VC). A new packet takes a VC whose
// downstream buffer is empty if there is one (so it does not queue behind a blocked packet),
// otherwise any VC with a credit, round-robin among the VCs [vc_lo, vc_hi) its traffic class
// may use (routing/route_compute.h: dateline class 0, less or only the VCs reserved for
// multidestination worms).
#pragma once

#include <vector>

#include "activity_calendar.h"
#include "credit_counter.h"
#include "flit.h"
#include "link.h"
#include "prefetch.h"
#include "round_robin_arbiter.h"
#include "statistics.h"

namespace wormsim {

class InjectionChannel {
 public:
  InjectionChannel() = default;  // no VCs: assign a real one before use
  InjectionChannel(int vcs, int buffer_depth)
      : credits_(static_cast<std::size_t>(vcs), CreditCounter(buffer_depth)), vc_arbiter_(vcs) {}

  void attach(Link* link) { link_ = link; }
  // Takes the credits that arrived by cycle `now`.
  void collect_credits(Cycle now) {
    while (link_->credits.ready(now)) {
      credits_[link_->credits.front()].give();
      link_->credits.pop();
    }
  }
  // Cache hints for a send or credit collection soon (NetworkInterface::prefetch).
  void prefetch() const {
    prefetch_line(credits_.data());
    link_->flits.prefetch();
    link_->credits.prefetch();
    prefetch_line(&link_->downstream);
  }
  // No credits in flight back to this channel.
  bool credits_empty() const { return link_->credits.empty(); }
  bool busy() const { return busy_; }
  // Starts a packet of `length` flits on a VC in [vc_lo, vc_hi); false (and idle) if none of
  // them has a credit now.
  bool start(int length, int vc_lo, int vc_hi) {
    int vc = vc_arbiter_.pick([&](int v) {
      return v >= vc_lo && v < vc_hi && credits_[static_cast<std::size_t>(v)].all_returned();
    });
    if (vc < 0)
      vc = vc_arbiter_.pick([&](int v) {
        return v >= vc_lo && v < vc_hi && credits_[static_cast<std::size_t>(v)].available();
      });
    if (vc < 0) return false;
    vc_arbiter_.update(vc);
    busy_ = true;
    next_flit_ = 0;
    length_ = length;
    vc_ = vc;
    return true;
  }
  // Whether the packet in progress may send its next flit this cycle.
  bool can_send() const { return busy_ && credits_[static_cast<std::size_t>(vc_)].available(); }
  // Index of the next flit of the packet in progress and whether it is the packet's last.
  int next_flit() const { return next_flit_; }
  bool next_is_tail() const { return next_flit_ == length_ - 1; }
  // Sends `flit` (its VC is stamped here) in cycle `now`; only when can_send(). The packet
  // ends with its tail flit.
  void send(Cycle now, ActivityCalendar& calendar, bool measuring, Statistics& stats, Flit& flit) {
    calendar.wake(receiver(), send(now, measuring, flit));
    stats.on_flit_injected();
  }
  // The same without the calendar and the statistics (the network's parallel phase): returns
  // the cycle the flit arrives at receiver(), which the caller must wake then, and the caller
  // counts the injected flit.
  Cycle send(Cycle now, bool measuring, Flit& flit) {
    flit.vc = static_cast<std::uint8_t>(vc_);
    credits_[static_cast<std::size_t>(vc_)].consume();
    if (measuring) ++link_->flits_carried;
    const Cycle arrival = link_->send_flit(now, flit);
    if (++next_flit_ == length_) busy_ = false;
    return arrival;
  }
  // The calendar index of the router this channel feeds.
  int receiver() const { return link_->downstream.component; }

 private:
  Link* link_ = nullptr;
  std::vector<CreditCounter> credits_;
  RoundRobinArbiter vc_arbiter_;
  bool busy_ = false;
  int next_flit_ = 0;
  int length_ = 0;
  int vc_ = 0;
};

// Collects the credits that arrived by cycle `now` on the injection channels whose bit is set
// in `pending` (bit c: credits in flight to channel c, set by its link's credit watch,
// kernel/link.h), and clears the bits of channels with none left in flight. `wire_of(c)` is
// channel c's InjectionChannel. Shared by the synthetic terminal and the NI.
template <typename WireOf>
void collect_watched_credits(std::uint64_t& pending, Cycle now, WireOf&& wire_of) {
  for (std::uint64_t bits = pending; bits != 0; bits &= bits - 1) {
    const int c = __builtin_ctzll(bits);
    InjectionChannel& wire = wire_of(c);
    wire.collect_credits(now);
    if (wire.credits_empty()) pending &= ~(std::uint64_t{1} << c);
  }
}

}  // namespace wormsim
