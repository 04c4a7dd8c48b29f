#include "endpoint_effects.h"

namespace wormsim {

void EndpointEffects::replay(std::size_t from, std::size_t to, Scoreboard& scoreboard,
                             Statistics& stats, ActivityCalendar& calendar) {
  for (std::size_t i = from; i < to; ++i) {
    const Event& e = events_[i];
    switch (e.kind) {
      case Kind::kCreated: {
        const PacketRecord& r = records_[next_record_++];
        scoreboard.on_created(e.id, r);
        stats.on_created(static_cast<int>(e.value), e.at, r.multidestination);
        break;
      }
      case Kind::kHeadInjected:
        scoreboard.on_injected(e.id, e.at);
        stats.on_header_injected(static_cast<int>(e.value));
        break;
      case Kind::kFlitInjected: stats.on_flit_injected(); break;
      case Kind::kFlitEjected: {
        const auto node = static_cast<NodeId>(e.a);
        const int channel = static_cast<int>(e.value);
        stats.on_flit_ejected(e.at, (e.b & 1u) != 0);
        if ((e.b & 2u) != 0) stats.on_consumption_head(node, channel, e.at);
        if ((e.b & 4u) != 0) stats.on_consumption_tail(node, channel, e.at);
        break;
      }
      case Kind::kDelivered:
        if (const PacketRecord* rec =
                scoreboard.on_delivered(e.id, static_cast<NodeId>(e.a), e.b, e.c, e.value, e.at))
          stats.on_delivered(e.id, *rec, e.at, static_cast<int>(e.d));
        break;
      case Kind::kViolation: scoreboard.violation(violations_[next_violation_++]); break;
      case Kind::kWake: calendar.wake(static_cast<int>(e.value), e.at); break;
    }
  }
}

}  // namespace wormsim
