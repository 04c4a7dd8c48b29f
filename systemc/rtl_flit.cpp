#include "rtl_flit.h"

namespace wormsim::rtl {

FlitBits to_bits(const Flit& f) {
  FlitBits b;
  b.type = f.type;
  b.vc = f.vc;
  b.packet = static_cast<std::uint32_t>(f.packet_id);
  b.index = f.index;
  b.src = static_cast<std::uint16_t>(f.src);
  b.dst = static_cast<std::uint16_t>(f.dst);
  for (unsigned i = 0; i < kDataBytes && i < f.payload_bytes; ++i)
    b.data |= std::uint64_t{f.payload[i]} << (8 * i);
  return b;
}

void pack(const FlitBits& f, std::uint32_t* words, unsigned base) {
  set_bits(words, base + kDataLsb, kDataW, f.data);
  set_bits(words, base + kDstLsb, kNodeW, f.dst);
  set_bits(words, base + kSrcLsb, kNodeW, f.src);
  set_bits(words, base + kIdxLsb, kIdxW, f.index);
  set_bits(words, base + kPktLsb, kPktW, f.packet);
  set_bits(words, base + kVcLsb, kVcW, f.vc);
  set_bits(words, base + kTypLsb, 2, static_cast<std::uint64_t>(f.type));
}

FlitBits unpack(const std::uint32_t* words, unsigned base) {
  FlitBits f;
  f.data = get_bits(words, base + kDataLsb, kDataW);
  f.dst = static_cast<std::uint16_t>(get_bits(words, base + kDstLsb, kNodeW));
  f.src = static_cast<std::uint16_t>(get_bits(words, base + kSrcLsb, kNodeW));
  f.index = static_cast<std::uint16_t>(get_bits(words, base + kIdxLsb, kIdxW));
  f.packet = static_cast<std::uint32_t>(get_bits(words, base + kPktLsb, kPktW));
  f.vc = static_cast<unsigned>(get_bits(words, base + kVcLsb, kVcW));
  f.type = static_cast<FlitType>(get_bits(words, base + kTypLsb, 2));
  return f;
}

}  // namespace wormsim::rtl
