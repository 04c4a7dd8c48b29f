// What an endpoint's step in the network's parallel phase leaves to the serial commit
// (docs/architecture.md, "One cycle"): its calls on the network's shared statistics,
// scoreboard and activity calendar, recorded in the order the step makes them and made by
// replay() in that order, at the endpoint's place in the cycle's list. A step that records
// them computes what a serial step computes as long as it reads none of that shared state
// (the synthetic Terminal reads only Statistics::measuring(), which the cycle fixes). One
// recorder per thread; each endpoint's events are a contiguous range of it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "activity_calendar.h"
#include "flit.h"
#include "scoreboard.h"
#include "statistics.h"

namespace wormsim {

class EndpointEffects {
 public:
  void clear() {
    events_.clear();
    records_.clear();
    violations_.clear();
  }
  // Events recorded so far: replay(from, size()) makes those recorded after size() was `from`.
  std::size_t size() const { return events_.size(); }

  // Scoreboard::on_created and Statistics::on_created of a packet of `flits` flits.
  void created(PacketId id, PacketRecord record, int flits, Cycle now) {
    records_.push_back(std::move(record));
    events_.push_back({Kind::kCreated, id, now, static_cast<std::uint64_t>(flits), 0, 0});
  }
  // Scoreboard::on_injected and Statistics::on_header_injected.
  void head_injected(PacketId id, Cycle now, int header_flits) {
    events_.push_back(
        {Kind::kHeadInjected, id, now, static_cast<std::uint64_t>(header_flits), 0, 0});
  }
  // Statistics::on_flit_injected.
  void flit_injected() { events_.push_back({Kind::kFlitInjected, 0, 0, 0, 0, 0}); }
  // Statistics::on_flit_ejected, and on_consumption_head/tail for a head/tail flit.
  void flit_ejected(NodeId node, int channel, const Flit& flit, Cycle now) {
    const std::uint32_t bits =
        (flit.mcast != 0 ? 1u : 0u) | (flit.head() ? 2u : 0u) | (flit.tail() ? 4u : 0u);
    events_.push_back(
        {Kind::kFlitEjected, 0, now, static_cast<std::uint64_t>(channel), node, bits});
  }
  // Scoreboard::on_delivered and, when it returns the record, Statistics::on_delivered.
  void delivered(PacketId id, NodeId at, std::uint32_t first, std::uint32_t flits,
                 std::uint64_t checksum, Cycle now, std::uint32_t hops) {
    events_.push_back({Kind::kDelivered, id, now, checksum, at, first, flits, hops});
  }
  // Scoreboard::violation.
  void violation(std::string message) {
    violations_.push_back(std::move(message));
    events_.push_back({Kind::kViolation, 0, 0, 0, 0, 0});
  }
  // ActivityCalendar::wake.
  void wake(int component, Cycle at) {
    events_.push_back({Kind::kWake, 0, at, static_cast<std::uint64_t>(component), 0, 0});
  }

  // Makes the calls of events [from, to) in their order. Records and messages are taken in
  // order, so the ranges of one recorder must be replayed in the order they were recorded.
  void replay(std::size_t from, std::size_t to, Scoreboard& scoreboard, Statistics& stats,
              ActivityCalendar& calendar);
  // Starts the replays of the recorded ranges from the first (records and messages included).
  void rewind() {
    next_record_ = 0;
    next_violation_ = 0;
  }

 private:
  enum class Kind : std::uint8_t {
    kCreated,
    kHeadInjected,
    kFlitInjected,
    kFlitEjected,
    kDelivered,
    kViolation,
    kWake,
  };
  struct Event {
    Kind kind;
    PacketId id;
    Cycle at;
    std::uint64_t value;
    std::uint32_t a;
    std::uint32_t b;
    std::uint32_t c = 0;
    std::uint32_t d = 0;
  };
  std::vector<Event> events_;
  std::vector<PacketRecord> records_;
  std::vector<std::string> violations_;
  std::size_t next_record_ = 0;
  std::size_t next_violation_ = 0;
};

}  // namespace wormsim
