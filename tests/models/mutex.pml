/* wsync::Mutex (include/wsync/mutex.hpp), state for state (the steps are
 * in mutex_ops.pml). Three agents lock and unlock twice each; each may wait
 * past the handoff bound. Checked: mutual exclusion (the assert), no
 * invalid end state (an agent asleep forever: a lost wakeup, or a HANDOFF
 * nobody takes), every state in 0..4, and (--progress) no livelock.
 * Seeded bugs (mutex_ops.pml): -DBUG_NO_WAKE, -DBUG_CAS_AFTER_SLEEP. */
#include "futex.pml"

byte word = 0;
byte inside = 0;

#include "mutex_ops.pml"

active [3] proctype Agent() {
  byte round, s, previous, expect;
  bit slept, got, stored, starving, may_starve = 1;
  for (round : 1 .. 2) {
    mutex_lock();
    inside++;
    assert(inside == 1);
    inside--;
    mutex_unlock()
  }
}
