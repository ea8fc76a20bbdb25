// wsync::Barrier: phases, the completion function (exactly once per phase,
// before anyone is released), 10^4 phases with a per-phase invariant,
// arrive(n), arrive_and_drop, timeouts, misuse.
#include "wsync/barrier.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::Barrier;

static_assert(!std::is_copy_constructible_v<Barrier<>> && !std::is_move_constructible_v<Barrier<>>);
static_assert(Barrier<>::max() == 0x7fffffff);
constinit Barrier<> g_global_barrier(1);

TEST(Barrier, ASingleParticipantPassesEveryPhase) {
  for (int i = 0; i < 5; ++i) g_global_barrier.arrive_and_wait();
  EXPECT_EQ(Access::native_word(g_global_barrier).load(), 5u) << "five phases, nobody ever slept";
}

// K threads run 10^4 phases. In each phase every thread writes the phase
// number into its own slot before arriving; the completion function checks
// that every slot holds this phase (everyone's writes are visible to it),
// counts the phase, and publishes it; after the wait every thread checks it
// sees the completion's count (the completion happens-before the release).
TEST(Barrier, TenThousandPhasesWithAPerPhaseInvariant) {
  constexpr int kThreads = 4, kPhases = 10000;
  std::vector<int> slots(kThreads, -1);
  int completed = 0;  // written only by the completion function
  int bad_completions = 0;
  auto completion = [&]() noexcept {
    for (int s : slots) {
      if (s != completed) ++bad_completions;
    }
    ++completed;
  };
  Barrier<decltype(completion)> barrier(kThreads, completion);
  std::atomic<int> bad_releases{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(static_cast<uint32_t>(t + 1));
      for (int phase = 0; phase < kPhases; ++phase) {
        work(rng.next(50));
        slots[static_cast<size_t>(t)] = phase;
        barrier.arrive_and_wait();
        if (completed != phase + 1) bad_releases.fetch_add(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(completed, kPhases) << "exactly one completion per phase";
  EXPECT_EQ(bad_completions, 0);
  EXPECT_EQ(bad_releases.load(), 0);
  EXPECT_EQ(Access::native_word(barrier).load() & 0x7fff'ffffu, static_cast<uint32_t>(kPhases));
}

TEST(Barrier, ArriveReturnsATokenToWaitOnLater) {
  Barrier<> barrier(2);
  auto token = barrier.arrive();
  std::thread other([&] { barrier.arrive_and_wait(); });
  barrier.wait(std::move(token));
  other.join();
  auto next = barrier.arrive(2);  // both arrivals of phase 1 at once
  barrier.wait(std::move(next));  // already complete: returns at once
  EXPECT_EQ(Access::native_word(barrier).load(), 2u);
}

TEST(Barrier, ArriveAndDropShrinksTheNextPhases) {
  Barrier<> barrier(3);
  std::atomic<int> phases_seen{0};
  std::thread leaver([&] { barrier.arrive_and_drop(); });
  std::thread stayer([&] {
    for (int i = 0; i < 100; ++i) barrier.arrive_and_wait();
    phases_seen.fetch_add(100);
  });
  for (int i = 0; i < 100; ++i) barrier.arrive_and_wait();  // phase 0 with 3, then with 2
  leaver.join();
  stayer.join();
  EXPECT_EQ(phases_seen.load(), 100);
}

TEST(Barrier, WaitersReallySleep) {
  Barrier<> barrier(2);
  std::thread waiter([&] { barrier.arrive_and_wait(); });
  ASSERT_TRUE(eventually([&] { return (Access::native_word(barrier).load() & 0x8000'0000u) != 0; }));
  barrier.arrive_and_wait();
  waiter.join();
  EXPECT_EQ(Access::native_word(barrier).load(), 1u) << "phase 1, WAITERS cleared";
}

TEST(Barrier, TimedWaitTimesOutNeverEarly) {
  Barrier<> barrier(2);
  auto token = barrier.arrive();
  const auto start = Clock::now();
  EXPECT_FALSE(barrier.wait_for(std::move(token), milliseconds(20)));
  EXPECT_GE(Clock::now() - start, milliseconds(20));
  auto again = barrier.arrive();  // the second arrival of the same phase: completes it
  EXPECT_TRUE(barrier.wait_until(std::move(again), Clock::time_point::max()));
}

#if GTEST_HAS_DEATH_TEST
TEST(BarrierDeathTest, OverArrivalAbortsAndChangesNothing) {
  Barrier<> barrier(2);
  EXPECT_DEATH((void)barrier.arrive(3), "^wsync: Barrier over-arrival\n");
  EXPECT_DEATH((void)barrier.arrive(0), "^wsync: Barrier arrive\\(\\) count must be at least 1\n");
  EXPECT_DEATH(Barrier<>(-1), "^wsync: Barrier count out of range\n");
  Barrier<> empty(0);
  EXPECT_DEATH(empty.arrive_and_drop(), "^wsync: Barrier over-arrival\n");
  EXPECT_EQ(Access::native_word(barrier).load(), 0u);
}
#endif

}  // namespace
