#include "packet_reassembly.h"

#include <fmt/format.h>

namespace wormsim {

const PacketReassembly::Packet* PacketReassembly::accept(int channel, const Flit& flit, Cycle now,
                                                         Scoreboard& scoreboard,
                                                         Statistics& stats) {
  stats.on_flit_ejected(now, flit.mcast != 0);
  if (flit.head()) stats.on_consumption_head(node_, channel, now);
  if (flit.tail()) stats.on_consumption_tail(node_, channel, now);
  Packet& r = packets_[static_cast<std::size_t>(channel * vcs_ + flit.vc)];
  if (flit.head()) {
    if (r.open)
      scoreboard.violation(
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
    scoreboard.violation(
        fmt::format("cycle {}: node {} ejection {} VC {}: {} flit of packet {} "
                    "without its head",
                    now, node_, channel, flit.vc, to_string(flit.type), flit.packet_id));
    return nullptr;
  }
  if (flit.index != r.first + r.flits)
    scoreboard.violation(fmt::format("cycle {}: packet {} flit {} arrived as flit {}", now,
                                     flit.packet_id, flit.index, r.first + r.flits));
  ++r.flits;
  r.checksum = checksum_update(r.checksum, flit);
  if (collect_bytes_)
    r.bytes.insert(r.bytes.end(), flit.payload.begin(), flit.payload.begin() + flit.payload_bytes);
  if (!flit.tail()) return nullptr;
  r.open = false;
  return &r;
}

}  // namespace wormsim
