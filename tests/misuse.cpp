// Misuse programs: each case must abort with its exact message. This file is
// the one table of them: tests/CMakeLists.txt reads every CASE("name",
// "message") line (WASM_CASE: wasm builds only) and registers a test that
// runs the case and expects that line (expect_abort.cmake). Reaching
// "survived misuse" is a failure.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "wsync/detail/access.hpp"
#include "wsync/wsync.h"
#include "wsync/wsync.hpp"
#ifdef __EMSCRIPTEN__
#include "wsync/async.h"
#endif

using wsync::detail::Access;

// The case's name, and the message it must abort with (read by CMake).
#define CASE(case_name, message) (std::strcmp(name, case_name) == 0)
#define WASM_CASE(case_name, message) CASE(case_name, message)

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: wsync_misuse CASE\n");
    return 2;
  }
  const char* name = argv[1];
  if (CASE("negative_wait_group", "wsync: negative WaitGroup counter")) {
    wsync::WaitGroup wg;
    wg.add(1);
    wg.done();
    wg.done();
  } else if (CASE("wait_group_overflow", "wsync: WaitGroup counter overflow")) {
    wsync::WaitGroup wg;
    wg.add(0x7fffffff);
    wg.add(1);
  } else if (CASE("unlock_unlocked", "wsync: unlock of unlocked Mutex")) {
    wsync::Mutex m;
    m.lock();
    m.unlock();
    m.unlock();
  } else if (CASE("corrupted_mutex", "wsync: corrupted Mutex word")) {
    wsync::Mutex m;
    Access::native_word(m).store(0xdead);
    m.lock();
  } else if (CASE("null_mutex", "wsync: NULL wsync_mutex_t")) {
    wsync_mutex_lock(nullptr);
  } else if (CASE("null_wait_group", "wsync: NULL wsync_wg_t")) {
    wsync_wg_done(nullptr);
  } else if (CASE("nan_timeout", "wsync: timeout is NaN")) {
    wsync_mutex_t m = WSYNC_MUTEX_INIT;
    (void)wsync_mutex_lock_timeout(&m, std::nan(""));
  } else if (CASE("nan_duration", "wsync: timeout is NaN")) {
    wsync::WaitGroup wg;
    wg.add(1);
    (void)wg.wait_for(std::chrono::duration<double>(std::nan("")));
  } else if (CASE("nan_time_point", "wsync: timeout is NaN")) {
    wsync::Semaphore sem(0);
    using Seconds = std::chrono::duration<double>;
    (void)sem.try_acquire_until(std::chrono::time_point<std::chrono::system_clock, Seconds>(Seconds(std::nan(""))));
  } else if (CASE("semaphore_past_max", "wsync: Semaphore released past its maximum")) {
    wsync::Semaphore sem(1, 2);
    sem.release(2);
  } else if (CASE("semaphore_negative_release", "wsync: Semaphore release() of a negative amount")) {
    wsync::Semaphore sem(0);
    sem.release(-1);
  } else if (CASE("semaphore_bad_initial", "wsync: Semaphore initial count out of range")) {
    volatile ptrdiff_t initial = 3;  // run time, not a constant expression
    wsync::Semaphore sem(initial, 2);
  } else if (CASE("latch_below_zero", "wsync: Latch counted down below zero")) {
    wsync::Latch latch(1);
    latch.count_down(2);
  } else if (CASE("latch_negative_count_down", "wsync: Latch count_down() of a negative amount")) {
    wsync::Latch latch(1);
    latch.count_down(-1);
  } else if (CASE("latch_bad_count", "wsync: Latch count out of range")) {
    volatile ptrdiff_t count = -1;
    wsync::Latch latch(count);
  } else if (CASE("barrier_over_arrival", "wsync: Barrier over-arrival")) {
    wsync::Barrier<> barrier(2);
    (void)barrier.arrive(3);
  } else if (CASE("barrier_zero_arrival", "wsync: Barrier arrive() count must be at least 1")) {
    wsync::Barrier<> barrier(2);
    (void)barrier.arrive(0);
  } else if (CASE("barrier_bad_count", "wsync: Barrier count out of range")) {
    volatile ptrdiff_t count = -1;
    wsync::Barrier<> barrier(count);
  } else if (CASE("barrier_drop_past_zero", "wsync: Barrier over-arrival")) {
    wsync_barrier_t b;
    wsync_barrier_init(&b, 0);
    wsync_barrier_arrive_and_drop(&b);
  } else if (CASE("corrupted_semaphore", "wsync: corrupted Semaphore words")) {
    wsync_sem_t sem = WSYNC_SEM_INIT(1, 3);
    sem.count_ = 5;  // above its maximum: no state
    wsync_sem_release(&sem, 1);
  } else if (CASE("corrupted_barrier", "wsync: corrupted Barrier words")) {
    wsync_barrier_t barrier = WSYNC_BARRIER_INIT(2);
    barrier.remaining_ = 0x80000001u;  // a count past 31 bits
    (void)wsync_barrier_arrive(&barrier, 1);
  } else if (CASE("corrupted_barrier_expected", "wsync: corrupted Barrier words")) {
    wsync_barrier_t barrier = WSYNC_BARRIER_INIT(2);
    barrier.expected_ = 0xffffffffu;
    wsync_barrier_arrive_and_drop(&barrier);
  } else if (CASE("corrupted_once", "wsync: corrupted Once word")) {
    wsync::Once once;
    Access::native_word(once).store(7);
    wsync::call_once(once, [] {});
  } else if (CASE("null_once_function", "wsync: NULL function")) {
    wsync_once_t once = WSYNC_ONCE_INIT;
    wsync_call_once(&once, nullptr, nullptr);
  } else if (CASE("null_cond", "wsync: NULL wsync_cond_t")) {
    wsync_cond_signal(nullptr);
  } else if (CASE("null_sem", "wsync: NULL wsync_sem_t")) {
    wsync_sem_release(nullptr, 1);
  } else if (CASE("null_latch", "wsync: NULL wsync_latch_t")) {
    wsync_latch_count_down(nullptr, 1);
  } else if (CASE("null_barrier", "wsync: NULL wsync_barrier_t")) {
    (void)wsync_barrier_arrive(nullptr, 1);
  } else if (CASE("null_once", "wsync: NULL wsync_once_t")) {
    wsync_call_once(
        nullptr, [](void*) {}, nullptr);
#ifdef __EMSCRIPTEN__
  } else if (WASM_CASE("null_callback", "wsync: NULL callback")) {
    wsync_mutex_t m = WSYNC_MUTEX_INIT;
    wsync_mutex_lock_async(&m, nullptr, nullptr, 0);
#endif
  } else {
    std::fprintf(stderr, "unknown case %s\n", name);
    return 2;
  }
  std::printf("survived misuse\n");
  return 0;
}
