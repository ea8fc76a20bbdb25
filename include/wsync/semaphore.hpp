// wsync/semaphore.hpp: a counting semaphore with a maximum, shaped like
// std::counting_semaphore.
//
// Synopsis
//   class wsync::Semaphore {                     // the maximum is a run-time value
//     static constexpr ptrdiff_t kMax = 2^31 - 1;
//     constexpr explicit Semaphore(ptrdiff_t desired, ptrdiff_t max = kMax);
//     ptrdiff_t max() const noexcept;
//     void release(ptrdiff_t update = 1);
//     void acquire();
//     [[nodiscard]] bool try_acquire() noexcept;
//     [[nodiscard]] bool try_acquire_for(const std::chrono::duration&);
//     [[nodiscard]] bool try_acquire_until(const std::chrono::time_point&);
//     void acquire_async(callback, double timeout_ms = INFINITY);   // wasm
//   };
//   template <ptrdiff_t LeastMaxValue> class wsync::CountingSemaphore;  // max fixed at compile time
//   using wsync::BinarySemaphore = CountingSemaphore<1>;
//
// Three 32-bit words (the maximum is stored so that C and JavaScript, which
// see only the words, check it as C++ does):
//
//   | word | name    | meaning                                               |
//   |------|---------|-------------------------------------------------------|
//   | 0    | count   | permits available, 0 .. max; sleepers wait while 0    |
//   | 1    | sleepers| agents in acquire's slow path (registered to sleep)   |
//   | 2    | max     | the maximum, fixed at construction                    |
//
//   acquire: CAS count -> count - 1 while count > 0 (fast path); else spin
//            briefly, register in `sleepers`, re-check, sleep while count is
//            0, deregister when done (or timed out).
//   release(n): CAS count -> count + n, refused before anything is stored if
//            that passes max ("wsync: Semaphore released past its maximum");
//            then wake up to n sleepers, only if `sleepers` is not zero.
//            A count above max is no state (the words were overwritten):
//            release reports it ("wsync: corrupted Semaphore words").
//
// Why a separate sleeper count and not a bit in `count`: a release cannot
// know whether the sleeper it woke was the last one, so a bit could never be
// cleared safely; a count can. Sleepers register with a seq_cst RMW before
// their seq_cst re-check, releasers update count (seq_cst) before reading
// `sleepers` (seq_cst): in the single total order of those four operations
// either the sleeper sees the permit or the releaser sees the sleeper.
//
// Happens-before promise: a release() synchronizes with the acquire that
// takes a permit it added.
//
// Where it may be called: release and try_acquire anywhere; acquire and the
// timed forms block as every wsync wait (docs/abi.md); acquire_async on the
// browser main thread.
//
// Lifetime: constexpr-constructible; may be destroyed once nobody can call
// it any more. Not copyable, not movable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

class Semaphore {
 public:
  static constexpr ptrdiff_t kMax = 0x7fff'ffff;

  // A maximum outside 0 .. kMax, or `desired` outside 0 .. max, is misuse: a
  // compile error in a constant expression, "wsync: Semaphore initial count
  // out of range" at run time.
  constexpr explicit Semaphore(ptrdiff_t desired, ptrdiff_t max = kMax) noexcept
      : count_(checked(desired, max)), sleepers_(0), max_(static_cast<uint32_t>(max)) {}
  Semaphore(const Semaphore&) = delete;
  Semaphore& operator=(const Semaphore&) = delete;

  ptrdiff_t max() const noexcept { return max_.load(std::memory_order_relaxed); }

  [[nodiscard]] bool try_acquire() noexcept {
    uint32_t s = count_.load(std::memory_order_relaxed);
    while (s != 0) {
      // Acquire: pairs with the release that added this permit. Relaxed on
      // failure: s is reloaded and we just retry.
      if (count_.compare_exchange_weak(s, s - 1, std::memory_order_acquire, std::memory_order_relaxed)) {
        return true;
      }
    }
    return false;
  }

  void acquire() noexcept {
    if (!try_acquire()) (void)acquire_until_deadline(detail::Deadline::never());
  }

  template <class Rep, class Period>
  [[nodiscard]] bool try_acquire_for(const std::chrono::duration<Rep, Period>& timeout) noexcept {
    return try_acquire() || acquire_until_deadline(detail::Deadline::after(timeout));
  }

  template <class Clock, class Duration>
  [[nodiscard]] bool try_acquire_until(const std::chrono::time_point<Clock, Duration>& t) noexcept {
    return try_acquire() ||
           detail::wait_until_on_clock(t, [this](detail::Deadline d) { return acquire_until_deadline(d); });
  }

  void release(ptrdiff_t update = 1) noexcept;

#ifdef __EMSCRIPTEN__
  // Acquires without blocking (wasm only): returns at once, then calls
  // callback(bool acquired) from this thread's event loop, false if
  // `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void acquire_async(Callback callback, double timeout_ms = detail::kNoTimeout) {
    start_async(detail::async_callback(std::move(callback)), timeout_ms);
  }
#endif

 private:
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return count_; }
  std::atomic<uint32_t>& sleepers_word() noexcept { return sleepers_; }

  // Out-of-line slow path of every acquire; false on timeout.
  bool acquire_until_deadline(detail::Deadline deadline) noexcept;
#ifdef __EMSCRIPTEN__
  // The one asynchronous acquire: acquire_async() and wsync_sem_acquire_async().
  void start_async(detail::AsyncCallback callback, double timeout_ms) noexcept;
#endif

  static constexpr uint32_t checked(ptrdiff_t desired, ptrdiff_t max) noexcept {
    if (max < 0 || max > kMax || desired < 0 || desired > max) {
      detail::fatal("wsync: Semaphore initial count out of range");
    }
    return static_cast<uint32_t>(desired);
  }

  std::atomic<uint32_t> count_;
  std::atomic<uint32_t> sleepers_;
  std::atomic<uint32_t> max_;  // atomic only so C and JS may read it while others work
};

static_assert(sizeof(Semaphore) == 12 && alignof(Semaphore) == 4,
              "wsync::Semaphore must be three 32-bit words: JavaScript addresses it as ptr >> 2");

// std::counting_semaphore's shape: the maximum fixed at compile time.
template <ptrdiff_t LeastMaxValue = Semaphore::kMax>
class CountingSemaphore : public Semaphore {
  // Deliberately narrower than std::counting_semaphore, whose maximum may
  // reach PTRDIFF_MAX (natively; in wasm32 that is 2^31 - 1 as well): the
  // count lives in one 32-bit word that the futex, C and JavaScript share.
  static_assert(LeastMaxValue >= 0 && LeastMaxValue <= Semaphore::kMax,
                "wsync::CountingSemaphore counts in one 32-bit word, unlike std::counting_semaphore: "
                "LeastMaxValue must be 0 .. 2^31 - 1");

 public:
  constexpr explicit CountingSemaphore(ptrdiff_t desired) noexcept : Semaphore(desired, LeastMaxValue) {}
  static constexpr ptrdiff_t max() noexcept { return LeastMaxValue; }
};

using BinarySemaphore = CountingSemaphore<1>;

}  // namespace wsync
