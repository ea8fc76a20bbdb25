// wsync/once.hpp: run something exactly once, shaped like std::once_flag
// and std::call_once.
//
// Synopsis
//   class wsync::Once {
//     constexpr Once() noexcept;
//     [[nodiscard]] bool is_complete() const noexcept;
//   };
//   template <class F, class... Args> void wsync::call_once(Once&, F&& f, Args&&... args);
//   template <class F, class Done> void wsync::call_once_async(Once&, F f, Done done);   // wasm
//
// Exactly one caller runs f; the others wait until it has returned, then
// return without running it. If f throws, the Once goes back to INCOMPLETE,
// the exception propagates to that caller, and one of the waiters (or a
// later caller) runs f instead, as with std::call_once.
//
// One 32-bit word (after Rust's futex Once):
//
//   | value | name        | meaning                                        |
//   |-------|-------------|------------------------------------------------|
//   | 0     | INCOMPLETE  | f has not run (or threw): the next caller runs it |
//   | 1     | RUNNING     | a caller is running f, nobody waits            |
//   | 2     | QUEUED      | a caller is running f, others may sleep        |
//   | 3     | COMPLETE    | f returned: every call returns at once         |
//   | other | (corrupted) | reported: "wsync: corrupted Once word"         |
//
//   call:  COMPLETE (acquire load) -> return (the fast path). INCOMPLETE ->
//          CAS to RUNNING and run f. RUNNING -> CAS to QUEUED, sleep while
//          QUEUED. After f: swap in COMPLETE (or INCOMPLETE if it threw);
//          wake everyone only if the old value was QUEUED.
//
// Happens-before: f's return (and everything before it) happens-before every
// call_once that returns without running f.
//
// Where it may be called: call_once anywhere it may have to wait (it waits
// while another agent runs f): as every wsync wait (docs/abi.md); on the
// browser main thread use call_once_async.
//
// Lifetime: constexpr-constructible; may be destroyed once no call is in
// progress. Not copyable, not movable. f must not call_once the same Once.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <utility>

#include "wsync/detail/access.hpp"
#include "wsync/detail/async_callback.hpp"
#include "wsync/detail/futex.hpp"

namespace wsync {

class Once {
 public:
  static constexpr uint32_t kIncomplete = 0;  // f not run yet (or threw)
  static constexpr uint32_t kRunning = 1;     // f running, nobody waits
  static constexpr uint32_t kQueued = 2;      // f running, sleepers possible
  static constexpr uint32_t kComplete = 3;    // f returned

  constexpr Once() noexcept = default;
  Once(const Once&) = delete;
  Once& operator=(const Once&) = delete;

  [[nodiscard]] bool is_complete() const noexcept {
    // Acquire: pairs with the release that stored COMPLETE, so what f did is
    // visible to the caller that sees it.
    return state_.load(std::memory_order_acquire) == kComplete;
  }

 private:
  friend struct detail::Access;

  // The slow path's two halves (call_once, the C API, call_once_async):
  // begin() waits while another caller runs f; true means "you run f now"
  // (the word is RUNNING or QUEUED), false that f has completed. Then the
  // runner calls finish(true) after f returned, finish(false) if it threw.
  bool begin() noexcept;
  void finish(bool completed) noexcept;

  std::atomic<uint32_t>& native_word() noexcept { return state_; }

#ifdef __EMSCRIPTEN__
  // The one asynchronous call_once: call_once_async() and wsync_call_once_async().
  // fn(arg) runs f; then completed(arg), if not null, says whether f ran to
  // the end (false: it threw, and fn kept the exception). The callback's ok
  // is false only then.
  void start_async(void (*fn)(void*), bool (*completed)(void*), void* arg, detail::AsyncCallback callback) noexcept;
#endif

  std::atomic<uint32_t> state_{kIncomplete};
};

static_assert(sizeof(Once) == 4 && alignof(Once) == 4,
              "wsync::Once must be one 32-bit word: JavaScript addresses it as ptr >> 2");

template <class F, class... Args>
void call_once(Once& once, F&& f, Args&&... args) {
  if (once.is_complete() || !detail::Access::begin(once)) return;
  // Back to INCOMPLETE if f throws (the guard runs during unwinding), else
  // COMPLETE; either way the sleepers are woken.
  struct Finish {
    Once& once;
    bool completed = false;
    ~Finish() { detail::Access::finish(once, completed); }
  } finish{once};
  std::invoke(std::forward<F>(f), std::forward<Args>(args)...);
  finish.completed = true;
}

#ifdef __EMSCRIPTEN__
// Without blocking (wasm only): returns at once; later, from this thread's
// event loop, runs f there if nobody has (or waits, asynchronously, for the
// agent that runs it), then calls done(). See wsync/async.h. If f throws,
// the Once goes back to INCOMPLETE (another caller runs f), done() is not
// called, and the exception leaves this call's event-loop callback, as an
// exception from any such callback does. f runs inside wsync's driver,
// which is built without exception support and must not be thrown through:
// so f's exception is caught here and thrown again once the driver is done.
template <class F, class Done>
void call_once_async(Once& once, F f, Done done) {
  struct Held {
    F f;
    Done done;
    std::exception_ptr thrown;  // by f
  };
  auto* held = new Held{std::move(f), std::move(done), nullptr};
  const auto run = [](void* h) {
    Held& state = *static_cast<Held*>(h);
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
      state.f();
    } catch (...) {
      state.thrown = std::current_exception();
    }
#else
    state.f();
#endif
  };
  const auto completed = [](void* h) { return static_cast<Held*>(h)->thrown == nullptr; };
  const detail::AsyncCallback finished = {[](void* h, bool ok) {
                                            const std::unique_ptr<Held> state(static_cast<Held*>(h));
                                            if (!ok) std::rethrow_exception(state->thrown);
                                            state->done();
                                          },
                                          held};
  detail::Access::start_async(once, +run, +completed, held, finished);
}
#endif

}  // namespace wsync
