/* Bounded bypass: the handoff of wsync::Mutex (include/wsync/mutex.hpp,
 * mutex_ops.pml) on a futex that wakes the longest sleeper first
 * (futex_fifo.pml). Go's fairness scenario: one agent wants the lock once
 * and may wait past the handoff bound; two others lock and unlock three
 * times each and never wait that long (they arrive, barge, or sleep
 * briefly). Checked: once the first agent has asked for the handoff (stored
 * STARVING), the others take the lock at most K = 2 times while it sleeps
 * on the word: once each, as the sleepers queued ahead of it. (While it is
 * awake, between its wake and its next step, the model may hold it back
 * for any number of the others' steps, as no scheduler would for long; so
 * only acquisitions while it sleeps count.) Also: mutual exclusion, and no
 * invalid end state (the asking agent gets the lock).
 *
 * Seeded bugs (mutex_ops.pml): -DBUG_NO_HANDOFF (the algorithm before the
 * handoff: a thread that keeps relocking passes it every time),
 * -DBUG_HANDOFF_ENDS_REQUEST, -DBUG_DECIDING_IS_WOKEN. */
#include "futex_fifo.pml"

byte word = 0;
byte inside = 0;
bit asked = 0;       /* the starving agent asked and has not got the lock */
byte bypasses = 0;   /* others' acquisitions while it sleeps, since it asked */

#define K 2
#define HANDOFF_GATE
#define ON_REQUEST asked = (_pid == 0) || asked
#define ON_ACQUIRE bypasses = bypasses + ((_pid != 0) && asked && sleeping[0])

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
