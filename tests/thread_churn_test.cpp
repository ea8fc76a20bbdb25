// Thread churn: short-lived detached threads, and primitives that sleep and
// wake in the memory their exits give back to malloc. Emscripten 6.0.5
// leaves an Atomics.waitAsync armed on the first word of every exited
// thread's struct, and a wake for one waiter on a word placed there went to
// that leftover instead of the sleeper (js/library_wsync.js): the sleeper
// then slept until its timeout. Natively and under TSan these are
// plain tests of wakes across thread churn.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "wsync/latch.hpp"
#include "wsync/mutex.hpp"
#include "wsync/semaphore.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Enough rounds that, without the fix, some primitive lands on an exited
// thread's struct (in 6.0.5's wasm build, a few in every hundred rounds).
constexpr int kRounds = 200;

// A wait that ends only by its timeout was never woken: each round's wake
// comes about 2 ms after the wait starts, four orders of magnitude sooner.
constexpr auto kPatience = 30s;

// Each round makes its primitive afresh on the heap, where an exited
// thread's memory may be, and never frees it: the detached thread may still
// be inside the wake when the round ends.
template <class T, class... Args>
T& fresh(Args... args) {
  return *new T(args...);
}

// Each round: a thread holds a fresh Mutex for 2 ms and exits, while this
// thread sleeps in lock until the unlock wakes it.
TEST(ThreadChurn, MutexWakeReachesTheSleeperInAnExitedThreadsMemory) {
  for (int round = 0; round < kRounds; ++round) {
    wsync::Mutex& mutex = fresh<wsync::Mutex>();
    wsync::Latch held(1);
    std::thread([&mutex, &held] {
      mutex.lock();
      held.count_down();
      std::this_thread::sleep_for(2ms);
      mutex.unlock();
    }).detach();
    held.wait();
    const auto start = Clock::now();
    const bool locked = mutex.try_lock_for(kPatience);
    ASSERT_LT(Clock::now() - start, kPatience) << "round " << round << ": the unlock's wake went elsewhere";
    ASSERT_TRUE(locked) << "round " << round;
    mutex.unlock();
  }
}

// The same with a binary semaphore released by the exiting thread.
TEST(ThreadChurn, SemaphoreWakeReachesTheSleeperInAnExitedThreadsMemory) {
  for (int round = 0; round < kRounds; ++round) {
    wsync::BinarySemaphore& semaphore = fresh<wsync::BinarySemaphore>(0);
    std::thread([&semaphore] {
      std::this_thread::sleep_for(2ms);
      semaphore.release();
    }).detach();
    const auto start = Clock::now();
    const bool acquired = semaphore.try_acquire_for(kPatience);
    ASSERT_LT(Clock::now() - start, kPatience) << "round " << round << ": the release's wake went elsewhere";
    ASSERT_TRUE(acquired) << "round " << round;
  }
}

}  // namespace
