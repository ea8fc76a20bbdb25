// wsync::Mutex: every call, timeouts, the Lockable concepts, the handoff
// states, Go's fairness scenario, a contention grid with an invariant
// checked inside the lock, misuse.
#include "wsync/mutex.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "mutex_waiter.hpp"
#include "test_util.hpp"
#include "wsync/detail/access.hpp"
#include "wsync/tuning.h"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::Mutex;

static_assert(!std::is_copy_constructible_v<Mutex> && !std::is_move_constructible_v<Mutex>);
static_assert(!std::is_copy_assignable_v<Mutex> && !std::is_move_assignable_v<Mutex>);
static_assert(std::is_nothrow_default_constructible_v<Mutex>);

// constexpr construction: a global Mutex is constant-initialized.
constinit Mutex g_global_mutex;

uint32_t word(Mutex& m) { return Access::native_word(m).load(); }

TEST(Mutex, StartsUnlockedAndLocksWithoutContentionMarker) {
  Mutex m;
  EXPECT_EQ(word(m), Mutex::kUnlocked);
  m.lock();
  EXPECT_EQ(word(m), Mutex::kLocked);  // uncontended: no sleeper announced
  m.unlock();
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

TEST(Mutex, GlobalConstinitMutexWorks) {
  g_global_mutex.lock();
  EXPECT_FALSE(g_global_mutex.try_lock());
  g_global_mutex.unlock();
  EXPECT_EQ(word(g_global_mutex), Mutex::kUnlocked);
}

TEST(Mutex, TryLockSucceedsOnceThenFailsWhileHeld) {
  Mutex m;
  ASSERT_TRUE(m.try_lock());
  EXPECT_FALSE(m.try_lock());
  bool other_got_it = true;
  std::thread([&] { other_got_it = m.try_lock(); }).join();
  EXPECT_FALSE(other_got_it);
  m.unlock();
  std::thread([&] {
    other_got_it = m.try_lock();
    if (other_got_it) m.unlock();
  }).join();
  EXPECT_TRUE(other_got_it);
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

TEST(Mutex, WorksWithStandardLockTypes) {
  Mutex a, b;
  {
    std::lock_guard<Mutex> guard(a);
    EXPECT_EQ(word(a), Mutex::kLocked);
  }
  EXPECT_EQ(word(a), Mutex::kUnlocked);
  {
    std::unique_lock<Mutex> lock(a, std::defer_lock);
    EXPECT_TRUE(lock.try_lock_for(milliseconds(10)));
    lock.unlock();
    EXPECT_TRUE(lock.try_lock_until(Clock::now() + milliseconds(10)));
  }
  {
    std::scoped_lock both(a, b);
    EXPECT_EQ(word(a), Mutex::kLocked);
    EXPECT_EQ(word(b), Mutex::kLocked);
  }
  EXPECT_EQ(word(a), Mutex::kUnlocked);
  EXPECT_EQ(word(b), Mutex::kUnlocked);
}

TEST(Mutex, BlockedLockerSleepsAndIsWokenByUnlock) {
  Mutex m;
  m.lock();
  std::atomic<bool> acquired{false};
  std::thread locker([&] {
    m.lock();
    acquired = true;
    m.unlock();
  });
  // The locker announces itself as a sleeper: the word goes to CONTENDED.
  ASSERT_TRUE(eventually([&] { return word(m) == Mutex::kContended; }));
  EXPECT_FALSE(acquired.load());
  m.unlock();  // old state 2: must wake the sleeper
  locker.join();
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

TEST(Mutex, TryLockForTimesOutNeverEarly) {
  Mutex m;
  m.lock();
  for (auto timeout : {milliseconds(0), milliseconds(1), milliseconds(30)}) {
    bool got = true;
    Clock::duration elapsed{};
    std::thread([&] {
      const auto start = Clock::now();
      got = m.try_lock_for(timeout);
      elapsed = Clock::now() - start;
    }).join();
    EXPECT_FALSE(got);
    EXPECT_GE(elapsed, timeout) << "timed out early";
  }
  m.unlock();
  EXPECT_EQ(word(m), Mutex::kUnlocked);  // unlock resets the CONTENDED a timed-out sleeper left
}

TEST(Mutex, TryLockUntilTimesOutOnSteadyAndSystemClocks) {
  Mutex m;
  m.lock();
  std::thread([&] {
    const auto steady_deadline = Clock::now() + milliseconds(20);
    EXPECT_FALSE(m.try_lock_until(steady_deadline));
    EXPECT_GE(Clock::now(), steady_deadline);
    EXPECT_FALSE(m.try_lock_until(std::chrono::system_clock::now() + milliseconds(20)));
    EXPECT_FALSE(m.try_lock_until(Clock::now() - milliseconds(5)));  // already passed
  }).join();
  m.unlock();
}

TEST(Mutex, TimedLockSucceedsWhenReleasedInTime) {
  Mutex m;
  m.lock();
  bool got = false;
  std::thread waiter([&] {
    got = m.try_lock_for(std::chrono::seconds(30));
    if (got) m.unlock();
  });
  ASSERT_TRUE(eventually([&] { return word(m) == Mutex::kContended; }));
  m.unlock();
  waiter.join();
  EXPECT_TRUE(got);
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

TEST(Mutex, HugeTimeoutsMeanForever) {
  Mutex m;
  EXPECT_TRUE(m.try_lock_for(std::chrono::hours::max()));
  m.unlock();
  EXPECT_TRUE(m.try_lock_until(std::chrono::steady_clock::time_point::max()));
  m.unlock();
  EXPECT_TRUE(m.try_lock_for(std::chrono::duration<double>(1e300)));
  m.unlock();
}

TEST(Mutex, SpinLimitIsTunableAndZeroStillLocksCorrectly) {
#ifdef __EMSCRIPTEN__
  const int kDefault = 262144;
#else
  const int kDefault = 100;
#endif
  EXPECT_EQ(wsync_set_spin_limit(0), kDefault) << "the default";
  EXPECT_EQ(wsync_set_spin_limit(-5), 0) << "a negative limit is ignored";
  wsync::Mutex m;
  long counter = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        std::lock_guard<wsync::Mutex> lock(m);
        ++counter;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wsync_set_spin_limit(kDefault), 0);
  EXPECT_EQ(counter, 80000);
  EXPECT_EQ(Access::native_word(m).load(), wsync::Mutex::kUnlocked);
}

// Wakes the thread sleeping on `m` (held by the caller) until it has asked
// for the handoff. Each try turns CONTENDED back to LOCKED and wakes one: a
// woken sleeper past the bound finds LOCKED and asks (STARVING). A wake that
// reached nobody, because the thread had marked CONTENDED but not yet slept,
// is not a wake for it: it marks CONTENDED again and sleeps, and the next try
// wakes it.
bool wake_until_handoff_asked(Mutex& m) {
  return eventually([&] {
    uint32_t contended = Mutex::kContended;
    if (Access::native_word(m).compare_exchange_strong(contended, Mutex::kLocked)) {
      wsync::detail::futex_wake_one(Access::native_word(m));
    }
    return word(m) == Mutex::kStarving;
  });
}

// A sleeper's request (STARVING) makes the next unlock hand the lock over:
// the word goes to HANDOFF, which the woken sleeper takes as CONTENDED.
TEST(Mutex, UnlockOfStarvingMutexHandsOffToTheSleeper) {
  // Bound 0: a sleeper is past it from its first wake on.
  const int previous = wsync_set_handoff_after_us(0);
  Mutex m;
  m.lock();
  std::atomic<bool> acquired{false};
  std::thread sleeper([&] {
    m.lock();
    acquired = true;
    EXPECT_EQ(word(m), Mutex::kContended) << "a sleeper takes the handoff as CONTENDED";
    m.unlock();
  });
  const bool asked = wake_until_handoff_asked(m);
  m.unlock();
  sleeper.join();
  EXPECT_TRUE(asked) << "the sleeper never asked for the handoff";
  EXPECT_TRUE(acquired.load());
  EXPECT_EQ(word(m), Mutex::kUnlocked);
  wsync_set_handoff_after_us(previous);
}

// HANDOFF is free only for sleepers: the fast path and a thread that has not
// slept treat it as held; one that slept on it may take it.
TEST(Mutex, HandoffIsNotTakenByTryLockOrANewcomer) {
  Mutex m;
  Access::native_word(m).store(Mutex::kHandoff);
  EXPECT_FALSE(m.try_lock());
  EXPECT_EQ(word(m), Mutex::kHandoff);
  std::thread([&] {
    // A newcomer sleeps on HANDOFF; when its sleep times out it has slept,
    // and takes the lock rather than leave it to nobody.
    EXPECT_TRUE(m.try_lock_for(milliseconds(5)));
    EXPECT_EQ(word(m), Mutex::kContended);
    m.unlock();
  }).join();
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

// A timed waiter that asked for the handoff and then times out withdraws the
// request (STARVING back to CONTENDED): a HANDOFF nobody is left to take
// would keep the mutex from everyone.
TEST(Mutex, TimedOutWaiterWithdrawsItsHandoffRequest) {
  const int previous = wsync_set_handoff_after_us(0);
  Mutex m;
  m.lock();
  // The deadline leaves ample time for the request to be made.
  std::thread waiter([&] { EXPECT_FALSE(m.try_lock_for(milliseconds(1000))); });
  const bool asked = wake_until_handoff_asked(m);
  waiter.join();
  ASSERT_TRUE(asked) << "the waiter timed out before it asked for the handoff";
  EXPECT_EQ(word(m), Mutex::kContended) << "the request is withdrawn";
  m.unlock();
  EXPECT_EQ(word(m), Mutex::kUnlocked) << "an ordinary unlock, no handoff to nobody";
  wsync_set_handoff_after_us(previous);
}

// While the lock's handoff gate is closed (a handoff was served within the
// bound), a sleeper past the bound that is woken sleeps on as CONTENDED
// instead of asking: with more threads than cores every sleeper is past the
// bound, and a handoff at each unlock would idle the lock for a wake every
// time. Once the bound has passed it asks, and the handoff it is served
// closes the gate again.
TEST(Mutex, ClosedGateHoldsBackARequestForTheBound) {
  using wsync::detail::close_handoff_gate;
  using wsync::detail::Deadline;
  using wsync::detail::handoff_gate;
  using wsync::detail::handoff_gate_open;
  constexpr auto bound = milliseconds(500);
  const int previous = wsync_set_handoff_after_us(500'000);
  Mutex m;
  std::atomic<uint32_t>& w = Access::native_word(m);
  m.lock();
  std::atomic<bool> acquired{false};
  std::atomic<bool> gate_closed_after_its_handoff{false};
  std::thread sleeper([&] {
    m.lock();
    gate_closed_after_its_handoff = !handoff_gate_open(handoff_gate(w), Deadline::now_ns());
    acquired = true;
    m.unlock();
  });
  ASSERT_TRUE(wake_until_handoff_asked(m));
  // As if a handoff had just been served: close the gate, then take the
  // request back (the sleeper sleeps on STARVING until the word changes).
  const auto closed_at = Clock::now();
  close_handoff_gate(w, Deadline::now_ns());
  uint32_t starving = Mutex::kStarving;
  ASSERT_TRUE(w.compare_exchange_strong(starving, Mutex::kContended));
  int answered = 0;
  while (Clock::now() < closed_at + bound - milliseconds(50)) {
    uint32_t contended = Mutex::kContended;
    if (w.compare_exchange_strong(contended, Mutex::kLocked)) wsync::detail::futex_wake_one(w);
    std::this_thread::sleep_for(milliseconds(2));
    const uint32_t seen = word(m);
    ASSERT_NE(seen, Mutex::kStarving) << "asked for a handoff while the gate was closed";
    answered += seen == Mutex::kContended;
  }
  EXPECT_GT(answered, 0) << "the woken sleeper never marked the word again";
  EXPECT_TRUE(wake_until_handoff_asked(m)) << "the gate never opened";
  m.unlock();  // STARVING -> HANDOFF: served to the sleeper, past the bound
  sleeper.join();
  EXPECT_TRUE(acquired.load());
  EXPECT_TRUE(gate_closed_after_its_handoff.load()) << "a served handoff closes the gate";
  EXPECT_EQ(word(m), Mutex::kUnlocked);
  wsync_set_handoff_after_us(previous);
}

// The gate is per lock (by address) and never closed for longer than twice
// the bound, even when it was closed on a clock running ahead of the
// reader's.
TEST(Mutex, HandoffGateOpensAfterTheBoundAndIgnoresAClockAhead) {
  using wsync::detail::close_handoff_gate;
  using wsync::detail::handoff_gate;
  using wsync::detail::handoff_gate_open;
  const int previous = wsync_set_handoff_after_us(1000);
  Mutex m;
  const std::atomic<uint32_t>& w = Access::native_word(m);
  const int64_t t = 1'000'000'000'000;
  close_handoff_gate(w, t);
  EXPECT_FALSE(handoff_gate_open(handoff_gate(w), t));
  EXPECT_FALSE(handoff_gate_open(handoff_gate(w), t + 999'999));
  EXPECT_TRUE(handoff_gate_open(handoff_gate(w), t + 1'000'000));
  EXPECT_FALSE(handoff_gate_open(handoff_gate(w), t - 1'000'000)) << "closed on a clock a bound ahead of ours";
  EXPECT_TRUE(handoff_gate_open(handoff_gate(w), t - 1'000'001)) << "closed on a clock far ahead of ours";
  close_handoff_gate(w, 0);
  EXPECT_TRUE(handoff_gate_open(handoff_gate(w), t));
  wsync_set_handoff_after_us(previous);
}

#if GTEST_HAS_DEATH_TEST
TEST(MutexDeathTest, UnlockOfUnlockedMutexAborts) {
  Mutex m;
  EXPECT_DEATH(m.unlock(), "^wsync: unlock of unlocked Mutex\n");
}

TEST(MutexDeathTest, CorruptedWordIsReportedNotHung) {
  Mutex m;
  for (const uint32_t no_state : {3u, 5u, 7u, 0xdeadu}) {  // STARVING is 6
    Access::native_word(m).store(no_state);
    EXPECT_DEATH(m.lock(), "^wsync: corrupted Mutex word\n") << no_state;
    EXPECT_DEATH(m.unlock(), "^wsync: corrupted Mutex word\n") << no_state;
  }
}
#endif

// Go's TestMutexFairness, measured: a holder that locks, sleeps 100 us
// inside, unlocks and relocks at once, in a loop; a waiter that sleeps 100 us
// and then locks, 10 times. Without the handoff the waiter lost to the
// holder's relock for seconds (issue 16: a median of 2 s, once 29 s). With
// it, an acquisition waits about the 1 ms bound. Asserted with a margin for a
// loaded machine: how many times the holder got the lock during one wait
// (about 1 ms / 100 us = 10, more where a wake takes longer; asserted at most
// 2000; the old algorithm: about 20000 in its median 2 s wait), and the 10
// acquisitions' total (about 15 ms; asserted under 2 s). Prints the figures.
// The margin is the scheduler's: with two busy loops on this 2-core host a
// woken waiter sat runnable but off the cores while the holder relocked up
// to 383 times (natively and under TSan, with the handoff gate or without).
TEST(Mutex, WaiterIsNotStarvedByAHolderThatRelocksAtOnce) {
  Mutex m;
  std::atomic<bool> stop{false};
  std::atomic<long> holder_acquisitions{0};
  std::thread holder([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      m.lock();
      holder_acquisitions.fetch_add(1, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      m.unlock();
    }
  });
  for (int round = 0; round < 3; ++round) {
    long most_bypasses = 0;
    Clock::duration longest{}, total{};
    for (int i = 0; i < 10; ++i) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      const long before = holder_acquisitions.load(std::memory_order_relaxed);
      const auto start = Clock::now();
      m.lock();
      const auto waited = Clock::now() - start;
      most_bypasses = std::max(most_bypasses, holder_acquisitions.load(std::memory_order_relaxed) - before);
      m.unlock();
      longest = std::max(longest, waited);
      total += waited;
    }
    using Ms = std::chrono::duration<double, std::milli>;
    std::printf("[ fairness ] round %d: 10 acquisitions in %.1f ms, longest %.2f ms, at most %ld bypasses\n", round,
                Ms(total).count(), Ms(longest).count(), most_bypasses);
    EXPECT_LE(most_bypasses, 2000) << "the holder kept retaking the lock: no handoff";
    EXPECT_LT(total, std::chrono::seconds(2));
  }
  stop = true;
  holder.join();
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

// The contention grid: threads x critical-section length. Inside the lock a
// pair of plain ints must be equal on entry (each section bumps both, with
// work in between); random delays vary the interleavings. At the end the
// counts add up and the word is back to its pristine state.
struct GridPoint {
  int threads;
  uint32_t work_inside;
  int iterations;
};

void PrintTo(const GridPoint& p, std::ostream* os) {
  *os << p.threads << " threads, " << p.work_inside << " units inside, " << p.iterations << " iterations";
}

class MutexGrid : public ::testing::TestWithParam<GridPoint> {};

TEST_P(MutexGrid, InvariantHoldsAndStateReturnsToPristine) {
  const GridPoint p = GetParam();
  Mutex m;
  long first = 0, second = 0;  // guarded by m
  std::atomic<int> violations{0};
  std::vector<long> per_thread(static_cast<size_t>(p.threads), 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < p.threads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(static_cast<uint32_t>(t * 7919 + 1));
      for (int i = 0; i < p.iterations; ++i) {
        std::lock_guard<Mutex> guard(m);
        if (first != second) violations.fetch_add(1, std::memory_order_relaxed);
        ++first;
        work(p.work_inside + rng.next(p.work_inside + 1));
        ++second;
        ++per_thread[static_cast<size_t>(t)];
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(violations.load(), 0);
  EXPECT_EQ(first, static_cast<long>(p.threads) * p.iterations);
  EXPECT_EQ(second, first);
  for (long n : per_thread) EXPECT_EQ(n, p.iterations);
  EXPECT_EQ(word(m), Mutex::kUnlocked);
}

std::string GridName(const ::testing::TestParamInfo<GridPoint>& info) {
  return std::to_string(info.param.threads) + "threads_" + std::to_string(info.param.work_inside) + "work";
}

INSTANTIATE_TEST_SUITE_P(Grid, MutexGrid,
                         ::testing::Values(GridPoint{1, 0, 20000}, GridPoint{2, 0, 20000}, GridPoint{4, 0, 10000},
                                           GridPoint{8, 0, 5000}, GridPoint{2, 50, 10000}, GridPoint{4, 50, 5000},
                                           GridPoint{8, 50, 2500}, GridPoint{4, 1000, 1000}, GridPoint{8, 1000, 500}),
                         GridName);

}  // namespace
