// The Spinner (src/waiter.hpp) on its own: every budget ends, a change is
// returned at once, and a change made by another thread mid-spin is seen,
// with either kind of wait (a critical section's spin backs off between
// loads; an event's reads after every pause).
#include <gtest/gtest.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <ostream>
#include <thread>

#include "waiter.hpp"
#include "wsync/tuning.h"

namespace wsync {
namespace detail {
// How GoogleTest names the parameter in test output.
void PrintTo(Awaited awaited, std::ostream* out) {
  *out << (awaited == Awaited::kCriticalSection ? "kCriticalSection" : "kEvent");
}
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
  // A budget that cannot run out first (INT_MAX pauses is about a minute
  // natively), so the test does not depend on how soon the writer runs.
  SpinLimit limit(INT_MAX);
  for (uint32_t next : {0u, 1u, 8u, UINT32_MAX}) {
    std::atomic<uint32_t> word{kBusy};
    std::atomic<bool> spinning{false};
    std::thread writer([&] {
      while (!spinning.load(std::memory_order_acquire)) {
      }
      word.store(next, std::memory_order_release);
    });
    Spinner spin = Spinner::counted();
    spinning.store(true, std::memory_order_release);
    EXPECT_EQ(spin.while_equal(word, kBusy, GetParam()), next);
    writer.join();
  }
}

INSTANTIATE_TEST_SUITE_P(BothKinds, SpinnerTest, ::testing::Values(Awaited::kCriticalSection, Awaited::kEvent),
                         [](const ::testing::TestParamInfo<Awaited>& info) {
                           return info.param == Awaited::kCriticalSection ? "CriticalSection" : "Event";
                         });

}  // namespace
