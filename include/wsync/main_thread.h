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
 *   - blocking calls suspend on Atomics.waitAsync where the program can
 *     suspend this call (the page keeps painting, the C++ stays
 *     synchronous): linked with -sASYNCIFY, any call made while no other
 *     suspension is in progress; linked with -sJSPI, a call that came
 *     through main() or an export in -sJSPI_EXPORTS with no JavaScript frame
 *     in between (also after that call has suspended before);
 *   - other blocking calls cannot suspend: they keep polling the word
 *     (timeouts honoured) and, once one wait has spun for the warning
 *     threshold, print one console warning for the whole program:
 *
 *       wsync: a wait blocked the browser main thread for 100 ms; use the
 *       async API (lock_async, wait_async, ...) or link with -sASYNCIFY
 *
 *     or, in a -sJSPI program (where the call came from a callback, or an
 *     export outside -sJSPI_EXPORTS):
 *
 *       wsync: a wait blocked the browser main thread for 100 ms; under JSPI
 *       only calls from main() or a -sJSPI_EXPORTS export suspend; use the
 *       async API (lock_async, wait_async, ...) elsewhere
 *
 *     With wsync_set_main_thread_abort(true) that line aborts the program
 *     instead (stderr, then abort()), so tests catch such waits.
 *
 * Under JSPI wsync finds out from the call stack, when a wait is about to
 * suspend, whether the call came through a promising export with no
 * JavaScript frame since (docs/how-it-works.md); an export the linker folded
 * into the same function as a promising one counts as promising. A call
 * from an export outside -sJSPI_EXPORTS, from a callback of Emscripten's, or
 * from C++ that EM_JS code calls back inside a promising call polls.
 *
 * An engine without JSPI (WebKit/Safari) cannot run a -sJSPI program at
 * all: it fails as it loads (WebAssembly.Suspending is missing). Ship an
 * -sASYNCIFY build, or the async API, to such engines. JSPI programs use
 * -fwasm-exceptions: with JavaScript-based exceptions every invoke_ import
 * is a suspending one, which Chromium refuses (SuspendError) outside a
 * promising export.
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

/* How this program's blocking waits can suspend the browser main thread:
 * the way it was linked, found at run time. Natively: WSYNC_SUSPENSION_NONE. */
enum wsync_suspension {
  WSYNC_SUSPENSION_NONE = 0,     /* they poll (and warn) */
  WSYNC_SUSPENSION_ASYNCIFY = 1, /* -sASYNCIFY */
  WSYNC_SUSPENSION_JSPI = 2      /* -sJSPI */
};
enum wsync_suspension wsync_main_thread_suspension(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_MAIN_THREAD_H_ */
