/* The C API, compiled as C11: every call, from plain C, with pthreads. */
#include <math.h>
#include <pthread.h>
#include <stddef.h>

#include "wsync/wsync.h"

/* Static initialization with the macros. */
static wsync_mutex_t g_mutex = WSYNC_MUTEX_INIT;
static wsync_wg_t g_wg = WSYNC_WG_INIT;
static long g_counter; /* guarded by g_mutex */

static void* increment_many(void* arg) {
  (void)arg;
  for (int i = 0; i < 10000; ++i) {
    wsync_mutex_lock(&g_mutex);
    ++g_counter;
    wsync_mutex_unlock(&g_mutex);
  }
  wsync_wg_done(&g_wg);
  return NULL;
}

/* Four threads increment one counter under the mutex and report on the wait
 * group; returns the final count (40000 when everything works). */
long c_api_counter_under_mutex(void) {
  pthread_t threads[4];
  g_counter = 0;
  wsync_wg_add(&g_wg, 4);
  for (int i = 0; i < 4; ++i) pthread_create(&threads[i], NULL, increment_many, NULL);
  wsync_wg_wait(&g_wg);
  wsync_mutex_lock(&g_mutex);
  long result = g_counter;
  wsync_mutex_unlock(&g_mutex);
  for (int i = 0; i < 4; ++i) pthread_join(threads[i], NULL);
  return result;
}

/* Bit flags of what held, so the C++ side can report each check:
 * 1 trylock free, 2 trylock held fails, 4 lock_timeout(0) held fails,
 * 8 lock_timeout(INFINITY) free succeeds, 16 wg_wait_timeout pending fails,
 * 32 wg_wait_timeout(INFINITY) at zero succeeds, 64 negative timeout = try. */
int c_api_single_thread_checks(void) {
  int ok = 0;
  wsync_mutex_t m = WSYNC_MUTEX_INIT;
  wsync_wg_t wg = WSYNC_WG_INIT;
  if (wsync_mutex_trylock(&m)) ok |= 1;
  if (!wsync_mutex_trylock(&m)) ok |= 2;
  if (!wsync_mutex_lock_timeout(&m, 0.0)) ok |= 4;
  wsync_mutex_unlock(&m);
  if (wsync_mutex_lock_timeout(&m, INFINITY)) ok |= 8;
  if (!wsync_mutex_lock_timeout(&m, -5.0)) ok |= 64;
  wsync_mutex_unlock(&m);
  wsync_wg_add(&wg, 1);
  if (!wsync_wg_wait_timeout(&wg, 1.0)) ok |= 16;
  wsync_wg_done(&wg);
  if (wsync_wg_wait_timeout(&wg, INFINITY)) ok |= 32;
  return ok;
}

unsigned c_api_sizes(void) {
  return (unsigned)(sizeof(wsync_mutex_t) * 100 + sizeof(wsync_wg_t) * 10 + _Alignof(wsync_mutex_t));
}

/* ---- The rest of the family, from C: statically initialized, with pthreads. */
static wsync_cond_t g_cond = WSYNC_COND_INIT;
static wsync_sem_t g_items = WSYNC_SEM_INIT(0, 8);
static wsync_latch_t g_started = WSYNC_LATCH_INIT(4);
static wsync_barrier_t g_barrier = WSYNC_BARRIER_INIT(4);
static wsync_once_t g_once = WSYNC_ONCE_INIT;
static int g_once_runs;    /* written only by the once function */
static int g_ready;        /* guarded by g_mutex, signalled on g_cond */
static int g_serial_count; /* arrivals that completed a phase, guarded by g_mutex */
static int g_consumed;     /* items taken from g_items, guarded by g_mutex */

static void count_once_run(void* arg) {
  (void)arg;
  ++g_once_runs;
}

static void* family_worker(void* arg) {
  (void)arg;
  wsync_call_once(&g_once, count_once_run, NULL);
  wsync_latch_count_down(&g_started, 1);
  /* Wait on the condition variable until the main thread says go. */
  wsync_mutex_lock(&g_mutex);
  while (!g_ready) wsync_cond_wait(&g_cond, &g_mutex);
  wsync_mutex_unlock(&g_mutex);
  /* 100 phases; exactly one arrival per phase reports completing it. */
  for (int phase = 0; phase < 100; ++phase) {
    if (wsync_barrier_arrive_and_wait(&g_barrier)) {
      wsync_mutex_lock(&g_mutex);
      ++g_serial_count;
      wsync_mutex_unlock(&g_mutex);
    }
  }
  /* Take 250 items each from the semaphore the main thread fills. */
  for (int i = 0; i < 250; ++i) {
    wsync_sem_acquire(&g_items);
    wsync_mutex_lock(&g_mutex);
    ++g_consumed;
    wsync_mutex_unlock(&g_mutex);
  }
  return NULL;
}

/* Bit flags: 1 once ran once, 2 latch released, 4 one serial arrival per
 * phase, 8 every item consumed, 16 semaphore empty and within its maximum,
 * 32 timeouts on an empty semaphore / pending latch / pending phase,
 * 64 try forms. */
int c_api_family_checks(void) {
  int ok = 0;
  pthread_t threads[4];
  for (int i = 0; i < 4; ++i) pthread_create(&threads[i], NULL, family_worker, NULL);
  wsync_latch_wait(&g_started);
  if (wsync_latch_try_wait(&g_started)) ok |= 2;
  wsync_mutex_lock(&g_mutex);
  g_ready = 1;
  wsync_cond_broadcast(&g_cond);
  wsync_mutex_unlock(&g_mutex);
  for (int i = 0; i < 1000; ++i) {
    /* Never past the maximum of 8: wait for room by polling with a timeout. */
    for (;;) {
      wsync_mutex_lock(&g_mutex);
      int in_flight = i - g_consumed;
      wsync_mutex_unlock(&g_mutex);
      if (in_flight < 8) break;
      wsync_mutex_t idle = WSYNC_MUTEX_INIT;
      wsync_mutex_lock(&idle);
      (void)wsync_mutex_lock_timeout(&idle, 0.05); /* a short sleep in C, no libc timer */
      wsync_mutex_unlock(&idle);
    }
    wsync_sem_release(&g_items, 1);
  }
  for (int i = 0; i < 4; ++i) pthread_join(threads[i], NULL);
  if (g_once_runs == 1 && wsync_once_is_complete(&g_once)) ok |= 1;
  if (g_serial_count == 100) ok |= 4;
  if (g_consumed == 1000) ok |= 8;
  if (!wsync_sem_tryacquire(&g_items)) ok |= 16;

  wsync_sem_t empty;
  wsync_sem_init(&empty, 0, 1);
  wsync_latch_t pending;
  wsync_latch_init(&pending, 1);
  wsync_barrier_t two;
  wsync_barrier_init(&two, 2);
  wsync_barrier_token_t token = wsync_barrier_arrive(&two, 1);
  if (!wsync_sem_acquire_timeout(&empty, 1.0) && !wsync_latch_wait_timeout(&pending, 1.0) &&
      !wsync_barrier_wait_timeout(&two, token, 1.0)) {
    ok |= 32;
  }
  wsync_sem_release(&empty, 1);
  wsync_latch_count_down(&pending, 1);
  wsync_barrier_arrive_and_drop(&two); /* completes the phase; one participant from now on */
  if (wsync_sem_tryacquire(&empty) && wsync_latch_try_wait(&pending) && wsync_barrier_wait_timeout(&two, token, 0.0) &&
      wsync_barrier_arrive_and_wait(&two)) {
    ok |= 64;
  }
  return ok;
}
