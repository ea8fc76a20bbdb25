// wsync::Mutex slow paths: the bounded spin, the sleep, the wake, misuse.
#include "wsync/mutex.hpp"

namespace wsync {

namespace {

// Load-only spin budget before sleeping. A held lock is often released within
// a few hundred cycles; sleeping costs a syscall (native) or a trip through
// the engine's wait queue (wasm) on both sides. Loads, not CASes, keep the
// cache line shared while the owner finishes ("easier on the caches").
constexpr int kSpinLimit = 100;

// Spins while the mutex is LOCKED with no sleepers, at most kSpinLimit times;
// returns the last state seen. Stops at once on UNLOCKED (try to take it) or
// CONTENDED (others already sleep: spinning further only delays our turn).
uint32_t spin(const std::atomic<uint32_t>& state) noexcept {
  for (int i = 0;; ++i) {
    // Relaxed: only a hint; the CAS or swap that follows does the acquiring.
    const uint32_t s = state.load(std::memory_order_relaxed);
    if (s != Mutex::kLocked || i == kSpinLimit) return s;
    detail::spin_pause();
  }
}

}  // namespace

bool Mutex::lock_contended(detail::Deadline deadline) noexcept {
  uint32_t s = spin(state_);

  // Free after spinning: take it the cheap way, without marking contention.
  if (s == kUnlocked) {
    // Acquire on success, as in try_lock(); on failure s gets the new state.
    if (state_.compare_exchange_strong(s, kLocked, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
      return true;
    }
  }

  for (;;) {
    if (s > kContended) detail::fatal("wsync: corrupted Mutex word");
    // Announce a sleeper by storing CONTENDED. If the swap finds the mutex
    // free we own it; we leave CONTENDED behind because other sleepers may
    // exist, which costs at most one unneeded wake. Acquire: pairs with the
    // release in unlock().
    if (s != kContended && state_.exchange(kContended, std::memory_order_acquire) == kUnlocked) {
      return true;
    }
    // Sleep while the word is CONTENDED; any unlock changes it to 0 first.
    if (!detail::futex_wait(state_, kContended, deadline)) return false;  // timed out
    s = spin(state_);
  }
}

void Mutex::unlock_slow(uint32_t previous) noexcept {
  if (previous == kContended) {
    // Someone may sleep on the word: wake one. It swaps in CONTENDED again, so
    // the remaining sleepers are woken by later unlocks, one at a time.
    detail::futex_wake_one(state_);
    return;
  }
  // The swap stored 0 over 0 (or over garbage): nothing was held, so nothing
  // changed for other threads; report and stop.
  if (previous == kUnlocked) detail::fatal("wsync: unlock of unlocked Mutex");
  detail::fatal("wsync: corrupted Mutex word");
}

}  // namespace wsync
