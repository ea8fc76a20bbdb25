// The event-loop driver of waiters (wasm): runs a waiter (src/waiter.hpp)
// from this thread's event loop, sleeping in wsync_js_wait_async
// (js/library_wsync.js, on Atomics.waitAsync) instead of blocking. The
// algorithms are the waiters'; this file only sequences them.
#include <cmath>

#include "async.hpp"
#include "main_thread_options.hpp"

extern "C" void wsync_js_wait_async(const void* word, uint32_t expected, double timeout_ms,
                                    void (*callback)(void*, int), void* arg);

namespace wsync {
namespace detail {

namespace {

// The wait's memory first, then the callback: a callback that throws
// leaves through this frame, and wsync is built without exception support,
// so nothing here would be freed after it (tests/async_throw_test.cpp).
void finish(AsyncWait* wait, bool ok) {
  const AsyncCallback callback = wait->callback;
  delete wait;
  callback.function(callback.user, ok);
}

void step(AsyncWait* wait);

// After a sleep; `result` as wait32's: 0 woken, 1 not-equal, 2 timed out. A
// timeout consumed no wake, so only a timeout once the deadline really
// passed (the engine's timer may fire a hair early) goes to on_timeout(); a
// wake is always followed by another attempt, even at the deadline, so it
// is never swallowed.
void on_wake(void* arg, int result) {
  auto* wait = static_cast<AsyncWait*>(arg);
  const Woke how = result == 0 ? Woke::kWoken : result == 1 ? Woke::kNotEqual : Woke::kTimedOut;
  wait->back_from_sleep(how);
  if (how == Woke::kTimedOut && wait->deadline().remaining_ns() == 0) {
    const Step step_after = wait->on_timeout();
    if (step_after.finished) return finish(wait, step_after.ok);
  }
  step(wait);
}

void step(AsyncWait* wait) {
  for (;;) {
    Spinner spin = Spinner::timed(main_thread_spin_us(), wait->deadline());
    Step next = wait->attempt(spin);
    if (next.finished) return finish(wait, next.ok);
    const Deadline deadline = wait->deadline();
    if (deadline.remaining_ns() == 0) {
      // Expired before sleeping: as a sleep that timed out at once.
      next = wait->on_timeout();
      if (next.finished) return finish(wait, next.ok);
      continue;
    }
    const double ms = deadline.is_never() ? INFINITY : static_cast<double>(deadline.remaining_ns()) / 1e6;
    wait->going_to_sleep(spin);
    return wsync_js_wait_async(next.word, next.expected, ms, on_wake, wait);
  }
}

}  // namespace

// The callback must run later, from the event loop: even an immediate result
// goes through one asynchronous turn (a 0 ms wait on a word that differs).
void start_wait_async(AsyncWait* wait) noexcept {
  static const std::atomic<uint32_t> kNeverEqual{1};
  wsync_js_wait_async(
      &kNeverEqual, 0, 0, [](void* arg, int) { step(static_cast<AsyncWait*>(arg)); }, wait);
}

}  // namespace detail
}  // namespace wsync
