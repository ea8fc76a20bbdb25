// The asynchronous waits of CondVar, Semaphore, Latch, Barrier and Once
// (wasm): main() runs on the runtime's main thread, each step starts an async
// wait and returns to the event loop; pthreads do the other half after a
// delay, so each wait really waits. Prints "async family: N checks passed".
#include <emscripten/emscripten.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "wasm_test_util.hpp"
#include "wsync/async.h"
#include "wsync/detail/access.hpp"
#include "wsync/wsync.hpp"

using wsync::detail::Access;

namespace {

using wasm_test::check;
using wasm_test::elapsed_ms;
using wasm_test::later;

wsync::Mutex g_mutex;
wsync::CondVar g_cv;
int g_flag;  // guarded by g_mutex
wsync::Semaphore g_sem(0, 4);
wsync::Latch g_latch(2);
wsync::Barrier<> g_barrier(2);
wsync::Once g_once;
wsync::Once g_fresh_once;
std::atomic<int> g_once_runs{0};
std::atomic<bool> g_once_started{false};

// Once: a pthread runs f for 80 ms; the async caller waits for it, runs
// nothing; a fresh Once is run by the async caller itself, on the event loop.
void step_once() {
  later(0, [] {
    wsync::call_once(g_once, [] {
      g_once_started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(80));
      ++g_once_runs;
    });
  });
  while (!g_once_started) {
  }  // the pthread is inside f (a few ms at most)
  wasm_test::g_start = emscripten_get_now();
  static bool returned = false;
  wsync::call_once_async(
      g_once, [] { ++g_once_runs; },
      [] {
        check(returned, "call_once_async returned before its completion ran");
        check(g_once_runs == 1, "f ran once, on the pthread");
        check(g_once.is_complete(), "the Once is complete");
        check(elapsed_ms() >= 40, "call_once_async waited for the running f");
        wsync::call_once_async(
            g_fresh_once, [] { g_once_runs += 10; },
            [] {
              check(g_once_runs == 11, "an INCOMPLETE Once runs f on the event loop");
              check(g_fresh_once.is_complete(), "and completes");
              wasm_test::pass();
            });
      });
  returned = true;
}

// Barrier: the main thread arrives and awaits its token; a pthread arrives
// late; then arrive_and_wait_async for the next phase.
void step_barrier() {
  wsync::Barrier<>::arrival_token token = g_barrier.arrive();
  later(50, [] { g_barrier.arrive_and_wait(); });
  wasm_test::g_start = emscripten_get_now();
  g_barrier.wait_async(std::move(token), [](bool ok) {
    check(ok, "barrier wait_async completes when the pthread arrives");
    check(elapsed_ms() >= 40, "barrier wait_async really waited");
    later(30, [] { g_barrier.arrive_and_wait(); });
    g_barrier.arrive_and_wait_async([](bool ok2) {
      check(ok2, "arrive_and_wait_async completes the next phase");
      wsync::Barrier<>::arrival_token t2 = g_barrier.arrive();
      g_barrier.wait_async(
          std::move(t2),
          [](bool ok3) {
            check(!ok3, "barrier wait_async times out while the phase is open");
            (void)g_barrier.arrive();  // complete it (we are both participants now)
            step_once();
          },
          10);
    });
  });
}

// Latch: a timeout, then two count_downs from a pthread.
void step_latch() {
  g_latch.wait_async(
      [](bool ok) {
        check(!ok, "latch wait_async times out while counting");
        later(50, [] {
          g_latch.count_down();
          g_latch.count_down();
        });
        wasm_test::g_start = emscripten_get_now();
        g_latch.wait_async([](bool ok2) {
          check(ok2, "latch wait_async returns once released");
          check(elapsed_ms() >= 40, "latch wait_async really waited");
          check(g_latch.try_wait(), "the latch stays released");
          step_barrier();
        });
      },
      10);
}

// Semaphore: a timeout, then a permit from a pthread.
void step_semaphore() {
  g_sem.acquire_async(
      [](bool ok) {
        check(!ok, "acquire_async times out with no permit");
        later(50, [] { g_sem.release(); });
        wasm_test::g_start = emscripten_get_now();
        g_sem.acquire_async([](bool ok2) {
          check(ok2, "acquire_async takes the pthread's permit");
          check(elapsed_ms() >= 40, "acquire_async really waited");
          check(Access::native_word(g_sem).load() == 0, "the permit was taken");
          check(Access::sleepers_word(g_sem).load() == 0, "no sleeper left registered");
          step_latch();
        });
      },
      10);
}

// CondVar: a timeout returns with the lock held; then a pthread notifies.
void step_cond_var() {
  check(g_mutex.try_lock(), "main thread holds the mutex");
  g_cv.wait_async(
      g_mutex,
      [](bool notified) {
        check(!notified, "cond wait_async times out without a notify");
        check(Access::native_word(g_mutex).load() != wsync::Mutex::kUnlocked, "and returns with the mutex held");
        check(Access::waiters_word(g_cv).load() == 0, "no waiter left registered");
        later(50, [] {
          g_mutex.lock();
          g_flag = 1;
          g_cv.notify_one();
          g_mutex.unlock();
        });
        wasm_test::g_start = emscripten_get_now();
        g_cv.wait_async(g_mutex, [](bool notified2) {
          check(notified2, "cond wait_async is woken by notify_one");
          check(g_flag == 1, "and sees the pthread's write under the mutex");
          check(elapsed_ms() >= 40, "cond wait_async really waited");
          g_mutex.unlock();
          check(Access::native_word(g_mutex).load() == wsync::Mutex::kUnlocked, "unlocked again");
          step_semaphore();
        });
      },
      10);
}

}  // namespace

int main() {
  wasm_test::g_program = "async family";
  step_cond_var();
  return 0;  // back to the event loop; the pending waits keep the runtime up
}
