// wsync::Once and call_once: exactly once under a race of 8 threads, the
// waiters really wait for the runner, and a throwing run lets another retry.
#include "wsync/once.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::Once;

static_assert(!std::is_copy_constructible_v<Once> && !std::is_move_constructible_v<Once>);
constinit Once g_global_once;

TEST(Once, RunsOnceAndPassesArguments) {
  int runs = 0;
  for (int i = 0; i < 3; ++i)
    wsync::call_once(
        g_global_once, [&](int n) { runs += n; }, 5);
  EXPECT_EQ(runs, 5);
  EXPECT_TRUE(g_global_once.is_complete());
  EXPECT_EQ(Access::native_word(g_global_once).load(), Once::kComplete);
}

TEST(Once, EightThreadsRaceAndEveryoneSeesTheResult) {
  for (int round = 0; round < 50; ++round) {
    Once once;
    std::atomic<int> runs{0};
    int value = 0;  // written by the one run, read by everyone after call_once
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&] {
        wsync::call_once(once, [&] {
          runs.fetch_add(1);
          work(2000);
          value = 7;
        });
        if (value != 7) wrong.fetch_add(1);
      });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ(runs.load(), 1);
    ASSERT_EQ(wrong.load(), 0);
  }
}

TEST(Once, WaitersSleepWhileTheRunnerRuns) {
  Once once;
  std::atomic<bool> release{false};
  std::thread runner([&] {
    wsync::call_once(once, [&] {
      while (!release.load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
    });
  });
  ASSERT_TRUE(eventually([&] { return Access::native_word(once).load() == Once::kRunning; }));
  std::thread waiter([&] { wsync::call_once(once, [] { ADD_FAILURE() << "ran twice"; }); });
  ASSERT_TRUE(eventually([&] { return Access::native_word(once).load() == Once::kQueued; })) << "a sleeper queued";
  release.store(true);
  runner.join();
  waiter.join();
  EXPECT_EQ(Access::native_word(once).load(), Once::kComplete);
}

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
// Eight threads race; whoever runs first throws; exactly one other run then
// completes it, and every caller returns (the thrower with its exception).
TEST(Once, AThrowingRunLetsAnotherCallerRetry) {
  for (int round = 0; round < 20; ++round) {
    Once once;
    std::atomic<int> attempts{0}, completed_runs{0}, caught{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&] {
        try {
          wsync::call_once(once, [&] {
            if (attempts.fetch_add(1) == 0) {
              work(1000);
              throw std::runtime_error("first run fails");
            }
            completed_runs.fetch_add(1);
          });
        } catch (const std::runtime_error&) {
          caught.fetch_add(1);
        }
      });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ(caught.load(), 1) << "the exception reached its caller";
    ASSERT_EQ(completed_runs.load(), 1);
    ASSERT_EQ(attempts.load(), 2);
    ASSERT_TRUE(once.is_complete());
  }
}
#endif

#if GTEST_HAS_DEATH_TEST
TEST(OnceDeathTest, CorruptedWordIsReported) {
  Once once;
  Access::native_word(once).store(9);
  EXPECT_DEATH(wsync::call_once(once, [] {}), "^wsync: corrupted Once word\n");
}
#endif

}  // namespace
