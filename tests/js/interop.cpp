// The C++ half of the JS/C++ interop tests (tests/js/interop.test.mjs).
// Exported functions start pthreads that use wsync objects whose addresses
// JavaScript reaches with Mutex.at / WaitGroup.at on the same memory.
#include <emscripten/emscripten.h>
#include <pthread.h>

#include <chrono>
#include <thread>

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

}  // namespace

extern "C" {

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
