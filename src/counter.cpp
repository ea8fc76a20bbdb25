// The counter algorithm of WaitGroup and Latch: counter changes and the wake.
#include "counter.hpp"

namespace wsync {
namespace detail {

void counter_add(std::atomic<uint32_t>& word, int64_t delta, const char* below_zero,
                 const char* overflow) noexcept {
  uint32_t s = word.load(std::memory_order_relaxed);
  for (;;) {
    const int64_t count = static_cast<int64_t>(s & kCounterMask) + delta;
    // Checked before anything is stored: misuse never corrupts the word.
    if (count < 0) fatal(below_zero);
    if (count > static_cast<int64_t>(kCounterMask)) fatal(overflow);
    // Reaching zero clears WAITERS in the same CAS: every sleeper is woken
    // below, and a reused WaitGroup starts with no stale flag (so its next
    // zero notifies nobody unless somebody waits again).
    const uint32_t next = count == 0 ? 0 : (s & kCounterWaiters) | static_cast<uint32_t>(count);
    // Release: everything this thread did before the change happens-before
    // a waiter's acquire load that reads zero (later RMWs by other threads
    // continue this release sequence). Relaxed on failure: we just retry.
    if (word.compare_exchange_weak(s, next, std::memory_order_release, std::memory_order_relaxed)) {
      if (count == 0 && (s & kCounterWaiters) != 0) futex_wake_all(word);
      return;
    }
  }
}

bool counter_wait(std::atomic<uint32_t>& word, Deadline deadline) noexcept {
  CounterWaiter waiter = counter_waiter(word, deadline);
  return wait_blocking(waiter);
}

}  // namespace detail
}  // namespace wsync
