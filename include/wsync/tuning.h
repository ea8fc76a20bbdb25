/* wsync/tuning.h: run-time knobs for measuring and tuning (bench/ uses them).
 * Nothing here is needed to use wsync; the defaults are what the benchmarks
 * in docs/benchmarks.md found best.
 */
#ifndef WSYNC_TUNING_H_
#define WSYNC_TUNING_H_

#ifdef __cplusplus
extern "C" {
#endif

/* The most a blocking waiter (a pthread, a worker, Node's main thread)
 * spins on its word before it sleeps on the futex, in pauses: 100 natively
 * (then a few yields), 262144 in wasm, where a pause is a read of a local
 * (about 130 us in V8 on the benchmark machine); 0 sleeps at once. Each
 * thread learns its own spin below this from how soon its recent sleeps
 * were woken. A wait for a Semaphore's release, or a CondVar waiter's
 * relock, spins all of that; one for other threads' work (WaitGroup,
 * Latch, Barrier, Once, a CondVar's notify) an eighth natively and a
 * quarter in wasm; a Mutex's lock() 1/32 natively and 1/128 in wasm
 * (docs/how-it-works.md). A negative value is ignored. Returns the
 * previous value.
 * (The browser main thread spins by time instead: wsync/main_thread.h.) */
int wsync_set_spin_limit(int pauses);

/* How long a Mutex waiter sleeps before the next unlock hands the lock to a
 * sleeper instead of letting a running thread take it, in microseconds:
 * 1000 by default (Go's sync.Mutex switches to handoff after 1 ms too).
 * Smaller gives fairer, slower locking under contention; 0 asks for a
 * handoff from the second sleep on. Counted from a waiter's first sleep
 * (include/wsync/mutex.hpp); it also spaces a lock's handoffs at least
 * this far apart. A negative value is ignored. Returns the
 * previous value. (JavaScript: configure({ handoffAfterMicros }).) */
int wsync_set_handoff_after_us(int microseconds);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* WSYNC_TUNING_H_ */
