/* wsync/async.h: asynchronous waits for the browser main thread (wasm only).
 *
 * The browser main thread may not block. These calls never do: they return
 * at once; from the same thread's event loop they spin briefly (the spin
 * budget of wsync/main_thread.h), then sleep on Atomics.waitAsync (or poll
 * with setTimeout where it is missing), and finally call `callback(user, ok)`:
 * ok true when the wait succeeded, false when `ms` passed first. The
 * callback always runs later, never inside the call. Timeouts: milliseconds
 * as a double, as in wsync.h (INFINITY = none). A NULL callback is misuse
 * ("wsync: NULL callback").
 *
 * They work on any thread that returns to its event loop (the browser main
 * thread, Node's main thread, a pthread that returns from its start routine:
 * a pending wait keeps its thread, and a -sEXIT_RUNTIME program, alive until
 * the callback has run), on the same words as the blocking calls, so a
 * blocked pthread and an async waiter can wait for the same thing: a wake
 * reaches either, and an async wait that times out never swallows a wake
 * meant for someone else (docs/abi.md).
 */
#ifndef WSYNC_ASYNC_H_
#define WSYNC_ASYNC_H_

#include "wsync/main_thread.h"
#include "wsync/wsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*wsync_async_callback)(void* user, bool ok);

/* ok: locked (then the caller owns the mutex). */
void wsync_mutex_lock_async(wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms);
/* ok: the counter reached zero. */
void wsync_wg_wait_async(wsync_wg_t* wg, wsync_async_callback callback, void* user, double ms);
/* `m` is held and is unlocked at once; the callback runs with `m` locked
 * again, ok true if notified, false on timeout. */
void wsync_cond_wait_async(wsync_cond_t* c, wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms);
/* ok: a permit was taken. */
void wsync_sem_acquire_async(wsync_sem_t* s, wsync_async_callback callback, void* user, double ms);
/* ok: the latch reached zero. */
void wsync_latch_wait_async(wsync_latch_t* l, wsync_async_callback callback, void* user, double ms);
/* ok: the token's phase completed. */
void wsync_barrier_wait_async(wsync_barrier_t* b, wsync_barrier_token_t token, wsync_async_callback callback,
                              void* user, double ms);
/* Runs fn(arg) on this thread's event loop if no one has run it yet, or
 * waits for the agent running it; then callback(user, true). */
void wsync_call_once_async(wsync_once_t* once, void (*fn)(void*), void* arg, wsync_async_callback callback, void* user);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_ASYNC_H_ */
