// wsync/mutex.hpp: a futex mutex on one 32-bit word, barging but never starving a waiter.
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
// (2011), with a handoff for waiters that wait too long, as in Go's
// starvation mode and WebKit's fair unlock. The word has five states:
//
//   | value | name      | meaning                                            |
//   |-------|-----------|----------------------------------------------------|
//   | 0     | UNLOCKED  | free                                               |
//   | 1     | LOCKED    | held, and nobody sleeps on the word                |
//   | 2     | CONTENDED | held, and other agents may be sleeping on it       |
//   | 4     | HANDOFF   | released to the sleepers: only one may take it     |
//   | 6     | STARVING  | CONTENDED, and a sleeper has waited past the bound |
//
// STARVING is CONTENDED | HANDOFF, so that unlock is one AND with HANDOFF:
// it frees LOCKED and CONTENDED and turns STARVING into HANDOFF.
//
//   lock:   0 -> 1 by CAS (fast path). Otherwise spin briefly (loads only)
//           while 1, then CAS the word to 2 and sleep while it holds what
//           was stored or seen. A waiter that has been woken from a sleep
//           on the word, and first slept longer ago than the handoff bound
//           (wsync/tuning.h, 1 ms), stores 6 instead: the request, made
//           only while the lock's gate is open (below). Once woken, it
//           takes 4 as 2 if it is past the bound itself, else as
//           6 (it is not the one that asked, so the request stands). A
//           waiter that has not been woken treats 4 as held. One that has
//           slept takes 0 as 2 (the wake it used may have been another
//           sleeper's turn); one that has not, or whose wait found the word
//           changed (it never queued, so it used up no wake), as 1.
//   unlock: AND with 4, one atomic step: 1 -> 0 (fast path); 2 -> 0 and
//           wake one; 6 -> 4 and wake one: the lock passes to a sleeper, and
//           no thread arriving meanwhile can take it. 0 or 4 is misuse
//           ("wsync: unlock of unlocked Mutex"), which the AND leaves as it
//           was; any other value is a corrupted word. Both abort.
//   timeout: a timed wait that times out takes a 4 it finds (as above), and
//           if it could have asked (woken, past the bound) turns a 6 back
//           into 2: the request may be its own. So a 6 or 4 always has a
//           sleeper that will take it.
//   gate:   a sleeper past the bound that takes a 4 (so serves a request)
//           closes the lock's gate for the bound: nobody asks again until
//           then, so there is at most one handoff per bound per lock (as
//           WebKit's fair unlock). Without it, with more threads than cores
//           every sleeper passes the bound, and every unlock would hand off
//           and leave the lock idle for a wake. The gate is not in the
//           word: C++ keeps one per lock address in the program, JS one per
//           agent (src/mutex.cpp); it never stays closed past twice the
//           bound (a bound of slack for threads' clocks).
//
// Guarantees
//   - Mutual exclusion, and an unlock() synchronizes with the lock() (or
//     successful try_lock*) that next acquires the mutex: everything done
//     inside one critical section is visible in the next.
//   - Barging, bounded: a running thread may take the lock ahead of a
//     sleeper that was just woken, which maximizes throughput; but once a
//     sleeper has waited longer than the bound (and the lock's last
//     handoff is that long ago), the next unlock hands the lock to a
//     sleeper, and the futex wakes the longest-waiting first (FIFO in
//     wasm, and on Linux among threads of one priority). While it sleeps
//     after asking, each other thread takes the lock ahead of it at most
//     once (model-checked for three threads: tests/models/mutex_fair.pml).
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

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

class CondVar;

class Mutex {
 public:
  // Word states (see the table above).
  static constexpr uint32_t kUnlocked = 0;   // free
  static constexpr uint32_t kLocked = 1;     // held, no sleepers
  static constexpr uint32_t kContended = 2;  // held, sleepers possible
  static constexpr uint32_t kHandoff = 4;    // free for a sleeper only
  static constexpr uint32_t kStarving = 6;   // CONTENDED | HANDOFF: a sleeper asks for the next unlock

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
    return state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire, std::memory_order_relaxed);
  }

  template <class Rep, class Period>
  [[nodiscard]] bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) noexcept {
    return try_lock_until_deadline(detail::Deadline::after(timeout));
  }

  template <class Clock, class Duration>
  [[nodiscard]] bool try_lock_until(const std::chrono::time_point<Clock, Duration>& t) noexcept {
    return detail::wait_until_on_clock(t, [this](detail::Deadline d) { return try_lock_until_deadline(d); });
  }

  void unlock() noexcept {
    // One RMW whatever the state (a CAS of 1 -> 0 would need a second one
    // when contended; a swap to 0 would let an arriving thread take a
    // STARVING lock before the handoff). Release: publishes the critical
    // section to the next acquirer.
    const uint32_t previous = state_.fetch_and(kHandoff, std::memory_order_release);
    if (previous != kLocked) unlock_slow(previous);
  }

#ifdef __EMSCRIPTEN__
  // Locks without blocking (wasm only; for the browser main thread): returns
  // at once, then calls callback(bool locked) from this thread's event loop,
  // false if `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void lock_async(Callback callback, double timeout_ms = detail::kNoTimeout) {
    start_async(detail::async_callback(std::move(callback)), timeout_ms);
  }
#endif

 private:
  friend class CondVar;
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return state_; }

#ifdef __EMSCRIPTEN__
  // The one asynchronous lock: lock_async() and wsync_mutex_lock_async().
  void start_async(detail::AsyncCallback callback, double timeout_ms) noexcept;
#endif

  // The body of both timed forms; false on timeout.
  [[nodiscard]] bool try_lock_until_deadline(detail::Deadline deadline) noexcept {
    return try_lock() || lock_contended(deadline);
  }

  // Out of line: spin, then sleep (src/mutex_waiter.hpp). Returns false
  // only on timeout. `as_contended`: take it only as CONTENDED, as a sleeper
  // would (CondVar's relock after a wait).
  bool lock_contended(detail::Deadline deadline, bool as_contended = false) noexcept;
  // The word was not LOCKED: wake a sleeper, or report misuse.
  void unlock_slow(uint32_t previous) noexcept;

  std::atomic<uint32_t> state_{kUnlocked};
};

static_assert(Mutex::kStarving == (Mutex::kContended | Mutex::kHandoff) &&
                  ((Mutex::kLocked | Mutex::kContended) & Mutex::kHandoff) == 0,
              "unlock's AND with HANDOFF frees LOCKED and CONTENDED and turns STARVING into HANDOFF");
static_assert(sizeof(Mutex) == 4 && alignof(Mutex) == 4,
              "wsync::Mutex must be one 32-bit word: JavaScript addresses it as ptr >> 2");
static_assert(std::atomic<uint32_t>::is_always_lock_free, "wsync needs lock-free 32-bit atomics");

}  // namespace wsync
