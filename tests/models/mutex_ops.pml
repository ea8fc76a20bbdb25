/* The steps of wsync::Mutex (include/wsync/mutex.hpp: the state table;
 * src/mutex_waiter.hpp, src/mutex.cpp) on `word`, in the states named
 * below. Shared by mutex.pml, mutex_fair.pml
 * and async_wait.pml; the caller declares `byte word` and the locals
 * `byte s, previous, expect; bit slept, got, stored, starving, may_starve`.
 *
 * Time is not modelled; the handoff bound is a choice: a sleeper for which
 * may_starve is set may find, before any later step, that it has waited
 * past the bound (and stays past it). So is the handoff gate, where the
 * caller defines HANDOFF_GATE (mutex_fair.pml, the handoff's own model; the
 * others leave it out to keep their searches small): each time, a waiter
 * past the bound may find it open (and ask) or closed (and not).
 * woken[_pid] (futex.pml) is the
 * waiter's woken(): a sleep on the word ended in a wake.
 * ON_REQUEST and ON_ACQUIRE, if the caller defines them, run in the step
 * that stores STARVING and in each step that takes the lock.
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

#define UNLOCKED 0
#define LOCKED 1
#define CONTENDED 2
#define HANDOFF 4
#define STARVING 6   /* CONTENDED | HANDOFF */

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

/* try_lock(): the fast path, CAS UNLOCKED -> LOCKED. */
inline mutex_try_lock() {
  atomic { s = word; if :: word == UNLOCKED -> word = LOCKED; ON_ACQUIRE :: else -> skip fi };
  got = (s == 0)
}

/* Time passes for a sleeper: it may cross the bound. */
inline maybe_starve() {
  if :: WOKEN && may_starve -> starving = 1 :: true -> skip fi
}

/* Taking a HANDOFF (from `s` == HANDOFF): CONTENDED if past the bound, else the
 * request stands (STARVING). */
inline take_handoff() {
  maybe_starve();
  atomic {
    previous = word;
    if
#ifdef BUG_HANDOFF_ENDS_REQUEST
    :: previous == HANDOFF -> word = CONTENDED; got = 1; ON_ACQUIRE
#else
    :: previous == HANDOFF -> word = (starving -> CONTENDED : STARVING); got = 1; ON_ACQUIRE
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
  :: s == UNLOCKED ->
    atomic {
      previous = word;
      if
#ifdef BUG_CAS_AFTER_SLEEP
      :: previous == UNLOCKED -> word = LOCKED; got = 1; ON_ACQUIRE
#else
      /* As CONTENDED once a wait of ours really slept (woken[_pid]): its
       * wake may have been another sleeper's turn. One that found the word
       * changed used up no wake. */
      :: previous == UNLOCKED -> word = (woken[_pid] -> CONTENDED : LOCKED); got = 1; ON_ACQUIRE
#endif
      :: else -> s = previous
      fi
    };
    if :: got -> break :: else -> skip fi
  :: s == HANDOFF && WOKEN ->
    take_handoff();
    if :: got -> break :: else -> skip fi
  :: s == HANDOFF && !WOKEN -> expect = HANDOFF; break   /* as good as held */
  :: s == STARVING -> expect = STARVING; break      /* the request is in */
  :: s == LOCKED || s == CONTENDED ->
    maybe_starve();
#ifdef HANDOFF_GATE
    /* A waiter past the bound asks only while the lock's handoff gate is
     * open; closed (a handoff was served within the bound), it sleeps as
     * any other. Either may be the case. */
    if
    :: starving -> expect = STARVING
    :: true -> expect = CONTENDED
    fi;
#else
    expect = (starving -> STARVING : CONTENDED);
#endif
    if
    :: s == expect -> break
    :: else ->
      atomic {
        previous = word;
        if
        :: previous == s -> word = expect; stored = 1; if :: expect == STARVING -> ON_REQUEST :: else -> skip fi
        :: else -> s = previous; stored = 0
        fi
      };
      if :: stored -> break :: else -> skip fi
    fi
  :: s == 3 || s == 5 || s > STARVING -> assert(false)   /* corrupted: fatal() */
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
    :: previous == HANDOFF -> word = (starving -> CONTENDED : STARVING); got = 1; ON_ACQUIRE
#ifndef BUG_TIMEOUT_KEEPS_REQUEST
    :: previous == STARVING && starving -> word = CONTENDED
#endif
    :: else -> skip
    fi
  }
}

/* unlock(): one atomic AND with HANDOFF: LOCKED and CONTENDED become
 * UNLOCKED, STARVING becomes HANDOFF; then wake one unless it was LOCKED. */
inline mutex_unlock() {
  atomic {
    previous = word;
    assert(previous != UNLOCKED && previous != HANDOFF);   /* unlock of an unlocked mutex */
#ifdef BUG_NO_HANDOFF
    word = UNLOCKED
#else
    word = previous & HANDOFF
#endif
  };
#ifdef BUG_NO_WAKE
  if :: previous == STARVING -> futex_wake_one() :: else -> skip fi
#else
  if :: previous != LOCKED -> futex_wake_one() :: else -> skip fi
#endif
}
