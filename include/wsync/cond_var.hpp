// wsync/cond_var.hpp: a condition variable, shaped like
// std::condition_variable_any.
//
// Synopsis
//   class wsync::CondVar {
//     constexpr CondVar() noexcept;
//     void notify_one() noexcept;
//     void notify_all() noexcept;
//     template <class Lock> void wait(Lock& lock);
//     template <class Lock, class Pred> void wait(Lock& lock, Pred pred);
//     template <class Lock> std::cv_status wait_for(Lock&, const std::chrono::duration&);
//     template <class Lock> std::cv_status wait_until(Lock&, const std::chrono::time_point&);
//     template <class Lock, class Pred> bool wait_for(Lock&, const duration&, Pred);
//     template <class Lock, class Pred> bool wait_until(Lock&, const time_point&, Pred);
//     // C++20, where the library has std::stop_token (__cpp_lib_jthread):
//     template <class Lock, class Pred> bool wait(Lock&, std::stop_token, Pred);
//     template <class Lock, class Pred> bool wait_until(Lock&, std::stop_token, const time_point&, Pred);
//     template <class Lock, class Pred> bool wait_for(Lock&, std::stop_token, const duration&, Pred);
//     void wait_async(Mutex& m, callback, double timeout_ms = INFINITY);   // wasm
//   };
//
// Lock: wsync::Mutex, std::unique_lock<wsync::Mutex>, or any BasicLockable
// (lock() and unlock()), held by the caller. As [thread.condvarany.wait]
// requires, if taking the lock again at the end of a wait throws,
// std::terminate is called: the wait could not return with the lock held.
//
// The stop_token waits return pred() once stop is requested: a
// request_stop() from any thread wakes the waiter. The waiter registers
// before it looks at the token, and the stop callback notifies every waiter
// (seq_cst fences on both sides), so a request cannot fall between the look
// and the sleep.
//
// Two 32-bit words, a sequence design:
//
//   | word | name    | meaning                                                 |
//   |------|---------|---------------------------------------------------------|
//   | 0    | seq     | notifications so far (wraps); waiters sleep on it       |
//   | 1    | waiters | agents inside wait() (registered before they unlock)    |
//
//   wait:   waiters += 1; s = seq; unlock; sleep while seq == s; waiters -= 1;
//           relock.
//   notify: only if waiters != 0: seq += 1, wake one (or all).
//
// Why it cannot miss a notification: a waiter reads seq and registers while
// it holds the lock, before it unlocks. A notifier that changed the
// predicate under the same lock did so after that unlock, so its notify sees
// the waiter in `waiters` and bumps seq after the waiter read it: the
// waiter's sleep (an atomic compare-and-sleep) either sees the new seq or is
// woken. So notify costs one load and nothing else while nobody waits. As
// with std::condition_variable, a predicate changed without the lock may be
// missed.
//
// No thundering herd on wsync::Mutex: wasm has no futex requeue, so
// notify_all wakes every waiter on `seq`; each then takes the Mutex only
// through its CONTENDED path (as a sleeper would, never spinning), so they
// queue on the mutex word and each unlock releases exactly one of them.
//
// Spurious wakeups are possible (after 2^32 notifications in the window
// between a waiter's unlock and its sleep, or from the engine); wait with a
// predicate, as with any condition variable.
//
// Happens-before: nothing beyond the lock's. The caller's lock orders the
// data; the condition variable only says when to look again.
//
// Where it may be called: notify anywhere; the waits block as every wsync
// wait (docs/abi.md); wait_async (with a wsync::Mutex) on the browser main
// thread.
//
// Lifetime: constexpr-constructible; may be destroyed once no thread waits
// on it (as std's: notify then destroy is fine once waiters have returned).
// Not copyable, not movable.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>  // std::cv_status
#include <cstdint>
#include <mutex>  // std::unique_lock, std::adopt_lock
#if __cplusplus >= 202002L && __has_include(<stop_token>)
#include <stop_token>
#endif

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"
#include "wsync/mutex.hpp"

namespace wsync {

class CondVar {
 public:
  constexpr CondVar() noexcept = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  void notify_one() noexcept {
    // Relaxed: see the header; the waiter registered before its unlock,
    // which happens-before the notifier's own use of the lock.
    if (waiters_.load(std::memory_order_relaxed) != 0) notify_slow(1);
  }
  void notify_all() noexcept {
    if (waiters_.load(std::memory_order_relaxed) != 0) notify_slow(UINT32_MAX);
  }

  template <class Lock>
  void wait(Lock& lock) {
    (void)wait_until_deadline(lock, detail::Deadline::never());
  }

  template <class Lock, class Predicate>
  void wait(Lock& lock, Predicate pred) {
    while (!pred()) wait(lock);
  }

  template <class Lock, class Rep, class Period>
  std::cv_status wait_for(Lock& lock, const std::chrono::duration<Rep, Period>& timeout) {
    return wait_until_deadline(lock, detail::Deadline::after(timeout));
  }

  template <class Lock, class Clock, class Duration>
  std::cv_status wait_until(Lock& lock, const std::chrono::time_point<Clock, Duration>& t) {
    // A timeout on the steady deadline while Clock::now() is still short of
    // t is reported as a wake (a spurious one, which the standard allows), as
    // libstdc++ and libc++ do, rather than waiting again: a second wait could
    // miss a notify made between the two. The predicate form waits again.
    if (wait_until_deadline(lock, detail::Deadline::at(t)) == std::cv_status::no_timeout) {
      return std::cv_status::no_timeout;
    }
    return Clock::now() < t ? std::cv_status::no_timeout : std::cv_status::timeout;
  }

  // The predicate forms: true if pred() holds on return, false on timeout
  // with pred() still false. One absolute deadline across every retry.
  template <class Lock, class Rep, class Period, class Predicate>
  bool wait_for(Lock& lock, const std::chrono::duration<Rep, Period>& timeout, Predicate pred) {
    return wait_until_pred(lock, detail::Deadline::after(timeout), pred);
  }

  template <class Lock, class Clock, class Duration, class Predicate>
  bool wait_until(Lock& lock, const std::chrono::time_point<Clock, Duration>& t, Predicate pred) {
    while (!pred()) {
      if (wait_until(lock, t) == std::cv_status::timeout) return pred();
    }
    return true;
  }

#if defined(__cpp_lib_jthread)
  template <class Lock, class Predicate>
  bool wait(Lock& lock, std::stop_token stoken, Predicate pred) {
    return wait_stoppable(
        lock, stoken, pred, [] { return detail::Deadline::never(); }, [] { return false; });
  }

  template <class Lock, class Clock, class Duration, class Predicate>
  bool wait_until(Lock& lock, std::stop_token stoken, const std::chrono::time_point<Clock, Duration>& t,
                  Predicate pred) {
    // The deadline is mapped again after each timeout that came while Clock
    // was still short of t (see detail::wait_until_on_clock).
    return wait_stoppable(
        lock, stoken, pred, [&] { return detail::Deadline::at(t); }, [&] { return !(Clock::now() < t); });
  }

  template <class Lock, class Rep, class Period, class Predicate>
  bool wait_for(Lock& lock, std::stop_token stoken, const std::chrono::duration<Rep, Period>& timeout, Predicate pred) {
    const detail::Deadline deadline = detail::Deadline::after(timeout);
    return wait_stoppable(
        lock, stoken, pred, [deadline] { return deadline; }, [] { return true; });
  }
#endif

#ifdef __EMSCRIPTEN__
  // Waits without blocking (wasm only): unlocks `m` (held by the caller) at
  // once and returns; later, from this thread's event loop, relocks `m` and
  // calls callback(bool notified) with it held; false if `timeout_ms` passed
  // first. See wsync/async.h.
  template <class Callback>
  void wait_async(Mutex& m, Callback callback, double timeout_ms = detail::kNoTimeout) {
    start_async(m, detail::async_callback(std::move(callback)), timeout_ms);
  }
#endif

 private:
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return seq_; }
  std::atomic<uint32_t>& waiters_word() noexcept { return waiters_; }

  // Registers a waiter and returns the sequence number to sleep on; the
  // caller must hold its lock. end_wait() undoes the registration.
  uint32_t begin_wait() noexcept {
    // Relaxed: ordered by the caller's lock (see the header).
    waiters_.fetch_add(1, std::memory_order_relaxed);
    return seq_.load(std::memory_order_relaxed);
  }
  void end_wait() noexcept { waiters_.fetch_sub(1, std::memory_order_relaxed); }

#ifdef __EMSCRIPTEN__
  // The one asynchronous wait: wait_async() and wsync_cond_wait_async().
  void start_async(Mutex& m, detail::AsyncCallback callback, double timeout_ms) noexcept;
#endif

  // The body of every wait (and of the C API's).
  template <class Lock>
  std::cv_status wait_until_deadline(Lock& lock, detail::Deadline deadline) {
    const uint32_t seq = begin_wait();
    lock.unlock();
    const bool notified = sleep(seq, deadline);
    end_wait();
    relock(lock);
    return notified ? std::cv_status::no_timeout : std::cv_status::timeout;
  }

  template <class Lock, class Predicate>
  bool wait_until_pred(Lock& lock, detail::Deadline deadline, Predicate& pred) {
    while (!pred()) {
      if (wait_until_deadline(lock, deadline) == std::cv_status::timeout) return pred();
    }
    return true;
  }

  // Sleeps while seq_ == seq; false on timeout (out of line, src/cond_var.cpp).
  bool sleep(uint32_t seq, detail::Deadline deadline) noexcept;
  void notify_slow(uint32_t count) noexcept;

#if defined(__cpp_lib_jthread)
  // [thread.condvarany.intwait]: while no stop is requested, return true
  // once pred() holds, else wait; a timeout ends it only once `expired()`
  // (the caller's clock has reached its time point).
  template <class Lock, class Predicate, class DeadlineNow, class Expired>
  bool wait_stoppable(Lock& lock, std::stop_token& stoken, Predicate& pred, DeadlineNow deadline_now, Expired expired) {
    std::stop_callback wake(stoken, [this] {
      std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the waiter's, below
      notify_all();
    });
    while (!stoken.stop_requested()) {
      if (pred()) return true;
      const uint32_t seq = begin_wait();
      // Registered, then look: either this sees the request, or the
      // request's notify_all sees this waiter and bumps seq past `seq`.
      std::atomic_thread_fence(std::memory_order_seq_cst);
      if (stoken.stop_requested()) {
        end_wait();
        break;
      }
      lock.unlock();
      const bool notified = sleep(seq, deadline_now());
      end_wait();
      relock(lock);
      if (!notified && expired()) return pred();
    }
    return pred();
  }
#endif

  // Relocking: a wsync::Mutex (bare or in a unique_lock) is taken through
  // its CONTENDED path (see "No thundering herd" above); other locks as
  // they come. noexcept: a lock() that throws here calls std::terminate, as
  // [thread.condvarany.wait] requires (the wait's postcondition, the lock
  // held, cannot be met).
  static void relock(Mutex& m) noexcept { (void)m.lock_contended(detail::Deadline::never(), true); }
  static void relock(std::unique_lock<Mutex>& lock) noexcept {
    relock(*lock.mutex());
    std::unique_lock<Mutex> owned(*lock.mutex(), std::adopt_lock);
    lock.swap(owned);  // `lock` owns it again; `owned` is left empty
  }
  template <class Lock>
  static void relock(Lock& lock) noexcept {
    lock.lock();
  }

  std::atomic<uint32_t> seq_{0};
  std::atomic<uint32_t> waiters_{0};
};

static_assert(sizeof(CondVar) == 8 && alignof(CondVar) == 4,
              "wsync::CondVar must be two 32-bit words: JavaScript addresses it as ptr >> 2");

}  // namespace wsync
