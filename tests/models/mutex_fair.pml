/* Bounded bypass: the handoff of wsync::Mutex (include/wsync/mutex.hpp,
 * mutex_ops.pml) on a futex that wakes the longest sleeper first
 * (futex_fifo.pml). Go's fairness scenario: one agent wants the lock once
 * and may wait past the handoff bound; two others lock and unlock three
 * times each and never wait that long (they arrive, barge, or sleep
 * briefly). Checked: from the moment the first agent asks for the handoff
 * (stores STARVING), the others take the lock ahead of it at most K = 0
 * times without having gone to sleep on the word first: a thread that
 * keeps relocking (the starvation of issue 16) cannot. Also: mutual
 * exclusion, and no invalid end state (the asking agent gets the lock).
 *
 * Not bounded here: how often a sleeper overtakes it. The model has no
 * clock, and an agent that decides to sleep on STARVING just as the unlock
 * turns it into HANDOFF finds the word changed and may take the handoff
 * ahead of the woken agent; without time, that can repeat. In time it
 * cannot for long: such an agent crosses the bound itself within 1 ms,
 * and then takes the handoff as CONTENDED, ending the handoffs.
 *
 * Seeded bugs (mutex_ops.pml): -DBUG_NO_HANDOFF (the algorithm before the
 * handoff), -DBUG_HANDOFF_ENDS_REQUEST. */
#include "futex_fifo.pml"

byte word = 0;
byte inside = 0;
bit asked = 0;       /* the starving agent asked and has not got the lock */
byte bypasses = 0;   /* others' acquisitions since it asked, without sleeping */

#define K 0
#define ON_REQUEST asked = (_pid == 0) || asked
#define ON_ACQUIRE bypasses = bypasses + ((_pid != 0) && asked && !slept)

#include "mutex_ops.pml"

inline critical_section() {
  inside++;
  assert(inside == 1);
  inside--
}

active proctype Starving() {   /* pid 0 */
  byte s, previous, expect;
  bit slept, got, stored, starving, may_starve = 1;
  mutex_lock();
  asked = 0;
  critical_section();
  mutex_unlock()
}

active [2] proctype Other() {
  byte round, s, previous, expect;
  bit slept, got, stored, starving, may_starve = 0;
  for (round : 1 .. 3) {
    mutex_lock();
    assert(bypasses <= K);
    critical_section();
    mutex_unlock()
  }
}
