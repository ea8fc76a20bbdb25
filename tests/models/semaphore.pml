/* wsync::Semaphore (src/semaphore.cpp): count, and a count of registered
 * sleepers. Two agents acquire one permit each; a third releases two, one at
 * a time. Every step is one atomic operation (the C++ uses seq_cst for the
 * four that matter). Checked: a permit is never taken twice (count never
 * negative), nobody is left asleep.
 * Seeded bug, -DBUG_READ_SLEEPERS_FIRST: release reads `sleepers` before it
 * adds the permit, so an acquirer that registers in between is never woken. */
#include "futex.pml"

byte count = 0;
byte sleepers = 0;

active [2] proctype Acquirer() {
  byte s;
  bit registered = 0;
  do
  :: /* try_acquire: CAS count -> count - 1 while count > 0 */
    atomic { s = count; if :: count > 0 -> count-- :: else -> skip fi };
    if
    :: s > 0 -> break
    :: else ->
      if
      :: !registered -> sleepers++; registered = 1   /* register, then re-check */
      :: else ->
        if :: count == 0 -> futex_wait(count, 0) :: else -> skip fi
      fi
    fi
  od;
  if :: registered -> sleepers-- :: else -> skip fi
}

active proctype Releaser() {
  byte round, seen;
  for (round : 1 .. 2) {
#ifdef BUG_READ_SLEEPERS_FIRST
    seen = sleepers;
    count++;
#else
    count++;
    seen = sleepers;
#endif
    if :: seen != 0 -> futex_wake_one() :: else -> skip fi
  }
}
