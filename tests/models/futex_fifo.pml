/* The futex with its wake order: wake one wakes the agent that has slept
 * longest, as wasm's memory.atomic.notify does (its waiter list is FIFO)
 * and Linux's FUTEX_WAKE among threads of one priority. Only the fairness
 * model needs the order; the others use futex.pml, whose wake picks any
 * sleeper (so what they prove holds for every order). Three agents. */
bit sleeping[3];
bit woken[3];      /* a wait of this agent really slept (the compare held) */   /* indexed by _pid */
byte queue[3];     /* pids, longest asleep first */
byte queued = 0;

inline futex_wait(word, expected) {
  atomic {
    if
    :: word == expected -> sleeping[_pid] = 1; woken[_pid] = 1; queue[queued] = _pid; queued++
    :: else -> skip
    fi
  };
  (sleeping[_pid] == 0)    /* blocks until a wake */
}

inline futex_wake_one() {
  atomic {
    if
    :: queued > 0 ->
      sleeping[queue[0]] = 0;
      queue[0] = queue[1]; queue[1] = queue[2]; queue[2] = 0;
      queued--
    :: else -> skip
    fi
  }
}
