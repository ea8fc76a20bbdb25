/* wsync::WaitGroup (src/counter.cpp; its waiter WaitersBitWaiter in src/waiter.hpp): bit 7 of the
 * word is WAITERS (bit 31 in C++), the low bits the counter. The counter
 * starts at 2; two workers call done(), one waiter waits (spinning before it
 * sets WAITERS, as the code does). Checked: the waiter returns only at zero,
 * nobody is left asleep (no invalid end state).
 * Seeded bug, -DBUG_NO_WAKE: the done() reaching zero forgets the wake. */
#include "futex.pml"

#define WAITERS 128
#define COUNT(w) ((w) & 127)

byte word = 2;

active [2] proctype Worker() {
  byte s, count, next;
  atomic {   /* the CAS loop of counter_add, in one step */
    s = word;
    count = COUNT(s) - 1;
    if :: count == 0 -> next = 0 :: else -> next = (s & WAITERS) | count fi;
    word = next
  };
#ifndef BUG_NO_WAKE
  if :: count == 0 && (s & WAITERS) != 0 -> futex_wake_all() :: else -> skip fi
#endif
}

active proctype Waiter() {
  byte s;
  bit set;
  s = word;
  do
  :: COUNT(s) == 0 -> break
  :: else ->
    if
    :: word != s -> s = word             /* the spin saw a change: look again */
    :: else ->
      if
      :: (s & WAITERS) == 0 ->
        atomic { if :: word == s -> word = s | WAITERS; set = 1 :: else -> set = 0 fi };
        if :: set -> s = s | WAITERS :: else -> s = word fi
      :: else -> set = 1
      fi;
      if
      :: set -> futex_wait(word, s); s = word
      :: else -> skip
      fi
    fi
  od;
  assert(COUNT(word) == 0)
}
