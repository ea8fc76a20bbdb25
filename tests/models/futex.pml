/* The futex, as wasm and Linux give it: wait(word, expected) sleeps only if
 * the word still holds `expected` (compare and sleep in one atomic step);
 * wake wakes one (any) or all sleepers. Shared by every model here.
 * woken[pid]: a wait of that agent slept, so it returned by a wake (or a
 * timeout), not at once as "not-equal" (the Mutex's handoff needs that). */
/* Every model runs three agents, pids 0..2 (active proctypes, no init). */
bit sleeping[3];
bit woken[3];      /* a wait of this agent really slept (the compare held) */   /* indexed by _pid */

inline futex_wait(word, expected) {
  atomic { if :: word == expected -> sleeping[_pid] = 1; woken[_pid] = 1 :: else -> skip fi };
  (sleeping[_pid] == 0)    /* blocks until a wake */
}

inline futex_wake_one() {
  atomic {
    if
    :: sleeping[0] -> sleeping[0] = 0
    :: sleeping[1] -> sleeping[1] = 0
    :: sleeping[2] -> sleeping[2] = 0
    :: else -> skip
    fi
  }
}

inline futex_wake_all() {
  atomic { sleeping[0] = 0; sleeping[1] = 0; sleeping[2] = 0 }
}
