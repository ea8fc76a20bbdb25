/* wsync::Mutex (include/wsync/mutex.hpp, src/mutex_waiter.hpp), state for
 * state (the steps are in mutex_ops.pml). Three agents lock and unlock
 * twice each. Checked: mutual exclusion (the assert), no invalid end state
 * (an agent asleep forever: a lost wakeup), every state in 0..2.
 * Seeded bugs (mutex_ops.pml): -DBUG_NO_WAKE, -DBUG_CAS_AFTER_SLEEP. */
#include "futex.pml"

byte word = 0;
byte inside = 0;

#include "mutex_ops.pml"

active [3] proctype Agent() {
  byte round, s, previous;
  bit slept, got;
  for (round : 1 .. 2) {
    mutex_lock();
    inside++;
    assert(inside == 1);
    inside--;
    mutex_unlock()
  }
}
