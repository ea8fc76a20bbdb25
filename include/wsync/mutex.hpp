// wsync/mutex.hpp: a three-state futex mutex on one 32-bit word.
//
// Synopsis
//   class wsync::Mutex {                       // Lockable, TimedLockable
//     constexpr Mutex() noexcept;
//     void lock();
//     [[nodiscard]] bool try_lock() noexcept;
//     [[nodiscard]] bool try_lock_for(const std::chrono::duration&);
//     [[nodiscard]] bool try_lock_until(const std::chrono::time_point&);
//     void unlock();
//   };
//
// The algorithm is "Mutex, take 3" from Ulrich Drepper, "Futexes Are Tricky"
// (2011). The word has three states:
//
//   | value | name      | meaning                                         |
//   |-------|-----------|-------------------------------------------------|
//   | 0     | UNLOCKED  | free                                            |
//   | 1     | LOCKED    | held, and nobody sleeps on the word             |
//   | 2     | CONTENDED | held, and other agents may be sleeping on it    |
//
//   lock:   0 -> 1 by CAS (fast path); otherwise spin briefly (loads only),
//           then swap in 2 and sleep while the word is 2. A swap that returns
//           0 acquires the lock (leaving 2: there may be other sleepers).
//           After a sleep only the swap may take it, never the 0 -> 1 CAS.
//   unlock: swap in 0; only if the old value was 2, wake one sleeper.
//           Old value 0 is misuse ("wsync: unlock of unlocked Mutex"),
//           any value above 2 is a corrupted word; both abort.
//
// Guarantees
//   - Mutual exclusion, and an unlock() synchronizes with the lock() (or
//     successful try_lock*) that next acquires the mutex: everything done
//     inside one critical section is visible in the next.
//   - No fairness: a running thread may take the lock ahead of a sleeper that
//     was just woken ("barging"). It maximizes throughput; a sleeper that
//     loses simply sleeps again.
//   - Timed waits use an absolute deadline and never return early.
//
// Where it may be called
//   pthreads and Web Workers: everywhere. Node's main thread: everywhere.
//   Browser main thread: see docs/abi.md (it may not block there).
//
// Lifetime: constexpr-constructible, so a namespace-scope Mutex is constant-
// initialized (no static-init-order problem). It may be destroyed once it is
// unlocked and no thread can call it any more. Not copyable, not movable: its
// address is its identity (JavaScript finds it at `address >> 2`).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "wsync/detail/futex.hpp"
#ifdef __EMSCRIPTEN__
#include <cmath>

#include "wsync/detail/async_callback.hpp"
#endif

namespace wsync {

class CondVar;

class Mutex {
 public:
  // Word states (see the table above).
  static constexpr uint32_t kUnlocked = 0;   // free
  static constexpr uint32_t kLocked = 1;     // held, no sleepers
  static constexpr uint32_t kContended = 2;  // held, sleepers possible

  constexpr Mutex() noexcept = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() noexcept {
    if (!try_lock()) lock_contended(detail::Deadline::never());
  }

  [[nodiscard]] bool try_lock() noexcept {
    uint32_t expected = kUnlocked;
    // Acquire: pairs with the release in unlock(), so the previous critical
    // section happens-before ours. Relaxed on failure: we learn nothing.
    return state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }

  template <class Rep, class Period>
  [[nodiscard]] bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) noexcept {
    return try_lock_until_deadline(detail::Deadline::after(timeout));
  }

  template <class Clock, class Duration>
  [[nodiscard]] bool try_lock_until(const std::chrono::time_point<Clock, Duration>& t) noexcept {
    return detail::wait_until_on_clock(t, [this](detail::Deadline d) { return try_lock_until_deadline(d); });
  }

  // The body of both timed forms (also used by the C API); false on timeout.
  [[nodiscard]] bool try_lock_until_deadline(detail::Deadline deadline) noexcept {
    return try_lock() || lock_contended(deadline);
  }

  void unlock() noexcept {
    // Release: publishes the critical section to the next acquirer.
    const uint32_t previous = state_.exchange(kUnlocked, std::memory_order_release);
    if (previous != kLocked) unlock_slow(previous);
  }

#ifdef __EMSCRIPTEN__
  // Locks without blocking (wasm only; for the browser main thread): returns
  // at once, then calls callback(bool locked) from this thread's event loop,
  // false if `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void lock_async(Callback callback, double timeout_ms = INFINITY) {
    detail::start_async(wsync_mutex_lock_async, reinterpret_cast<wsync_mutex_t*>(this), std::move(callback), timeout_ms);
  }
#endif

  // The raw word, for the C API, the JS glue and tests. Not for locking.
  std::atomic<uint32_t>& native_word() noexcept { return state_; }

 private:
  friend class CondVar;

  // Out of line and cold: spin, then sleep (src/mutex_waiter.hpp). Returns
  // false only on timeout. `as_contended`: take it only as CONTENDED, as a
  // sleeper would (CondVar's relock after a wait).
  bool lock_contended(detail::Deadline deadline, bool as_contended = false) noexcept;
  // previous == kContended: wake one sleeper; anything else is misuse.
  void unlock_slow(uint32_t previous) noexcept;

  std::atomic<uint32_t> state_{kUnlocked};
};

static_assert(sizeof(Mutex) == 4 && alignof(Mutex) == 4,
              "wsync::Mutex must be one 32-bit word: JavaScript addresses it as ptr >> 2");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "wsync needs lock-free 32-bit atomics");

}  // namespace wsync
