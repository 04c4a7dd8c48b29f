// libFuzzer target: the RTL bit layout of multidestination heads (systemc/cosim/rtl_flit.h,
// docs/rtl.md "Destination lists in the head flit"). From the input: a mode (path or tree), an
// encoding (address list or, for trees, bit-string), an address width, the list bits a head
// flit holds, a source and a destination list. A list beyond the RTL's limits must be refused
// with std::invalid_argument; one within them must survive to_bits -> pack -> unpack
// unchanged, and its data bits, decoded here from the documented layout (address list:
// entries of the address width in order, each slot after the last repeating it; bit-string:
// bit n = node n), must give back exactly the destination list (path) or set (tree).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rtl_flit.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wormsim;
  if (size < 4) return 0;
  MulticastHeader h;
  h.mode = (data[0] & 1u) != 0 ? MultidestMode::kTree : MultidestMode::kPath;
  rtl::ListFormat format;
  format.bit_string = (data[0] & 2u) != 0;
  format.address_bits = 1u + (data[1] & 15u);
  format.bits = 8u * (1u + ((data[1] >> 4) & 7u));
  h.src = data[2];
  for (std::size_t i = 3; i + 1 < size; i += 2)
    h.dests.push_back(static_cast<NodeId>(data[i] | (data[i + 1] << 8)));
  if (h.dests.empty()) return 0;
  h.pending = static_cast<int>(h.dests.size());
  Flit f;
  f.type = FlitType::kHead;
  f.src = h.src;
  f.dst = h.dests.front();
  f.mcast = 1;
  f.packet_id = 7;
  rtl::FlitBits bits;
  try {
    bits = rtl::to_bits(f, &h, format);
  } catch (const std::invalid_argument&) {
    return 0;  // beyond the RTL's limits: refused, as documented
  }
  std::uint32_t words[(rtl::kFlitW + 31) / 32 + 2] = {};
  rtl::pack(bits, words, 5);  // an unaligned base, as inside a port array
  if (!(rtl::unpack(words, 5) == bits)) __builtin_trap();
  if (!bits.mc) __builtin_trap();
  std::vector<NodeId> decoded;
  if (format.bit_string) {
    for (unsigned n = 0; n < rtl::kListW; ++n)
      if (((bits.data >> n) & 1u) != 0) decoded.push_back(static_cast<NodeId>(n));
  } else {
    const unsigned w = format.address_bits;
    for (unsigned k = 0; (k + 1) * w <= rtl::kListW; ++k) {
      const auto id = static_cast<NodeId>((bits.data >> (k * w)) & ((1u << w) - 1));
      if (h.mode == MultidestMode::kPath && !decoded.empty() && id == decoded.back()) break;
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
