#include "worker_pool.h"

#include <chrono>
#include <stdexcept>

namespace wormsim {

namespace {
// Waiting for a phase to start or end: kSpin polls (a few microseconds), then polls for up to
// kPollBudget of wall time that give the core away every kYieldEvery polls (the machine may
// be shared or have fewer cores than threads), then a blocking wait. The budget covers the
// serial commit between two parallel phases of a busy simulation (a few hundred microseconds
// on a 64x64 mesh): a worker that blocks there pays a wake-up on every cycle, which cost a
// 2-thread run about a tenth of its speed-up on a 2-core VM (docs/performance.md, "Threads").
// An idle pool blocks after the budget and burns no core.
constexpr int kSpin = 512;
constexpr int kYieldEvery = 64;
constexpr std::chrono::microseconds kPollBudget{2000};

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls `waiting` until it returns false or the budget runs out; returns whether it still waits.
template <typename F>
bool poll(F waiting) {
  for (int i = 0; i < kSpin; ++i) {
    if (!waiting()) return false;
    pause();
  }
  const auto until = std::chrono::steady_clock::now() + kPollBudget;
  for (;;) {
    for (int i = 0; i < kYieldEvery; ++i) {
      if (!waiting()) return false;
      pause();
    }
    std::this_thread::yield();
    if (std::chrono::steady_clock::now() >= until) return waiting();
  }
}
}  // namespace

WorkerPool::WorkerPool(int threads) {
  if (threads < 1) throw std::invalid_argument("WorkerPool: threads must be >= 1");
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t)
    workers_.emplace_back([this, t] { worker_loop(static_cast<std::size_t>(t)); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::work() {
  for (;;) {
    const std::size_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= count_) return;
    const std::size_t end = std::min(count_, begin + chunk_);
    for (std::size_t i = begin; i < end; ++i) (*task_)(i);
  }
}

void WorkerPool::worker_loop(std::size_t index) {
  std::uint64_t seen = 0;
  for (;;) {
    poll([&] { return generation_.load(std::memory_order_acquire) == seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_cv_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
      seen = generation_.load(std::memory_order_acquire);
      if (stop_) return;
    }
    if (each_)
      (*task_)(index);
    else
      work();
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_cv_.notify_one();
    }
  }
}

void WorkerPool::start_phase() {
  running_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_cv_.notify_all();
}

void WorkerPool::finish_phase() {
  if (poll([&] { return running_.load(std::memory_order_acquire) != 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_cv_.wait(lock, [&] { return running_.load(std::memory_order_acquire) == 0; });
  }
}

void WorkerPool::run(std::size_t count, std::size_t chunk,
                     const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  task_ = &task;
  each_ = false;
  count_ = count;
  chunk_ = chunk < 1 ? 1 : chunk;
  next_.store(0, std::memory_order_relaxed);
  if (workers_.empty()) {
    work();
    return;
  }
  start_phase();
  work();
  finish_phase();
}

void WorkerPool::run_each(const std::function<void(std::size_t)>& task) {
  task_ = &task;
  each_ = true;
  if (!workers_.empty()) start_phase();
  task(0);
  if (!workers_.empty()) finish_phase();
}

}  // namespace wormsim
