// The asynchronous waits (wasm): main() runs on the runtime's main thread
// (no PROXY_TO_PTHREAD), starts async waits, returns to the event loop, and
// the callbacks finish the checks. Prints "async: N checks passed" or fails.
#include "wsync/async.h"

#include <emscripten/emscripten.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "wasm_test_util.hpp"
#include "wsync/detail/access.hpp"
#include "wsync/wsync.hpp"

using wsync::detail::Access;

namespace {

using wasm_test::check;
using wasm_test::elapsed_ms;

wsync::Mutex g_mutex;
wsync::WaitGroup g_wg;

void* hold_mutex(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  g_mutex.unlock();  // CONTENDED by now: wakes the async waiter
  return nullptr;
}

void* finish_work(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  g_wg.done();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  g_wg.done();
  return nullptr;
}

// An async wait started on a pthread that then returns from its start
// routine: the pending wait keeps the thread up (the runtime's keepalive
// count), its callback runs on that thread, and only then does the thread
// exit, running its thread-specific data's destructor.
wsync::WaitGroup g_pthread_released;  // what the pthread waits for
wsync::WaitGroup g_pthread_finished;  // its callback, then its exit
pthread_key_t g_exit_key;
std::atomic<bool> g_callback_ran{false};
std::atomic<bool> g_callback_on_its_thread{false};
std::atomic<bool> g_exited_after_callback{false};

void* start_wait_and_return(void*) {
  pthread_setspecific(g_exit_key, &g_exit_key);  // not null: the destructor runs at exit
  const pthread_t self = pthread_self();
  g_pthread_released.wait_async([self](bool ok) {
    g_callback_on_its_thread = ok && pthread_equal(pthread_self(), self);
    g_callback_ran = true;
    g_pthread_finished.done();
  });
  return nullptr;  // to the worker's event loop, with the wait pending
}

void step5_wait_on_a_returned_pthread() {
  check(pthread_key_create(&g_exit_key,
                           [](void*) {
                             g_exited_after_callback = g_callback_ran.load();
                             g_pthread_finished.done();
                           }) == 0,
        "pthread_key_create");
  g_pthread_released.add(1);
  g_pthread_finished.add(2);
  pthread_t t;
  pthread_create(&t, nullptr, start_wait_and_return, nullptr);
  pthread_detach(t);
  wasm_test::later(50, [] { g_pthread_released.done(); });
  g_pthread_finished.wait_async(
      [](bool ok) {
        check(ok, "a pthread that returned with an async wait pending ran its callback, then exited");
        check(g_callback_on_its_thread, "the callback ran on the pthread that started the wait, which succeeded");
        check(g_exited_after_callback, "the pthread exited only after its callback");
        wasm_test::pass();
      },
      10'000);
}

void step4_wait_group_zero(bool ok) {
  check(ok, "wait_async returns true once the pthread's done() calls reach zero");
  check(elapsed_ms() >= 90, "wait_async really waited for the work");
  check(Access::native_word(g_wg).load() == 0, "WaitGroup back to 0");
  // Already zero: the callback still comes later, from the event loop.
  static bool called = false;
  g_wg.wait_async([](bool ok2) {
    called = true;
    check(ok2, "wait_async on a zero counter succeeds");
    step5_wait_on_a_returned_pthread();
  });
  check(!called, "the callback never runs inside the call");
}

void step3_wait_group_timeout(bool ok) {
  check(!ok, "wait_async with 20 ms times out while work is pending");
  g_wg.wait_async(step4_wait_group_zero);
}

void step2_locked(bool ok) {
  check(ok, "lock_async acquires once the holder unlocks");
  check(elapsed_ms() >= 90, "lock_async really waited for the holder");
  check(Access::native_word(g_mutex).load() == wsync::Mutex::kContended, "taken as CONTENDED after sleeping");
  g_mutex.unlock();
  check(Access::native_word(g_mutex).load() == wsync::Mutex::kUnlocked, "unlocked again");
  g_wg.add(2);
  pthread_t t;
  pthread_create(&t, nullptr, finish_work, nullptr);
  pthread_detach(t);
  wasm_test::g_start = emscripten_get_now();
  g_wg.wait_async(step3_wait_group_timeout, 20);
}

}  // namespace

int main() {
  wasm_test::g_program = "async";
  check(wsync_thread_can_block(), "Node's main thread may block");
  check(wsync_set_main_thread_spin_us(0) == 50, "the spin budget defaults to 50 us");
  check(wsync_set_main_thread_spin_us(-1) == 0, "the budget was set to 0");
  check(wsync_set_main_thread_spin_us(20) == 0, "a negative budget is ignored");
  // A held mutex: lock_async must not block and must time out, then succeed.
  g_mutex.lock();
  bool timed_out_called = false;
  wsync_mutex_lock_async(
      reinterpret_cast<wsync_mutex_t*>(&g_mutex),
      [](void* flag, bool ok) {
        *static_cast<bool*>(flag) = true;
        check(!ok, "lock_async with 10 ms times out while the mutex is held");
        pthread_t t;
        pthread_create(&t, nullptr, hold_mutex, nullptr);
        pthread_detach(t);
        wasm_test::g_start = emscripten_get_now();
        g_mutex.lock_async(step2_locked);
      },
      &timed_out_called, 10);
  check(!timed_out_called, "lock_async returns at once");
  return 0;  // back to the event loop; the pending waits keep the runtime up
}
