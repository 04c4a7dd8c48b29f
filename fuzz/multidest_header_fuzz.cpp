// libFuzzer target: the RTL bit layout of multidestination worms (systemc/cosim/rtl_flit.h,
// docs/rtl.md "Destination lists in header flits"). From the input: a mode (path or tree), an
// encoding (address list or, for trees, bit-string), an address width, the list bits a flit
// holds (8 x flit_bytes), the network's size for bit-strings, a source and a destination list.
// A list beyond the RTL's limits must be refused with std::invalid_argument; one within them
// must survive to_bits -> pack -> unpack unchanged in the head and in every header flit, the
// head must carry the list's length (hlen), the flit after the header flits its payload, and
// the header flits' data bits, decoded here from the documented layout (list bit j in data bit
// j mod bits of flit j / bits; address list: hlen / width entries of the address width in
// order; bit-string: bit n = node n), must give back exactly the destination list (path) or
// set (tree).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rtl_flit.h"

namespace {
// The flit `index` of the worm whose head is `head`, through to_bits, pack and unpack.
wormsim::rtl::FlitBits round_trip(const wormsim::Flit& head, int index,
                                  const wormsim::MulticastHeader& h,
                                  const wormsim::rtl::ListFormat& format) {
  using namespace wormsim;
  Flit f = head;
  if (index > 0) {
    f.type = FlitType::kBody;
    f.index = static_cast<std::uint16_t>(index);
  }
  const rtl::FlitBits bits = rtl::to_bits(f, &h, format);
  std::uint32_t words[(rtl::kFlitW + 31) / 32 + 2] = {};
  rtl::pack(bits, words, 5);  // an unaligned base, as inside a port array
  if (!(rtl::unpack(words, 5) == bits)) __builtin_trap();
  if (bits.mc != (index == 0)) __builtin_trap();
  return bits;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wormsim;
  if (size < 5) return 0;
  MulticastHeader h;
  h.mode = (data[0] & 1u) != 0 ? MultidestMode::kTree : MultidestMode::kPath;
  rtl::ListFormat format;
  format.bit_string = (data[0] & 2u) != 0;
  format.address_bits = 1u + (data[1] & 15u);
  format.bits = 8u * (1u + ((data[1] >> 4) & 7u));
  format.nodes = 1u + data[3];
  h.src = data[2];
  for (std::size_t i = 4; i + 1 < size; i += 2)
    h.dests.push_back(static_cast<NodeId>(data[i] | (data[i + 1] << 8)));
  if (h.dests.empty()) return 0;
  h.pending = static_cast<int>(h.dests.size());
  Flit head;
  head.type = FlitType::kHead;
  head.src = h.src;
  head.dst = h.dests.front();
  head.mcast = 1;
  head.packet_id = 7;
  rtl::FlitBits first;
  try {
    first = rtl::to_bits(head, &h, format);
  } catch (const std::invalid_argument&) {
    return 0;  // beyond the RTL's limits: refused, as documented
  }
  const unsigned length = first.hlen;
  if (length == 0 || length > rtl::kHdrW) __builtin_trap();
  const unsigned flits = (length + format.bits - 1) / format.bits;
  std::vector<bool> list(static_cast<std::size_t>(flits) * format.bits, false);
  for (unsigned k = 0; k < flits; ++k) {
    const rtl::FlitBits bits = round_trip(head, static_cast<int>(k), h, format);
    if (k == 0 && !(bits == first)) __builtin_trap();
    if (format.bits < 64 && (bits.data >> format.bits) != 0) __builtin_trap();
    for (unsigned j = 0; j < format.bits; ++j)
      list[static_cast<std::size_t>(k) * format.bits + j] = ((bits.data >> j) & 1u) != 0;
  }
  // The flit after the header flits carries its payload (none here).
  if (round_trip(head, static_cast<int>(flits), h, format).data != 0) __builtin_trap();
  for (std::size_t j = length; j < list.size(); ++j)
    if (list[j]) __builtin_trap();  // nothing beyond the list's length
  std::vector<NodeId> decoded;
  if (format.bit_string) {
    if (length != format.nodes) __builtin_trap();
    for (unsigned n = 0; n < length; ++n)
      if (list[n]) decoded.push_back(static_cast<NodeId>(n));
  } else {
    const unsigned w = format.address_bits;
    if (length % w != 0) __builtin_trap();
    for (unsigned k = 0; k < length / w; ++k) {
      NodeId id = 0;
      for (unsigned b = 0; b < w; ++b)
        if (list[static_cast<std::size_t>(k) * w + b]) id |= NodeId{1} << b;
      decoded.push_back(id);
    }
  }
  std::vector<NodeId> expected = h.dests;
  if (h.mode == MultidestMode::kTree) {
    for (std::vector<NodeId>* v : {&decoded, &expected}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
  }
  if (decoded != expected) __builtin_trap();
  return 0;
}
