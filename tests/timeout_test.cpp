// The timeout matrix, for every primitive with a timed wait, in C++ and C:
// zero, negative and past timeouts only try; a finite one never returns
// early; huge and infinite ones wait until released; NaN is misuse; and a
// wait that times out just as it is released reports what really happened
// (docs/api.md, "Timeouts").
#include <gtest/gtest.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>  // emscripten_performance_now
#endif

#include "test_util.hpp"
#include "wsync/wsync.h"
#include "wsync/wsync.hpp"

namespace {

using namespace std::chrono_literals;
using wsync_test::Clock;
using DoubleSeconds = std::chrono::duration<double>;
using SystemClock = std::chrono::system_clock;

// User clocks that disagree with steady_clock, as [thread.req.timing] allows:
// steady_clock's time divided by kSlowdown, then rounded down to kStepMs. A
// wait until their time points must not report a timeout while their own
// now() is still short of it.
template <int kSlowdown, int kStepMs>
struct OddClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<OddClock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept {
    const auto t =
        std::chrono::duration_cast<duration>(std::chrono::steady_clock::now().time_since_epoch()) / kSlowdown;
    if constexpr (kStepMs > 0) return time_point(t - t % std::chrono::milliseconds(kStepMs));
    return time_point(t);
  }
};
using CoarseClock = OddClock<1, 10>;  // moves in 10 ms steps
using SlowClock = OddClock<2, 0>;     // runs at half speed

// Each case: a primitive in a state its timed wait must wait in (pending()),
// the wait in C++ (duration or time point) and in C (milliseconds), the
// change that ends the wait (release()), and, once the wait and the release
// are both over, whether the primitive's state agrees with the wait's result
// (agrees(), which also leaves the case ready for the next pending()).

struct MutexCase {
  static constexpr const char* kName = "Mutex";
  wsync_mutex_t c = WSYNC_MUTEX_INIT;
  wsync::Mutex& m = *reinterpret_cast<wsync::Mutex*>(&c);  // the same word (docs/abi.md)
  void pending() { m.lock(); }
  template <class D>
  bool wait_for(const D& d) {
    return m.try_lock_for(d);
  }
  template <class T>
  bool wait_until(const T& t) {
    return m.try_lock_until(t);
  }
  bool wait_ms(double ms) { return wsync_mutex_lock_timeout(&c, ms); }
  void release() { m.unlock(); }  // wsync's Mutex has no owner: any thread may unlock
  // Succeeded: we hold it; timed out: it is free. Either way: free again.
  bool agrees(bool ok) {
    const bool was_free = m.try_lock();
    m.unlock();
    return ok ? !was_free : was_free;
  }
};

struct WaitGroupCase {
  static constexpr const char* kName = "WaitGroup";
  wsync::WaitGroup wg;
  void pending() { wg.add(1); }
  template <class D>
  bool wait_for(const D& d) {
    return wg.wait_for(d);
  }
  template <class T>
  bool wait_until(const T& t) {
    return wg.wait_until(t);
  }
  bool wait_ms(double ms) { return wsync_wg_wait_timeout(reinterpret_cast<wsync_wg_t*>(&wg), ms); }
  void release() { wg.done(); }
  bool agrees(bool ok) { return !ok || wg.wait_for(0s); }  // success means it was zero
};

struct LatchCase {
  static constexpr const char* kName = "Latch";
  wsync_latch_t c = WSYNC_LATCH_INIT(0);
  wsync::Latch& latch = *reinterpret_cast<wsync::Latch*>(&c);
  void pending() { wsync_latch_init(&c, 1); }
  template <class D>
  bool wait_for(const D& d) {
    return latch.wait_for(d);
  }
  template <class T>
  bool wait_until(const T& t) {
    return latch.wait_until(t);
  }
  bool wait_ms(double ms) { return wsync_latch_wait_timeout(&c, ms); }
  void release() { latch.count_down(); }
  bool agrees(bool ok) { return !ok || latch.try_wait(); }
};

struct SemaphoreCase {
  static constexpr const char* kName = "Semaphore";
  wsync_sem_t c = WSYNC_SEM_INIT(0, 1);
  wsync::Semaphore& sem = *reinterpret_cast<wsync::Semaphore*>(&c);
  void pending() {}
  template <class D>
  bool wait_for(const D& d) {
    return sem.try_acquire_for(d);
  }
  template <class T>
  bool wait_until(const T& t) {
    return sem.try_acquire_until(t);
  }
  bool wait_ms(double ms) { return wsync_sem_acquire_timeout(&c, ms); }
  void release() { sem.release(); }
  // The permit was taken exactly when the wait says so: never lost, never twice.
  bool agrees(bool ok) {
    const bool left = sem.try_acquire();
    return ok ? !left : left;
  }
};

struct BarrierCase {
  static constexpr const char* kName = "Barrier";
  wsync_barrier_t c = WSYNC_BARRIER_INIT(2);
  wsync_barrier_token_t token = 0;
  void pending() { token = wsync_barrier_arrive(&c, 1); }
  // What Barrier<F>::wait_for / wait_until do with a token, minus the
  // token's move-only wrapper (a test waits on one phase many times).
  template <class D>
  bool wait_for(const D& d) {
    return words().wait_until_deadline(token, wsync::detail::Deadline::after(d));
  }
  template <class T>
  bool wait_until(const T& t) {
    return wsync::detail::wait_until_on_clock(
        t, [&](wsync::detail::Deadline d) { return words().wait_until_deadline(token, d); });
  }
  bool wait_ms(double ms) { return wsync_barrier_wait_timeout(&c, token, ms); }
  void release() { (void)wsync_barrier_arrive(&c, 1); }
  bool agrees(bool ok) { return !ok || wsync_barrier_wait_timeout(&c, token, 0); }

  // The C++ Barrier's words are the C struct's (docs/abi.md).
  wsync::detail::BarrierWords& words() { return *reinterpret_cast<wsync::detail::BarrierWords*>(&c); }
};

struct CondVarCase {
  static constexpr const char* kName = "CondVar";
  wsync_cond_t c = WSYNC_COND_INIT;
  wsync_mutex_t cm = WSYNC_MUTEX_INIT;
  wsync::CondVar& cv = *reinterpret_cast<wsync::CondVar*>(&c);
  wsync::Mutex& m = *reinterpret_cast<wsync::Mutex*>(&cm);
  bool flag = false;  // guarded by m
  void pending() {
    std::lock_guard<wsync::Mutex> lock(m);
    flag = false;
  }
  template <class D>
  bool wait_for(const D& d) {
    std::unique_lock<wsync::Mutex> lock(m);
    return cv.wait_for(lock, d, [&] { return flag; });
  }
  template <class T>
  bool wait_until(const T& t) {
    std::unique_lock<wsync::Mutex> lock(m);
    return cv.wait_until(lock, t, [&] { return flag; });
  }
  bool wait_ms(double ms) {  // the C API has no predicate form: loop as a C user would
    std::unique_lock<wsync::Mutex> lock(m);
    const auto start = Clock::now();
    while (!flag) {
      // What is left of ms (infinite, huge, negative or NaN stay what they are).
      const double left = ms - std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (!wsync_cond_wait_timeout(&c, &cm, left)) return flag;
    }
    return true;
  }
  void release() {
    {
      std::lock_guard<wsync::Mutex> lock(m);
      flag = true;
    }
    cv.notify_all();
  }
  // The predicate forms return the predicate on timeout: true only if it holds.
  bool agrees(bool ok) {
    std::lock_guard<wsync::Mutex> lock(m);
    return !ok || flag;
  }
};

template <class Case>
class Timeouts : public ::testing::Test {
 protected:
  Case c;

  // Runs `wait` while another thread calls release() after `delay`; the
  // wait's result, and how long it took.
  template <class Wait>
  std::pair<bool, Clock::duration> released_after(Clock::duration delay, Wait wait) {
    c.pending();
    const auto start = Clock::now();
    std::thread releaser([&] {
      std::this_thread::sleep_for(delay);
      c.release();
    });
    const bool ok = wait();
    const auto took = Clock::now() - start;
    releaser.join();
    EXPECT_TRUE(c.agrees(ok));
    return {ok, took};
  }
};

using Cases = ::testing::Types<MutexCase, WaitGroupCase, LatchCase, SemaphoreCase, BarrierCase, CondVarCase>;
struct CaseNames {
  template <class T>
  static std::string GetName(int) {
    return T::kName;
  }
};
TYPED_TEST_SUITE(Timeouts, Cases, CaseNames);

TYPED_TEST(Timeouts, ZeroNegativeAndPastOnlyTry) {
  auto& c = this->c;
  c.pending();
  EXPECT_FALSE(c.wait_for(0s));
  EXPECT_FALSE(c.wait_for(-1ms));
  EXPECT_FALSE(c.wait_for(std::chrono::nanoseconds::min()));
  EXPECT_FALSE(c.wait_for(std::chrono::hours::min()));
  EXPECT_FALSE(c.wait_for(DoubleSeconds(-INFINITY)));
  EXPECT_FALSE(c.wait_for(DoubleSeconds(-0.0)));
  EXPECT_FALSE(c.wait_until(Clock::now() - 1s));
  EXPECT_FALSE(c.wait_until(Clock::time_point::min()));
  EXPECT_FALSE(c.wait_until(Clock::time_point()));  // the clock's epoch: long past
  EXPECT_FALSE(c.wait_until(SystemClock::now() - 1h));
  EXPECT_FALSE(c.wait_until(SystemClock::time_point::min()));
  EXPECT_FALSE(c.wait_ms(0));
  EXPECT_FALSE(c.wait_ms(-1));
  EXPECT_FALSE(c.wait_ms(-INFINITY));
  EXPECT_FALSE(c.wait_ms(-DBL_MAX));
  c.release();
  // Released: a zero timeout now succeeds, as a try does.
  EXPECT_TRUE(c.wait_for(0s));
}

TYPED_TEST(Timeouts, AFiniteTimeoutNeverReturnsEarly) {
  auto& c = this->c;
  c.pending();
  auto start = Clock::now();
  EXPECT_FALSE(c.wait_for(20ms));
  EXPECT_GE(Clock::now() - start, 20ms);

  start = Clock::now();
  EXPECT_FALSE(c.wait_for(std::chrono::duration<double, std::milli>(12.5)));
  EXPECT_GE(Clock::now() - start, std::chrono::microseconds(12'500));

  const auto at = Clock::now() + 15ms;
  EXPECT_FALSE(c.wait_until(at));
  EXPECT_GE(Clock::now(), at);

  // Another clock is mapped onto the steady one; still never early on it.
  const auto at_system = SystemClock::now() + 15ms;
  EXPECT_FALSE(c.wait_until(at_system));
  EXPECT_GE(SystemClock::now(), at_system);

  const auto at_coarse = CoarseClock::now() + 15ms;
  EXPECT_FALSE(c.wait_until(at_coarse));
  EXPECT_GE(CoarseClock::now(), at_coarse);

  // 10 ms on a clock at half speed: 20 ms on steady_clock.
  start = Clock::now();
  const auto at_slow = SlowClock::now() + 10ms;
  EXPECT_FALSE(c.wait_until(at_slow));
  EXPECT_GE(SlowClock::now(), at_slow);
  EXPECT_GE(Clock::now() - start, 19ms);

  start = Clock::now();
  EXPECT_FALSE(c.wait_ms(10.5));
  EXPECT_GE(Clock::now() - start, std::chrono::microseconds(10'500));
  c.release();
}

TYPED_TEST(Timeouts, HugeAndInfiniteTimeoutsWaitUntilReleased) {
  // Each wait must outlast the release's delay and then succeed: a huge
  // timeout that overflowed into "expired" would fail at once instead.
  constexpr auto kDelay = 5ms;
  auto check = [&](const char* what, auto wait) {
    SCOPED_TRACE(what);
    const auto [ok, took] = this->released_after(kDelay, wait);
    EXPECT_TRUE(ok);
    EXPECT_GE(took, kDelay);
  };
  auto& c = this->c;
  check("hours::max()", [&] { return c.wait_for(std::chrono::hours::max()); });
  check("nanoseconds::max()", [&] { return c.wait_for(std::chrono::nanoseconds::max()); });
  check("duration<double>(inf)", [&] { return c.wait_for(DoubleSeconds(INFINITY)); });
  check("duration<double>(1e300)", [&] { return c.wait_for(DoubleSeconds(1e300)); });
  check("steady time_point::max()", [&] { return c.wait_until(Clock::time_point::max()); });
  check("system time_point::max()", [&] { return c.wait_until(SystemClock::time_point::max()); });
  check("C INFINITY", [&] { return c.wait_ms(INFINITY); });
  check("C DBL_MAX", [&] { return c.wait_ms(DBL_MAX); });
  check("C 1e300", [&] { return c.wait_ms(1e300); });
}

TYPED_TEST(Timeouts, AWaitThatTimesOutAsItIsReleasedReportsWhatHappened) {
  // The release lands at about the deadline, on either side of it. Whatever
  // the wait returns, the primitive must agree (checked in released_after):
  // a Semaphore permit or the Mutex is taken exactly when the wait says so,
  // and a success is never reported for a wait that was not released.
  int succeeded = 0;
  constexpr int kRounds = 100;
  for (int i = 0; i < kRounds; ++i) {
    auto& c = this->c;
    const auto [ok, took] = this->released_after(1ms, [&] { return c.wait_for(1ms); });
    (void)took;
    succeeded += ok;
  }
  std::printf("%s: %d of %d raced waits succeeded\n", TypeParam::kName, succeeded, kRounds);
}

#ifndef __EMSCRIPTEN__
// Natively, deadlines are points on steady_clock, and the waits read that
// clock their own way (Deadline::now_ns): each reading lies between two of
// steady_clock's, so is equal to them where they are equal (readings a few
// ns apart are, more often than not, in this clock's steps).
TEST(DeadlineClock, ReadsSteadyClock) {
  using std::chrono::nanoseconds;
  int equal_brackets = 0;
  for (int i = 0; i < 10000; ++i) {
    const int64_t before = nanoseconds(Clock::now().time_since_epoch()).count();
    const int64_t now = wsync::detail::Deadline::now_ns();
    const int64_t after = nanoseconds(Clock::now().time_since_epoch()).count();
    ASSERT_LE(before, now);
    ASSERT_LE(now, after);
    equal_brackets += before == after;
  }
  std::printf("%d of 10000 readings fell between two equal steady_clock readings\n", equal_brackets);
}
#else
// Sets this thread's performance.timeOrigin `ms` ahead of the engine's, as
// a step of the wall clock moves WebKit's (it computes timeOrigin from the
// wall clock at each read); 0 gives the engine's back.
// clang-format off
EM_JS(void, shift_time_origin, (double ms), {
  delete performance.timeOrigin;
  if (ms === 0) return;
  const origin = performance.timeOrigin + ms;
  Object.defineProperty(performance, "timeOrigin", {configurable: true, get: () => origin});
});
// clang-format on

// In wasm, deadlines are on this thread's performance.now() (monotonic in
// every engine), on the origin read when the thread started: a step of
// timeOrigin moves neither the clock nor a wait's length. (Emscripten
// 6.0.5's steady_clock is timeOrigin + performance.now(), read anew each
// time, so it jumps with the step; 3.1.6's is performance.now() or Node's
// hrtime.)
TEST(DeadlineClock, IsPerformanceNowAndIgnoresATimeOriginStep) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  using wsync::detail::Deadline;
  const int64_t before = Deadline::now_ns();
  const auto steady_before = Clock::now();
  shift_time_origin(1000);
  const int64_t after = Deadline::now_ns();
  const auto steady_after = Clock::now();
  std::printf("a 1000 ms step of timeOrigin moved steady_clock %lld ms, wsync's clock %lld ns\n",
              static_cast<long long>(duration_cast<milliseconds>(steady_after - steady_before).count()),
              static_cast<long long>(after - before));
  EXPECT_GE(after, before);
  EXPECT_LT(after - before, 100'000'000) << "wsync's clock jumped with timeOrigin";

  // Timeouts after the step: a relative one lasts its length on
  // performance.now(); one on steady_clock ends once steady_clock (stepped
  // or not) reaches it, without waiting the step out.
  wsync::WaitGroup wg;
  wg.add(1);
  double start = emscripten_performance_now();
  EXPECT_FALSE(wg.wait_for(50ms));
  EXPECT_GE(emscripten_performance_now() - start, 50.0);
  const auto until = Clock::now() + 50ms;
  start = emscripten_performance_now();
  EXPECT_FALSE(wg.wait_until(until));
  EXPECT_GE(Clock::now(), until);
  EXPECT_LT(emscripten_performance_now() - start, 900.0) << "the wait counted the step";
  shift_time_origin(0);
  wg.done();
}
#endif

#if GTEST_HAS_DEATH_TEST
TYPED_TEST(Timeouts, NaNIsMisuse) {
  auto& c = this->c;
  c.pending();
  EXPECT_DEATH((void)c.wait_for(DoubleSeconds(NAN)), "^wsync: timeout is NaN\n");
  EXPECT_DEATH((void)c.wait_until(std::chrono::time_point<Clock, DoubleSeconds>(DoubleSeconds(NAN))),
               "^wsync: timeout is NaN\n");
  EXPECT_DEATH((void)c.wait_until(std::chrono::time_point<SystemClock, DoubleSeconds>(DoubleSeconds(NAN))),
               "^wsync: timeout is NaN\n");
  EXPECT_DEATH((void)c.wait_ms(NAN), "^wsync: timeout is NaN\n");
  c.release();
}
#endif

}  // namespace
