// wsync::Semaphore: every call, the maximum, "did it really sleep?",
// timeouts, release(n), and 4 producers / 4 consumers moving 10^5 items
// through a ring buffer guarded by two semaphores.
#include "wsync/semaphore.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"
#include "wsync/mutex.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::BinarySemaphore;
using wsync::CountingSemaphore;
using wsync::Semaphore;

static_assert(!std::is_copy_constructible_v<Semaphore> && !std::is_move_constructible_v<Semaphore>);
static_assert(sizeof(CountingSemaphore<5>) == 12 && sizeof(BinarySemaphore) == 12);
static_assert(BinarySemaphore::max() == 1 && CountingSemaphore<>::max() == Semaphore::kMax);
constinit Semaphore g_global_semaphore(2, 3);
constinit BinarySemaphore g_global_binary(0);

uint32_t count(Semaphore& s) { return Access::native_word(s).load(); }
uint32_t sleepers(Semaphore& s) { return Access::sleepers_word(s).load(); }

TEST(Semaphore, CountsPermitsUpToItsMaximum) {
  EXPECT_EQ(g_global_semaphore.max(), 3);
  EXPECT_EQ(count(g_global_semaphore), 2u);
  Semaphore s(2, 3);
  EXPECT_TRUE(s.try_acquire());
  EXPECT_TRUE(s.try_acquire());
  EXPECT_FALSE(s.try_acquire());
  s.release(3);
  EXPECT_EQ(count(s), 3u);
  s.acquire();
  EXPECT_EQ(count(s), 2u);
  s.release(0);  // nothing
  EXPECT_EQ(count(s), 2u);
  EXPECT_EQ(sleepers(s), 0u);
}

TEST(Semaphore, BinarySemaphoreHandsOverBetweenThreads) {
  g_global_binary.release();
  EXPECT_TRUE(g_global_binary.try_acquire());
  EXPECT_FALSE(g_global_binary.try_acquire());
  BinarySemaphore ping(0), pong(0);
  int value = 0;  // handed back and forth: each side writes only while it holds the turn
  std::thread other([&] {
    for (int i = 0; i < 1000; ++i) {
      ping.acquire();
      ++value;
      pong.release();
    }
  });
  for (int i = 0; i < 1000; ++i) {
    ++value;
    ping.release();
    pong.acquire();
  }
  other.join();
  EXPECT_EQ(value, 2000);
}

TEST(Semaphore, AcquirerReallySleepsAndReleaseWakesIt) {
  Semaphore s(0);
  std::thread acquirer([&] { s.acquire(); });
  ASSERT_TRUE(eventually([&] { return sleepers(s) == 1; })) << "registered to sleep";
  s.release();
  acquirer.join();
  EXPECT_EQ(count(s), 0u);
  EXPECT_EQ(sleepers(s), 0u);
}

TEST(Semaphore, ReleaseOfNWakesNSleepers) {
  Semaphore s(0);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) threads.emplace_back([&] { s.acquire(); });
  ASSERT_TRUE(eventually([&] { return sleepers(s) == 4; }));
  s.release(4);
  for (auto& t : threads) t.join();
  EXPECT_EQ(count(s), 0u);
  EXPECT_EQ(sleepers(s), 0u);
}

TEST(Semaphore, TimedAcquireTimesOutNeverEarlyAndSucceedsInTime) {
  Semaphore s(0);
  for (int ms : {0, 1, 20}) {
    const auto start = Clock::now();
    EXPECT_FALSE(s.try_acquire_for(milliseconds(ms)));
    EXPECT_GE(Clock::now() - start, milliseconds(ms));
  }
  EXPECT_FALSE(s.try_acquire_until(std::chrono::system_clock::now() + milliseconds(5)));
  EXPECT_EQ(sleepers(s), 0u) << "a timed-out acquirer deregisters";
  std::thread releaser([&] {
    ASSERT_TRUE(eventually([&] { return sleepers(s) == 1; }));
    s.release();
  });
  EXPECT_TRUE(s.try_acquire_for(std::chrono::seconds(60)));
  releaser.join();
  EXPECT_EQ(count(s), 0u);
  EXPECT_EQ(sleepers(s), 0u);
}

TEST(Semaphore, HugeTimeoutsMeanForever) {
  Semaphore s(1);
  EXPECT_TRUE(s.try_acquire_until(Clock::time_point::max()));
  s.release();
  EXPECT_TRUE(s.try_acquire_for(std::chrono::duration<double>(1e300)));
}

// A ring buffer of 16 slots: `free` counts empty slots, `full` filled ones;
// a Mutex orders the slot indices. 4 producers push 10^5 distinct items in
// all, 4 consumers pop them; each item arrives exactly once.
TEST(Semaphore, ProducersAndConsumersLoseAndDuplicateNothing) {
  constexpr int kProducers = 4, kConsumers = 4, kItems = 100000, kSlots = 16;
  Semaphore free_slots(kSlots), full_slots(0);
  wsync::Mutex m;
  int ring[kSlots];
  int head = 0, tail = 0;  // guarded by m
  std::vector<int> seen(kItems, 0);
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = p; i < kItems; i += kProducers) {
        free_slots.acquire();
        m.lock();
        ring[tail] = i;
        tail = (tail + 1) % kSlots;
        m.unlock();
        full_slots.release();
      }
    });
  }
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&] {
      for (int n = 0; n < kItems / kConsumers; ++n) {
        full_slots.acquire();
        m.lock();
        const int item = ring[head];
        head = (head + 1) % kSlots;
        m.unlock();
        free_slots.release();
        ++seen[static_cast<size_t>(item)];
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kItems; ++i) ASSERT_EQ(seen[static_cast<size_t>(i)], 1) << "item " << i;
  EXPECT_EQ(count(free_slots), static_cast<uint32_t>(kSlots));
  EXPECT_EQ(count(full_slots), 0u);
  EXPECT_EQ(sleepers(free_slots) + sleepers(full_slots), 0u);
}

#if GTEST_HAS_DEATH_TEST
TEST(SemaphoreDeathTest, ReleasePastTheMaximumAbortsAndChangesNothing) {
  Semaphore s(1, 2);
  EXPECT_DEATH(s.release(2), "^wsync: Semaphore released past its maximum\n");
  EXPECT_EQ(count(s), 1u);
  BinarySemaphore b(1);
  EXPECT_DEATH(b.release(), "^wsync: Semaphore released past its maximum\n");
  EXPECT_DEATH(s.release(-1), "^wsync: Semaphore release\\(\\) of a negative amount\n");
  EXPECT_DEATH(Semaphore(3, 2), "^wsync: Semaphore initial count out of range\n");
  EXPECT_DEATH(Semaphore(0, -1), "^wsync: Semaphore initial count out of range\n");
}
#endif

}  // namespace
