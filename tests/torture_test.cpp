// Torture: every primitive under oversubscription (more threads than cores),
// random delays inside and outside the critical parts, invariants checked on
// every operation, over 10^6 operations in all. Natively, under TSan and in
// wasm. WSYNC_TORTURE_SCALE=N (e.g. 50) multiplies every loop: a soak for
// humans; the default keeps the suite within a few minutes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

#include "test_util.hpp"
#include "wsync/detail/access.hpp"
#include "wsync/wsync.hpp"

using wsync::detail::Access;

namespace {

using wsync_test::Rng;
using wsync_test::work;

// 4x the cores, but at most 8: the wasm test binary's pool has 12 workers.
int threads() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(std::min(4u * cores, 8u));
}

#ifdef __EMSCRIPTEN__
// A wasm program in Node sees Emscripten's own small environment, not the
// process's (getenv would never find the variable): read Node's. Worker
// threads carry a copy of process.env, so this works on any pthread.
// clang-format off
EM_JS(int, node_torture_scale, (), {
  var s = typeof process === 'object' && process.env ? process.env.WSYNC_TORTURE_SCALE : undefined;
  return s ? (parseInt(s, 10) | 0) : 0;
});
// clang-format on
#endif

int scale() {
#ifdef __EMSCRIPTEN__
  return std::max(1, node_torture_scale());
#else
  const char* s = std::getenv("WSYNC_TORTURE_SCALE");
  return s ? std::max(1, std::atoi(s)) : 1;
#endif
}

int scaled(int n) { return n * scale(); }

// A random pause: mostly a few dozen cycles, sometimes a yield, rarely a sleep.
void pause(Rng& rng) {
  const uint32_t r = rng.next(1024);
  if (r < 1000) {
    (void)work(r & 63);
  } else if (r < 1022) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

template <class Body>
void run_threads(int n, Body body) {
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t) pool.emplace_back(body, t);
  for (std::thread& t : pool) t.join();
}

TEST(Torture, MutexExcludesOverAMillionLocks) {
  const int n = threads();
  const int per_thread = scaled(1'000'000) / n;
  wsync::Mutex m;
  std::atomic<int> holder{-1};
  long counter = 0;  // plain: only the mutex protects it
  std::atomic<int> violations{0};
  run_threads(n, [&](int id) {
    Rng rng(static_cast<uint32_t>(id + 1));
    for (int i = 0; i < per_thread; ++i) {
      if ((i & 7) == 0 ? m.try_lock_for(std::chrono::microseconds(rng.next(200))) || (m.lock(), true)
                       : (m.lock(), true)) {
        if (holder.exchange(id, std::memory_order_relaxed) != -1) violations.fetch_add(1);
        ++counter;
        if ((i & 15) == 0) pause(rng);
        if (holder.exchange(-1, std::memory_order_relaxed) != id) violations.fetch_add(1);
        m.unlock();
      }
      if ((i & 3) == 0) pause(rng);
    }
  });
  EXPECT_EQ(violations.load(), 0) << "two threads inside the lock at once";
  EXPECT_EQ(counter, static_cast<long>(per_thread) * n);
  EXPECT_EQ(Access::native_word(m).load(), wsync::Mutex::kUnlocked);
}

TEST(Torture, SemaphoreNeverHandsOutMoreThanItsPermits) {
  const int n = threads();
  const int per_thread = scaled(40'000);
  constexpr int kPermits = 3;
  wsync::Semaphore sem(kPermits, kPermits);
  std::atomic<int> in_use{0};
  std::atomic<int> violations{0};
  run_threads(n, [&](int id) {
    Rng rng(static_cast<uint32_t>(id + 101));
    for (int i = 0; i < per_thread; ++i) {
      if ((i & 7) == 0) {
        if (!sem.try_acquire_for(std::chrono::microseconds(rng.next(100)))) continue;
      } else {
        sem.acquire();
      }
      if (in_use.fetch_add(1) + 1 > kPermits) violations.fetch_add(1);
      pause(rng);
      in_use.fetch_sub(1);
      sem.release();
      pause(rng);
    }
  });
  EXPECT_EQ(violations.load(), 0);
  EXPECT_EQ(Access::native_word(sem).load(), static_cast<uint32_t>(kPermits));
  EXPECT_EQ(Access::sleepers_word(sem).load(), 0u);
}

TEST(Torture, CondVarQueueLosesAndDuplicatesNothing) {
  const int producers = threads() / 2, consumers = threads() - threads() / 2;
  const int total = scaled(200'000);
  constexpr size_t kCapacity = 4;
  wsync::Mutex m;
  wsync::CondVar not_empty, not_full;
  std::vector<int> queue;  // guarded by m
  int produced = 0;        // guarded by m
  std::vector<std::atomic<uint8_t>> seen(static_cast<size_t>(total));
  std::atomic<int> consumed{0};
  std::vector<std::thread> pool;
  for (int p = 0; p < producers; ++p) {
    pool.emplace_back([&, p] {
      Rng rng(static_cast<uint32_t>(p + 201));
      for (;;) {
        std::unique_lock<wsync::Mutex> lock(m);
        not_full.wait(lock, [&] { return queue.size() < kCapacity || produced == total; });
        if (produced == total) return;
        queue.push_back(produced++);
        not_empty.notify_one();
        lock.unlock();
        pause(rng);
      }
    });
  }
  for (int c = 0; c < consumers; ++c) {
    pool.emplace_back([&, c] {
      Rng rng(static_cast<uint32_t>(c + 301));
      for (;;) {
        std::unique_lock<wsync::Mutex> lock(m);
        while (queue.empty()) {
          if (consumed.load() == total) return;
          (void)not_empty.wait_for(lock, std::chrono::milliseconds(rng.next(3) + 1));
        }
        const int item = queue.front();
        queue.erase(queue.begin());
        not_full.notify_all();
        lock.unlock();
        seen[static_cast<size_t>(item)].fetch_add(1);
        if (consumed.fetch_add(1) + 1 == total) {
          std::lock_guard<wsync::Mutex> relock(m);
          not_empty.notify_all();
        }
        pause(rng);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  int wrong = 0;
  for (auto& s : seen) wrong += s.load() != 1;
  EXPECT_EQ(wrong, 0) << "items lost or duplicated";
  EXPECT_EQ(Access::waiters_word(not_empty).load() + Access::waiters_word(not_full).load(), 0u);
}

TEST(Torture, BarrierPhasesStayInStep) {
  const int n = threads();
  const int phases = scaled(20'000);
  std::vector<std::atomic<int>> at(static_cast<size_t>(n));
  std::atomic<int> bad{0};
  std::atomic<int> completed{0};
  struct Check {
    std::vector<std::atomic<int>>* at;
    std::atomic<int>* bad;
    std::atomic<int>* completed;
    void operator()() noexcept {
      const int phase = completed->load(std::memory_order_relaxed);
      for (auto& a : *at) {
        if (a.load(std::memory_order_relaxed) != phase) bad->fetch_add(1);
      }
      completed->fetch_add(1, std::memory_order_relaxed);
    }
  };
  wsync::Barrier<Check> barrier(n, Check{&at, &bad, &completed});
  run_threads(n, [&](int id) {
    Rng rng(static_cast<uint32_t>(id + 401));
    for (int p = 0; p < phases; ++p) {
      at[static_cast<size_t>(id)].store(p, std::memory_order_relaxed);
      if ((p & 31) == 0) pause(rng);
      if ((p & 1) == 0) {
        barrier.arrive_and_wait();
      } else {
        barrier.wait(barrier.arrive());
      }
    }
  });
  EXPECT_EQ(bad.load(), 0) << "a phase completed before every participant arrived";
  EXPECT_EQ(completed.load(), phases);
}

TEST(Torture, WaitGroupAndLatchRoundsReleaseOnlyWhenAllAreDone) {
  const int n = threads();
  const int rounds = scaled(20'000);
  // One Latch per round starts it; one WaitGroup, reused every round, ends it.
  std::vector<std::unique_ptr<wsync::Latch>> go;
  for (int r = 0; r < rounds; ++r) go.push_back(std::make_unique<wsync::Latch>(1));
  wsync::WaitGroup wg;
  std::atomic<int> finished{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t) {
    pool.emplace_back([&, t] {
      Rng rng(static_cast<uint32_t>(t + 501));
      for (int r = 0; r < rounds; ++r) {
        go[static_cast<size_t>(r)]->wait();
        if (rng.next(8) == 0) pause(rng);
        finished.fetch_add(1, std::memory_order_relaxed);
        wg.done();
      }
    });
  }
  int early = 0;
  for (int r = 0; r < rounds; ++r) {
    wg.add(n);  // before the round starts, as in Go
    go[static_cast<size_t>(r)]->count_down();
    wg.wait();
    // wait() returned: every done() of the round, and what preceded it, happened.
    if (finished.load(std::memory_order_relaxed) != n * (r + 1)) ++early;
  }
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(early, 0) << "wait() returned before every done()";
  EXPECT_EQ(Access::native_word(wg).load(), 0u);
}

TEST(Torture, OnceRunsExactlyOnceUnderRaces) {
  const int n = threads();
  const int rounds = scaled(5'000);
  std::vector<std::unique_ptr<wsync::Once>> onces;
  for (int r = 0; r < rounds; ++r) onces.push_back(std::make_unique<wsync::Once>());
  std::vector<int> values(static_cast<size_t>(rounds), 0);  // written by f, read after call_once
  std::atomic<int> runs{0};
  std::atomic<int> wrong{0};
  wsync::Barrier<> in_step(n);  // everyone races on the same Once each round
  run_threads(n, [&](int id) {
    Rng rng(static_cast<uint32_t>(id + 601));
    for (int r = 0; r < rounds; ++r) {
      in_step.arrive_and_wait();
      if (rng.next(2)) pause(rng);
      wsync::call_once(*onces[static_cast<size_t>(r)], [&] {
        runs.fetch_add(1, std::memory_order_relaxed);
        if (rng.next(16) == 0) pause(rng);  // others queue meanwhile
        values[static_cast<size_t>(r)] = r + 1;
      });
      if (values[static_cast<size_t>(r)] != r + 1) wrong.fetch_add(1);
    }
  });
  EXPECT_EQ(runs.load(), rounds) << "one run per Once";
  EXPECT_EQ(wrong.load(), 0) << "a caller returned before f's write was visible";
}

}  // namespace
