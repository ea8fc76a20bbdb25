// wsync/barrier.hpp: a reusable phase barrier, shaped like std::barrier.
//
// Synopsis
//   template <class CompletionFunction = wsync::NoCompletion>
//   class wsync::Barrier {
//     class arrival_token;
//     static constexpr ptrdiff_t max() noexcept;               // 2^31 - 1
//     constexpr explicit Barrier(ptrdiff_t expected, CompletionFunction f = {});
//     [[nodiscard]] arrival_token arrive(ptrdiff_t update = 1);
//     void wait(arrival_token&& token) const;
//     [[nodiscard]] bool wait_for(arrival_token&&, const std::chrono::duration&) const;   // extension
//     void arrive_and_wait();
//     void arrive_and_drop();
//     void wait_async(arrival_token&&, callback, double timeout_ms = INFINITY) const;  // wasm
//     void arrive_and_wait_async(callback);                                              // wasm
//   };
//
// Each phase, `expected` participants arrive; the arrival that completes the
// phase runs the completion function (on its own thread, exactly once per
// phase, before anyone is released), resets the count, and starts the next
// phase, waking the waiters. Reusable for any number of phases.
//
// Three 32-bit words (the completion function, if any, follows them):
//
//   | word | name      | meaning                                              |
//   |------|-----------|------------------------------------------------------|
//   | 0    | phase     | bit 31 WAITERS (sleepers possible), bits 30..0 the   |
//   |      |           | phase number (wraps); waiters sleep on this word     |
//   | 1    | remaining | arrivals still missing in this phase                 |
//   | 2    | expected  | participants of the next phase (arrive_and_drop: -1) |
//
//   arrive(n): token = phase; CAS remaining -> remaining - n, refused before
//              anything is stored if n exceeds it ("wsync: Barrier
//              over-arrival"); the arrival reaching 0 runs the completion,
//              stores remaining = expected, then phase + 1 (clearing WAITERS)
//              and wakes everyone if WAITERS was set.
//   wait(token): while the phase number is the token's: spin briefly, then
//              set WAITERS (CAS), sleep while the word is unchanged.
//   remaining or expected above 2^31 - 1 is no state (the words were
//   overwritten): arrive and arrive_and_drop report it ("wsync: corrupted
//   Barrier words").
//
// Happens-before promise: everything each participant did before arriving
// in a phase is visible to the completion function, and everything before
// the phase completes (the completion included) is visible to every
// participant after its wait() for that phase returns.
//
// Where it may be called: arrive and arrive_and_drop anywhere (they never
// block); wait on the browser main thread as every wsync wait (docs/abi.md).
//
// Lifetime: constexpr-constructible; may be destroyed once no participant
// can arrive or wait any more. Not copyable, not movable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

// The default completion function: nothing.
struct NoCompletion {
  void operator()() const noexcept {}
};

namespace detail {

// The words of every Barrier<F> (and of wsync_barrier_t), with the parts of
// the algorithm that do not depend on the completion function.
class BarrierWords {
 public:
  constexpr explicit BarrierWords(ptrdiff_t expected) noexcept
      : phase_(0), remaining_(checked(expected)), expected_(static_cast<uint32_t>(expected)) {}

  struct Arrival {
    uint32_t phase;  // the phase arrived in
    bool last;       // this arrival completed it
  };
  // Arrives `update` times; the arrival that completes the phase runs
  // `completion` and then starts the next phase.
  template <class Completion>
  Arrival arrive(ptrdiff_t update, Completion& completion) noexcept {
    const Arrival a = count_down(update);
    if (a.last) {
      completion();
      complete(a.phase);
    }
    return a;
  }
  void drop() noexcept;  // one participant fewer from the next phase on
  bool wait_until_deadline(uint32_t phase, Deadline deadline) noexcept;
#ifdef __EMSCRIPTEN__
  // The one asynchronous wait: Barrier::wait_async() and wsync_barrier_wait_async().
  void start_async(uint32_t phase, AsyncCallback callback, double timeout_ms) noexcept;
#endif

  std::atomic<uint32_t>& phase_word() noexcept { return phase_; }

 private:
  Arrival count_down(ptrdiff_t update) noexcept;
  void complete(uint32_t phase) noexcept;  // reset the count, start the next phase, wake

  static constexpr uint32_t checked(ptrdiff_t expected) noexcept {
    if (expected < 0 || expected > static_cast<ptrdiff_t>(kCountMask)) fatal("wsync: Barrier count out of range");
    return static_cast<uint32_t>(expected);
  }

  std::atomic<uint32_t> phase_;
  std::atomic<uint32_t> remaining_;
  std::atomic<uint32_t> expected_;
};

static_assert(sizeof(BarrierWords) == 12 && alignof(BarrierWords) == 4, "three 32-bit words");

}  // namespace detail

template <class CompletionFunction = NoCompletion>
class Barrier {
  static_assert(std::is_nothrow_invocable_v<CompletionFunction&>,
                "a Barrier's completion function must be invocable with no arguments and noexcept");

 public:
  class [[nodiscard]] arrival_token {
   public:
    arrival_token(arrival_token&&) noexcept = default;
    arrival_token& operator=(arrival_token&&) noexcept = default;

   private:
    friend class Barrier;
    explicit arrival_token(uint32_t phase) noexcept : phase_(phase) {}
    uint32_t phase_;
  };

  static constexpr ptrdiff_t max() noexcept { return detail::kCountMask; }

  // A count outside 0 .. max() is misuse: a compile error in a constant
  // expression, "wsync: Barrier count out of range" at run time.
  constexpr explicit Barrier(ptrdiff_t expected, CompletionFunction f = CompletionFunction()) noexcept(
      std::is_nothrow_move_constructible_v<CompletionFunction>)
      : words_(expected), completion_(std::move(f)) {}
  Barrier(const Barrier&) = delete;
  Barrier& operator=(const Barrier&) = delete;

  [[nodiscard]] arrival_token arrive(ptrdiff_t update = 1) noexcept {
    return arrival_token(words_.arrive(update, completion_).phase);
  }

  void wait(arrival_token&& token) const noexcept {
    (void)words_.wait_until_deadline(token.phase_, detail::Deadline::never());
  }

  // wsync extensions: false if the phase did not complete in time.
  template <class Rep, class Period>
  [[nodiscard]] bool wait_for(arrival_token&& token, const std::chrono::duration<Rep, Period>& timeout) const noexcept {
    return words_.wait_until_deadline(token.phase_, detail::Deadline::after(timeout));
  }
  template <class Clock, class Duration>
  [[nodiscard]] bool wait_until(arrival_token&& token,
                                const std::chrono::time_point<Clock, Duration>& t) const noexcept {
    const uint32_t phase = token.phase_;
    return detail::wait_until_on_clock(t, [&](detail::Deadline d) { return words_.wait_until_deadline(phase, d); });
  }

  void arrive_and_wait() noexcept { wait(arrive()); }

  void arrive_and_drop() noexcept {
    // First: if this arrival completes the phase, the reset must see it.
    words_.drop();
    (void)arrive();
  }

#ifdef __EMSCRIPTEN__
  // Waits for the token's phase without blocking (wasm only): returns at
  // once, then calls callback(bool completed) from this thread's event loop,
  // false if `timeout_ms` passed first. See wsync/async.h.
  template <class Callback>
  void wait_async(arrival_token&& token, Callback callback, double timeout_ms = detail::kNoTimeout) const {
    words_.start_async(token.phase_, detail::async_callback(std::move(callback)), timeout_ms);
  }
  template <class Callback>
  void arrive_and_wait_async(Callback callback) {
    wait_async(arrive(), std::move(callback));
  }
#endif

 private:
  friend struct detail::Access;

  std::atomic<uint32_t>& native_word() noexcept { return words_.phase_word(); }

  // First: a Barrier's address is its words' (JavaScript, C). mutable:
  // wait() is const, as std::barrier's; the WAITERS bit it may set is
  // bookkeeping, not part of the barrier's state.
  mutable detail::BarrierWords words_;
  CompletionFunction completion_;
};

}  // namespace wsync
