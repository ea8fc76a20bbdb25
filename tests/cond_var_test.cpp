// wsync::CondVar: every call, with wsync::Mutex, std::unique_lock and other
// BasicLockables, timeouts, notify_all, and 4 producers / 4 consumers moving
// 10^5 items through a bounded queue with nothing lost or duplicated; what
// std::condition_variable_any promises of a relock that throws, and its
// C++20 stop_token waits.
#include "wsync/cond_var.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "test_util.hpp"
#include "wsync/detail/access.hpp"

using wsync::detail::Access;

namespace {

using namespace wsync_test;
using wsync::CondVar;
using wsync::Mutex;

static_assert(!std::is_copy_constructible_v<CondVar> && !std::is_move_constructible_v<CondVar>);
static_assert(std::is_nothrow_default_constructible_v<CondVar>);
constinit CondVar g_global_cv;

uint32_t seq(CondVar& cv) { return Access::native_word(cv).load(); }
uint32_t waiters(CondVar& cv) { return Access::waiters_word(cv).load(); }

TEST(CondVar, NotifyWithNobodyWaitingTouchesNothing) {
  CondVar cv;
  cv.notify_one();
  cv.notify_all();
  g_global_cv.notify_all();
  EXPECT_EQ(seq(cv), 0u) << "no waiter: notify must not even bump the sequence";
  EXPECT_EQ(waiters(cv), 0u);
}

TEST(CondVar, WaiterSleepsUntilNotifiedAndReturnsWithTheLockHeld) {
  CondVar cv;
  Mutex m;
  bool ready = false;  // guarded by m
  std::thread waiter([&] {
    std::unique_lock<Mutex> lock(m);
    cv.wait(lock, [&] { return ready; });
    EXPECT_TRUE(lock.owns_lock());
    EXPECT_FALSE(m.try_lock()) << "held on return";
  });
  ASSERT_TRUE(eventually([&] { return waiters(cv) == 1; })) << "the waiter registered";
  {
    std::lock_guard<Mutex> guard(m);
    ready = true;
  }
  cv.notify_one();
  waiter.join();
  EXPECT_GE(seq(cv), 1u);
  EXPECT_EQ(waiters(cv), 0u);
  EXPECT_EQ(Access::native_word(m).load(), Mutex::kUnlocked);
}

TEST(CondVar, WaitsWithABareMutexAndWithOtherBasicLockables) {
  CondVar cv;
  Mutex m;
  std::mutex sm;
  bool first = false;   // guarded by m
  bool second = false;  // guarded by sm
  std::atomic<bool> in_second_wait{false};
  std::thread waiter([&] {
    m.lock();
    cv.wait(m, [&] { return first; });  // wsync::Mutex itself
    m.unlock();
    std::unique_lock<std::mutex> lock(sm);  // a lock wsync knows nothing about
    in_second_wait.store(true);
    cv.wait(lock, [&] { return second; });
  });
  ASSERT_TRUE(eventually([&] { return waiters(cv) == 1; }));
  m.lock();
  first = true;
  m.unlock();
  cv.notify_all();
  ASSERT_TRUE(eventually([&] { return in_second_wait.load() && waiters(cv) == 1; }));
  {
    std::lock_guard<std::mutex> guard(sm);
    second = true;
  }
  cv.notify_one();
  waiter.join();
  EXPECT_EQ(waiters(cv), 0u);
}

TEST(CondVar, TimedWaitsTimeOutNeverEarlyWithTheLockHeld) {
  CondVar cv;
  Mutex m;
  std::unique_lock<Mutex> lock(m);
  for (int ms : {0, 1, 20}) {
    const auto start = Clock::now();
    EXPECT_EQ(cv.wait_for(lock, milliseconds(ms)), std::cv_status::timeout);
    EXPECT_GE(Clock::now() - start, milliseconds(ms));
    EXPECT_TRUE(lock.owns_lock());
  }
  const auto start = Clock::now();
  EXPECT_FALSE(cv.wait_for(lock, milliseconds(20), [] { return false; }));
  EXPECT_GE(Clock::now() - start, milliseconds(20)) << "one deadline across the predicate's retries";
  EXPECT_TRUE(cv.wait_until(lock, std::chrono::system_clock::now() + milliseconds(5), [] { return true; }));
  EXPECT_EQ(cv.wait_until(lock, Clock::now() + milliseconds(5)), std::cv_status::timeout);
  EXPECT_EQ(waiters(cv), 0u);
}

TEST(CondVar, TimedWaitSucceedsWhenNotifiedInTime) {
  CondVar cv;
  Mutex m;
  bool ready = false;
  std::thread notifier([&] {
    ASSERT_TRUE(eventually([&] { return waiters(cv) == 1; }));
    std::lock_guard<Mutex> guard(m);
    ready = true;
    cv.notify_one();  // under the lock is fine too
  });
  std::unique_lock<Mutex> lock(m);
  EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return ready; }));
  lock.unlock();
  notifier.join();
}

// notify_all wakes everyone; they leave one at a time through the mutex.
TEST(CondVar, NotifyAllWakesEveryWaiterAndLeavesPristineWords) {
  CondVar cv;
  Mutex m;
  bool go = false;  // guarded by m
  int inside = 0, max_inside = 0, woken = 0;
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      std::unique_lock<Mutex> lock(m);
      cv.wait(lock, [&] { return go; });
      max_inside = std::max(max_inside, ++inside);
      work(200);
      --inside;
      ++woken;
    });
  }
  ASSERT_TRUE(eventually([&] { return waiters(cv) == 8; }));
  {
    std::lock_guard<Mutex> guard(m);
    go = true;
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
  EXPECT_EQ(woken, 8);
  EXPECT_EQ(max_inside, 1);
  EXPECT_EQ(waiters(cv), 0u);
  EXPECT_EQ(Access::native_word(m).load(), Mutex::kUnlocked);
}

// A bounded queue (capacity 16) with two condition variables: 4 producers
// push 10^5 distinct items in all, 4 consumers pop them; each item arrives
// exactly once.
TEST(CondVar, ProducersAndConsumersLoseAndDuplicateNothing) {
  constexpr int kProducers = 4, kConsumers = 4, kItems = 100000, kCapacity = 16;
  Mutex m;
  CondVar not_empty, not_full;
  std::deque<int> queue;  // guarded by m
  int produced = 0;       // guarded by m
  std::vector<int> seen(kItems, 0);
  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = p; i < kItems; i += kProducers) {
        std::unique_lock<Mutex> lock(m);
        not_full.wait(lock, [&] { return queue.size() < kCapacity; });
        queue.push_back(i);
        ++produced;
        lock.unlock();
        not_empty.notify_one();
      }
    });
  }
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&] {
      for (;;) {
        std::unique_lock<Mutex> lock(m);
        not_empty.wait(lock, [&] { return !queue.empty() || produced == kItems; });
        if (queue.empty()) return;  // everything produced and taken
        const int item = queue.front();
        queue.pop_front();
        const bool last = produced == kItems && queue.empty();
        lock.unlock();
        ++seen[static_cast<size_t>(item)];  // distinct items: no two threads share a slot
        not_full.notify_one();
        if (last) not_empty.notify_all();  // release the other consumers
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kItems; ++i) ASSERT_EQ(seen[static_cast<size_t>(i)], 1) << "item " << i;
  EXPECT_EQ(waiters(not_empty), 0u);
  EXPECT_EQ(waiters(not_full), 0u);
  EXPECT_EQ(Access::native_word(m).load(), Mutex::kUnlocked);
}

}  // namespace

// [thread.condvarany.wait]: if relocking at the end of a wait throws, the
// wait cannot meet its postcondition (the lock held), so std::terminate is
// called; in every form.
#if GTEST_HAS_DEATH_TEST
namespace relock_throws {

// A BasicLockable whose lock() throws every time after the first.
struct Lock {
  Mutex m;
  int locks = 0;
  void lock() {
    if (++locks > 1) throw std::runtime_error("relock failed");
    m.lock();
  }
  void unlock() { m.unlock(); }
};

// Runs `wait` on a held Lock, with a notifier that keeps notifying so the
// untimed forms return too.
template <class Wait>
void wait_and_relock(Wait wait) {
  CondVar cv;
  Lock lock;
  lock.lock();
  std::atomic<bool> done{false};
  std::thread notifier([&] {
    while (!done.load()) {
      cv.notify_all();
      std::this_thread::sleep_for(milliseconds(1));
    }
  });
  try {
    wait(cv, lock);
  } catch (const std::runtime_error&) {
    // The exception left the wait: exit 0, which EXPECT_DEATH counts as a
    // failure (an uncaught one would call std::terminate all the same).
    std::_Exit(0);
  }
  done.store(true);  // not reached: terminate
  notifier.join();
}

}  // namespace relock_throws

TEST(CondVarDeathTest, ARelockThatThrowsTerminatesInEveryForm) {
  using relock_throws::wait_and_relock;
  using L = relock_throws::Lock;
  const char* terminated = "terminate called after throwing an instance of 'std::runtime_error'";
  const auto never = [] { return false; };
  EXPECT_DEATH(wait_and_relock([](CondVar& cv, L& l) { cv.wait(l); }), terminated);
  EXPECT_DEATH(wait_and_relock([&](CondVar& cv, L& l) { cv.wait(l, never); }), terminated);
  EXPECT_DEATH(wait_and_relock([](CondVar& cv, L& l) { (void)cv.wait_for(l, milliseconds(1)); }), terminated);
  EXPECT_DEATH(wait_and_relock([](CondVar& cv, L& l) { (void)cv.wait_until(l, Clock::now() + milliseconds(1)); }),
               terminated);
  EXPECT_DEATH(wait_and_relock([&](CondVar& cv, L& l) { (void)cv.wait_for(l, milliseconds(1), never); }), terminated);
  EXPECT_DEATH(wait_and_relock([&](CondVar& cv, L& l) {
                 (void)cv.wait_until(l, std::chrono::system_clock::now() + milliseconds(1), never);
               }),
               terminated);
#if defined(__cpp_lib_jthread)
  std::stop_source source;
  EXPECT_DEATH(wait_and_relock([&](CondVar& cv, L& l) { (void)cv.wait(l, source.get_token(), never); }), terminated);
  EXPECT_DEATH(
      wait_and_relock([&](CondVar& cv, L& l) { (void)cv.wait_for(l, source.get_token(), milliseconds(1), never); }),
      terminated);
  EXPECT_DEATH(wait_and_relock([&](CondVar& cv, L& l) {
                 (void)cv.wait_until(l, source.get_token(), Clock::now() + milliseconds(1), never);
               }),
               terminated);
#endif
}
#endif  // GTEST_HAS_DEATH_TEST

// The C++20 interruptible waits ([thread.condvarany.intwait]).
#if defined(__cpp_lib_jthread)
TEST(CondVar, StopTokenWaitReturnsThePredicateOnceStopIsRequested) {
  CondVar cv;
  Mutex m;
  std::unique_lock<Mutex> lock(m);
  std::stop_source stopped;
  stopped.request_stop();
  EXPECT_FALSE(cv.wait(lock, stopped.get_token(), [] { return false; })) << "already stopped: no wait";
  EXPECT_TRUE(cv.wait(lock, stopped.get_token(), [] { return true; })) << "stopped, but pred() holds";
  EXPECT_TRUE(cv.wait(lock, std::stop_token(), [] { return true; })) << "pred() first";
  EXPECT_TRUE(lock.owns_lock());
  EXPECT_EQ(waiters(cv), 0u);
}

TEST(CondVar, RequestStopFromAnotherThreadWakesEveryStopTokenForm) {
  CondVar cv;
  Mutex m;
  using Wait = bool (*)(CondVar&, std::unique_lock<Mutex>&, std::stop_token);
  const Wait forms[] = {
      [](CondVar& cv, std::unique_lock<Mutex>& l, std::stop_token t) { return cv.wait(l, t, [] { return false; }); },
      [](CondVar& cv, std::unique_lock<Mutex>& l, std::stop_token t) {
        return cv.wait_for(l, t, std::chrono::hours(1), [] { return false; });
      },
      [](CondVar& cv, std::unique_lock<Mutex>& l, std::stop_token t) {
        return cv.wait_until(l, t, std::chrono::system_clock::now() + std::chrono::hours(1), [] { return false; });
      },
  };
  for (Wait wait : forms) {
    std::stop_source source;
    std::atomic<bool> returned{false};
    std::thread waiter([&] {
      std::unique_lock<Mutex> lock(m);
      EXPECT_FALSE(wait(cv, lock, source.get_token()));
      EXPECT_TRUE(lock.owns_lock());
      returned.store(true);
    });
    ASSERT_TRUE(eventually([&] { return waiters(cv) == 1; })) << "the waiter sleeps";
    EXPECT_FALSE(returned.load());
    source.request_stop();
    waiter.join();
    EXPECT_EQ(waiters(cv), 0u);
  }
}

TEST(CondVar, StopTokenTimedWaitsTimeOutNeverEarlyAndSeeNotifications) {
  CondVar cv;
  Mutex m;
  std::stop_source source;
  std::unique_lock<Mutex> lock(m);
  auto start = Clock::now();
  EXPECT_FALSE(cv.wait_for(lock, source.get_token(), milliseconds(15), [] { return false; }));
  EXPECT_GE(Clock::now() - start, milliseconds(15));
  const auto at = std::chrono::system_clock::now() + milliseconds(15);
  EXPECT_FALSE(cv.wait_until(lock, source.get_token(), at, [] { return false; }));
  EXPECT_GE(std::chrono::system_clock::now(), at);
  lock.unlock();

  bool ready = false;  // guarded by m
  std::thread notifier([&] {
    ASSERT_TRUE(eventually([&] { return waiters(cv) == 1; }));
    std::lock_guard<Mutex> guard(m);
    ready = true;
    cv.notify_one();
  });
  lock.lock();
  EXPECT_TRUE(cv.wait_for(lock, source.get_token(), std::chrono::seconds(60), [&] { return ready; }));
  lock.unlock();
  notifier.join();
}

// A request made at any moment around the waiter's registration is never
// lost: each round must end (the suite's time limit would catch a hang).
TEST(CondVar, RequestStopRacingTheWaitIsNeverLost) {
  CondVar cv;
  Mutex m;
  Rng rng(7);
  for (int round = 0; round < 300; ++round) {
    std::stop_source source;
    const uint32_t delay = rng.next(200);
    std::thread stopper([&] {
      work(delay * 20);
      source.request_stop();
    });
    std::unique_lock<Mutex> lock(m);
    EXPECT_FALSE(cv.wait(lock, source.get_token(), [] { return false; }));
    lock.unlock();
    stopper.join();
  }
  EXPECT_EQ(waiters(cv), 0u);
}
#endif  // __cpp_lib_jthread
