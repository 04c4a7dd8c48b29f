#include "rtl_flit.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace wormsim::rtl {

FlitBits to_bits(const Flit& f, const MulticastHeader* header, const ListFormat& format) {
  FlitBits b;
  b.type = f.type;
  b.vc = f.vc;
  b.packet = static_cast<std::uint32_t>(f.packet_id);
  b.index = f.index;
  b.src = static_cast<std::uint16_t>(f.src);
  b.dst = static_cast<std::uint16_t>(f.dst);
  for (unsigned i = 0; i < kDataBytes && i < f.payload_bytes; ++i)
    b.data |= std::uint64_t{f.payload[i]} << (8 * i);
  b.mpos = f.mpos;
  if (f.mcast != 0 && f.mpos >= kMaxPath)
    throw std::invalid_argument(
        fmt::format("packet {}: path position {} is beyond the RTL "
                    "flit's {} destinations",
                    f.packet_id, f.mpos, kMaxPath));
  if (header != nullptr && header->mode == MultidestMode::kPath && header->dests.size() > kMaxPath)
    throw std::invalid_argument(fmt::format(
        "packet {}: a path worm to {} destinations; the RTL flit's path position counts at "
        "most {}",
        f.packet_id, header->dests.size(), kMaxPath));
  if (header != nullptr && format.address_flits) {
    b.more = static_cast<std::size_t>(f.index) + 1 < header->dests.size();
    return b;
  }
  if (header == nullptr || !f.head()) return b;
  b.mc = true;
  b.data = 0;
  if (format.bit_string) {
    if (header->mode == MultidestMode::kPath)
      throw std::invalid_argument(fmt::format(
          "packet {}: a path worm's list is ordered; a bit-string cannot carry it", f.packet_id));
    for (NodeId d : header->dests) {
      if (d >= static_cast<NodeId>(std::min<unsigned>(format.bits, kMaxTreeNodes)))
        throw std::invalid_argument(
            fmt::format("packet {}: destination node {} is beyond the {}-bit destination "
                        "bit-string the RTL head flit carries",
                        f.packet_id, d, std::min<unsigned>(format.bits, kMaxTreeNodes)));
      b.data |= std::uint64_t{1} << d;
    }
    return b;
  }
  const unsigned w = format.address_bits;
  const std::size_t m = header->dests.size();
  if (m == 0 || w == 0 || m * w > format.bits)
    throw std::invalid_argument(
        fmt::format("packet {}: a list of {} {}-bit addresses does not fit the {} bits of the "
                    "RTL head flit (the C++ model carries it in more than one header flit)",
                    f.packet_id, m, w, format.bits));
  for (std::size_t k = 0; k < m; ++k) {
    const std::uint64_t id = header->dests[k];
    if ((id >> w) != 0)
      throw std::invalid_argument(fmt::format(
          "packet {}: destination node {} does not fit {}-bit addresses", f.packet_id, id, w));
    if (header->mode == MultidestMode::kTree && id >= static_cast<std::uint64_t>(kMaxTreeNodes))
      throw std::invalid_argument(fmt::format(
          "packet {}: destination node {} is beyond the {} nodes an RTL tree router decodes",
          f.packet_id, id, kMaxTreeNodes));
    // The repeat of an address ends a path list, so a path must not list one twice in a row.
    if (header->mode == MultidestMode::kPath && k > 0 && id == header->dests[k - 1])
      throw std::invalid_argument(
          fmt::format("packet {}: path list names node {} twice in a row", f.packet_id, id));
  }
  for (unsigned k = 0; (k + 1) * w <= kListW; ++k)
    b.data |= static_cast<std::uint64_t>(header->dests[std::min<std::size_t>(k, m - 1)]) << (k * w);
  return b;
}

void pack(const FlitBits& f, std::uint32_t* words, unsigned base) {
  set_bits(words, base + kDataLsb, kDataW, f.data);
  set_bits(words, base + kDstLsb, kNodeW, f.dst);
  set_bits(words, base + kSrcLsb, kNodeW, f.src);
  set_bits(words, base + kIdxLsb, kIdxW, f.index);
  set_bits(words, base + kPktLsb, kPktW, f.packet);
  set_bits(words, base + kVcLsb, kVcW, f.vc);
  set_bits(words, base + kTypLsb, kTypW, static_cast<std::uint64_t>(f.type));
  set_bits(words, base + kMcLsb, 1, f.mc);
  set_bits(words, base + kMoreLsb, 1, f.more);
  set_bits(words, base + kMposLsb, kMposW, f.mpos);
}

FlitBits unpack(const std::uint32_t* words, unsigned base) {
  FlitBits f;
  f.data = get_bits(words, base + kDataLsb, kDataW);
  f.dst = static_cast<std::uint16_t>(get_bits(words, base + kDstLsb, kNodeW));
  f.src = static_cast<std::uint16_t>(get_bits(words, base + kSrcLsb, kNodeW));
  f.index = static_cast<std::uint16_t>(get_bits(words, base + kIdxLsb, kIdxW));
  f.packet = static_cast<std::uint32_t>(get_bits(words, base + kPktLsb, kPktW));
  f.vc = static_cast<unsigned>(get_bits(words, base + kVcLsb, kVcW));
  f.type = static_cast<FlitType>(get_bits(words, base + kTypLsb, kTypW));
  f.mc = get_bits(words, base + kMcLsb, 1) != 0;
  f.more = get_bits(words, base + kMoreLsb, 1) != 0;
  f.mpos = static_cast<unsigned>(get_bits(words, base + kMposLsb, kMposW));
  return f;
}

}  // namespace wormsim::rtl
