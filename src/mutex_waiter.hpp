// The Mutex slow path as a waiter (src/waiter.hpp): Drepper's "take 3" lock
// loop, run by lock(), the timed locks, lock_async and CondVar's relock.
#pragma once

#include "waiter.hpp"
#include "wsync/mutex.hpp"

namespace wsync {
namespace detail {

class MutexWaiter {
 public:
  // `contended`: take the mutex only through the CONTENDED path, as after a
  // sleep. CondVar's relock does this, so that waiters woken together by
  // notify_all queue on the mutex word instead of all spinning on it.
  MutexWaiter(std::atomic<uint32_t>& state, Deadline deadline, bool contended = false) noexcept
      : state_(state), deadline_(deadline), slept_(contended) {}

  Step attempt(Spinner& spin) noexcept {
    // Spin while LOCKED with no sleepers; stop at once on UNLOCKED (try to
    // take it) or CONTENDED (others already sleep: spinning only delays us).
    uint32_t s = spin.while_equal(state_, Mutex::kLocked);
    // Free, and we never slept: take it the cheap way, without marking
    // contention. Acquire pairs with unlock()'s release; on failure s gets
    // the new state. Once we have slept we must not: other sleepers may
    // remain, and only a CONTENDED word makes their next unlock wake one.
    if (!slept_ && s == Mutex::kUnlocked &&
        state_.compare_exchange_strong(s, Mutex::kLocked, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
      return Step::done(true);
    }
    if (s > Mutex::kContended) fatal("wsync: corrupted Mutex word");
    // Announce a sleeper by storing CONTENDED. A swap that finds the mutex
    // free owns it, leaving CONTENDED behind (there may be other sleepers:
    // at most one needless wake). Acquire: pairs with unlock()'s release.
    if (s != Mutex::kContended &&
        state_.exchange(Mutex::kContended, std::memory_order_acquire) == Mutex::kUnlocked) {
      return Step::done(true);
    }
    // Sleep while CONTENDED; every unlock stores UNLOCKED first.
    slept_ = true;
    return Step::sleep_while(state_, Mutex::kContended);
  }

  Step on_timeout() noexcept { return Step::done(false); }
  Deadline deadline() const noexcept { return deadline_; }

 private:
  std::atomic<uint32_t>& state_;
  Deadline deadline_;
  bool slept_;
};

}  // namespace detail
}  // namespace wsync
