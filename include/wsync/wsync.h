/* wsync/wsync.h: the C API (C11 and C++).
 *
 * Each C type is a struct of the same size, alignment and word layout as its
 * C++ counterpart (see docs/abi.md); the C functions run the C++ algorithms
 * on it. Initialize with the *_INIT macro (or the *_init function, which
 * checks its arguments) before use.
 *
 * Timeouts: milliseconds as a double, relative to the call. INFINITY waits
 * forever; 0 or a negative value only tries once; values too large to
 * represent mean forever. NaN is misuse ("wsync: timeout is NaN").
 * Timed calls return true when they succeeded, false on timeout.
 *
 * Pointers must not be NULL: a NULL object is reported as misuse
 * ("wsync: NULL wsync_mutex_t", "wsync: NULL wsync_cond_t", ...) and aborts,
 * as does every other misuse, with one exact line on stderr (docs/api.md).
 *
 * Where each call may be used: docs/abi.md ("which call where"). The
 * asynchronous forms for the browser main thread are in wsync/async.h.
 */
#ifndef WSYNC_WSYNC_H_
#define WSYNC_WSYNC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wsync/version.h" /* WSYNC_VERSION, "MAJOR.MINOR.PATCH" */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Mutex: the word of wsync::Mutex (state table: wsync/mutex.hpp). ---- */
typedef struct wsync_mutex {
  uint32_t state_; /* touch only through wsync_mutex_* */
} wsync_mutex_t;
/* clang-format off */
#define WSYNC_MUTEX_INIT {0}
/* clang-format on */

void wsync_mutex_lock(wsync_mutex_t* m);
bool wsync_mutex_trylock(wsync_mutex_t* m);
bool wsync_mutex_lock_timeout(wsync_mutex_t* m, double ms);
/* Unlocking a mutex that is not locked aborts: "wsync: unlock of unlocked Mutex". */
void wsync_mutex_unlock(wsync_mutex_t* m);

/* ---- WaitGroup: the word of wsync::WaitGroup (wsync/wait_group.hpp). ---- */
typedef struct wsync_wg {
  uint32_t state_; /* touch only through wsync_wg_* */
} wsync_wg_t;
/* clang-format off */
#define WSYNC_WG_INIT {0}
/* clang-format on */

/* A counter below zero aborts: "wsync: negative WaitGroup counter". */
void wsync_wg_add(wsync_wg_t* wg, int delta);
void wsync_wg_done(wsync_wg_t* wg);
void wsync_wg_wait(wsync_wg_t* wg);
bool wsync_wg_wait_timeout(wsync_wg_t* wg, double ms);

/* ---- CondVar: the words of wsync::CondVar (wsync/cond_var.hpp). ---- */
typedef struct wsync_cond {
  uint32_t seq_, waiters_; /* touch only through wsync_cond_* */
} wsync_cond_t;
/* clang-format off */
#define WSYNC_COND_INIT {0, 0}
/* clang-format on */

/* `m` must be held; it is held again when these return. Spurious wakeups are
 * possible: wait in a loop that checks the condition. wait_timeout returns
 * false on timeout. */
void wsync_cond_wait(wsync_cond_t* c, wsync_mutex_t* m);
bool wsync_cond_wait_timeout(wsync_cond_t* c, wsync_mutex_t* m, double ms);
void wsync_cond_signal(wsync_cond_t* c);    /* wake one waiter */
void wsync_cond_broadcast(wsync_cond_t* c); /* wake every waiter */

/* ---- Semaphore: the words of wsync::Semaphore (wsync/semaphore.hpp). ---- */
typedef struct wsync_sem {
  uint32_t count_, sleepers_, max_; /* touch only through wsync_sem_* */
} wsync_sem_t;
#define WSYNC_SEM_MAX 0x7fffffff
/* clang-format off */
#define WSYNC_SEM_INIT(initial, max) {(initial), 0, (max)}
/* clang-format on */

/* 0 <= initial <= max <= WSYNC_SEM_MAX, else "wsync: Semaphore initial count out of range". */
void wsync_sem_init(wsync_sem_t* s, ptrdiff_t initial, ptrdiff_t max);
void wsync_sem_acquire(wsync_sem_t* s);
bool wsync_sem_tryacquire(wsync_sem_t* s);
bool wsync_sem_acquire_timeout(wsync_sem_t* s, double ms);
/* Past the maximum aborts: "wsync: Semaphore released past its maximum". */
void wsync_sem_release(wsync_sem_t* s, ptrdiff_t n);

/* ---- Latch: the word of wsync::Latch (wsync/latch.hpp). ---- */
typedef struct wsync_latch {
  uint32_t state_; /* touch only through wsync_latch_* */
} wsync_latch_t;
/* clang-format off */
#define WSYNC_LATCH_INIT(count) {(count)}
/* clang-format on */

/* 0 <= count <= 2^31 - 1, else "wsync: Latch count out of range". */
void wsync_latch_init(wsync_latch_t* l, ptrdiff_t count);
/* Below zero aborts: "wsync: Latch counted down below zero". */
void wsync_latch_count_down(wsync_latch_t* l, ptrdiff_t n);
bool wsync_latch_try_wait(wsync_latch_t* l);
void wsync_latch_wait(wsync_latch_t* l);
bool wsync_latch_wait_timeout(wsync_latch_t* l, double ms);

/* ---- Barrier: the words of wsync::Barrier (wsync/barrier.hpp). ---- */
typedef struct wsync_barrier {
  uint32_t phase_, remaining_, expected_; /* touch only through wsync_barrier_* */
} wsync_barrier_t;
/* clang-format off */
#define WSYNC_BARRIER_INIT(count) {0, (count), (count)}
/* clang-format on */
typedef uint32_t wsync_barrier_token_t; /* the phase an arrival belongs to */

/* 0 <= count <= 2^31 - 1, else "wsync: Barrier count out of range". */
void wsync_barrier_init(wsync_barrier_t* b, ptrdiff_t count);
/* More arrivals than the phase expects abort: "wsync: Barrier over-arrival". */
wsync_barrier_token_t wsync_barrier_arrive(wsync_barrier_t* b, ptrdiff_t n);
void wsync_barrier_wait(wsync_barrier_t* b, wsync_barrier_token_t token);
bool wsync_barrier_wait_timeout(wsync_barrier_t* b, wsync_barrier_token_t token, double ms);
/* Arrive and wait; true for exactly one caller per phase: the one whose
 * arrival completed it (as PTHREAD_BARRIER_SERIAL_THREAD). */
bool wsync_barrier_arrive_and_wait(wsync_barrier_t* b);
/* Arrive in this phase and leave: the next phases expect one fewer. */
void wsync_barrier_arrive_and_drop(wsync_barrier_t* b);

/* ---- Once: the word of wsync::Once (wsync/once.hpp). ---- */
typedef struct wsync_once {
  uint32_t state_; /* touch only through wsync_*once* */
} wsync_once_t;
/* clang-format off */
#define WSYNC_ONCE_INIT {0}
/* clang-format on */

/* Runs fn(arg) exactly once over every call on `once`; the others wait for
 * it to return. fn must not be NULL ("wsync: NULL function"). */
void wsync_call_once(wsync_once_t* once, void (*fn)(void*), void* arg);
bool wsync_once_is_complete(wsync_once_t* once);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_WSYNC_H_ */
