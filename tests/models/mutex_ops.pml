/* The steps of wsync::Mutex (include/wsync/mutex.hpp: the state table;
 * src/mutex_waiter.hpp, src/mutex.cpp) on `word`: 0 UNLOCKED, 1 LOCKED,
 * 2 CONTENDED, 3 STARVING, 4 HANDOFF. Shared by mutex.pml, mutex_fair.pml
 * and async_wait.pml; the caller declares `byte word` and the locals
 * `byte s, previous, expect; bit slept, got, stored, starving, may_starve`.
 *
 * Time is not modelled; the handoff bound is a choice: a sleeper for which
 * may_starve is set may find, before any later step, that it has waited
 * past the bound (and stays past it). woken[_pid] (futex.pml) is the
 * waiter's woken(): a sleep on the word ended in a wake.
 * ON_REQUEST and ON_ACQUIRE, if the caller defines them, run in the step
 * that stores 3 and in each step that takes the lock.
 *
 * Seeded bugs:
 *   -DBUG_NO_WAKE, unlock of a CONTENDED mutex forgets the wake;
 *   -DBUG_CAS_AFTER_SLEEP, a waiter that slept takes the lock by the 0 -> 1
 *     CAS, losing the CONTENDED mark of other sleepers;
 *   -DBUG_NO_HANDOFF, the algorithm before the handoff: unlock treats
 *     STARVING as CONTENDED, so a thread arriving can take the lock first;
 *   -DBUG_HANDOFF_ENDS_REQUEST, a sleeper that is not past the bound takes
 *     a HANDOFF as CONTENDED, using up another sleeper's request;
 *   -DBUG_TIMEOUT_KEEPS_REQUEST, a timed wait past the bound times out
 *     without withdrawing its request (mutex_on_timeout);
 *   -DBUG_DECIDING_IS_WOKEN, a waiter that only decided to sleep (its wait
 *     found the word changed) may ask for and take the handoff. */

#ifdef BUG_DECIDING_IS_WOKEN
#define WOKEN slept
#else
#define WOKEN woken[_pid]
#endif

#ifndef ON_REQUEST
#define ON_REQUEST skip
#endif
#ifndef ON_ACQUIRE
#define ON_ACQUIRE skip
#endif

/* try_lock(): the fast path, CAS 0 -> 1. */
inline mutex_try_lock() {
  atomic { s = word; if :: word == 0 -> word = 1; ON_ACQUIRE :: else -> skip fi };
  got = (s == 0)
}

/* Time passes for a sleeper: it may cross the bound. */
inline maybe_starve() {
  if :: WOKEN && may_starve -> starving = 1 :: true -> skip fi
}

/* Taking a HANDOFF (from `s` == 4): CONTENDED if past the bound, else the
 * request stands (STARVING). */
inline take_handoff() {
  maybe_starve();
  atomic {
    previous = word;
    if
#ifdef BUG_HANDOFF_ENDS_REQUEST
    :: previous == 4 -> word = 2; got = 1; ON_ACQUIRE
#else
    :: previous == 4 -> word = (starving -> 2 : 3); got = 1; ON_ACQUIRE
#endif
    :: else -> s = previous
    fi
  }
}

/* MutexWaiter::attempt(): got = 1 if it took the lock; otherwise the caller
 * sleeps while word == expect (and slept is then 1). The spin only re-reads
 * the word. Each CAS is one atomic step; a failed one re-reads. */
inline mutex_attempt() {
  got = 0;
  s = word;
  do
  :: s == 0 ->
    atomic {
      previous = word;
      if
#ifdef BUG_CAS_AFTER_SLEEP
      :: previous == 0 -> word = 1; got = 1; ON_ACQUIRE
#else
      :: previous == 0 -> word = (slept -> 2 : 1); got = 1; ON_ACQUIRE
#endif
      :: else -> s = previous
      fi
    };
    if :: got -> break :: else -> skip fi
  :: s == 4 && WOKEN ->
    take_handoff();
    if :: got -> break :: else -> skip fi
  :: s == 4 && !WOKEN -> expect = 4; break   /* as good as held */
  :: s == 3 -> expect = 3; break              /* the request is in */
  :: s == 1 || s == 2 ->
    maybe_starve();
    expect = (starving -> 3 : 2);
    if
    :: s == expect -> break
    :: else ->
      atomic {
        previous = word;
        if
        :: previous == s -> word = expect; stored = 1; if :: expect == 3 -> ON_REQUEST :: else -> skip fi
        :: else -> s = previous; stored = 0
        fi
      };
      if :: stored -> break :: else -> skip fi
    fi
  :: s > 4 -> assert(false)   /* corrupted: fatal() */
  od;
  if :: !got -> slept = 1 :: else -> skip fi
}

/* lock(): the fast path, then wait_blocking() over the waiter. */
inline mutex_lock() {
  slept = 0;
  woken[_pid] = 0;
  starving = 0;
  mutex_try_lock();
  do
  :: got -> break
  :: else ->
    mutex_attempt();
    if :: !got -> futex_wait(word, expect) :: else -> skip fi
  od
}

/* MutexWaiter::on_timeout(): got = 1 if it took a HANDOFF. */
inline mutex_on_timeout() {
  got = 0;
  maybe_starve();
  atomic {
    previous = word;
    if
    :: previous == 4 -> word = (starving -> 2 : 3); got = 1; ON_ACQUIRE
#ifndef BUG_TIMEOUT_KEEPS_REQUEST
    :: previous == 3 && starving -> word = 2
#endif
    :: else -> skip
    fi
  }
}

/* unlock(): CAS 1 -> 0; else 2 -> 0 and wake one, 3 -> 4 and wake one. */
inline mutex_unlock() {
  atomic {
    previous = word;
    assert(previous != 0 && previous != 4);   /* unlock of an unlocked mutex */
    if
    :: previous == 1 || previous == 2 -> word = 0
#ifdef BUG_NO_HANDOFF
    :: previous == 3 -> word = 0
#else
    :: previous == 3 -> word = 4
#endif
    fi
  };
#ifdef BUG_NO_WAKE
  if :: previous == 3 -> futex_wake_one() :: else -> skip fi
#else
  if :: previous >= 2 -> futex_wake_one() :: else -> skip fi
#endif
}
