// The browser main thread takes a wsync::Mutex that a pthread holds, two ways,
// and the page keeps painting through both (index.html shows it):
//
//   example_lock_sync()   a plain, synchronous lock(): linked with -sASYNCIFY
//                         or -sJSPI (with this export in -sJSPI_EXPORTS),
//                         wsync suspends this call on Atomics.waitAsync, so
//                         the page calls it with ccall(..., {async: true})
//   example_lock_async()  lock_async(callback): returns at once, the callback
//                         runs from the event loop once the mutex is ours
#include <emscripten/emscripten.h>
#include <pthread.h>

#include <chrono>
#include <thread>

#include "wsync/wsync.hpp"

namespace {

wsync::Mutex g_mutex;
wsync::Latch* g_held = nullptr;  // counted down once the pthread holds the mutex

void* hold(void* ms) {
  g_mutex.lock();
  g_held->count_down();
  std::this_thread::sleep_for(std::chrono::milliseconds(reinterpret_cast<intptr_t>(ms)));
  g_mutex.unlock();
  return nullptr;
}

// Starts a pthread that holds the mutex for `ms`; returns once it holds it.
void hold_for(int ms) {
  wsync::Latch held(1);
  g_held = &held;
  pthread_t t;
  pthread_create(&t, nullptr, hold, reinterpret_cast<void*>(static_cast<intptr_t>(ms)));
  pthread_detach(t);
  while (!held.try_wait()) {
  }  // a few microseconds: the pool's worker is already running
}

}  // namespace

extern "C" {

// Locks while a pthread holds the mutex for `ms`; returns how long it waited.
EMSCRIPTEN_KEEPALIVE double example_lock_sync(int ms) {
  hold_for(ms);
  const double start = emscripten_get_now();
  g_mutex.lock();  // suspends (Asyncify or JSPI), the page keeps running
  const double waited = emscripten_get_now() - start;
  g_mutex.unlock();
  return waited;
}

// The same with the async API; calls Module.onLocked(ms waited) when done.
EMSCRIPTEN_KEEPALIVE void example_lock_async(int ms) {
  hold_for(ms);
  const double start = emscripten_get_now();
  g_mutex.lock_async([start](bool locked) {
    const double waited = emscripten_get_now() - start;
    if (locked) g_mutex.unlock();
    EM_ASM({ Module.onLocked($0); }, waited);
  });
}

}  // extern "C"
