/* wsync/tuning.h: run-time knobs for measuring and tuning (bench/ uses them).
 * Nothing here is needed to use wsync; the defaults are what the benchmarks
 * in docs/benchmarks.md found best.
 */
#ifndef WSYNC_TUNING_H_
#define WSYNC_TUNING_H_

#ifdef __cplusplus
extern "C" {
#endif

/* How many more times a blocking waiter (a pthread, a worker, Node's main
 * thread) re-reads its word before it sleeps on the futex: 100 by default
 * natively (each read is followed by a pause instruction), 4000 in wasm
 * (which has none), a few microseconds either way; 0 sleeps at once.
 * Natively, a wait for other threads' work (WaitGroup, Latch, Barrier, Once,
 * a CondVar's notify) spins an eighth of it, and every spin that runs out
 * then yields the core 16 times before it sleeps (docs/how-it-works.md).
 * A negative value is ignored. Returns the previous value.
 * (The browser main thread spins by time instead: wsync/main_thread.h.) */
int wsync_set_spin_limit(int loads);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_TUNING_H_ */
