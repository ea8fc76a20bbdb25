/* wsync::Once (src/once.cpp): 0 INCOMPLETE, 1 RUNNING, 2 QUEUED, 3 COMPLETE.
 * Three callers; a run may throw (nondeterministically, at most once), which
 * puts the word back to INCOMPLETE for another caller (the thrower leaves
 * with its exception). Checked: f completes
 * exactly once, every caller returns only after it completed, nobody is left
 * asleep (no invalid end state), the word stays in 0..3.
 * Seeded bug, -DBUG_NO_WAKE: finishing a QUEUED Once forgets the wake. */
#include "futex.pml"

#define INCOMPLETE 0
#define RUNNING 1
#define QUEUED 2
#define COMPLETE 3

byte word = INCOMPLETE;
byte completed = 0;
bit thrown = 0;

active [3] proctype Caller() {
  byte s, previous;
  bit mine, threw;
  s = word;
  do   /* OnceWaiter::attempt, with the wait */
  :: s == COMPLETE -> break
  :: s == INCOMPLETE ->
    atomic { s = word; if :: word == INCOMPLETE -> word = RUNNING :: else -> skip fi };
    if :: s == INCOMPLETE -> mine = 1; break :: else -> skip fi
  :: s == RUNNING ->
    atomic { s = word; if :: word == RUNNING -> word = QUEUED :: else -> skip fi };
    if :: s == RUNNING -> futex_wait(word, QUEUED); s = word :: else -> skip fi
  :: s == QUEUED -> futex_wait(word, QUEUED); s = word
  :: else -> assert(false)   /* corrupted */
  od;
  if
  :: mine ->
    if   /* run f: it may throw, once */
    :: !thrown -> thrown = 1; threw = 1; atomic { previous = word; word = INCOMPLETE }
    :: true -> completed++; atomic { previous = word; word = COMPLETE }
    fi;
    assert(previous == RUNNING || previous == QUEUED);
#ifndef BUG_NO_WAKE
    if :: previous == QUEUED -> futex_wake_all() :: else -> skip fi;
#endif
  :: else -> skip
  fi;
  /* A caller whose run threw leaves with the exception; every other caller
   * returns only once f has completed, exactly once. */
  assert(threw || completed == 1)
}
