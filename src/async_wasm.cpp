// Asynchronous waits (wasm): the Mutex and WaitGroup algorithms as state
// machines that sleep through wsync_js_wait_async (js/library_wsync.js)
// instead of blocking. Same words, same states, same orderings as the
// blocking paths in mutex.cpp and wait_group.cpp.
#include "wsync/async.h"

#include <emscripten/emscripten.h>

#include <cmath>

#include "c_boundary.hpp"
#include "main_thread_options.hpp"

extern "C" void wsync_js_wait_async(const void* word, uint32_t expected, double timeout_ms,
                                    void (*callback)(void*, int), void* arg);

namespace wsync {
namespace detail {

namespace {

struct AsyncWait {
  std::atomic<uint32_t>* word;
  Deadline deadline;
  wsync_async_callback callback;
  void* user;
  bool is_mutex;
  bool slept = false;  // once asleep, a mutex may only be taken as CONTENDED
};

void finish(AsyncWait* op, bool ok) {
  const wsync_async_callback callback = op->callback;
  void* user = op->user;
  delete op;
  callback(user, ok);
}

void step(AsyncWait* op);

void on_wait(void* arg, int timed_out) {
  auto* op = static_cast<AsyncWait*>(arg);
  // A timeout consumed no wake: give up once the deadline really passed
  // (the engine's timer may fire a hair early). A wake is always followed by
  // another attempt, so it is never swallowed, even at the deadline.
  if (timed_out && op->deadline.remaining_ns() == 0) return finish(op, false);
  step(op);
}

void sleep_on(AsyncWait* op, uint32_t expected) {
  op->slept = true;
  const double ms = op->deadline.is_never() ? INFINITY : static_cast<double>(op->deadline.remaining_ns()) / 1e6;
  wsync_js_wait_async(op->word, expected, ms, on_wait, op);
}

// Load-only spin for up to the spin budget while the word is `busy`.
uint32_t spin(const std::atomic<uint32_t>& word, uint32_t busy) {
  const double stop = emscripten_get_now() + main_thread_spin_us() / 1000;
  for (;;) {
    // Relaxed: a hint only; the RMW that follows acquires.
    const uint32_t s = word.load(std::memory_order_relaxed);
    if (s != busy || emscripten_get_now() >= stop) return s;
  }
}

void mutex_step(AsyncWait* op) {
  std::atomic<uint32_t>& word = *op->word;
  uint32_t s = spin(word, Mutex::kLocked);
  if (s > Mutex::kContended) fatal("wsync: corrupted Mutex word");
  // Never slept: the uncontended 0 -> 1, as try_lock(). After a sleep we
  // must leave CONTENDED behind (other sleepers may remain), as below.
  if (!op->slept && s == Mutex::kUnlocked &&
      word.compare_exchange_strong(s, Mutex::kLocked, std::memory_order_acquire, std::memory_order_relaxed)) {
    return finish(op, true);
  }
  // As lock_contended(): swap in CONTENDED (we may sleep); finding UNLOCKED
  // means we own it. Acquire pairs with unlock()'s release.
  if (s != Mutex::kContended && word.exchange(Mutex::kContended, std::memory_order_acquire) == Mutex::kUnlocked) {
    return finish(op, true);
  }
  if (op->deadline.remaining_ns() == 0) return finish(op, false);
  sleep_on(op, Mutex::kContended);
}

void wait_group_step(AsyncWait* op) {
  std::atomic<uint32_t>& word = *op->word;
  // Acquire: pairs with the release of the add() that reached zero.
  uint32_t s = word.load(std::memory_order_acquire);
  for (;;) {
    if ((s & WaitGroup::kCounterMask) == 0) return finish(op, true);
    if ((s & WaitGroup::kWaiters) != 0) break;
    if (word.compare_exchange_weak(s, s | WaitGroup::kWaiters, std::memory_order_acquire,
                                   std::memory_order_acquire)) {
      s |= WaitGroup::kWaiters;
      break;
    }
  }
  if (spin(word, s) != s) return wait_group_step(op);
  if (op->deadline.remaining_ns() == 0) return finish(op, false);
  sleep_on(op, s);
}

void step(AsyncWait* op) { op->is_mutex ? mutex_step(op) : wait_group_step(op); }

// The callback must run later, from the event loop: even an immediate result
// goes through one asynchronous turn (a 0 ms wait on a word that differs).
void start(AsyncWait* op) {
  static const std::atomic<uint32_t> kNeverEqual{1};
  wsync_js_wait_async(&kNeverEqual, 0, 0, [](void* arg, int) { step(static_cast<AsyncWait*>(arg)); }, op);
}

// Every async C call: the checks of every C call, then one asynchronous turn.
void start_async_wait(std::atomic<uint32_t>& word, bool is_mutex, wsync_async_callback callback,
                      void* user, double ms) {
  if (callback == nullptr) fatal("wsync: NULL callback");
  start(new AsyncWait{&word, deadline_after_ms(ms), callback, user, is_mutex});
}

}  // namespace

}  // namespace detail
}  // namespace wsync

extern "C" {

void wsync_mutex_lock_async(wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms) {
  wsync::detail::start_async_wait(wsync::detail::as_mutex(m).native_word(), true, callback, user, ms);
}

void wsync_wg_wait_async(wsync_wg_t* wg, wsync_async_callback callback, void* user, double ms) {
  wsync::detail::start_async_wait(wsync::detail::as_wait_group(wg).native_word(), false, callback, user, ms);
}

}  // extern "C"
