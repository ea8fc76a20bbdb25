/* wsync/async.h: asynchronous waits for the browser main thread (wasm only).
 *
 * The browser main thread may not block. These calls never do: they spin
 * briefly (the spin budget of wsync/main_thread.h), then return and call
 * `callback(user, ok)` later, from the same thread's event loop, with ok true
 * when the mutex was locked / the counter reached zero, false when `ms`
 * passed first. The callback always runs later, never inside the call.
 * Timeouts: milliseconds as a double, as in wsync.h (INFINITY = none).
 * They may be called on any thread that returns to its event loop (the
 * browser main thread, Node's main thread, a worker that yields).
 */
#ifndef WSYNC_ASYNC_H_
#define WSYNC_ASYNC_H_

#include "wsync/main_thread.h"
#include "wsync/wsync.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*wsync_async_callback)(void* user, bool ok);

void wsync_mutex_lock_async(wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms);
void wsync_wg_wait_async(wsync_wg_t* wg, wsync_async_callback callback, void* user, double ms);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_ASYNC_H_ */
