// wsync/latch.hpp: a single-use countdown, shaped like std::latch.
//
// Synopsis
//   class wsync::Latch {
//     static constexpr ptrdiff_t max() noexcept;          // 2^31 - 1
//     constexpr explicit Latch(ptrdiff_t expected);
//     void count_down(ptrdiff_t n = 1);
//     [[nodiscard]] bool try_wait() const noexcept;
//     void wait() const;
//     [[nodiscard]] bool wait_for(const std::chrono::duration&) const;        // wsync extension
//     [[nodiscard]] bool wait_until(const std::chrono::time_point&) const;    // wsync extension
//     void arrive_and_wait(ptrdiff_t n = 1);
//     void wait_async(callback, double timeout_ms = INFINITY) const;          // wasm
//   };
//
// Word layout and states: the WaitGroup's (wsync/wait_group.hpp), one word
// whose counter is the arrivals outstanding; at 0 the latch is released for
// good.
//
//   count_down(n): CAS loop; below zero is misuse ("wsync: Latch counted down
//                  below zero"), refused before anything is stored; reaching
//                  zero wakes every waiter if WAITERS was set.
//   wait():        while the count is above zero: spin briefly, then set
//                  WAITERS, sleep while the word is unchanged.
//
// Unlike WaitGroup it never goes up again: it is released once, for good.
//
// Happens-before promise: everything a thread did before its count_down()
// is visible to every thread after its wait() (or a try_wait() that returned
// true) returns.
//
// Where it may be called: count_down and try_wait anywhere; wait on the
// browser main thread as every wsync wait (docs/abi.md): wait_async there.
//
// Lifetime: constexpr-constructible; may be destroyed once every wait() has
// returned. Not copyable, not movable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

class Latch {
 public:
  static constexpr ptrdiff_t max() noexcept { return detail::kCountMask; }

  // A count outside 0 .. max() is misuse: a compile error in a constant
  // expression, "wsync: Latch count out of range" at run time.
  constexpr explicit Latch(ptrdiff_t expected) noexcept : state_(checked_count(expected)) {}
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;

  void count_down(ptrdiff_t n = 1) noexcept;

  [[nodiscard]] bool try_wait() const noexcept {
    // Acquire: pairs with the release of the count_down() that reached zero.
    return (state_.load(std::memory_order_acquire) & detail::kCountMask) == 0;
  }

  void wait() const noexcept {
    if (!try_wait()) (void)wait_until_deadline(detail::Deadline::never());
  }

  template <class Rep, class Period>
  [[nodiscard]] bool wait_for(const std::chrono::duration<Rep, Period>& timeout) const noexcept {
    return try_wait() || wait_until_deadline(detail::Deadline::after(timeout));
  }

  template <class Clock, class Duration>
  [[nodiscard]] bool wait_until(const std::chrono::time_point<Clock, Duration>& t) const noexcept {
    return try_wait() || detail::wait_until_on_clock(t, [this](detail::Deadline d) { return wait_until_deadline(d); });
  }

  void arrive_and_wait(ptrdiff_t n = 1) noexcept {
    count_down(n);
    wait();
  }

#ifdef __EMSCRIPTEN__
  // Waits without blocking (wasm only): returns at once, then calls
  // callback(bool released) from this thread's event loop, false if
  // `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void wait_async(Callback callback, double timeout_ms = detail::kNoTimeout) const {
    start_async(detail::async_callback(std::move(callback)), timeout_ms);
  }
#endif

 private:
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return state_; }

  // Out-of-line body of every wait; false on timeout.
  bool wait_until_deadline(detail::Deadline deadline) const noexcept;
#ifdef __EMSCRIPTEN__
  // The one asynchronous wait: wait_async() and wsync_latch_wait_async().
  void start_async(detail::AsyncCallback callback, double timeout_ms) const noexcept;
#endif

  static constexpr uint32_t checked_count(ptrdiff_t expected) noexcept {
    if (expected < 0 || expected > max()) detail::fatal("wsync: Latch count out of range");
    return static_cast<uint32_t>(expected);
  }

  // mutable: wait() is const, as std::latch's; the WAITERS bit it may set is
  // bookkeeping, not part of the latch's value.
  mutable std::atomic<uint32_t> state_;
};

static_assert(sizeof(Latch) == 4 && alignof(Latch) == 4,
              "wsync::Latch must be one 32-bit word: JavaScript addresses it as ptr >> 2");

}  // namespace wsync
