// A persistent pool of threads that runs one parallel phase at a time (docs/architecture.md,
// "One cycle"): run() hands out the items [0, count) in chunks to the pool's threads and the
// calling thread, and returns when every item is done. Threads are started once, by the
// constructor, and wait between phases: they poll for up to about 2 ms, giving the core away
// every few polls (the next phase of a busy simulation follows within the serial commit
// between two phases), and then block on a condition variable, so an idle pool burns no core.
// Which thread runs which item is unspecified; callers make results independent of it by
// letting each item write only its own state.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wormsim {

class WorkerPool {
 public:
  // `threads` >= 1 counts the calling thread: a pool of 1 starts no thread and run() calls the
  // task on the caller.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Calls task(i) for every i in [0, count), items claimed in chunks of `chunk` (>= 1).
  // `task` must not throw (catch inside it and report through the item's own state).
  void run(std::size_t count, std::size_t chunk, const std::function<void(std::size_t)>& task);
  // Calls task(t) once for every thread t in [0, threads()), thread t always the same one (0
  // is the caller), so per-thread data stays in that thread's cache from call to call.
  void run_each(const std::function<void(std::size_t)>& task);

 private:
  void start_phase();
  void finish_phase();
  void worker_loop(std::size_t index);
  void work();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_;
  std::condition_variable done_cv_;
  std::atomic<std::uint64_t> generation_{0};  // incremented (under mutex_) per phase
  bool stop_ = false;                         // guarded by mutex_
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  std::size_t chunk_ = 1;
  bool each_ = false;                 // run_each(): worker t runs item t
  std::atomic<std::size_t> next_{0};  // first unclaimed item
  std::atomic<int> running_{0};       // workers still in the current phase
};

}  // namespace wormsim
