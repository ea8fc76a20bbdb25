// The Mutex slow path as a waiter (src/waiter.hpp): the lock loop of the
// state table in include/wsync/mutex.hpp, run by lock(), the timed locks,
// lock_async and CondVar's relock.
#pragma once

#include "waiter.hpp"
#include "wsync/mutex.hpp"

namespace wsync {
namespace detail {

// How long a sleeper waits before it asks the next unlock for a handoff, in
// nanoseconds (wsync_set_handoff_after_us, src/tuning.cpp).
int64_t handoff_after_ns() noexcept;

// The handoff's rate limit, per lock: once a handoff has been served, no
// waiter asks for another within the bound (src/mutex.cpp). handoff_gate()
// is when the lock's gate opens, in steady-clock ns.
int64_t handoff_gate(const std::atomic<uint32_t>& word) noexcept;
void close_handoff_gate(const std::atomic<uint32_t>& word, int64_t now_ns) noexcept;

// Open once `now_ns` reached the gate. A gate more than twice the bound
// ahead was closed on a clock far ahead of the reader's or before the bound
// shrank: open too, so that the gate never holds a request back longer than
// twice the bound. (wasm threads' clocks are only roughly aligned: a bound
// of slack keeps the gate closed for a reader whose clock is a little
// behind the closer's, or a time read a little before the gate: a waiter
// passes the end of its last sleep, which a gate closed since can follow by
// as long as the waiter took to get from its wake to here.)
inline bool handoff_gate_open(int64_t gate_ns, int64_t now_ns) noexcept {
  const int64_t wait = gate_ns - now_ns;
  return wait <= 0 || wait > 2 * handoff_after_ns();
}

class MutexWaiter {
 public:
  // `as_contended`: take the mutex only as CONTENDED, as after a sleep.
  // CondVar's relock does this, so that waiters woken together by
  // notify_all queue on the mutex word instead of all spinning on it.
  MutexWaiter(std::atomic<uint32_t>& state, Deadline deadline, bool as_contended = false) noexcept
      : state_(state), deadline_(deadline), as_contended_(as_contended) {}

  Step attempt(Spinner& spin) noexcept {
    // Spin while LOCKED with no sleepers; stop at once on any other value:
    // free (take it), or others already sleep (spinning only delays us).
    // CondVar's relock waits for the notifier, which unlocks after its
    // notify: a release, worth the whole budget.
    uint32_t s = spin.while_equal(state_, Mutex::kLocked, as_contended_ ? Awaited::kRelease : Awaited::kLockHolder);
    for (;;) {
      uint32_t next;
      switch (s) {
        case Mutex::kUnlocked:
          // Free. Taken as CONTENDED by a waiter that has slept: the wake
          // that ended its sleep may have been the one meant for other
          // sleepers, and only a CONTENDED word makes the next unlock wake
          // one. A wait that found the word changed never queued (nor did
          // one that only spun), so it used up no wake: LOCKED, and the
          // next unlock wakes nobody in vain.
          if (take(s, has_slept() || as_contended_ ? Mutex::kContended : Mutex::kLocked)) return Step::done(true);
          continue;
        case Mutex::kHandoff:
          // Released to the sleepers: ours if we have been woken from a
          // sleep on the word. Otherwise it is as good as held: sleep. (A
          // waiter that only decided to sleep, and found the word changed,
          // is not one: else it could take the handoff ahead of the sleeper
          // the unlock woke, each time the race goes its way.)
          if (woken_) {
            if (take_handoff(s)) return Step::done(true);
            continue;
          }
          return Step::sleep_while(state_, s);
        case Mutex::kLocked:
        case Mutex::kContended:
          next = may_ask() ? Mutex::kStarving : Mutex::kContended;
          break;
        case Mutex::kStarving:
          next = s;  // someone asked already; the handoff goes to a sleeper
          break;
        default:
          fatal("wsync: corrupted Mutex word");
      }
      // Announce a sleeper (and maybe the request), then sleep while the
      // word holds it: every unlock changes it first. Relaxed: nothing is
      // acquired here; a CAS failure re-reads the state.
      if (s != next && !state_.compare_exchange_strong(s, next, std::memory_order_relaxed)) continue;
      return Step::sleep_while(state_, next);
    }
  }

  // A sleep timed out, so it consumed no wake. But a handoff may be waiting
  // with nobody else to take it, or the request pending may be ours.
  Step on_timeout() noexcept {
    uint32_t s = state_.load(std::memory_order_relaxed);
    for (;;) {
      if (s == Mutex::kHandoff) {
        if (take_handoff(s)) return Step::done(true);
      } else if (s == Mutex::kStarving && woken_ && past_bound()) {
        // Withdraw the request: it may be ours, and a HANDOFF must always
        // have a taker. Another starving sleeper asks again when it wakes.
        if (state_.compare_exchange_strong(s, Mutex::kContended, std::memory_order_relaxed)) {
          return Step::done(false);
        }
      } else {
        return Step::done(false);
      }
    }
  }

  Deadline deadline() const noexcept { return deadline_; }

  // The driver's report of a sleep (src/waiter.hpp): its clock readings
  // serve the handoff bound, so that this waiter reads a clock of its own
  // (in wasm a call into JavaScript) only where the driver took none at the
  // wake, and only when a question needs the time (last_wake_ns()).
  void slept(int64_t from_ns, int64_t to_ns, bool woken) noexcept {
    if (!has_slept()) first_sleep_ns_ = from_ns | 1;  // never 0: 0 is "not yet"
    last_wake_ns_ = to_ns;
    woken_ = woken_ || woken;
  }

 private:
  // Acquire: pairs with the unlock's release that left `expected` behind.
  bool take(uint32_t& expected, uint32_t held) noexcept {
    return state_.compare_exchange_strong(expected, held, std::memory_order_acquire, std::memory_order_relaxed);
  }

  // The handoff answers the request of a sleeper past the bound. One that
  // is not (so not the one that asked) takes it as STARVING: the request
  // stands, and the next unlock hands off again, until the lock reaches a
  // sleeper that waited that long. Only then does the word go back to
  // CONTENDED. (Without it, sleepers woken ahead of the one that asked
  // could use up its request, one after another.) Serving it closes the
  // lock's handoff gate for the bound.
  bool take_handoff(uint32_t& expected) noexcept {
    const bool served = past_bound();
    if (!take(expected, served ? Mutex::kContended : Mutex::kStarving)) return false;
    if (served) close_handoff_gate(state_, last_wake_ns());
    return true;
  }

  // Past the handoff bound, from the start of the first sleep to the end of
  // the last (the driver's readings: a wait that the spin ends costs none).
  bool past_bound() noexcept { return has_slept() && last_wake_ns() - first_sleep_ns_ >= handoff_after_ns(); }

  // Only a waiter that can take the handoff (woken, past the bound) may ask
  // for it, and only while the lock's gate is open: with more threads than
  // cores every sleeper passes the bound, and a handoff at every unlock
  // would leave the lock idle for a wake each time.
  bool may_ask() noexcept { return woken_ && past_bound() && handoff_gate_open(handoff_gate(state_), last_wake_ns()); }

  // The end of the last sleep: the driver's reading, or (kNoReading) the
  // clock's now, read once, when the first question needs it. The attempt
  // that asks runs right after the wake, so now is the wake's time too.
  int64_t last_wake_ns() noexcept {
    if (last_wake_ns_ == kNoReading) last_wake_ns_ = Deadline::now_ns();
    return last_wake_ns_;
  }

  // A sleep on the word really began (the driver reported one, woken or
  // timed out), not only a wait that found the word changed.
  bool has_slept() const noexcept { return first_sleep_ns_ != 0; }

  std::atomic<uint32_t>& state_;
  Deadline deadline_;
  bool as_contended_;
  bool woken_ = false;          // a sleep on the word ended in a wake
  int64_t first_sleep_ns_ = 0;  // steady-clock ns at which the first sleep began; 0 before it
  int64_t last_wake_ns_ = 0;    // and at which the last one ended (or kNoReading)
};

}  // namespace detail
}  // namespace wsync
