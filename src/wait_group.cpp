// wsync::WaitGroup: counter changes, the sleep, the wake-all.
#include "wsync/wait_group.hpp"

namespace wsync {

void WaitGroup::add(int delta) noexcept {
  uint32_t s = state_.load(std::memory_order_relaxed);
  for (;;) {
    const int64_t count = static_cast<int64_t>(s & kCounterMask) + delta;
    // Checked before anything is stored: misuse never corrupts the word.
    if (count < 0) detail::fatal("wsync: negative WaitGroup counter");
    if (count > static_cast<int64_t>(kCounterMask)) detail::fatal("wsync: WaitGroup counter overflow");
    // Reaching zero clears WAITERS in the same CAS: every sleeper is woken
    // below, and the next round starts with no stale flag (so its last done()
    // notifies nobody unless somebody waits again).
    const uint32_t next = count == 0 ? 0 : (s & kWaiters) | static_cast<uint32_t>(count);
    // Release: everything this thread did before add()/done() happens-before
    // a waiter's acquire load that reads zero (later RMWs by other threads
    // continue this release sequence). Relaxed on failure: we just retry.
    if (state_.compare_exchange_weak(s, next, std::memory_order_release, std::memory_order_relaxed)) {
      if (count == 0 && (s & kWaiters) != 0) detail::futex_wake_all(state_);
      return;
    }
  }
}

bool WaitGroup::wait_until_deadline(detail::Deadline deadline) noexcept {
  // Acquire: pairs with the release of the add() that reached zero.
  uint32_t s = state_.load(std::memory_order_acquire);
  for (;;) {
    if ((s & kCounterMask) == 0) return true;
    if ((s & kWaiters) == 0) {
      // Announce a sleeper so that the add() reaching zero wakes us. Acquire
      // on failure: the reloaded s may be zero, and then we return at once.
      if (!state_.compare_exchange_weak(s, s | kWaiters, std::memory_order_acquire,
                                        std::memory_order_acquire)) {
        continue;
      }
      s |= kWaiters;
    }
    // Sleep while the word still shows this count with WAITERS. Any add()
    // changes the word, so a wake between our CAS and the sleep is not lost.
    const bool woken = detail::futex_wait(state_, s, deadline);
    s = state_.load(std::memory_order_acquire);
    if (!woken) return (s & kCounterMask) == 0;  // timed out, unless zero just now
  }
}

}  // namespace wsync
