// Tests of the per-VC input flit buffer: FIFO order, depth, full/empty, overflow and
// underflow, the ready cycle stored with each flit, and wrap-around of the ring.
#include "flit_buffer.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace wormsim::flit_buffer_test {
namespace {

Flit make_flit(PacketId id, std::uint16_t index) {
  Flit f;
  f.packet_id = id;
  f.index = index;
  f.type = index == 0 ? FlitType::kHead : FlitType::kBody;
  return f;
}

TEST(FlitBuffer, StartsEmptyWithGivenDepth) {
  FlitBuffer b(4);
  EXPECT_EQ(b.depth(), 4);
  EXPECT_EQ(b.size(), 0);
  EXPECT_TRUE(b.empty());
  EXPECT_FALSE(b.full());
}

TEST(FlitBuffer, DefaultDepthIsOne) {
  FlitBuffer b;
  EXPECT_EQ(b.depth(), 1);
  b.push(make_flit(1, 0), 0);
  EXPECT_TRUE(b.full());
  EXPECT_THROW(b.push(make_flit(2, 0), 0), std::logic_error);
}

TEST(FlitBuffer, FifoOrderAndReadyCycleKept) {
  FlitBuffer b(4);
  for (int i = 0; i < 4; ++i)
    b.push(make_flit(100 + static_cast<PacketId>(i), static_cast<std::uint16_t>(i)),
           static_cast<Cycle>(10 * i + 3));
  EXPECT_TRUE(b.full());
  EXPECT_EQ(b.size(), 4);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(b.at(i).flit.packet_id, 100 + static_cast<PacketId>(i));
    EXPECT_EQ(b.at(i).ready, static_cast<Cycle>(10 * i + 3));
  }
  for (int i = 0; i < 4; ++i) {
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b.front().flit.packet_id, 100 + static_cast<PacketId>(i));
    EXPECT_EQ(b.front().flit.index, static_cast<std::uint16_t>(i));
    EXPECT_EQ(b.front().ready, static_cast<Cycle>(10 * i + 3));
    b.pop();
    EXPECT_EQ(b.size(), 3 - i);
    EXPECT_FALSE(b.full());
  }
  EXPECT_TRUE(b.empty());
}

TEST(FlitBuffer, FullAndEmptyTransitions) {
  FlitBuffer b(3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(b.full());
    b.push(make_flit(static_cast<PacketId>(i), 0), 0);
    EXPECT_FALSE(b.empty());
  }
  EXPECT_TRUE(b.full());
  b.pop();
  EXPECT_FALSE(b.full());
  b.push(make_flit(9, 0), 0);
  EXPECT_TRUE(b.full());
}

TEST(FlitBuffer, OverflowThrowsAndLeavesContentsIntact) {
  FlitBuffer b(2);
  b.push(make_flit(1, 0), 5);
  b.push(make_flit(2, 0), 6);
  EXPECT_THROW(b.push(make_flit(3, 0), 7), std::logic_error);
  EXPECT_EQ(b.size(), 2);
  EXPECT_EQ(b.front().flit.packet_id, 1u);
  b.pop();
  EXPECT_EQ(b.front().flit.packet_id, 2u);
  EXPECT_EQ(b.front().ready, 6u);
}

TEST(FlitBuffer, UnderflowThrows) {
  FlitBuffer b(2);
  EXPECT_THROW(b.pop(), std::logic_error);
  b.push(make_flit(1, 0), 0);
  b.pop();
  EXPECT_THROW(b.pop(), std::logic_error);
  EXPECT_TRUE(b.empty());
}

TEST(FlitBuffer, FrontIsMutable) {
  FlitBuffer b(2);
  b.push(make_flit(1, 0), 5);
  b.front().ready = 42;
  b.front().flit.vc = 3;
  EXPECT_EQ(b.front().ready, 42u);
  EXPECT_EQ(b.front().flit.vc, 3);
}

// Interleaved pushes and pops move the head around the ring many times; a reference queue
// computed by the test must match at every step.
TEST(FlitBuffer, WrapAroundKeepsFifoOrder) {
  const int depth = 3;
  FlitBuffer b(depth);
  PacketId next_in = 0;
  PacketId next_out = 0;
  for (int round = 0; round < 50; ++round) {
    // Push up to 2, pop 1 or 2, keeping the occupancy varying across the ring boundary.
    const int pushes = 1 + round % 2;
    for (int i = 0; i < pushes && !b.full(); ++i) {
      b.push(make_flit(next_in, 0), next_in * 7);
      ++next_in;
    }
    const int occupancy = static_cast<int>(next_in - next_out);
    ASSERT_EQ(b.size(), occupancy);
    for (int i = 0; i < occupancy; ++i) {
      EXPECT_EQ(b.at(i).flit.packet_id, next_out + static_cast<PacketId>(i));
      EXPECT_EQ(b.at(i).ready, (next_out + static_cast<PacketId>(i)) * 7);
    }
    const int pops = (round % 3 == 0) ? 2 : 1;
    for (int i = 0; i < pops && !b.empty(); ++i) {
      EXPECT_EQ(b.front().flit.packet_id, next_out);
      EXPECT_EQ(b.front().ready, next_out * 7);
      b.pop();
      ++next_out;
    }
  }
  EXPECT_GT(next_in, static_cast<PacketId>(3 * depth));  // wrapped several times
}

}  // namespace
}  // namespace wormsim::flit_buffer_test
