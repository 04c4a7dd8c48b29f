// Destination-list sizes (systemc/core/header_format.h) against the bit counts worked out by
// hand in each comment: ceil(log2 N)-bit addresses, N-bit strings, 8 * flit_bytes-bit flits.
#include "header_format.h"

#include <gtest/gtest.h>

namespace wormsim::header_format_test {
namespace {

TEST(AddressBits, CeilLog2AtLeastOne) {
  EXPECT_EQ(address_bits(1), 1);
  EXPECT_EQ(address_bits(2), 1);
  EXPECT_EQ(address_bits(3), 2);
  EXPECT_EQ(address_bits(64), 6);
  EXPECT_EQ(address_bits(65), 7);
  EXPECT_EQ(address_bits(1024), 10);
  EXPECT_EQ(address_bits(65536), 16);
  EXPECT_EQ(address_bits(1LL << 20), 20);
  EXPECT_EQ(address_bits((1LL << 20) + 1), 21);
}

TEST(HeaderFlits, AddressListAndBitStringCosts) {
  // 64 nodes: 6-bit addresses; 8-byte flits hold 64 bits.
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 1, 64, 8), 1);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 10, 64, 8), 1);  // 60 bits
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 11, 64, 8), 2);  // 66 bits
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 63, 64, 8), 6);  // 378 bits
  EXPECT_EQ(header_flits(HeaderEncoding::kBitString, 1, 64, 8), 1);
  EXPECT_EQ(header_flits(HeaderEncoding::kBitString, 63, 64, 8), 1);
  // 1024 nodes, 2-byte flits: 10-bit addresses, 16-bit flits.
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 3, 1024, 2), 2);  // 30 bits
  EXPECT_EQ(header_flits(HeaderEncoding::kBitString, 3, 1024, 2), 64);   // 1024 bits
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 1, 2, 1), 1);
  // Address flits: one per destination, whatever the flit width.
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressFlits, 1, 64, 8), 1);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressFlits, 11, 64, 8), 11);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressFlits, 3, 1024, 2), 3);
  // The minimal router's address_list: whole addresses per flit, none straddling two flits:
  // 64 nodes, 8-byte flits: 10 per flit, so 11 addresses take 2 flits as packed, but 21 take
  // 3 where the packed list's 126 bits take 2; 1024 nodes, 2-byte flits: 1 per flit.
  EXPECT_EQ(addresses_per_header_flit(HeaderEncoding::kAddressList, PathIr::kMinimal, 64, 8), 10);
  EXPECT_EQ(addresses_per_header_flit(HeaderEncoding::kAddressList, PathIr::kFull, 64, 8), 0);
  EXPECT_EQ(addresses_per_header_flit(HeaderEncoding::kAddressFlits, PathIr::kFull, 64, 8), 1);
  EXPECT_EQ(addresses_per_header_flit(HeaderEncoding::kBitString, PathIr::kFull, 64, 8), 0);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 11, 64, 8, PathIr::kMinimal), 2);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 21, 64, 8, PathIr::kMinimal), 3);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 21, 64, 8), 2);
  EXPECT_EQ(header_flits(HeaderEncoding::kAddressList, 3, 1024, 2, PathIr::kMinimal), 3);
}

}  // namespace
}  // namespace wormsim::header_format_test
