// The browser main thread waiting on wsync words that pthreads hold: built
// twice, with -sASYNCIFY (blocking calls suspend) and without (async API, or
// spin-and-warn). main_thread.html drives it; tests/browser/main_thread.test.mjs
// checks that the page kept painting and measures the wake latency.
//
// A pthread holds the Mutex (or owes the WaitGroup a done()) for `hold_ms`,
// writes the time just before it unlocks, and the main thread records when it
// resumed: resume - release is the notify-to-main-thread wake latency.
#include "wsync/main_thread.h"

#include <emscripten/emscripten.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "wsync/async.h"
#include "wsync/wsync.hpp"

namespace {

wsync::Mutex g_mutex;
wsync::WaitGroup g_wg;
// 1 once the current hold's pthread has taken its mutex; it stays 1 after
// the release, so a page that polls it cannot miss a short hold.
std::atomic<int> g_hold_started{0};
std::atomic<double> g_released{0};  // emscripten_get_now() just before the release
int g_hold_ms;
int g_counter;  // guarded by g_mutex, in C++ and in JS alike
int g_iterations;

void* hold_mutex(void*) {
  g_mutex.lock();
  g_hold_started.store(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(emscripten_get_now());
  g_mutex.unlock();
  return nullptr;
}

// Emscripten's own pthread_mutex, held the same way (the benchmarks'
// baseline: its lock busy-waits on the browser main thread).
pthread_mutex_t g_pthread_mutex = PTHREAD_MUTEX_INITIALIZER;

void* hold_pthread_mutex(void*) {
  pthread_mutex_lock(&g_pthread_mutex);
  g_hold_started.store(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(emscripten_get_now());
  pthread_mutex_unlock(&g_pthread_mutex);
  return nullptr;
}

void* finish_work(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(emscripten_get_now());
  g_wg.done();
  return nullptr;
}

void* increment(void*) {
  for (int i = 0; i < g_iterations; ++i) {
    g_mutex.lock();
    g_counter = g_counter + 1;  // a plain read-modify-write: only the lock protects it
    g_mutex.unlock();
  }
  g_wg.done();
  return nullptr;
}

// Go's fairness holder: lock, count, 100 us inside, unlock, relock at once,
// until g_relocking is cleared.
std::atomic<bool> g_relocking{false};
std::atomic<int> g_relocks{0};

void* relock(void*) {
  while (g_relocking.load()) {
    g_mutex.lock();
    g_relocks.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    g_mutex.unlock();
  }
  return nullptr;
}

void start(void* (*body)(void*), int hold_ms) {
  g_hold_ms = hold_ms;
  pthread_t t;
  pthread_create(&t, nullptr, body, nullptr);
  pthread_detach(t);
}

// Reports to the page: whether the wait succeeded and the wake latency.
EM_JS(void, report, (int ok, double latency_ms), { Module.onResult(!!ok, latency_ms); });

void resumed(bool ok) { report(ok, emscripten_get_now() - g_released.load()); }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int mt_can_block() { return wsync_thread_can_block(); }
EMSCRIPTEN_KEEPALIVE void* mt_mutex() { return &g_mutex; }
EMSCRIPTEN_KEEPALIVE void* mt_wait_group() { return &g_wg; }
EMSCRIPTEN_KEEPALIVE int mt_hold_started() { return g_hold_started.load(); }
EMSCRIPTEN_KEEPALIVE double mt_set_spin_us(double us) { return wsync_set_main_thread_spin_us(us); }
EMSCRIPTEN_KEEPALIVE double mt_set_warn_ms(double ms) { return wsync_set_main_thread_warn_ms(ms); }
EMSCRIPTEN_KEEPALIVE int mt_set_abort(int on) { return wsync_set_main_thread_abort(on != 0); }

// A pthread takes the mutex and holds it for hold_ms (poll mt_hold_started()).
EMSCRIPTEN_KEEPALIVE void mt_hold_mutex(int hold_ms) {
  g_hold_started.store(0);
  start(hold_mutex, hold_ms);
}

// A pthread relocks the mutex at once in a loop (mt_relocks() counts its
// acquisitions) until mt_stop_relocking().
EMSCRIPTEN_KEEPALIVE void mt_start_relocking() {
  g_relocking.store(true);
  start(relock, 0);
}
EMSCRIPTEN_KEEPALIVE void mt_stop_relocking() { g_relocking.store(false); }
EMSCRIPTEN_KEEPALIVE int mt_relocks() { return g_relocks.load(); }

// A pthread owes the WaitGroup one done(), after hold_ms.
EMSCRIPTEN_KEEPALIVE void mt_owe_done(int hold_ms) {
  g_wg.add(1);
  start(finish_work, hold_ms);
}

EMSCRIPTEN_KEEPALIVE void mt_hold_pthread_mutex(int hold_ms) {
  g_hold_started.store(0);
  start(hold_pthread_mutex, hold_ms);
}

// Emscripten's pthread_mutex_lock on the main thread (it busy-waits there).
EMSCRIPTEN_KEEPALIVE void mt_pthread_lock_sync() {
  pthread_mutex_lock(&g_pthread_mutex);
  resumed(true);
  pthread_mutex_unlock(&g_pthread_mutex);
}

EMSCRIPTEN_KEEPALIVE void* mt_counter() { return &g_counter; }

// `threads` pthreads add 1 to the counter `iterations` times each under the
// mutex, then done() the WaitGroup (which this adds `threads` to).
EMSCRIPTEN_KEEPALIVE void mt_increments(int threads, int iterations) {
  g_iterations = iterations;
  g_wg.add(threads);
  for (int i = 0; i < threads; ++i) start(increment, 0);
}

// The async API: returns at once, reports from the event loop.
EMSCRIPTEN_KEEPALIVE void mt_lock_async(double timeout_ms) {
  g_mutex.lock_async(
      [](bool ok) {
        resumed(ok);
        if (ok) g_mutex.unlock();
      },
      timeout_ms);
}

EMSCRIPTEN_KEEPALIVE void mt_wait_async(double timeout_ms) { g_wg.wait_async(resumed, timeout_ms); }

// The blocking API. With Asyncify call these through ccall(..., {async: true}):
// they suspend. Without it they spin (and warn once past the threshold).
EMSCRIPTEN_KEEPALIVE int mt_lock_sync(double timeout_ms) {
  const bool ok = g_mutex.try_lock_for(std::chrono::duration<double, std::milli>(timeout_ms));
  resumed(ok);
  if (ok) g_mutex.unlock();
  return ok;
}

EMSCRIPTEN_KEEPALIVE int mt_wait_sync(double timeout_ms) {
  const bool ok = g_wg.wait_for(std::chrono::duration<double, std::milli>(timeout_ms));
  resumed(ok);
  return ok;
}

}  // extern "C"
