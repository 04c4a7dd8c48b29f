// WorkerPool (systemc/kernel/worker_pool.h): every item of a phase runs exactly once, run()
// returns only when all are done (so the caller sees every item's writes), and a pool serves
// many phases in a row, for pool sizes 1..4 (more threads than this machine may have cores)
// and chunk sizes that do and do not divide the item count.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "worker_pool.h"

namespace wormsim::worker_pool_test {
namespace {

TEST(WorkerPool, EveryItemRunsOnceInEveryPhase) {
  for (int threads = 1; threads <= 4; ++threads) {
    WorkerPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (std::size_t chunk : {1u, 3u, 16u, 1000u}) {
      std::vector<int> hits(257, 0);
      for (int phase = 0; phase < 200; ++phase) {
        const std::size_t count = 1 + static_cast<std::size_t>(phase) % hits.size();
        pool.run(count, chunk, [&](std::size_t i) { ++hits[i]; });
      }
      // Item i ran in every phase whose count exceeded i.
      for (std::size_t i = 0; i < hits.size(); ++i) {
        int expected = 0;
        for (int phase = 0; phase < 200; ++phase)
          expected += i < 1 + static_cast<std::size_t>(phase) % hits.size() ? 1 : 0;
        ASSERT_EQ(hits[i], expected) << threads << " threads, chunk " << chunk << ", item " << i;
      }
    }
  }
}

TEST(WorkerPool, RunEachGivesEveryThreadItsOwnIndexOnTheSameThread) {
  for (int threads = 1; threads <= 4; ++threads) {
    WorkerPool pool(threads);
    std::vector<std::thread::id> first(static_cast<std::size_t>(threads));
    std::vector<int> calls(static_cast<std::size_t>(threads), 0);
    for (int phase = 0; phase < 100; ++phase) {
      pool.run_each([&](std::size_t t) {
        if (phase == 0) first[t] = std::this_thread::get_id();
        EXPECT_EQ(first[t], std::this_thread::get_id()) << "item " << t << " moved threads";
        ++calls[t];
      });
    }
    for (int c : calls) EXPECT_EQ(c, 100);
    EXPECT_EQ(first[0], std::this_thread::get_id());  // item 0 runs on the caller
  }
}

TEST(WorkerPool, EmptyPhaseAndBadSize) {
  WorkerPool pool(2);
  pool.run(0, 1, [](std::size_t) { FAIL() << "no item to run"; });
  EXPECT_THROW(WorkerPool(0), std::invalid_argument);
}

}  // namespace
}  // namespace wormsim::worker_pool_test
