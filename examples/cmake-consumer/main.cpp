// A program that links the installed wsync: four pthreads sum 1..1000 in two
// phases (a Barrier between them) under a Mutex, and count down a WaitGroup
// that main awaits; in wasm with wait_async (so the JS library must be
// linked), natively with wait().
#include <pthread.h>

#include <cstdio>
#include <cstdlib>

#include "wsync/wsync.hpp"
#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace {

constexpr int kThreads = 4;
wsync::Mutex g_mutex;
wsync::Barrier<> g_barrier(kThreads);
wsync::WaitGroup g_done;
long g_sum = 0;  // guarded by g_mutex

void* work(void* arg) {
  const long id = reinterpret_cast<long>(arg);
  for (int phase = 0; phase < 2; ++phase) {
    long part = 0;
    for (long i = 1 + id + phase * 500; i <= 500 + phase * 500; i += kThreads) part += i;
    {
      std::lock_guard<wsync::Mutex> lock(g_mutex);
      g_sum += part;
    }
    g_barrier.arrive_and_wait();
  }
  g_done.done();
  return nullptr;
}

void report() {
  std::printf("consumer: sum of 1..1000 = %ld\n", g_sum);
  std::fflush(stdout);
}

}  // namespace

int main() {
  g_done.add(kThreads);
  pthread_t threads[kThreads];
  for (long i = 0; i < kThreads; ++i) pthread_create(&threads[i], nullptr, work, reinterpret_cast<void*>(i));
  for (pthread_t t : threads) pthread_detach(t);
#ifdef __EMSCRIPTEN__
  g_done.wait_async([](bool ok) {
    report();
    emscripten_force_exit(ok && g_sum == 500500 ? 0 : 1);
  });
  return 0;  // back to the event loop until the callback
#else
  g_done.wait();
  report();
  return g_sum == 500500 ? 0 : 1;
#endif
}
