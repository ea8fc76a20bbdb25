// The WebAssembly backend of the wait/wake layer: memory.atomic.wait32 and
// memory.atomic.notify on the shared WebAssembly.Memory.
//
// Where the calling agent is decides how it may wait:
//   - a pthread / Web Worker: wait32 directly;
//   - the main runtime thread where it may block (Node's main thread): wait32
//     in slices, running Emscripten's queue of calls proxied to the main
//     thread between slices (a pthread's printf is such a call: without this
//     a main thread asleep on a wsync word and a printing pthread deadlock);
//   - the browser main thread: wait32 traps there ("Atomics.wait cannot be
//     called in this context"); wait_without_blocking() decides what to do.
#include <emscripten/threading.h>

#include <algorithm>

#include "wsync/detail/futex.hpp"

// Emscripten's own record of whether this thread may use Atomics.wait: a read
// of a wasm global set when the thread starts (false only on the browser main
// thread). It is what Emscripten's emscripten_futex_wait asks, so both agree.
extern "C" int _emscripten_thread_supports_atomics_wait(void);

namespace wsync {
namespace detail {

namespace {

constexpr int kWaitTimedOut = 2;                // wait32: 0 woken, 1 not-equal, 2 timed out
constexpr int64_t kMainThreadSliceNs = 1'000'000;                    // 1 ms, as Emscripten's join

int wait32(const std::atomic<uint32_t>& word, uint32_t expected, int64_t timeout_ns) {
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  return __builtin_wasm_memory_atomic_wait32(reinterpret_cast<int*>(address),
                                             static_cast<int>(expected), timeout_ns);
}

// The seam for agents that may not block. Until the main-thread fallback
// lands this polls the word (honouring the deadline), as Emscripten's own
// main-thread futex wait does.
bool wait_without_blocking(const std::atomic<uint32_t>& word, uint32_t expected,
                           Deadline deadline) {
  for (;;) {
    emscripten_main_thread_process_queued_calls();
    if (word.load(std::memory_order_relaxed) != expected) return true;
    if (deadline.remaining_ns() == 0) return false;
  }
}

}  // namespace

bool futex_wait(const std::atomic<uint32_t>& word, uint32_t expected, Deadline deadline) noexcept {
  if (!_emscripten_thread_supports_atomics_wait()) {
    return wait_without_blocking(word, expected, deadline);
  }
  const bool main_runtime_thread = emscripten_is_main_runtime_thread();
  for (;;) {
    int64_t timeout_ns = deadline.is_never() ? -1 : deadline.remaining_ns();
    if (timeout_ns == 0) return false;
    if (main_runtime_thread) {
      emscripten_main_thread_process_queued_calls();
      timeout_ns = timeout_ns < 0 ? kMainThreadSliceNs : std::min(timeout_ns, kMainThreadSliceNs);
    }
    // wait32 compares and sleeps atomically with respect to notify, so a
    // wake between the caller's check and this call is not lost.
    const int result = wait32(word, expected, timeout_ns);
    if (result != kWaitTimedOut) return true;  // woken or not-equal
    // A main-thread slice ended, or the engine's timer fired a hair before
    // performance.now() reached the deadline: loop, which re-checks both, so
    // "false" never comes early on the clock the caller measures with.
  }
}

void futex_wake_one(const std::atomic<uint32_t>& word) noexcept {
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  __builtin_wasm_memory_atomic_notify(reinterpret_cast<int*>(address), 1);
}

void futex_wake_all(const std::atomic<uint32_t>& word) noexcept {
  auto* address = const_cast<std::atomic<uint32_t>*>(&word);
  __builtin_wasm_memory_atomic_notify(reinterpret_cast<int*>(address), 0xffff'ffffu);
}

}  // namespace detail
}  // namespace wsync
