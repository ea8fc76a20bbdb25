/* wsync::Mutex (include/wsync/mutex.hpp, src/mutex_waiter.hpp), state for
 * state: 0 UNLOCKED, 1 LOCKED, 2 CONTENDED. Three agents lock and unlock
 * twice each. Checked: mutual exclusion (the assert), no invalid end state
 * (an agent asleep forever: a lost wakeup), every state in 0..2.
 * Seeded bugs, each must be reported: -DBUG_NO_WAKE, unlock of a CONTENDED
 * mutex forgets the wake; -DBUG_CAS_AFTER_SLEEP, a waiter that slept takes
 * the lock by the 0 -> 1 CAS, losing the CONTENDED mark of other sleepers. */
#include "futex.pml"

byte word = 0;
byte inside = 0;

inline lock() {
  slept = 0;
  /* The fast path: CAS 0 -> 1. */
  atomic { s = word; if :: word == 0 -> word = 1 :: else -> skip fi };
  if
  :: s == 0 -> skip
  :: else ->
    do
    :: /* attempt(): the spin only re-reads the word */
      s = word;
      if
#ifdef BUG_CAS_AFTER_SLEEP
      :: s == 0 ->
#else
      :: !slept && s == 0 ->
#endif
        atomic { s = word; if :: word == 0 -> word = 1 :: else -> skip fi };
        if :: s == 0 -> break :: else -> skip fi
      :: else -> skip
      fi;
      assert(s <= 2);
      if
      :: s != 2 ->
        atomic { s = word; word = 2 };   /* exchange(CONTENDED) */
        if :: s == 0 -> break :: else -> skip fi
      :: else -> skip
      fi;
      slept = 1;
      futex_wait(word, 2)
    od
  fi
}

inline unlock() {
  atomic { previous = word; word = 0 };   /* exchange(UNLOCKED) */
  assert(previous != 0);                  /* unlock of an unlocked mutex */
#ifndef BUG_NO_WAKE
  if :: previous == 2 -> futex_wake_one() :: else -> skip fi
#endif
}

active [3] proctype Agent() {
  byte round, s, previous;
  bit slept;
  for (round : 1 .. 2) {
    lock();
    inside++;
    assert(inside == 1);
    inside--;
    unlock()
  }
}
