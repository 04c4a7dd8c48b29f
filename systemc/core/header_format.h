// Sizes of a multidestination worm's destination list (DESIGN.md section 4;
// docs/multidestination.md "Header encodings"). One definition for every layer that charges or
// packs a list: the NIs and terminals (header flits they send), the config's checks and
// estimates, the routing layer's flit-hop counts and the RTL's head-flit list format.
#pragma once

#include <cstddef>

#include "config.h"

namespace wormsim {

// Bits of one node address in a list: ceil(log2 nodes), at least 1.
int address_bits(long long nodes);
// Addresses per header flit when a worm's list sits in address flits (header flits that hold
// whole addresses and carry no payload, except the last): 1 for header_encoding
// address_flits; floor(8 * flit_bytes / address_bits(N)) for address_list on the minimal
// path-IR router (a header flit it strips must hold whole addresses); 0 when the list is packed
// across flits (address_list on the full router) or a bit-string.
int addresses_per_header_flit(HeaderEncoding encoding, PathIr path_ir, int nodes, int flit_bytes);
// Header flits of a worm to `destinations` nodes: an address list spends address_bits(N) bits
// per destination, a bit-string N bits, packed into flits of 8 * flit_bytes bits; at least one.
// Address flits (addresses_per_header_flit k > 0): ceil(destinations / k) flits. A unicast
// header is one flit, so a multidestination worm costs header_flits - 1 extra flits.
int header_flits(HeaderEncoding encoding, std::size_t destinations, int nodes, int flit_bytes,
                 PathIr path_ir = PathIr::kFull);

}  // namespace wormsim
