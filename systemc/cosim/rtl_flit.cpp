#include "rtl_flit.h"

#include <stdexcept>

#include <fmt/format.h>

namespace wormsim::rtl {

namespace {
void set_hdr_bits(FlitBits& b, unsigned lsb, unsigned width, std::uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    const std::uint64_t mask = std::uint64_t{1} << (bit % 64);
    if ((value >> i) & 1u)
      b.hdr[bit / 64] |= mask;
    else
      b.hdr[bit / 64] &= ~mask;
  }
}
}  // namespace

FlitBits to_bits(const Flit& f, const MulticastHeader* header, bool address_flits) {
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
                    "header's {} destinations",
                    f.packet_id, f.mpos, kMaxPath));
  if (header != nullptr && address_flits) {
    if (header->dests.size() > kMaxPath)
      throw std::invalid_argument(fmt::format(
          "packet {}: a path worm to {} destinations; the RTL flit's path position counts at "
          "most {}",
          f.packet_id, header->dests.size(), kMaxPath));
    b.more = static_cast<std::size_t>(f.index) + 1 < header->dests.size();
    return b;
  }
  if (header == nullptr || !f.head()) return b;
  b.mc = true;
  if (header->mode == MultidestMode::kPath) {
    if (header->dests.size() > kMaxPath)
      throw std::invalid_argument(fmt::format(
          "packet {}: a path worm to {} destinations; the RTL head flit lists at most {}",
          f.packet_id, header->dests.size(), kMaxPath));
    for (unsigned k = 0; k < kMaxPath; ++k) {
      const std::uint64_t id = k < header->dests.size() ? header->dests[k] : kPathEnd;
      if (id >= kPathEnd && k < header->dests.size())
        throw std::invalid_argument(
            fmt::format("packet {}: destination node {} does not fit "
                        "the RTL path header's {}-bit ids",
                        f.packet_id, id, kPathIdW));
      set_hdr_bits(b, k * kPathIdW, kPathIdW, id);
    }
  } else {
    for (NodeId d : header->dests) {
      if (d >= static_cast<NodeId>(kMaxTreeNodes))
        throw std::invalid_argument(
            fmt::format("packet {}: destination node {} does not fit "
                        "the RTL tree header's {}-node bit-string",
                        f.packet_id, d, kMaxTreeNodes));
      set_hdr_bits(b, d, 1, 1);
    }
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
  for (unsigned i = 0; i < kHdrW / 64; ++i) set_bits(words, base + kHdrLsb + 64 * i, 64, f.hdr[i]);
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
  for (unsigned i = 0; i < kHdrW / 64; ++i) f.hdr[i] = get_bits(words, base + kHdrLsb + 64 * i, 64);
  return f;
}

}  // namespace wormsim::rtl
