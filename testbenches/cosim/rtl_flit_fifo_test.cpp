// Block-level test of rtl/wormsim_flit_fifo.sv (Verilated with W = 16, Depth = 4) against the
// C++ FlitBuffer (systemc/router/flit_buffer.h): FIFO order, occupancy and front eligibility over
// random push/pop with every pipeline delay and buffer depth in use; the exact cycle ready_o
// rises after a push; the same-cycle bypass with delay 0; the overflow, underflow and
// early-pop assertions; the read ports (a replicating worm's branches) see every slot by its
// position, including a flit pushed this cycle; the in-place update of a stored slot's upper
// bits (HasUpd, the full router's header assembly) and the slot numbers and per-slot
// eligibility it relies on.
#include <array>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "Vwormsim_flit_fifo.h"
#include "flit_buffer.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

constexpr int kDepth = 4;  // rtl/CMakeLists.txt: wormsim_flit_fifo W=16 Depth=4 NumRd=2
constexpr int kReadPorts = 2;
constexpr unsigned kCntW = 3;     // $clog2(Depth + 1)
constexpr unsigned kUpdLsb = 12;  // ... "HasUpd=1'b1" UpdLsb=12: bits [12, 16) are updatable
using Fifo = rtl_test::ClockedBlock<Vwormsim_flit_fifo>;

// Idle inputs with `cap` slots in use and a pipeline delay of `delay` cycles.
void configure(Fifo& rtl, int cap, int delay) {
  rtl->cap_i = static_cast<std::uint16_t>(cap);
  rtl->delay_i = static_cast<std::uint8_t>(delay);
  rtl->push_i = 0;
  rtl->pop_i = 0;
  rtl->data_i = 0;
  rtl.eval();
}

TEST(RtlFlitFifo, RandomPushPopMatchesFlitBuffer) {
  std::mt19937_64 rng(3);
  Fifo rtl;
  long popped = 0;
  for (int delay = 0; delay < 4; ++delay) {
    for (int cap = 1; cap <= kDepth; ++cap) {
      for (int run = 0; run < 8; ++run) {
        rtl.reset();
        configure(rtl, cap, delay);
        FlitBuffer cpp(cap);
        std::bernoulli_distribution push_p(std::uniform_real_distribution<double>(0.2, 0.9)(rng));
        std::bernoulli_distribution pop_p(std::uniform_real_distribution<double>(0.2, 0.9)(rng));
        for (Cycle t = 0; t < 500; ++t) {
          const int stored = cpp.size();
          const bool push = stored < cap && push_p(rng);
          const std::uint16_t data = static_cast<std::uint16_t>(rng());
          if (push) {
            Flit f;
            f.packet_id = data;
            cpp.push(f, t + static_cast<Cycle>(delay));
          }
          rtl->push_i = push;
          rtl->data_i = data;
          rtl->pop_i = 0;
          rtl.eval();
          ASSERT_EQ(static_cast<int>(rtl->count_o), stored) << "delay " << delay << " t " << t;
          ASSERT_EQ(rtl->valid_o != 0, !cpp.empty()) << "delay " << delay << " t " << t;
          bool ready = false;
          if (!cpp.empty()) {
            ASSERT_EQ(PacketId{rtl->front_o}, cpp.front().flit.packet_id)
                << "delay " << delay << " t " << t;
            ready = cpp.front().ready <= t;
            ASSERT_EQ(rtl->ready_o != 0, ready) << "delay " << delay << " t " << t;
          }
          // Read ports at random positions, up to one past the last flit.
          unsigned idx_bits = 0;
          int pos[kReadPorts];
          for (int r = 0; r < kReadPorts; ++r) {
            pos[r] = static_cast<int>(rng() % static_cast<unsigned>(cap + 1));
            idx_bits |= static_cast<unsigned>(pos[r]) << (kCntW * static_cast<unsigned>(r));
          }
          rtl->rd_idx_i = static_cast<std::uint8_t>(idx_bits);
          rtl.eval();
          for (int r = 0; r < kReadPorts; ++r) {
            const bool there = pos[r] < cpp.size();
            ASSERT_EQ(((rtl->rd_valid_o >> r) & 1u) != 0, there) << "t " << t << " port " << r;
            if (!there) continue;
            const FlitBuffer::Entry& e = cpp.at(pos[r]);
            ASSERT_EQ(PacketId{static_cast<std::uint16_t>(rtl->rd_data_o >> (16 * r))},
                      e.flit.packet_id)
                << "t " << t << " port " << r << " position " << pos[r];
            ASSERT_EQ(((rtl->rd_ready_o >> r) & 1u) != 0, e.ready <= t)
                << "t " << t << " port " << r << " position " << pos[r];
          }
          const bool pop = ready && pop_p(rng);
          if (pop) {
            cpp.pop();
            ++popped;
          }
          rtl->pop_i = pop;
          rtl.tick();
          ASSERT_FALSE(rtl.error()) << "assertion failed, delay " << delay << " t " << t;
        }
      }
    }
  }
  EXPECT_GT(popped, 10000);
}

// With delay d, a flit pushed into an empty buffer at cycle t shows ready_o from t + d on
// (from the push cycle itself when d = 0), and not before.
TEST(RtlFlitFifo, ReadyRisesExactlyDelayCyclesAfterPush) {
  Fifo rtl;
  for (int delay = 0; delay < 4; ++delay) {
    for (int idle = 0; idle < 3; ++idle) {  // pushes at different cycles after reset
      rtl.reset();
      configure(rtl, kDepth, delay);
      for (int i = 0; i < idle; ++i) rtl.tick();
      rtl->push_i = 1;
      rtl->data_i = static_cast<std::uint16_t>(0xa50 + delay);
      rtl.eval();
      int rose = rtl->ready_o ? 0 : -1;
      ASSERT_TRUE(rtl->valid_o);
      rtl.tick();
      rtl->push_i = 0;
      rtl.eval();
      for (int k = 1; k <= 5 && rose < 0; ++k) {
        ASSERT_TRUE(rtl->valid_o);
        ASSERT_EQ(rtl->front_o, 0xa50 + delay);
        if (rtl->ready_o) rose = k;
        rtl.tick();
      }
      EXPECT_EQ(rose, delay) << "delay " << delay << " pushed at cycle " << idle;
      ASSERT_FALSE(rtl.error());
    }
  }
}

// A flit behind another counts its own delay from its own push: of two flits pushed one cycle
// apart, the first is eligible at cycle d (not before) and the second, once at the front,
// at cycle d + 1.
TEST(RtlFlitFifo, EachEntryCountsItsOwnDelay) {
  Fifo rtl;
  for (int delay = 2; delay < 4; ++delay) {
    rtl.reset();
    configure(rtl, kDepth, delay);
    rtl->push_i = 1;
    rtl->data_i = 1;
    rtl.tick();  // cycle 0: first flit
    rtl->data_i = 2;
    rtl.tick();  // cycle 1: second flit
    rtl->push_i = 0;
    rtl.eval();
    for (int t = 2; t < delay; ++t) {
      EXPECT_FALSE(rtl->ready_o) << "delay " << delay << " t " << t;
      rtl.tick();
    }
    ASSERT_TRUE(rtl->ready_o) << "first flit, delay " << delay;  // cycle delay
    EXPECT_EQ(rtl->front_o, 1);
    rtl->pop_i = 1;
    rtl.tick();  // the second flit is at the front at cycle delay + 1 = its push + delay
    rtl->pop_i = 0;
    rtl.eval();
    EXPECT_TRUE(rtl->ready_o) << "second flit, delay " << delay;
    EXPECT_EQ(rtl->front_o, 2);
    ASSERT_FALSE(rtl.error());
  }
}

// Delay 0: a flit pushed into an empty buffer is at the front, eligible, and can be popped in
// the same cycle without ever occupying a slot. With delay 1 it is not eligible yet.
TEST(RtlFlitFifo, SameCycleBypassWithDelayZero) {
  Fifo rtl;
  configure(rtl, kDepth, 0);
  for (int i = 0; i < 10; ++i) {
    const std::uint16_t data = static_cast<std::uint16_t>(0x1234 + 77 * i);
    rtl->push_i = 1;
    rtl->data_i = data;
    rtl->pop_i = 1;
    rtl.eval();
    EXPECT_TRUE(rtl->valid_o);
    EXPECT_TRUE(rtl->ready_o);
    EXPECT_EQ(rtl->front_o, data);
    EXPECT_EQ(rtl->count_o, 0);
    rtl.tick();
    ASSERT_FALSE(rtl.error());
  }
  rtl->push_i = 0;
  rtl->pop_i = 0;
  rtl.eval();
  EXPECT_FALSE(rtl->valid_o);
  EXPECT_EQ(rtl->count_o, 0);

  // Delay 1: the arriving flit is visible at the front but not eligible; it is stored.
  rtl.reset();
  configure(rtl, kDepth, 1);
  rtl->push_i = 1;
  rtl->data_i = 0x4321;
  rtl.eval();
  EXPECT_TRUE(rtl->valid_o);
  EXPECT_FALSE(rtl->ready_o);
  rtl.tick();
  rtl->push_i = 0;
  rtl.eval();
  EXPECT_EQ(rtl->count_o, 1);
  EXPECT_TRUE(rtl->ready_o);
  EXPECT_EQ(rtl->front_o, 0x4321);
  EXPECT_FALSE(rtl.error());
}

// Pushing into a buffer that holds cap_i flits violates the credit protocol: the assertion
// fires (for the full physical depth and for a smaller depth in use).
TEST(RtlFlitFifo, OverflowFiresAssertion) {
  for (int cap : {kDepth, 2}) {
    Fifo rtl;
    configure(rtl, cap, 0);
    rtl->push_i = 1;
    for (int i = 0; i < cap; ++i) {
      rtl->data_i = static_cast<std::uint16_t>(i);
      rtl.tick();
      ASSERT_FALSE(rtl.error()) << "push " << i << " of " << cap;
    }
    rtl.eval();
    ASSERT_EQ(rtl->count_o, cap);
    rtl.tick();  // one more
    EXPECT_TRUE(rtl.error()) << "cap " << cap;
  }
}

// Pushing into a full buffer while popping its front is still an overflow (the slot frees at
// the end of the cycle; the credit was not returned yet).
TEST(RtlFlitFifo, OverflowFiresEvenWhilePopping) {
  Fifo rtl;
  configure(rtl, 2, 0);
  rtl->push_i = 1;
  rtl.tick();
  rtl.tick();
  ASSERT_FALSE(rtl.error());
  rtl->pop_i = 1;
  rtl.tick();
  EXPECT_TRUE(rtl.error());
}

TEST(RtlFlitFifo, PopOfEmptyBufferFiresAssertion) {
  Fifo rtl;
  configure(rtl, kDepth, 0);
  rtl.tick();
  ASSERT_FALSE(rtl.error());
  rtl->pop_i = 1;
  rtl.tick();
  EXPECT_TRUE(rtl.error());
}

TEST(RtlFlitFifo, PopBeforeEligibleFiresAssertion) {
  Fifo rtl;
  configure(rtl, kDepth, 2);
  rtl->push_i = 1;
  rtl.tick();
  rtl->push_i = 0;
  rtl.eval();
  ASSERT_TRUE(rtl->valid_o);
  ASSERT_FALSE(rtl->ready_o);
  ASSERT_FALSE(rtl.error());
  rtl->pop_i = 1;
  rtl.tick();
  EXPECT_TRUE(rtl.error());
}

// The update port against a reference of the buffer by slot: entries go into slots in push
// order (wr_slot_o names the next one, front_slot_o the front's), an update rewrites bits
// [UpdLsb, W) of one stored slot from the next cycle on and leaves its low bits and every
// other slot alone, and slot_ready_o[s] is the eligibility of the entry in slot s.
TEST(RtlFlitFifo, InPlaceUpdatesRewriteOneStoredSlotsUpperBits) {
  std::mt19937_64 rng(11);
  Fifo rtl;
  long updates = 0;
  for (int delay = 0; delay < 4; ++delay) {
    rtl.reset();
    configure(rtl, kDepth, delay);
    struct Slot {
      std::uint16_t data = 0;
      Cycle ready = 0;
    };
    std::array<Slot, kDepth> slot{};
    int rd = 0;
    int count = 0;
    for (Cycle t = 0; t < 4000; ++t) {
      const bool push = count < kDepth && rng() % 2 == 0;
      const std::uint16_t data = static_cast<std::uint16_t>(rng());
      const bool update = count > 0 && rng() % 3 == 0;
      const int target =
          update ? (rd + static_cast<int>(rng() % static_cast<unsigned>(count))) % kDepth : 0;
      const std::uint8_t upper = static_cast<std::uint8_t>(rng() % 16);
      rtl->push_i = push;
      rtl->data_i = data;
      rtl->pop_i = 0;
      rtl->upd_i = update;
      rtl->upd_slot_i = static_cast<std::uint8_t>(target);
      rtl->upd_data_i = upper;
      rtl.eval();
      ASSERT_EQ(static_cast<int>(rtl->count_o), count) << "t " << t;
      ASSERT_EQ(static_cast<int>(rtl->front_slot_o), rd) << "t " << t;
      ASSERT_EQ(static_cast<int>(rtl->wr_slot_o), (rd + count) % kDepth) << "t " << t;
      if (count > 0) {
        ASSERT_EQ(rtl->front_o, slot[static_cast<std::size_t>(rd)].data) << "t " << t;
        ASSERT_EQ(rtl->ready_o != 0, slot[static_cast<std::size_t>(rd)].ready <= t) << "t " << t;
      }
      for (int k = 0; k < count; ++k) {
        const Slot& e = slot[static_cast<std::size_t>((rd + k) % kDepth)];
        ASSERT_EQ(((rtl->slot_ready_o >> ((rd + k) % kDepth)) & 1u) != 0, e.ready <= t)
            << "t " << t << " slot " << (rd + k) % kDepth;
      }
      const bool pop = count > 0 && slot[static_cast<std::size_t>(rd)].ready <= t && rng() % 2 == 0;
      rtl->pop_i = pop;
      rtl.tick();
      ASSERT_FALSE(rtl.error()) << "assertion failed, delay " << delay << " t " << t;
      // The reference, as the clock edge leaves it.
      if (update) {
        Slot& e = slot[static_cast<std::size_t>(target)];
        e.data = static_cast<std::uint16_t>((e.data & ((1u << kUpdLsb) - 1)) | (upper << kUpdLsb));
        ++updates;
      }
      if (pop) {
        rd = (rd + 1) % kDepth;
        --count;
      }
      if (push) {
        slot[static_cast<std::size_t>((rd + count) % kDepth)] = {data,
                                                                 t + static_cast<Cycle>(delay)};
        ++count;
      }
    }
  }
  EXPECT_GT(updates, 3000);
}

}  // namespace
}  // namespace wormsim
