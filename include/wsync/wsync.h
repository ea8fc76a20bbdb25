/* wsync/wsync.h: the C API (C11 and C++), also what the JavaScript glue calls.
 *
 * Each C type is a struct of the same size, alignment and word layout as its
 * C++ counterpart (see docs/abi.md); the C functions run the C++ algorithms
 * on it. Initialize with the *_INIT macro (or zero the memory) before use.
 *
 * Timeouts: milliseconds as a double, relative to the call. INFINITY waits
 * forever; 0 or a negative value only tries once; values too large to
 * represent mean forever. NaN is misuse ("wsync: timeout is NaN").
 * Timed calls return true when they succeeded, false on timeout.
 *
 * Pointers must not be NULL: a NULL is reported as misuse
 * ("wsync: NULL wsync_mutex_t" / "wsync: NULL wsync_wg_t") and aborts.
 *
 * Where each call may be used: docs/abi.md ("which call where").
 */
#ifndef WSYNC_WSYNC_H_
#define WSYNC_WSYNC_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A three-state futex mutex: 0 unlocked, 1 locked, 2 locked with sleepers. */
typedef struct wsync_mutex {
  uint32_t state_; /* touch only through wsync_mutex_* */
} wsync_mutex_t;
#define WSYNC_MUTEX_INIT {0}

void wsync_mutex_lock(wsync_mutex_t* m);
bool wsync_mutex_trylock(wsync_mutex_t* m);
bool wsync_mutex_lock_timeout(wsync_mutex_t* m, double ms);
/* Unlocking a mutex that is not locked aborts: "wsync: unlock of unlocked Mutex". */
void wsync_mutex_unlock(wsync_mutex_t* m);

/* A Go-style WaitGroup: bit 31 "waiters may sleep", bits 30..0 the counter. */
typedef struct wsync_wg {
  uint32_t state_; /* touch only through wsync_wg_* */
} wsync_wg_t;
#define WSYNC_WG_INIT {0}

/* A counter below zero aborts: "wsync: negative WaitGroup counter". */
void wsync_wg_add(wsync_wg_t* wg, int delta);
void wsync_wg_done(wsync_wg_t* wg);
void wsync_wg_wait(wsync_wg_t* wg);
bool wsync_wg_wait_timeout(wsync_wg_t* wg, double ms);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_WSYNC_H_ */
