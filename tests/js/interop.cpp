// The C++ half of the JS/C++ interop tests (tests/js/interop.test.mjs).
// Exported functions start pthreads that use wsync objects whose addresses
// JavaScript reaches with Mutex.at, WaitGroup.at, ... on the same memory.
#include <emscripten/emscripten.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "../wasm_test_util.hpp"
#include "wsync/wsync.hpp"

namespace {

wsync::WaitGroup g_wg;
wsync::Mutex g_mutex;
int g_counter;  // guarded by g_mutex, in C++ and in JS alike
int g_results[2];
int g_iterations;

struct PowerJob {
  int input, power, delay_ms, *dest;
};
PowerJob g_jobs[2];

void* power(void* arg) {
  auto* job = static_cast<PowerJob*>(arg);
  std::this_thread::sleep_for(std::chrono::milliseconds(job->delay_ms));  // JS really waits
  int value = 1;
  for (int i = 0; i < job->power; ++i) value *= job->input;
  *job->dest = value;  // plain write, published by done()
  g_wg.done();
  return nullptr;
}

void* increment(void*) {
  for (int i = 0; i < g_iterations; ++i) {
    g_mutex.lock();
    g_counter = g_counter + 1;
    g_mutex.unlock();
  }
  g_wg.done();
  return nullptr;
}

// Runs `work` on a detached pthread after `delay_ms`, then done() on g_wg
// (the caller add()s: we do, before starting it).
void later(int delay_ms, std::function<void()> work) {
  g_wg.add(1);
  wasm_test::later(delay_ms, [work = std::move(work)] {
    work();
    g_wg.done();
  });
}

wsync::CondVar g_cv;
int g_flag;  // guarded by g_mutex
wsync::Semaphore g_sem(0, 8);
int g_sem_taken;  // atomically added to
wsync::Latch g_latch(0);
std::atomic<int> g_phases{0};
struct CountPhase {
  void operator()() const noexcept { g_phases.fetch_add(1, std::memory_order_relaxed); }
};
wsync::Barrier<CountPhase> g_barrier(0);
wsync::Once g_once;
std::atomic<int> g_once_runs{0};
int g_once_value;  // written by the Once's function, read after call_once

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void* interop_cond_var() { return &g_cv; }
EMSCRIPTEN_KEEPALIVE void* interop_flag() { return &g_flag; }
EMSCRIPTEN_KEEPALIVE void* interop_semaphore() { return &g_sem; }
EMSCRIPTEN_KEEPALIVE void* interop_latch() { return &g_latch; }
EMSCRIPTEN_KEEPALIVE void* interop_barrier() { return &g_barrier; }
EMSCRIPTEN_KEEPALIVE int interop_phases() { return g_phases.load(); }
EMSCRIPTEN_KEEPALIVE void* interop_once() { return &g_once; }
EMSCRIPTEN_KEEPALIVE int interop_once_runs() { return g_once_runs.load(); }
EMSCRIPTEN_KEEPALIVE int interop_once_value() { return g_once_value; }
EMSCRIPTEN_KEEPALIVE int interop_sem_taken() { return __atomic_load_n(&g_sem_taken, __ATOMIC_SEQ_CST); }

// A pthread waits on the CondVar until the flag is 1, then sets it to 2.
EMSCRIPTEN_KEEPALIVE void interop_cv_await_flag() {
  later(0, [] {
    std::unique_lock<wsync::Mutex> lock(g_mutex);
    g_cv.wait(lock, [] { return g_flag == 1; });
    g_flag = 2;
  });
}

// A pthread sets the flag to 1 under the mutex after delay_ms and notifies.
EMSCRIPTEN_KEEPALIVE void interop_cv_set_flag(int delay_ms) {
  later(delay_ms, [] {
    std::lock_guard<wsync::Mutex> lock(g_mutex);
    g_flag = 1;
    g_cv.notify_all();
  });
}

// `threads` pthreads each acquire `each` permits, one at a time.
EMSCRIPTEN_KEEPALIVE void interop_sem_acquirers(int threads, int each) {
  for (int i = 0; i < threads; ++i) {
    later(0, [each] {
      for (int k = 0; k < each; ++k) {
        g_sem.acquire();
        __atomic_fetch_add(&g_sem_taken, 1, __ATOMIC_SEQ_CST);
      }
    });
  }
}

// A pthread releases `n` permits, one every millisecond, after delay_ms.
EMSCRIPTEN_KEEPALIVE void interop_sem_releaser(int n, int delay_ms) {
  later(delay_ms, [n] {
    for (int k = 0; k < n; ++k) {
      g_sem.release();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
}

// `threads` pthreads count the Latch down after delay_ms and wait for it.
EMSCRIPTEN_KEEPALIVE void interop_latch_arrivers(int threads, int delay_ms) {
  for (int i = 0; i < threads; ++i) later(delay_ms, [] { g_latch.arrive_and_wait(); });
}

// `threads` pthreads pass `phases` phases of the Barrier.
EMSCRIPTEN_KEEPALIVE void interop_barrier_participants(int threads, int phases) {
  for (int i = 0; i < threads; ++i) {
    later(0, [phases] {
      for (int p = 0; p < phases; ++p) g_barrier.arrive_and_wait();
    });
  }
}

// `threads` pthreads call_once; the runner takes `run_ms` and writes 42.
EMSCRIPTEN_KEEPALIVE void interop_once_callers(int threads, int run_ms) {
  for (int i = 0; i < threads; ++i) {
    later(0, [run_ms] {
      wsync::call_once(g_once, [run_ms] {
        g_once_runs.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::milliseconds(run_ms));
        g_once_value = 42;
      });
      if (g_once_value == 0) g_once_runs.fetch_add(1000);  // f's write must be visible
    });
  }
}

// Go's fairness holder on g_mutex: lock, count, 100 us inside, unlock,
// relock at once, until interop_stop_relocking(); done() on g_wg at the end.
std::atomic<int> g_relocks{0};
std::atomic<bool> g_stop_relocking{false};

EMSCRIPTEN_KEEPALIVE void interop_relocking_holder() {
  g_stop_relocking = false;
  later(0, [] {
    while (!g_stop_relocking.load()) {
      g_mutex.lock();
      g_relocks.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      g_mutex.unlock();
    }
  });
}
EMSCRIPTEN_KEEPALIVE void* interop_relocks() { return &g_relocks; }
EMSCRIPTEN_KEEPALIVE void interop_stop_relocking() { g_stop_relocking = true; }

EMSCRIPTEN_KEEPALIVE void* interop_wait_group() { return &g_wg; }
EMSCRIPTEN_KEEPALIVE void* interop_mutex() { return &g_mutex; }
EMSCRIPTEN_KEEPALIVE void* interop_counter() { return &g_counter; }
EMSCRIPTEN_KEEPALIVE void* interop_results() { return g_results; }

// Square x and cube y on two pthreads, each after delay_ms; done() each.
EMSCRIPTEN_KEEPALIVE void interop_square_cube(int x, int y, int delay_ms) {
  g_jobs[0] = {x, 2, delay_ms, &g_results[0]};
  g_jobs[1] = {y, 3, delay_ms, &g_results[1]};
  g_wg.add(2);
  for (auto& job : g_jobs) {
    pthread_t t;
    pthread_create(&t, nullptr, power, &job);
    pthread_detach(t);
  }
}

// `threads` pthreads each add 1 to the counter `iterations` times under the
// mutex; each calls done() at the end (the caller add()s nothing: we do).
EMSCRIPTEN_KEEPALIVE void interop_increments(int threads, int iterations) {
  g_iterations = iterations;
  g_wg.add(threads);
  for (int i = 0; i < threads; ++i) {
    pthread_t t;
    pthread_create(&t, nullptr, increment, nullptr);
    pthread_detach(t);
  }
}

}  // extern "C"
