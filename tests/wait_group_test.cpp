// wsync::WaitGroup: Go semantics, fork-join, reuse, timeouts, misuse.
#include "wsync/wait_group.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::WaitGroup;

static_assert(!std::is_copy_constructible_v<WaitGroup> && !std::is_move_constructible_v<WaitGroup>);
static_assert(std::is_nothrow_default_constructible_v<WaitGroup>);

constinit WaitGroup g_global_wait_group;

uint32_t word(WaitGroup& wg) { return Access::native_word(wg).load(); }

TEST(WaitGroup, ZeroCounterWaitReturnsAtOnce) {
  WaitGroup wg;
  wg.wait();
  EXPECT_TRUE(wg.wait_for(milliseconds(0)));
  EXPECT_TRUE(g_global_wait_group.wait_for(milliseconds(0)));
  EXPECT_EQ(word(wg), 0u);  // a wait that never slept leaves no WAITERS flag
}

TEST(WaitGroup, AddAndDoneCountWithoutWaitersFlag) {
  WaitGroup wg;
  wg.add(3);
  EXPECT_EQ(word(wg), 3u);
  wg.done();
  wg.add(-1);
  EXPECT_EQ(word(wg), 1u);  // nobody waits: the flag stays clear, done() notifies nobody
  wg.done();
  EXPECT_EQ(word(wg), 0u);
  wg.add(0);
  EXPECT_EQ(word(wg), 0u);
}

// The seed's pattern: workers write results to plain memory, then done();
// after wait() the caller reads them (TSan checks the happens-before).
TEST(WaitGroup, ForkJoinAcrossFourThreadsPublishesResults) {
  WaitGroup wg;
  long results[4] = {0, 0, 0, 0};
  std::vector<std::thread> threads;
  wg.add(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      work(1000u * static_cast<uint32_t>(i));
      results[i] = (i + 2L) * (i + 2L) * (i % 2 ? i + 2L : 1L);  // squares and cubes
      wg.done();
    });
  }
  wg.wait();
  EXPECT_EQ(results[0], 4);
  EXPECT_EQ(results[1], 27);
  EXPECT_EQ(results[2], 16);
  EXPECT_EQ(results[3], 125);
  EXPECT_EQ(word(wg), 0u);
  for (auto& t : threads) t.join();
}

TEST(WaitGroup, WaitersReallySleepAndAllAreWoken) {
  WaitGroup wg;
  wg.add(1);
  std::atomic<int> returned{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 4; ++i) {
    waiters.emplace_back([&] {
      wg.wait();
      returned.fetch_add(1);
    });
  }
  // Sleepers announce themselves: the WAITERS bit appears on the word.
  ASSERT_TRUE(eventually([&] { return (word(wg) & wsync::detail::kWaitersBit) != 0; }));
  EXPECT_EQ(returned.load(), 0);
  wg.done();  // reaches zero with WAITERS set: wakes everyone, clears the flag
  for (auto& t : waiters) t.join();
  EXPECT_EQ(returned.load(), 4);
  EXPECT_EQ(word(wg), 0u);
}

// count() is the counter alone: a sleeper's WAITERS bit does not show.
TEST(WaitGroup, CountIsTheCounterWithoutTheWaitersBit) {
  WaitGroup wg;
  EXPECT_EQ(wg.count(), 0);
  wg.add(3);
  EXPECT_EQ(wg.count(), 3);
  std::thread waiter([&] { wg.wait(); });
  ASSERT_TRUE(eventually([&] { return (word(wg) & wsync::detail::kWaitersBit) != 0; }));
  EXPECT_EQ(wg.count(), 3);
  wg.add(-2);
  EXPECT_EQ(wg.count(), 1);
  wg.done();
  waiter.join();
  EXPECT_EQ(wg.count(), 0);
}

// Go's test reuses one WaitGroup 8 times; so does this one, with waiters.
TEST(WaitGroup, ReusedEightTimes) {
  WaitGroup wg;
  for (int round = 0; round < 8; ++round) {
    std::atomic<int> finished{0};
    std::vector<std::thread> threads;
    wg.add(4);
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&, i] {
        work(500u * static_cast<uint32_t>(i + round));
        finished.fetch_add(1, std::memory_order_relaxed);
        wg.done();
      });
    }
    std::thread second_waiter([&] {
      wg.wait();
      EXPECT_EQ(finished.load(), 4);
    });
    wg.wait();
    EXPECT_EQ(finished.load(), 4) << "round " << round;
    second_waiter.join();
    for (auto& t : threads) t.join();
    EXPECT_EQ(word(wg), 0u) << "round " << round;
  }
}

TEST(WaitGroup, WaitForTimesOutWhileWorkIsPendingNeverEarly) {
  WaitGroup wg;
  wg.add(1);
  for (auto timeout : {milliseconds(0), milliseconds(1), milliseconds(30)}) {
    const auto start = Clock::now();
    EXPECT_FALSE(wg.wait_for(timeout));
    EXPECT_GE(Clock::now() - start, timeout) << "timed out early";
  }
  const auto deadline = Clock::now() + milliseconds(20);
  EXPECT_FALSE(wg.wait_until(deadline));
  EXPECT_GE(Clock::now(), deadline);
  EXPECT_FALSE(wg.wait_until(std::chrono::system_clock::now() + milliseconds(5)));
  wg.done();
  EXPECT_TRUE(wg.wait_for(milliseconds(0)));
  EXPECT_EQ(word(wg), 0u);  // the WAITERS flag a timed-out wait left is cleared at zero
}

TEST(WaitGroup, TimedWaitSucceedsWhenDoneArrivesInTime) {
  WaitGroup wg;
  wg.add(2);
  bool ok = false;
  std::thread waiter([&] { ok = wg.wait_for(std::chrono::seconds(30)); });
  ASSERT_TRUE(eventually([&] { return (word(wg) & wsync::detail::kWaitersBit) != 0; }));
  wg.done();
  wg.done();
  waiter.join();
  EXPECT_TRUE(ok);
}

TEST(WaitGroup, ManyDoneCallsRacingToZero) {
  WaitGroup wg;
  constexpr int kThreads = 8, kEach = 2000;
  wg.add(kThreads * kEach);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) wg.done();
    });
  }
  wg.wait();
  for (auto& t : threads) t.join();
  EXPECT_EQ(word(wg), 0u);
}

#if GTEST_HAS_DEATH_TEST
TEST(WaitGroupDeathTest, NegativeCounterAborts) {
  WaitGroup wg;
  EXPECT_DEATH(wg.done(), "^wsync: negative WaitGroup counter\n");
  wg.add(2);
  EXPECT_DEATH(wg.add(-3), "^wsync: negative WaitGroup counter\n");
}

TEST(WaitGroupDeathTest, CounterOverflowAborts) {
  WaitGroup wg;
  wg.add(0x7fffffff);
  EXPECT_DEATH(wg.add(1), "^wsync: WaitGroup counter overflow\n");
}
#endif

}  // namespace
