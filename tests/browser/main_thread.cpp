// The browser main thread waiting on wsync words that pthreads hold: built
// with -sASYNCIFY and (with a current Emscripten) -sJSPI, where blocking
// calls suspend, and without either (async API, or spin-and-warn).
// main_thread.html drives it; tests/browser/main_thread.test.mjs checks that
// the page kept painting and measures the wake latency.
//
// A pthread holds the Mutex (or owes the WaitGroup a done()) for `hold_ms`,
// writes the time just before it unlocks, and the main thread records when it
// resumed: resume - release is the notify-to-main-thread wake latency.
#include "wsync/main_thread.h"

#include <emscripten/emscripten.h>
#include <pthread.h>
#if __has_include(<emscripten/version.h>)
#include <emscripten/version.h>
#endif
#ifdef __EMSCRIPTEN_MAJOR__
#define WSYNC_TEST_EMSCRIPTEN_MAJOR __EMSCRIPTEN_MAJOR__
#else
#define WSYNC_TEST_EMSCRIPTEN_MAJOR __EMSCRIPTEN_major__  // older releases: only the lower-case name
#endif
#if WSYNC_TEST_EMSCRIPTEN_MAJOR >= 6
#include <emscripten/atomic.h>  // emscripten_atomic_wait_suspending (6.0.0)
#endif
#ifdef WSYNC_TEST_WASM_WORKERS
#include <emscripten/threading_primitives.h>  // emscripten_lock_async_acquire (with -sWASM_WORKERS)
#endif

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>

#include "wsync/async.h"
#include "wsync/wsync.h"
#include "wsync/wsync.hpp"

namespace {

// The clock of both ends of a wake latency, one that every agent reads
// alike: performance.timeOrigin + performance.now(), which the current
// Emscripten's emscripten_get_now() is everywhere. Emscripten 3.1.6's, in a
// pthread, is the worker's performance.now() less an offset taken from the
// main thread's timestamp in the message that started the thread, so it
// lags the main thread's clock by that message's delivery time: a
// different amount at each thread start, which a latency from a pthread's
// stamp to the main thread's would count as wake time.
EM_JS(double, shared_now, (), { return performance.timeOrigin + performance.now(); });

wsync::Mutex g_mutex;
wsync::WaitGroup g_wg;
// 1 once the current hold's pthread has taken its mutex; it stays 1 after
// the release, so a page that polls it cannot miss a short hold.
std::atomic<int> g_hold_started{0};
std::atomic<double> g_released{0};  // shared_now() just before the release
int g_hold_ms;
int g_counter;  // guarded by g_mutex, in C++ and in JS alike
int g_iterations;

// A pthread's hold of some lock: takes it, says so, keeps it for
// g_hold_ms, and notes the time just before it gives it back.
template <class Take, class Give>
void* hold(Take take, Give give) {
  take();
  g_hold_started.store(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(shared_now());
  give();
  return nullptr;
}

void* hold_mutex(void*) {
  return hold([] { g_mutex.lock(); }, [] { g_mutex.unlock(); });
}

// Emscripten's own pthread_mutex, held the same way (the benchmarks'
// baseline: its lock busy-waits on the browser main thread).
pthread_mutex_t g_pthread_mutex = PTHREAD_MUTEX_INITIALIZER;

void* hold_pthread_mutex(void*) {
  return hold([] { pthread_mutex_lock(&g_pthread_mutex); }, [] { pthread_mutex_unlock(&g_pthread_mutex); });
}

#ifdef WSYNC_TEST_WASM_WORKERS
// Emscripten's emscripten_lock_t, held the same way (the peer of
// Mutex::lock_async: emscripten_lock_async_acquire).
emscripten_lock_t g_em_lock = EMSCRIPTEN_LOCK_T_STATIC_INITIALIZER;

void* hold_em_lock(void*) {
  return hold([] { emscripten_lock_waitinf_acquire(&g_em_lock); }, [] { emscripten_lock_release(&g_em_lock); });
}
#endif

void* finish_work(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(shared_now());
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

// The benchmarks' floor: a bare word that a pthread sets to 1 and notifies
// with memory.atomic.notify after hold_ms, for the page's own
// Atomics.waitAsync (and Emscripten's suspending wait) to wake on.
std::atomic<uint32_t> g_bare_word{0};

void* notify_bare_word(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(g_hold_ms));
  g_released.store(shared_now());
  g_bare_word.store(1);
  __builtin_wasm_memory_atomic_notify(reinterpret_cast<int*>(&g_bare_word), 1);
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

void resumed(bool ok) { report(ok, shared_now() - g_released.load()); }

}  // namespace

// The cases of mt_family_sync.
namespace family {
wsync::Mutex mutex;
wsync::CondVar cond;
bool ready;  // guarded by mutex
wsync::Semaphore semaphore(0);
wsync::Barrier<> barrier(2);
wsync_mutex_t c_mutex = WSYNC_MUTEX_INIT;
wsync_cond_t c_cond = WSYNC_COND_INIT;
bool c_ready;  // guarded by c_mutex
wsync_sem_t c_semaphore = WSYNC_SEM_INIT(0, 1);
wsync_barrier_t c_barrier = WSYNC_BARRIER_INIT(2);
wsync_wg_t c_wait_group = WSYNC_WG_INIT;
int hold_ms;

void pause() { std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms)); }

// Runs `release` on a new thread after hold_ms.
void later(std::function<void()> release) {
  std::thread([release] {
    pause();
    release();
  }).detach();
}

// One-shot primitives are made afresh for each run and never freed: the
// pthread may still be inside count_down's wake when this thread moves on.
template <class T, class... Args>
T& fresh(Args... args) {
  return *new T(args...);
}

struct Case {
  const char* name;
  bool (*wait)();  // arms its pthread, waits, returns whether it got what it waited for
};

const Case kCases[] = {
    {"Mutex::lock",
     [] {
       auto& held = fresh<wsync::Latch>(1);
       std::thread([&held] {
         std::lock_guard<wsync::Mutex> hold(mutex);
         held.count_down();
         pause();
       }).detach();
       held.wait();
       std::lock_guard<wsync::Mutex> lock(mutex);
       return true;
     }},
    {"CondVar::wait",
     [] {
       std::unique_lock<wsync::Mutex> lock(mutex);
       ready = false;
       later([] {
         std::lock_guard<wsync::Mutex> hold(mutex);
         ready = true;
         cond.notify_one();
       });
       cond.wait(lock, [] { return ready; });
       return ready;
     }},
    {"Semaphore::acquire",
     [] {
       later([] { semaphore.release(); });
       semaphore.acquire();
       return !semaphore.try_acquire();
     }},
    {"Latch::wait",
     [] {
       auto& latch = fresh<wsync::Latch>(1);
       later([&latch] { latch.count_down(); });
       latch.wait();
       return latch.try_wait();
     }},
    {"Barrier::arrive_and_wait",
     [] {
       later([] { barrier.arrive_and_wait(); });
       barrier.arrive_and_wait();
       return true;
     }},
    {"WaitGroup::wait",
     [] {
       g_wg.add(1);
       later([] { g_wg.done(); });
       g_wg.wait();
       return true;
     }},
    {"call_once (another thread runs it)",
     [] {
       auto& once = fresh<wsync::Once>();
       auto& inside = fresh<wsync::Latch>(1);
       std::thread([&once, &inside] {
         wsync::call_once(once, [&inside] {
           inside.count_down();
           pause();
         });
       }).detach();
       inside.wait();
       bool ran_here = false;
       wsync::call_once(once, [&ran_here] { ran_here = true; });
       return !ran_here && once.is_complete();
     }},
    {"wsync_mutex_lock",
     [] {
       auto& held = fresh<wsync::Latch>(1);
       std::thread([&held] {
         wsync_mutex_lock(&c_mutex);
         held.count_down();
         pause();
         wsync_mutex_unlock(&c_mutex);
       }).detach();
       held.wait();
       wsync_mutex_lock(&c_mutex);
       wsync_mutex_unlock(&c_mutex);
       return true;
     }},
    {"wsync_cond_wait",
     [] {
       wsync_mutex_lock(&c_mutex);
       c_ready = false;
       later([] {
         wsync_mutex_lock(&c_mutex);
         c_ready = true;
         wsync_mutex_unlock(&c_mutex);
         wsync_cond_signal(&c_cond);
       });
       while (!c_ready) wsync_cond_wait(&c_cond, &c_mutex);
       wsync_mutex_unlock(&c_mutex);
       return true;
     }},
    {"wsync_sem_acquire",
     [] {
       later([] { wsync_sem_release(&c_semaphore, 1); });
       wsync_sem_acquire(&c_semaphore);
       return !wsync_sem_tryacquire(&c_semaphore);
     }},
    {"wsync_latch_wait",
     [] {
       auto& latch = fresh<wsync_latch_t>(wsync_latch_t WSYNC_LATCH_INIT(1));
       later([&latch] { wsync_latch_count_down(&latch, 1); });
       wsync_latch_wait(&latch);
       return wsync_latch_try_wait(&latch);
     }},
    {"wsync_barrier_arrive_and_wait",
     [] {
       later([] { wsync_barrier_arrive_and_wait(&c_barrier); });
       wsync_barrier_arrive_and_wait(&c_barrier);
       return true;
     }},
    {"wsync_wg_wait",
     [] {
       wsync_wg_add(&c_wait_group, 1);
       later([] { wsync_wg_done(&c_wait_group); });
       wsync_wg_wait(&c_wait_group);
       return true;
     }},
    {"wsync_call_once (another thread runs it)",
     [] {
       struct Run {
         wsync_once_t once = WSYNC_ONCE_INIT;
         wsync::Latch inside{1};
         bool ran_here = false;
       };
       auto& run = fresh<Run>();
       std::thread([&run] {
         wsync_call_once(
             &run.once,
             [](void* arg) {
               static_cast<Run*>(arg)->inside.count_down();
               pause();
             },
             &run);
       }).detach();
       run.inside.wait();
       wsync_call_once(
           &run.once, [](void* arg) { static_cast<Run*>(arg)->ran_here = true; }, &run);
       return !run.ran_here && wsync_once_is_complete(&run.once);
     }},
};
}  // namespace family

extern "C" {

EMSCRIPTEN_KEEPALIVE int mt_can_block() { return wsync_thread_can_block(); }
EMSCRIPTEN_KEEPALIVE int mt_suspension() { return wsync_main_thread_suspension(); }
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

#ifdef WSYNC_TEST_WASM_WORKERS
EMSCRIPTEN_KEEPALIVE void mt_hold_em_lock(int hold_ms) {
  g_hold_started.store(0);
  start(hold_em_lock, hold_ms);
}

// Emscripten's asynchronous lock on the main thread: returns at once, and
// the callback runs from the event loop once the lock is taken (result 0)
// or the time is up.
EMSCRIPTEN_KEEPALIVE void mt_em_lock_async(double timeout_ms) {
  emscripten_lock_async_acquire(
      &g_em_lock,
      [](volatile void*, uint32_t, ATOMICS_WAIT_RESULT_T result, void*) {
        const bool ok = result == ATOMICS_WAIT_OK;
        resumed(ok);
        if (ok) emscripten_lock_release(&g_em_lock);
      },
      nullptr, timeout_ms);
}
#endif

EMSCRIPTEN_KEEPALIVE void* mt_counter() { return &g_counter; }

// The floor: mt_notify_bare_word(ms) clears the word, and a pthread sets and
// notifies it after `ms`; mt_released() is when (shared_now()'s clock, as
// mt_now()).
EMSCRIPTEN_KEEPALIVE void* mt_bare_word() { return &g_bare_word; }
EMSCRIPTEN_KEEPALIVE void mt_notify_bare_word(int hold_ms) {
  g_bare_word.store(0);
  start(notify_bare_word, hold_ms);
}
EMSCRIPTEN_KEEPALIVE double mt_released() { return g_released.load(); }
EMSCRIPTEN_KEEPALIVE double mt_now() { return shared_now(); }

#if WSYNC_TEST_EMSCRIPTEN_MAJOR >= 6
// Emscripten's own suspending wait (Atomics.waitAsync, then JSPI or
// Asyncify) on the bare word: the peer of the blocking wsync waits.
EMSCRIPTEN_KEEPALIVE int mt_em_wait_suspending(double timeout_ms) {
  const double deadline = emscripten_get_now() + timeout_ms;
  while (g_bare_word.load() == 0) {
    const double left = deadline - emscripten_get_now();
    if (left <= 0) break;
    emscripten_atomic_wait_suspending(&g_bare_word, 0, left);
  }
  const bool ok = g_bare_word.load() != 0;
  resumed(ok);
  return ok;
}
#endif

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

// The same wait, exported outside -sJSPI_EXPORTS: under JSPI a call from it
// cannot suspend, so it polls. (Counting the calls keeps the linker from
// making it one function with mt_wait_sync, which wsync could not tell apart.)
EMSCRIPTEN_KEEPALIVE int mt_wait_sync_unlisted(double timeout_ms) {
  static std::atomic<int> calls{0};
  calls.fetch_add(1, std::memory_order_relaxed);
  return mt_wait_sync(timeout_ms);
}

// C++ that JavaScript calls back while a -sJSPI_EXPORTS export runs: a
// JavaScript frame lies between it and the export, so under JSPI its wait
// cannot suspend and polls. (Also exported so that Asyncify builds link it.)
EM_JS(void, call_from_js, (int callee, double timeout_ms), { wasmTable.get(callee)(timeout_ms); });

EMSCRIPTEN_KEEPALIVE int mt_wait_sync_through_js(double timeout_ms) {
  void (*wait)(double) = [](double timeout) { mt_wait_sync(timeout); };
  call_from_js(static_cast<int>(reinterpret_cast<intptr_t>(wait)), timeout_ms);
  return 1;
}

// A callback of Emscripten's (a function pointer called from the event
// loop) that makes a blocking wait: under Asyncify while main() is
// suspended, and under JSPI always, it cannot suspend, so it polls.
EMSCRIPTEN_KEEPALIVE void mt_wait_sync_in_callback(double timeout_ms) {
  static double timeout;
  timeout = timeout_ms;
  emscripten_async_call([](void*) { mt_wait_sync(timeout); }, nullptr, 0);
}

// A pthread prints `lines` lines (each printf is a call proxied to the main
// thread, which the pthread waits for), then done()s the WaitGroup.
EMSCRIPTEN_KEEPALIVE void mt_owe_done_after_printing(int lines) {
  static int count;
  count = lines;
  g_wg.add(1);
  start(
      [](void*) -> void* {
        for (int i = 0; i < count; ++i) std::printf("wsync test: pthread line %d\n", i);
        g_released.store(shared_now());
        g_wg.done();
        return nullptr;
      },
      0);
}

// Every primitive's blocking form, in C++ and in C, on this thread, each
// released by a pthread after hold_ms. Returns how many waits returned
// what they should after at least half of hold_ms (mt_family_size() of
// them must), and reports that all did.
EMSCRIPTEN_KEEPALIVE int mt_family_size() { return sizeof family::kCases / sizeof family::kCases[0]; }

EMSCRIPTEN_KEEPALIVE int mt_family_sync(int hold_ms) {
  family::hold_ms = hold_ms;
  int passed = 0;
  for (const family::Case& c : family::kCases) {
    const double start = emscripten_get_now();
    const bool ok = c.wait();
    const double waited = emscripten_get_now() - start;
    if (ok && waited >= hold_ms / 2.0) {
      ++passed;
    } else {
      std::printf("wsync test: %s returned %d after %.1f ms\n", c.name, ok, waited);
    }
  }
  report(passed == mt_family_size(), 0);
  return passed;
}

// Thread churn on this thread's blocking wait: `rounds` times, a fresh
// BinarySemaphore (family::fresh) and a detached pthread that releases it after 2 ms and exits,
// while this thread waits for it, at most 30 s. Each exited thread's memory
// goes back to malloc, where the next rounds' semaphores land. Emscripten
// 6.0.5 left a waiter there that took the wake (js/library_wsync.js).
// Reports whether every wait ended in its wake, well before 30 s.
EMSCRIPTEN_KEEPALIVE int mt_churn_sync(int rounds) {
  using namespace std::chrono_literals;
  constexpr auto kPatience = 30s;
  int woken = 0;
  for (int round = 0; round < rounds; ++round) {
    auto& semaphore = family::fresh<wsync::BinarySemaphore>(0);
    std::thread([&semaphore] {
      std::this_thread::sleep_for(2ms);
      semaphore.release();
    }).detach();
    const auto start = std::chrono::steady_clock::now();
    const bool acquired = semaphore.try_acquire_for(kPatience);
    if (acquired && std::chrono::steady_clock::now() - start < kPatience) {
      ++woken;
    } else {
      std::printf("wsync test: round %d was not woken (acquired: %d)\n", round, acquired);
    }
  }
  report(woken == rounds, 0);
  return woken;
}

}  // extern "C"
