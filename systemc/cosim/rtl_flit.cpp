#include "rtl_flit.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace wormsim::rtl {

HeaderList header_list(PacketId id, const MulticastHeader& header, const ListFormat& format) {
  HeaderList out;
  const auto set = [&out](unsigned bit) { out.bits[bit / 64] |= std::uint64_t{1} << (bit % 64); };
  unsigned length = 0;
  if (format.bit_string) {
    if (header.mode == MultidestMode::kPath)
      throw std::invalid_argument(fmt::format(
          "packet {}: a path worm's list is ordered; a bit-string cannot carry it", id));
    if (format.nodes > kMaxTreeNodes)
      throw std::invalid_argument(
          fmt::format("packet {}: a {}-node bit-string; the RTL tree router decodes {} nodes", id,
                      format.nodes, kMaxTreeNodes));
    for (NodeId d : header.dests) {
      if (d >= static_cast<NodeId>(format.nodes))
        throw std::invalid_argument(
            fmt::format("packet {}: destination node {} is beyond the {}-bit destination "
                        "bit-string the RTL tree router decodes",
                        id, d, format.nodes));
      set(static_cast<unsigned>(d));
    }
    length = format.nodes;
  } else {
    const unsigned w = format.address_bits;
    const std::size_t m = header.dests.size();
    if (m == 0 || w == 0 || m * w > kHdrW)
      throw std::invalid_argument(
          fmt::format("packet {}: a list of {} {}-bit addresses is longer than the {} bits an "
                      "RTL router collects",
                      id, m, w, kHdrW));
    for (std::size_t k = 0; k < m; ++k) {
      const std::uint64_t node = header.dests[k];
      if ((node >> w) != 0)
        throw std::invalid_argument(fmt::format(
            "packet {}: destination node {} does not fit {}-bit addresses", id, node, w));
      if (header.mode == MultidestMode::kTree && node >= static_cast<std::uint64_t>(kMaxTreeNodes))
        throw std::invalid_argument(fmt::format(
            "packet {}: destination node {} is beyond the {} nodes an RTL tree router decodes", id,
            node, kMaxTreeNodes));
      for (unsigned j = 0; j < w; ++j)
        if (((node >> j) & 1u) != 0) set(static_cast<unsigned>(k) * w + j);
    }
    length = static_cast<unsigned>(m) * w;
  }
  if (length > kHdrW)
    throw std::invalid_argument(
        fmt::format("packet {}: a {}-bit list does not fit the RTL's {} bits", id, length, kHdrW));
  out.length = length;
  return out;
}

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
  if (header == nullptr) return b;
  if (format.bits == 0 || format.bits > kDataW)
    throw std::invalid_argument(
        fmt::format("packet {}: {}-bit header flits; the RTL flit has {} data bits", f.packet_id,
                    format.bits, kDataW));
  const HeaderList list = header_list(f.packet_id, *header, format);
  const unsigned length = list.length;
  // Flit k of the worm (k < the header flits) carries list bits [k bits, (k + 1) bits).
  const unsigned flits = std::max(1u, (length + format.bits - 1) / format.bits);
  const unsigned k = f.head() ? 0u : f.index;
  if (k >= flits) return b;
  b.data = 0;
  for (unsigned j = 0; j < format.bits; ++j) {
    const unsigned bit = k * format.bits + j;
    if (bit < kHdrW && ((list.bits[bit / 64] >> (bit % 64)) & 1u) != 0)
      b.data |= std::uint64_t{1} << j;
  }
  if (f.head()) {
    b.mc = true;
    b.hlen = length;
  }
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
  set_bits(words, base + kHlenLsb, kHlenW, f.hlen);
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
  f.hlen = static_cast<unsigned>(get_bits(words, base + kHlenLsb, kHlenW));
  return f;
}

}  // namespace wormsim::rtl
