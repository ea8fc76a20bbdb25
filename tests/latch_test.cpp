// wsync::Latch: every call, "did it really sleep?", timeouts, misuse.
#include "wsync/latch.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::Latch;

static_assert(!std::is_copy_constructible_v<Latch> && !std::is_move_constructible_v<Latch>);
static_assert(Latch::max() == 0x7fffffff);
constinit Latch g_global_latch(1);

uint32_t word(Latch& l) { return Access::native_word(l).load(); }

TEST(Latch, ZeroIsReleasedFromTheStart) {
  Latch l(0);
  EXPECT_TRUE(l.try_wait());
  l.wait();
  EXPECT_EQ(word(l), 0u);
}

TEST(Latch, CountsDownToReleaseAndStaysReleased) {
  EXPECT_FALSE(g_global_latch.try_wait());
  g_global_latch.count_down();
  EXPECT_TRUE(g_global_latch.try_wait());
  Latch l(5);
  l.count_down(2);
  EXPECT_EQ(word(l), 3u) << "no waiter: no WAITERS bit";
  EXPECT_FALSE(l.try_wait());
  l.count_down(3);
  EXPECT_TRUE(l.try_wait());
  l.count_down(0);  // allowed: nothing
  l.wait();
}

TEST(Latch, WaitersReallySleepAndAllAreReleased) {
  Latch l(1);
  int published = 0;  // written before count_down, read after wait
  std::vector<std::thread> threads;
  std::atomic<int> seen{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      l.wait();
      if (published == 42) seen.fetch_add(1);
    });
  }
  ASSERT_TRUE(eventually([&] { return (word(l) & 0x8000'0000u) != 0; })) << "a waiter announced itself";
  published = 42;
  l.count_down();
  for (auto& t : threads) t.join();
  EXPECT_EQ(seen.load(), 4) << "count_down happens-before every wait's return";
  EXPECT_EQ(word(l), 0u);
}

TEST(Latch, ArriveAndWaitByEightThreads) {
  Latch l(8);
  std::atomic<int> arrived{0}, early{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      arrived.fetch_add(1);
      l.arrive_and_wait();
      if (arrived.load() != 8) early.fetch_add(1);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(early.load(), 0) << "nobody left before everyone arrived";
  EXPECT_EQ(word(l), 0u);
}

TEST(Latch, TimedWaitTimesOutNeverEarlyAndSucceedsInTime) {
  Latch l(1);
  for (int ms : {0, 1, 20}) {
    const auto start = Clock::now();
    EXPECT_FALSE(l.wait_for(milliseconds(ms)));
    EXPECT_GE(Clock::now() - start, milliseconds(ms));
  }
  EXPECT_FALSE(l.wait_until(std::chrono::system_clock::now() + milliseconds(5)));
  std::thread counter([&] {
    std::this_thread::sleep_for(milliseconds(10));
    l.count_down();
  });
  EXPECT_TRUE(l.wait_for(std::chrono::seconds(60)));
  counter.join();
  EXPECT_TRUE(l.wait_until(Clock::time_point::max()));
}

#if GTEST_HAS_DEATH_TEST
TEST(LatchDeathTest, CountingDownBelowZeroAbortsAndChangesNothing) {
  Latch l(2);
  EXPECT_DEATH(l.count_down(3), "^wsync: Latch counted down below zero\n");
  EXPECT_EQ(word(l), 2u);
  EXPECT_DEATH(l.count_down(-1), "^wsync: Latch count_down\\(\\) of a negative amount\n");
  EXPECT_DEATH(Latch(-1), "^wsync: Latch count out of range\n");
}
#endif

}  // namespace
