// A waiter for words whose bit 31 means "sleepers possible" (WaitGroup,
// Latch, Barrier): it waits until the other 31 bits say it is released.
#pragma once

#include "waiter.hpp"

namespace wsync {
namespace detail {

inline constexpr uint32_t kWaitersBit = 0x8000'0000u;

// Released: a predicate on the word without bit 31 (counter is zero, phase
// is no longer the token's).
template <class Released>
class WaitersBitWaiter {
 public:
  WaitersBitWaiter(std::atomic<uint32_t>& word, Released released, Deadline deadline) noexcept
      : word_(word), released_(released), deadline_(deadline) {}

  Step attempt(Spinner& spin) noexcept {
    // Acquire: pairs with the release of the change that released us (the
    // done() reaching zero, the arrival completing the phase), so what was
    // done before it is visible after the wait.
    uint32_t s = word_.load(std::memory_order_acquire);
    for (;;) {
      if (released_(s & ~kWaitersBit)) return Step::done(true);
      // Spin before announcing a sleeper: a release that comes within the
      // spin then finds WAITERS clear and costs its releaser no wake (the
      // fork-join benchmark, docs/benchmarks.md). A change the spin returns
      // was read with acquire, like the load above.
      if (const uint32_t seen = spin.while_equal(word_, s, Awaited::kEvent); seen != s) {
        s = seen;
        continue;
      }
      if ((s & kWaitersBit) == 0) {
        // Announce a sleeper, so that the change that releases us wakes us.
        // Acquire on failure too: the reloaded s may release us.
        if (!word_.compare_exchange_weak(s, s | kWaitersBit, std::memory_order_acquire,
                                         std::memory_order_acquire)) {
          continue;
        }
        s |= kWaitersBit;
      }
      // Every change of the other bits changes the word: sleep only while
      // it still holds what we saw, so a change after our CAS is not missed.
      return Step::sleep_while(word_, s);
    }
  }

  // Timed out, unless released just now.
  Step on_timeout() noexcept {
    return Step::done(released_(word_.load(std::memory_order_acquire) & ~kWaitersBit));
  }
  Deadline deadline() const noexcept { return deadline_; }

 private:
  std::atomic<uint32_t>& word_;
  Released released_;
  Deadline deadline_;
};

}  // namespace detail
}  // namespace wsync
