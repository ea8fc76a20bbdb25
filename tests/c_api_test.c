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
