#include "header_format.h"

#include <algorithm>

namespace wormsim {

int address_bits(long long nodes) {
  int bits = 1;
  while ((1LL << bits) < nodes) ++bits;
  return bits;
}

int addresses_per_header_flit(HeaderEncoding encoding, PathIr path_ir, int nodes, int flit_bytes) {
  if (encoding == HeaderEncoding::kAddressFlits) return 1;
  if (path_ir == PathIr::kMinimal && encoding == HeaderEncoding::kAddressList)
    return std::max(1, 8 * flit_bytes / address_bits(nodes));
  return 0;
}

int header_flits(HeaderEncoding encoding, std::size_t destinations, int nodes, int flit_bytes,
                 PathIr path_ir) {
  if (const int k = addresses_per_header_flit(encoding, path_ir, nodes, flit_bytes); k > 0)
    return static_cast<int>(std::max<std::size_t>(
        1, (destinations + static_cast<std::size_t>(k) - 1) / static_cast<std::size_t>(k)));
  const long long bits = encoding == HeaderEncoding::kAddressList
                             ? static_cast<long long>(destinations) * address_bits(nodes)
                             : static_cast<long long>(nodes);
  const long long flit_bits = 8LL * flit_bytes;
  return static_cast<int>(std::max(1LL, (bits + flit_bits - 1) / flit_bits));
}

}  // namespace wormsim
