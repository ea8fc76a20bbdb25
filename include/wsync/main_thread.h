/* wsync/main_thread.h: what wsync does on the browser main thread, and how
 * to tune it at run time.
 *
 * The browser main thread may not block: memory.atomic.wait32 traps there
 * ("Atomics.wait cannot be called in this context"). Every wsync wait asks,
 * per call, whether its thread may block (a read of a wasm global that
 * Emscripten sets when the thread starts: false only on the browser main
 * thread). Where it may not, a wait first spins for the spin budget,
 * re-checking its word, and then:
 *
 *   - async calls (wsync/async.h) sleep on Atomics.waitAsync and call back
 *     from the event loop;
 *   - blocking calls in a program linked with -sASYNCIFY suspend on
 *     Atomics.waitAsync (the page keeps painting, the C++ stays synchronous);
 *   - blocking calls without Asyncify cannot suspend: they keep polling the
 *     word (timeouts honoured) and, once one wait has spun for the warning
 *     threshold, print one console warning for the whole program:
 *
 *       wsync: a wait blocked the browser main thread for 100 ms; use the
 *       async API (lock_async, wait_async, ...) or link with -sASYNCIFY
 *
 *     With wsync_set_main_thread_abort(true) that line aborts the program
 *     instead (stderr, then abort()), so tests catch such waits.
 *
 * Every setter may be called from any thread at any time (each value is one
 * relaxed atomic word: a wait in progress may see the old value) and exists
 * on every target; natively no thread is a browser main thread, so the
 * values are stored and have no effect.
 */
#ifndef WSYNC_MAIN_THREAD_H_
#define WSYNC_MAIN_THREAD_H_

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How long a wait on the browser main thread spins before it sleeps
 * asynchronously, suspends, or starts counting towards the warning, in
 * microseconds (default 50). Values outside 0 .. 1e6 (and NaN) are ignored.
 * Returns the previous value. */
double wsync_set_main_thread_spin_us(double us);

/* After how many milliseconds of polling a blocking wait without Asyncify
 * warns (default 100); INFINITY never warns. Negative values and NaN are
 * ignored. Returns the previous value. */
double wsync_set_main_thread_warn_ms(double ms);

/* true: the warning aborts instead (default false). Returns the previous value. */
bool wsync_set_main_thread_abort(bool abort_instead_of_warning);

/* Whether the calling thread may block in memory.atomic.wait32: true on
 * pthreads, Web Workers, Node's main thread and natively; false on the
 * browser main thread. */
bool wsync_thread_can_block(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_MAIN_THREAD_H_ */
