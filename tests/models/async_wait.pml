/* The wake protocol of the waiters' two drivers (src/waiter.hpp,
 * src/async_wasm.cpp, js/wsync.mjs waitEventLoop): a timed wait never
 * swallows a wake. Three agents share one wsync::Mutex (mutex_ops.pml): a
 * holder and a blocking waiter lock and unlock; a third locks with a
 * deadline, as the browser main thread's lock_async() does. Its sleep may
 * time out at any moment (the engine's timer may also fire a hair before
 * the deadline), and the deadline may pass at any moment.
 *
 * The protocol: a sleep that timed out consumed no wake, so only "timed out
 * and the deadline passed" may end the wait unsuccessfully; a wake (or a
 * word that changed) is always followed by another attempt, even at the
 * deadline. An attempt that finds the deadline passed before it sleeps also
 * gives up (on_timeout); it consumed nothing.
 *
 * Checked: mutual exclusion, no invalid end state (the blocking waiter
 * asleep on a free mutex: a wake lost to the timed waiter), and progress
 * (no cycle in which nobody gets anywhere).
 * Every agent may wait past the handoff bound, so a timeout also meets the
 * handoff states: on_timeout() takes a HANDOFF and withdraws its request.
 *
 * Seeded bugs: -DBUG_GIVE_UP_AFTER_WAKE, a woken wait whose deadline passed
 * gives up without attempting, swallowing the wake meant for the other
 * waiter (an invalid end state); -DBUG_NOT_EQUAL_WAITS_AGAIN, a driver that
 * takes an immediate "not-equal" for "wait again" (a non-progress cycle);
 * -DBUG_TIMEOUT_KEEPS_REQUEST (mutex_ops.pml), a timed wait leaves its
 * request behind, and the next unlock hands off to nobody (an invalid end
 * state: the others asleep on HANDOFF). */
#include "futex.pml"

byte word = 0;
byte inside = 0;

#include "mutex_ops.pml"

/* The timed sleep (Atomics.waitAsync with a timeout; futex_wait with a
 * deadline): compare and sleep; then woken, or removed by its own timer
 * without being counted by any wake. */
inline futex_wait_timed(w, expected) {
  timed_out = 0;
  atomic { if :: w == expected -> sleeping[_pid] = 1; woken[_pid] = 1 :: else -> skip fi };
  if
  :: sleeping[_pid] == 0 -> skip                                   /* woken, or not equal */
  :: atomic { sleeping[_pid] == 1 -> sleeping[_pid] = 0; timed_out = 1 }   /* the timer */
  fi
}

/* Time may pass: the deadline, once passed, stays passed. */
inline tick() {
  if :: expired = 1 :: skip fi
}

inline critical_section() {
  inside++;
  assert(inside == 1);
  inside--
}

active proctype Holder() {
  byte round, s, previous, expect;
  bit slept, got, stored, starving, may_starve = 1;
  for (round : 1 .. 2) {
    mutex_lock();
    critical_section();
    mutex_unlock()
  }
}

active proctype Blocking() {
  byte s, previous, expect;
  bit slept, got, stored, starving, may_starve = 1;
  mutex_lock();
  critical_section();
  mutex_unlock()
}

active proctype Timed() {
  byte s, previous, expect;
  bit slept, got, stored, starving, may_starve = 1, timed_out, expired;
  slept = 0;
  woken[_pid] = 0;
  starving = 0;
  mutex_try_lock();
  do
  :: got -> break
  :: else ->
    mutex_attempt();
    if
    :: got -> break
    :: else -> skip
    fi;
    tick();
    if
    :: expired -> mutex_on_timeout(); break   /* passed before sleeping: nothing consumed */
    :: else -> skip
    fi;
#ifdef BUG_NOT_EQUAL_WAITS_AGAIN
    /* The engine may answer at once, {async: false, value: "not-equal"}; a
     * driver that arms the wait again instead of attempting spins for as
     * long as the word is not 2: forever once the others are done. Never
     * asleep, so no invalid end state: only the progress search sees it. */
    do :: word == expect -> break :: else -> skip od;
#endif
    futex_wait_timed(word, expect);
    tick();
#ifdef BUG_GIVE_UP_AFTER_WAKE
    if :: expired -> break :: else -> skip fi
#else
    if :: timed_out && expired -> mutex_on_timeout(); break :: else -> skip fi
#endif
  od;
  if
  :: got -> critical_section(); mutex_unlock()
  :: else -> skip
  fi
}
