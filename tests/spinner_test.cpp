// The Spinner (src/waiter.hpp) on its own: every budget ends, a change is
// returned at once, and a change made by another thread mid-spin is seen,
// with every kind of wait (a lock's and a release's spin back off between
// loads; an event's reads after every pause); each kind's share of the
// budget; and how a thread learns its budget from its sleeps.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <ostream>
#include <string>
#include <thread>

#include "waiter.hpp"
#include "wsync/semaphore.hpp"
#include "wsync/tuning.h"

namespace wsync {
namespace detail {
// How GoogleTest names the parameter in test output.
const char* name_of(Awaited awaited) {
  return awaited == Awaited::kLockHolder ? "LockHolder" : awaited == Awaited::kRelease ? "Release" : "Event";
}
void PrintTo(Awaited awaited, std::ostream* out) { *out << name_of(awaited); }
}  // namespace detail
}  // namespace wsync

namespace {

using wsync::detail::Awaited;
using wsync::detail::Spinner;

constexpr uint32_t kBusy = 7;

// Sets the blocking spin budget for one test and puts the old one back.
class SpinLimit {
 public:
  explicit SpinLimit(int pauses) : previous_(wsync_set_spin_limit(pauses)) {}
  ~SpinLimit() { wsync_set_spin_limit(previous_); }

 private:
  int previous_;
};

// Runs `body` on a new thread: a thread's learned budget starts afresh.
template <class Body>
void on_fresh_thread(Body body) {
  std::thread t(body);
  t.join();
}

class SpinnerTest : public ::testing::TestWithParam<Awaited> {};

TEST_P(SpinnerTest, EveryBudgetRunsOutOnAWordThatNeverChanges) {
  const std::atomic<uint32_t> word{kBusy};
  for (int pauses : {0, 1, 2, 3, 15, 16, 17, 100, 1000}) {
    SpinLimit limit(pauses);
    Spinner spin = Spinner::counted();
    EXPECT_EQ(spin.while_equal(word, kBusy, GetParam()), kBusy) << pauses << " pauses";
  }
}

TEST_P(SpinnerTest, AWordThatDiffersIsReturnedAtOnce) {
  const std::atomic<uint32_t> word{3};
  for (int pauses : {0, 100, INT_MAX}) {
    SpinLimit limit(pauses);
    Spinner spin = Spinner::counted();
    EXPECT_EQ(spin.while_equal(word, kBusy, GetParam()), 3u) << pauses << " pauses";
  }
}

TEST_P(SpinnerTest, SeesAChangeMadeWhileItSpins) {
  // The largest budget. Even so a spin may run out before the writer runs
  // (in wasm a lock holder's share of INT_MAX pauses is about 8 ms, and a
  // loaded machine can keep a new thread waiting longer): then it spins
  // again. What is tested is what the spin returns, not how soon.
  SpinLimit limit(INT_MAX);
  for (uint32_t next : {0u, 1u, 8u, UINT32_MAX}) {
    std::atomic<uint32_t> word{kBusy};
    std::atomic<bool> spinning{false};
    std::thread writer([&] {
      while (!spinning.load(std::memory_order_acquire)) {
      }
      word.store(next, std::memory_order_release);
    });
    spinning.store(true, std::memory_order_release);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    uint32_t seen = kBusy;
    while (seen == kBusy && std::chrono::steady_clock::now() < give_up) {
      Spinner spin = Spinner::counted();
      seen = spin.while_equal(word, kBusy, GetParam());
    }
    EXPECT_EQ(seen, next);
    writer.join();
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKind, SpinnerTest,
                         ::testing::Values(Awaited::kLockHolder, Awaited::kRelease, Awaited::kEvent),
                         [](const ::testing::TestParamInfo<Awaited>& info) {
                           return std::string(wsync::detail::name_of(info.param));
                         });

TEST(SpinnerShares, ALockHolderGetsItsShareAReleaseTheWholeBudgetAnEventItsShare) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    const Spinner spin = Spinner::counted();
#ifdef __EMSCRIPTEN__
    EXPECT_EQ(spin.pauses_for(Awaited::kLockHolder), 50) << "1/128 in wasm";
#else
    EXPECT_EQ(spin.pauses_for(Awaited::kLockHolder), 200) << "1/32 natively";
#endif
    EXPECT_EQ(spin.pauses_for(Awaited::kRelease), 6400);
    EXPECT_EQ(spin.pauses_for(Awaited::kEvent), 6400 / Spinner::kEventDivisor);
  });
}

TEST(SpinnerShares, EveryShareOfABudgetAboveZeroSpinsAndOfZeroDoesNot) {
  for (int pauses : {1, 3, 31, 33}) {
    SpinLimit limit(pauses);
    on_fresh_thread([pauses] {
      const Spinner spin = Spinner::counted();
      EXPECT_EQ(spin.pauses_for(Awaited::kLockHolder),
                (pauses + Spinner::kLockHolderDivisor - 1) / Spinner::kLockHolderDivisor)
          << pauses << " pauses";
      EXPECT_GE(spin.pauses_for(Awaited::kEvent), 1) << pauses << " pauses";
    });
  }
  SpinLimit none(0);
  on_fresh_thread([] {
    const Spinner spin = Spinner::counted();
    for (Awaited kind : {Awaited::kLockHolder, Awaited::kRelease, Awaited::kEvent}) EXPECT_EQ(spin.pauses_for(kind), 0);
  });
}

constexpr int64_t kShort = Spinner::kShortSleepNs / 2, kLong = Spinner::kShortSleepNs * 100;

TEST(SpinnerLearning, ANewThreadSpinsTheWholeLimit) {
  SpinLimit limit(6400);
  on_fresh_thread([] { EXPECT_EQ(Spinner::budget(), 6400); });
}

TEST(SpinnerLearning, LongSleepsHalveTheBudgetDownToASixtyFourthAndShortOnesDoubleItBack) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    const int expected_after_long[] = {3200, 1600, 800, 400, 200, 100, 100, 100};
    for (int budget : expected_after_long) {
      Spinner::learn(true, kLong);
      EXPECT_EQ(Spinner::budget(), budget);
    }
    const int expected_after_short[] = {200, 400, 800, 1600, 3200, 6400, 6400};
    for (int budget : expected_after_short) {
      Spinner::learn(true, kShort);
      EXPECT_EQ(Spinner::budget(), budget);
    }
  });
}

TEST(SpinnerLearning, ARunOfLongSleepsAtTheLeastBudgetTriesTheWholeLimitOnce) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    for (int i = 0; i < Spinner::kMostHalvings; ++i) Spinner::learn(true, kLong);
    for (int i = 1; i < Spinner::kLongSleepsBeforeProbe; ++i) {
      Spinner::learn(true, kLong);
      ASSERT_EQ(Spinner::budget(), 100) << "long sleep " << i << " at the least budget";
    }
    Spinner::learn(false, kLong);
    EXPECT_EQ(Spinner::budget(), 6400) << "two threads that both sleep on every hop must find out whether a spin "
                                          "would catch the other's wake";
    Spinner::learn(true, kLong);
    EXPECT_EQ(Spinner::budget(), 3200) << "a probe that did not pay is halved away again";
  });
}

TEST(SpinnerLearning, AShortSleepStartsTheRunOfLongOnesAgain) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    for (int i = 0; i < Spinner::kMostHalvings; ++i) Spinner::learn(true, kLong);
    for (int i = 1; i < Spinner::kLongSleepsBeforeProbe; ++i) Spinner::learn(true, kLong);
    Spinner::learn(true, kShort);
    Spinner::learn(true, kLong);  // back at the least budget
    for (int i = 1; i < Spinner::kLongSleepsBeforeProbe; ++i) Spinner::learn(true, kLong);
    EXPECT_EQ(Spinner::budget(), 100) << "the short sleep broke the run: it starts again from none";
    Spinner::learn(true, kLong);
    EXPECT_EQ(Spinner::budget(), 6400);
  });
}

TEST(SpinnerLearning, ATimeoutCountsAsALongSleepHoweverShort) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    Spinner::learn(false, 0);
    EXPECT_EQ(Spinner::budget(), 3200) << "nothing woke it: spinning longer would not have helped";
  });
}

TEST(SpinnerLearning, TheBudgetIsAShareOfTheLimitSoANewLimitAppliesAtOnce) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    Spinner::learn(true, kLong);
    Spinner::learn(true, kLong);
    EXPECT_EQ(Spinner::budget(), 1600);
    wsync_set_spin_limit(800);
    EXPECT_EQ(Spinner::budget(), 200);
    wsync_set_spin_limit(0);
    EXPECT_EQ(Spinner::budget(), 0) << "a limit of 0 never spins";
    wsync_set_spin_limit(3);
    EXPECT_EQ(Spinner::budget(), 1) << "a small limit still spins once";
  });
}

TEST(SpinnerLearning, EachThreadLearnsForItself) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    for (int i = 0; i < 6; ++i) Spinner::learn(true, kLong);
    EXPECT_EQ(Spinner::budget(), 100);
    on_fresh_thread([] { EXPECT_EQ(Spinner::budget(), 6400) << "another thread's sleeps"; });
  });
}

TEST(SpinnerLearning, ABlockingWaitThatSleepsLongLearnsToSpinLess) {
  SpinLimit limit(6400);
  on_fresh_thread([] {
    wsync::BinarySemaphore sem(0);
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      sem.release();
    });
    sem.acquire();  // spins, sleeps about 30 ms (long), is woken
    releaser.join();
    EXPECT_LE(Spinner::budget(), 3200) << "the 30 ms sleep was reported as long";
  });
}

}  // namespace
