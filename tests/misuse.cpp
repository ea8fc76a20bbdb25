// Misuse programs: each case must abort with its exact message (checked by
// ctest's PASS_REGULAR_EXPRESSION). Reaching "survived misuse" is a failure.
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

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: wsync_misuse CASE\n");
    return 2;
  }
  const char* name = argv[1];
  if (!std::strcmp(name, "negative_wait_group")) {
    wsync::WaitGroup wg;
    wg.add(1);
    wg.done();
    wg.done();
  } else if (!std::strcmp(name, "wait_group_overflow")) {
    wsync::WaitGroup wg;
    wg.add(0x7fffffff);
    wg.add(1);
  } else if (!std::strcmp(name, "unlock_unlocked")) {
    wsync::Mutex m;
    m.lock();
    m.unlock();
    m.unlock();
  } else if (!std::strcmp(name, "corrupted_mutex")) {
    wsync::Mutex m;
    Access::native_word(m).store(0xdead);
    m.lock();
  } else if (!std::strcmp(name, "null_mutex")) {
    wsync_mutex_lock(nullptr);
  } else if (!std::strcmp(name, "null_wait_group")) {
    wsync_wg_done(nullptr);
  } else if (!std::strcmp(name, "nan_timeout")) {
    wsync_mutex_t m = WSYNC_MUTEX_INIT;
    (void)wsync_mutex_lock_timeout(&m, std::nan(""));
  } else if (!std::strcmp(name, "nan_duration")) {
    wsync::WaitGroup wg;
    wg.add(1);
    (void)wg.wait_for(std::chrono::duration<double>(std::nan("")));
  } else if (!std::strcmp(name, "nan_time_point")) {
    wsync::Semaphore sem(0);
    using Seconds = std::chrono::duration<double>;
    (void)sem.try_acquire_until(std::chrono::time_point<std::chrono::system_clock, Seconds>(Seconds(std::nan(""))));
  } else if (!std::strcmp(name, "semaphore_past_max")) {
    wsync::Semaphore sem(1, 2);
    sem.release(2);
  } else if (!std::strcmp(name, "semaphore_negative_release")) {
    wsync::Semaphore sem(0);
    sem.release(-1);
  } else if (!std::strcmp(name, "semaphore_bad_initial")) {
    volatile ptrdiff_t initial = 3;  // run time, not a constant expression
    wsync::Semaphore sem(initial, 2);
  } else if (!std::strcmp(name, "latch_below_zero")) {
    wsync::Latch latch(1);
    latch.count_down(2);
  } else if (!std::strcmp(name, "latch_negative_count_down")) {
    wsync::Latch latch(1);
    latch.count_down(-1);
  } else if (!std::strcmp(name, "latch_bad_count")) {
    volatile ptrdiff_t count = -1;
    wsync::Latch latch(count);
  } else if (!std::strcmp(name, "barrier_over_arrival")) {
    wsync::Barrier<> barrier(2);
    (void)barrier.arrive(3);
  } else if (!std::strcmp(name, "barrier_zero_arrival")) {
    wsync::Barrier<> barrier(2);
    (void)barrier.arrive(0);
  } else if (!std::strcmp(name, "barrier_bad_count")) {
    volatile ptrdiff_t count = -1;
    wsync::Barrier<> barrier(count);
  } else if (!std::strcmp(name, "barrier_drop_past_zero")) {
    wsync_barrier_t b;
    wsync_barrier_init(&b, 0);
    wsync_barrier_arrive_and_drop(&b);
  } else if (!std::strcmp(name, "corrupted_semaphore")) {
    wsync_sem_t sem = WSYNC_SEM_INIT(1, 3);
    sem.count_ = 5;  // above its maximum: no state
    wsync_sem_release(&sem, 1);
  } else if (!std::strcmp(name, "corrupted_barrier")) {
    wsync_barrier_t barrier = WSYNC_BARRIER_INIT(2);
    barrier.remaining_ = 0x80000001u;  // a count past 31 bits
    (void)wsync_barrier_arrive(&barrier, 1);
  } else if (!std::strcmp(name, "corrupted_barrier_expected")) {
    wsync_barrier_t barrier = WSYNC_BARRIER_INIT(2);
    barrier.expected_ = 0xffffffffu;
    wsync_barrier_arrive_and_drop(&barrier);
  } else if (!std::strcmp(name, "corrupted_once")) {
    wsync::Once once;
    Access::native_word(once).store(7);
    wsync::call_once(once, [] {});
  } else if (!std::strcmp(name, "null_once_function")) {
    wsync_once_t once = WSYNC_ONCE_INIT;
    wsync_call_once(&once, nullptr, nullptr);
  } else if (!std::strcmp(name, "null_cond")) {
    wsync_cond_signal(nullptr);
  } else if (!std::strcmp(name, "null_sem")) {
    wsync_sem_release(nullptr, 1);
  } else if (!std::strcmp(name, "null_latch")) {
    wsync_latch_count_down(nullptr, 1);
  } else if (!std::strcmp(name, "null_barrier")) {
    (void)wsync_barrier_arrive(nullptr, 1);
  } else if (!std::strcmp(name, "null_once")) {
    wsync_call_once(
        nullptr, [](void*) {}, nullptr);
#ifdef __EMSCRIPTEN__
  } else if (!std::strcmp(name, "null_callback")) {
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
