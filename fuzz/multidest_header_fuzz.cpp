// libFuzzer target: the RTL bit layout of multidestination heads (systemc/cosim/rtl_flit.h,
// docs/rtl.md). From the input: a mode (path or tree), a source and a destination list. A
// header beyond the RTL's limits must be refused with std::invalid_argument; one within them
// must survive to_bits -> pack -> unpack unchanged, and its header bits, decoded here from the
// documented layout (path: kPathIdW-bit node ids in path order, ended by kPathEnd; tree: a
// bit-string over node ids), must give back exactly the destination list.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rtl_flit.h"

namespace {
bool header_bit(const wormsim::rtl::FlitBits& b, unsigned i) {
  return ((b.hdr[i / 64] >> (i % 64)) & 1u) != 0;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wormsim;
  if (size < 3) return 0;
  MulticastHeader h;
  h.mode = (data[0] & 1u) != 0 ? MultidestMode::kTree : MultidestMode::kPath;
  h.src = data[1];
  for (std::size_t i = 2; i + 1 < size; i += 2)
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
    bits = rtl::to_bits(f, &h);
  } catch (const std::invalid_argument&) {
    return 0;  // beyond the RTL header's limits: refused, as documented
  }
  std::uint32_t words[(rtl::kFlitW + 31) / 32 + 2] = {};
  rtl::pack(bits, words, 5);  // an unaligned base, as inside a port array
  if (!(rtl::unpack(words, 5) == bits)) __builtin_trap();
  if (!bits.mc) __builtin_trap();
  std::vector<NodeId> decoded;
  if (h.mode == MultidestMode::kPath) {
    for (unsigned k = 0; k < rtl::kMaxPath; ++k) {
      unsigned id = 0;
      for (unsigned b = 0; b < rtl::kPathIdW; ++b)
        id |= static_cast<unsigned>(header_bit(bits, k * rtl::kPathIdW + b)) << b;
      if (id == rtl::kPathEnd) break;
      decoded.push_back(static_cast<NodeId>(id));
    }
    if (decoded != h.dests) __builtin_trap();
  } else {
    for (unsigned n = 0; n < rtl::kHdrW; ++n)
      if (header_bit(bits, n)) decoded.push_back(static_cast<NodeId>(n));
    std::vector<NodeId> expected = h.dests;
    std::sort(expected.begin(), expected.end());
    expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
    if (decoded != expected) __builtin_trap();
  }
  return 0;
}
