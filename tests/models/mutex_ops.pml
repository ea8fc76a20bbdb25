/* The steps of wsync::Mutex (include/wsync/mutex.hpp, src/mutex_waiter.hpp)
 * on `word`: 0 UNLOCKED, 1 LOCKED, 2 CONTENDED. Shared by mutex.pml and
 * async_wait.pml; the caller declares `byte word` and the locals
 * `byte s, previous; bit slept, got`.
 * Seeded bugs: -DBUG_NO_WAKE, unlock of a CONTENDED mutex forgets the wake;
 * -DBUG_CAS_AFTER_SLEEP, a waiter that slept takes the lock by the 0 -> 1
 * CAS, losing the CONTENDED mark of other sleepers. */

/* try_lock(): the fast path, CAS 0 -> 1. */
inline mutex_try_lock() {
  atomic { s = word; if :: word == 0 -> word = 1 :: else -> skip fi };
  got = (s == 0)
}

/* MutexWaiter::attempt(): got = 1 if it took the lock; otherwise the caller
 * sleeps while word == 2 (slept is then 1). The spin only re-reads the word. */
inline mutex_attempt() {
  got = 0;
  s = word;
  if
#ifdef BUG_CAS_AFTER_SLEEP
  :: s == 0 ->
#else
  :: !slept && s == 0 ->
#endif
    mutex_try_lock()
  :: else -> skip
  fi;
  if
  :: !got ->
    assert(s <= 2);
    if
    :: s != 2 ->
      atomic { s = word; word = 2 };   /* exchange(CONTENDED) */
      got = (s == 0)
    :: else -> skip
    fi;
    slept = !got || slept
  :: else -> skip
  fi
}

/* lock(): the fast path, then wait_blocking() over the waiter. */
inline mutex_lock() {
  slept = 0;
  mutex_try_lock();
  do
  :: got -> break
  :: else ->
    mutex_attempt();
    if :: !got -> futex_wait(word, 2) :: else -> skip fi
  od
}

inline mutex_unlock() {
  atomic { previous = word; word = 0 };   /* exchange(UNLOCKED) */
  assert(previous != 0);                  /* unlock of an unlocked mutex */
#ifndef BUG_NO_WAKE
  if :: previous == 2 -> futex_wake_one() :: else -> skip fi
#endif
}
