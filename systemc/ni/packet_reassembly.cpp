#include "packet_reassembly.h"

#include <fmt/format.h>

namespace wormsim {

template <typename Ejected, typename Violation>
const PacketReassembly::Packet* PacketReassembly::take(int channel, const Flit& flit, Cycle now,
                                                       Ejected ejected, Violation violation) {
  ejected();
  Packet& r = packets_[static_cast<std::size_t>(channel * vcs_ + flit.vc)];
  if (flit.head()) {
    if (r.open)
      violation(
          fmt::format("cycle {}: node {} ejection {} VC {}: head of packet {} "
                      "interrupts packet {}",
                      now, node_, channel, flit.vc, flit.packet_id, r.id));
    r.open = true;
    r.id = flit.packet_id;
    r.first = flit.index;
    r.flits = 0;
    r.checksum = kChecksumSeed;
    r.bytes.clear();
  } else if (!r.open || r.id != flit.packet_id) {
    violation(
        fmt::format("cycle {}: node {} ejection {} VC {}: {} flit of packet {} "
                    "without its head",
                    now, node_, channel, flit.vc, to_string(flit.type), flit.packet_id));
    return nullptr;
  }
  if (flit.index != r.first + r.flits)
    violation(fmt::format("cycle {}: packet {} flit {} arrived as flit {}", now, flit.packet_id,
                          flit.index, r.first + r.flits));
  ++r.flits;
  r.checksum = checksum_step(r.checksum, flit, payload_free_);
  if (collect_bytes_)
    r.bytes.insert(r.bytes.end(), flit.payload.begin(), flit.payload.begin() + flit.payload_bytes);
  if (!flit.tail()) return nullptr;
  r.open = false;
  return &r;
}

const PacketReassembly::Packet* PacketReassembly::accept(int channel, const Flit& flit, Cycle now,
                                                         Scoreboard& scoreboard,
                                                         Statistics& stats) {
  return take(
      channel, flit, now,
      [&] {
        stats.on_flit_ejected(now, flit.mcast != 0);
        if (flit.head()) stats.on_consumption_head(node_, channel, now);
        if (flit.tail()) stats.on_consumption_tail(node_, channel, now);
      },
      [&](std::string message) { scoreboard.violation(std::move(message)); });
}

const PacketReassembly::Packet* PacketReassembly::accept(int channel, const Flit& flit, Cycle now,
                                                         EndpointEffects& effects) {
  return take(
      channel, flit, now, [&] { effects.flit_ejected(node_, channel, flit, now); },
      [&](std::string message) { effects.violation(std::move(message)); });
}

}  // namespace wormsim
