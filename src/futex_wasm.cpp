// The WebAssembly backend of the wait/wake layer: memory.atomic.wait32 and
// memory.atomic.notify on the shared WebAssembly.Memory.
//
// Where the calling agent is decides how it may wait (asked per call: a read
// of a wasm global, see wsync_thread_can_block):
//   - a pthread / Web Worker: wait32 directly;
//   - the main runtime thread where it may block (Node's main thread): wait32
//     in slices, running Emscripten's queue of calls proxied to the main
//     thread between slices (a pthread's printf is such a call: without this
//     a main thread asleep on a wsync word and a printing pthread deadlock);
//   - the browser main thread, where wait32 traps: spin for the spin budget,
//     then suspend on Atomics.waitAsync where this call can (Asyncify or
//     JSPI), else poll, warning once (or aborting) past the threshold. See
//     wsync/main_thread.h.
#include <emscripten/threading.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "main_thread_options.hpp"
#include "wsync/detail/futex.hpp"
#include "wsync/main_thread.h"

// js/library_wsync.js. The suspending wait's import name starts with
// __asyncjs__, which every Asyncify and JSPI build lists among its async
// imports, so a program linked with -sASYNCIFY instruments its callers (and
// -sJSPI makes it a suspending import) with no flag of the user's; where the
// call cannot suspend it is never called (can_suspend says 0).
extern "C" {
int wsync_js_can_suspend(void);
__attribute__((import_module("env"), import_name("__asyncjs__wsync_js_suspend_wait"))) int wsync_js_suspend_wait(
    const void* word, uint32_t expected, double timeout_ms);
void wsync_js_warn(const char* message);
}

namespace wsync {
namespace detail {

namespace {

constexpr int kWaitNotEqual = 1;  // wait32 (and the JS sleeps): 0 woken, 1 not-equal, 2 timed out
constexpr int kWaitTimedOut = 2;
constexpr int64_t kMainThreadSliceNs = 1'000'000;  // 1 ms, as Emscripten's join

int wait32(const std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) {
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  return __builtin_wasm_memory_atomic_wait32(reinterpret_cast<int*>(address), static_cast<int>(expected), timeout_ns);
}

// What is left of `deadline` at `now_ns` (a reading before it), in ms.
double remaining_ms(Deadline deadline, int64_t now_ns) {
  return deadline.is_never() ? INFINITY : static_cast<double>(deadline.ns() - now_ns) / 1e6;
}

// Once per program: the first wait that polls past the threshold says so.
void report_blocked_main_thread(double threshold_ms) {
  static std::atomic<bool> reported{false};
  const bool abort_instead = main_thread_abort();
  if (!abort_instead && reported.exchange(true, std::memory_order_relaxed)) return;
  char line[512];  // %.0f of a huge threshold runs to 309 digits
  const bool jspi = wsync_main_thread_suspension() == WSYNC_SUSPENSION_JSPI;
  std::snprintf(line, sizeof line, jspi ? kMainThreadBlockedJspiFormat : kMainThreadBlockedFormat, threshold_ms);
  if (abort_instead) fatal(line);
  wsync_js_warn(line);
}

// The browser main thread. Same contract as futex_wait; a wait that polls
// (the spin, and the poll where it cannot suspend) never queues on the
// word, so a change it sees counts as a wake.
Woke wait_without_blocking(const std::atomic<uint32_t>& word, uint32_t expected, Deadline deadline) {
  const int64_t start = Deadline::now_ns();
  const double spin_end = static_cast<double>(start) + main_thread_spin_us() * 1e3;
  const double warn_ms = main_thread_warn_ms();
  bool spinning = true;
  bool warned = false;
  for (;;) {
    // Pthreads proxy work to this thread (and may wait for it): run it.
    emscripten_main_thread_process_queued_calls();
    // Relaxed: a hint, as the word check inside wait32; the caller's own
    // load or RMW after we return does the acquiring.
    if (word.load(std::memory_order_relaxed) != expected) return Woke::kWoken;
    // One reading a round, for the deadline, the spin, the suspension's
    // timeout and the warning (a never deadline's ns() is INT64_MAX, which
    // no reading reaches).
    const int64_t now = Deadline::now_ns();
    if (now >= deadline.ns()) return Woke::kTimedOut;
    if (spinning) {
      if (static_cast<double>(now) < spin_end) continue;
      spinning = false;
      if (wsync_js_can_suspend()) {
        // This stack leaves for the event loop (Asyncify unwinds it, JSPI
        // suspends it) and comes back when the word is notified (or the
        // time is up). A timeout consumed no wake; if it came a hair early
        // the caller's loop waits again.
        const int result = wsync_js_suspend_wait(&word, expected, remaining_ms(deadline, now));
        if (result != kWaitTimedOut) return result == kWaitNotEqual ? Woke::kNotEqual : Woke::kWoken;
        return deadline.remaining_ns() == 0 ? Woke::kTimedOut : Woke::kNotEqual;
      }
    }
    if (!warned && static_cast<double>(now - start) >= warn_ms * 1e6) {
      warned = true;
      report_blocked_main_thread(warn_ms);
    }
  }
}

}  // namespace

Woke futex_wait(const std::atomic<uint32_t>& word, uint32_t expected, Deadline deadline) noexcept {
  if (!wsync_thread_can_block()) {
    return wait_without_blocking(word, expected, deadline);
  }
  const bool main_runtime_thread = emscripten_is_main_runtime_thread();
  for (;;) {
    int64_t timeout_ns = deadline.is_never() ? -1 : deadline.remaining_ns();
    if (timeout_ns == 0) return Woke::kTimedOut;
    if (main_runtime_thread) {
      emscripten_main_thread_process_queued_calls();
      timeout_ns = timeout_ns < 0 ? kMainThreadSliceNs : std::min(timeout_ns, kMainThreadSliceNs);
    }
    // wait32 compares and sleeps atomically with respect to notify, so a
    // wake between the caller's check and this call is not lost.
    const int result = wait32(word, expected, timeout_ns);
    if (result != kWaitTimedOut) return result == kWaitNotEqual ? Woke::kNotEqual : Woke::kWoken;
    // A main-thread slice ended, or the engine's timer fired a hair before
    // performance.now() reached the deadline: loop, which re-checks both, so
    // kTimedOut never comes early on the clock the caller measures with.
  }
}

void futex_wake(const std::atomic<uint32_t>& word, uint32_t count) noexcept {
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  // memory.atomic.notify's count is unsigned: UINT32_MAX means "everyone".
  __builtin_wasm_memory_atomic_notify(reinterpret_cast<int*>(address), count);
}

}  // namespace detail
}  // namespace wsync
