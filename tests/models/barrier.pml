/* wsync::Barrier (src/barrier.cpp): the phase word (bit 7 WAITERS here, bit
 * 31 in C++; the other bits the phase number), remaining, expected. Three
 * participants pass two phases with arrive_and_wait(). Checked: nobody
 * leaves a phase before all three arrived in it, nobody is left asleep.
 * Seeded bug, -DBUG_NO_WAKE: the arrival completing a phase forgets the wake. */
#include "futex.pml"

#define WAITERS 128
#define PHASE(w) ((w) & 127)

byte phase = 0;
byte remaining = 3;
byte expected = 3;
byte arrived[2];   /* arrivals per phase, for the check */

active [3] proctype Participant() {
  byte p, r, s, old, token;
  bit set;
  for (p : 0 .. 1) {
    /* arrive(1) */
    token = PHASE(phase);
    arrived[token]++;
    atomic { r = remaining; remaining-- };
    if
    :: r == 1 ->   /* the last arrival: complete the phase */
      remaining = expected;
      atomic { old = phase; phase = (PHASE(old) + 1) & 127 };
#ifndef BUG_NO_WAKE
      if :: (old & WAITERS) != 0 -> futex_wake_all() :: else -> skip fi
#endif
    :: else ->
      /* wait(token): WaitersBitWaiter, spinning before it sets WAITERS */
      s = phase;
      do
      :: PHASE(s) != token -> break
      :: else ->
        if
        :: phase != s -> s = phase
        :: else ->
          if
          :: (s & WAITERS) == 0 ->
            atomic { if :: phase == s -> phase = s | WAITERS; set = 1 :: else -> set = 0 fi };
            if :: set -> s = s | WAITERS :: else -> s = phase fi
          :: else -> set = 1
          fi;
          if :: set -> futex_wait(phase, s); s = phase :: else -> skip fi
        fi
      od
    fi;
    assert(arrived[token] == 3)   /* everyone arrived before anyone left */
  }
}
