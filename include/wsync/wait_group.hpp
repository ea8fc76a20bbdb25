// wsync/wait_group.hpp: a Go-style WaitGroup on one 32-bit word.
//
// Synopsis
//   class wsync::WaitGroup {
//     constexpr WaitGroup() noexcept;
//     void add(int delta = 1);
//     void done();                               // add(-1)
//     void wait();
//     [[nodiscard]] int count() const noexcept;  // a snapshot, as JS's WaitGroup.count
//     [[nodiscard]] bool wait_for(const std::chrono::duration&);
//     [[nodiscard]] bool wait_until(const std::chrono::time_point&);
//   };
//
// A counter of outstanding work. add(n) before handing out n pieces of work;
// each piece calls done(); wait() returns once the counter is zero.
//
// Word layout (32 bits; Latch uses the same word and algorithm):
//
//   | bit 31  | bits 30..0                       |
//   |---------|----------------------------------|
//   | WAITERS | counter (0 .. 2^31 - 1)          |
//
//   | state          | meaning                                            |
//   |----------------|----------------------------------------------------|
//   | 0              | counter zero, nobody waiting: wait() returns at once |
//   | n              | n outstanding, nobody asleep: done() notifies nobody |
//   | WAITERS | n    | n outstanding, waiters may be asleep on the word   |
//   | WAITERS | 0    | never stored: the add() that reaches zero clears   |
//   |                | WAITERS in the same CAS and then wakes every waiter |
//
//   wait():  while counter > 0: spin briefly, then set WAITERS (CAS), sleep
//            while the word is unchanged, reload.
//   add(d):  CAS loop; counter + d < 0 is misuse and aborts with
//            "wsync: negative WaitGroup counter" before anything is stored.
//            Reaching 0 stores 0 and, only if WAITERS was set, wakes all.
//
// Happens-before promise: everything a thread did before its done() (or any
// add() that brought the counter down) is visible to every waiter after its
// wait() returns true. As in Go, calls to add() with a positive delta that
// start while the counter is zero must happen before wait().
//
// Reuse: once every wait() of one round has returned, the same WaitGroup can
// be used for the next round.
//
// Where it may be called
//   add/done: anywhere (they never block). wait: pthreads, Web Workers and
//   Node's main thread block; on the browser main thread see docs/abi.md.
//
// Lifetime: constexpr-constructible; may be destroyed when the counter is zero
// and every wait() has returned. Not copyable, not movable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

class WaitGroup {
 public:
  constexpr WaitGroup() noexcept = default;
  WaitGroup(const WaitGroup&) = delete;
  WaitGroup& operator=(const WaitGroup&) = delete;

  void add(int delta = 1) noexcept;
  void done() noexcept { add(-1); }

  void wait() noexcept { (void)wait_until_deadline(detail::Deadline::never()); }

  // The counter now; other threads may change it at any moment. Acquire:
  // a 0 read here makes the work of the done() calls that reached it
  // visible, as a wait() that returns would.
  [[nodiscard]] int count() const noexcept {
    return static_cast<int>(state_.load(std::memory_order_acquire) & detail::kCountMask);
  }

  template <class Rep, class Period>
  [[nodiscard]] bool wait_for(const std::chrono::duration<Rep, Period>& timeout) noexcept {
    return wait_until_deadline(detail::Deadline::after(timeout));
  }

  template <class Clock, class Duration>
  [[nodiscard]] bool wait_until(const std::chrono::time_point<Clock, Duration>& t) noexcept {
    return detail::wait_until_on_clock(t, [this](detail::Deadline d) { return wait_until_deadline(d); });
  }

#ifdef __EMSCRIPTEN__
  // Waits without blocking (wasm only; for the browser main thread): returns
  // at once, then calls callback(bool zero) from this thread's event loop,
  // false if `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void wait_async(Callback callback, double timeout_ms = detail::kNoTimeout) {
    start_async(detail::async_callback(std::move(callback)), timeout_ms);
  }
#endif

 private:
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return state_; }

  // Out-of-line body of every wait; false on timeout.
  bool wait_until_deadline(detail::Deadline deadline) noexcept;
#ifdef __EMSCRIPTEN__
  // The one asynchronous wait: wait_async() and wsync_wg_wait_async().
  void start_async(detail::AsyncCallback callback, double timeout_ms) noexcept;
#endif

  std::atomic<uint32_t> state_{0};
};

static_assert(sizeof(WaitGroup) == 4 && alignof(WaitGroup) == 4,
              "wsync::WaitGroup must be one 32-bit word: JavaScript addresses it as ptr >> 2");

}  // namespace wsync
