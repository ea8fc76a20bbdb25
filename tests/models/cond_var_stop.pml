/* CondVar's stop_token waits (include/wsync/cond_var.hpp, wait_stoppable):
 * a waiter in wait(lock, stoken, pred) whose predicate stays false, a
 * stopper that calls request_stop() (its stop callback runs notify_all),
 * and a notifier that notifies under the lock, which moves seq under the
 * waiter's feet. Promela runs every step in one total order, which is
 * what the seq_cst fences on both sides give the C++.
 *
 * Checked: no invalid end state (the waiter asleep forever after the stop
 * request: a lost wake). Seeded bug: -DBUG_NO_STOP_RECHECK, the waiter does
 * not look at the token again after it registered, so a request made
 * between its first look and its registration finds no waiter to wake. */
#include "futex.pml"

byte seq = 0;
byte waiters = 0;
bit held = 0;     /* the mutex */
bit stopped = 0;  /* the stop state of the token */

inline lock() { atomic { held == 0 -> held = 1 } }
inline unlock() { assert(held == 1); held = 0 }

inline notify_all() {
  if
  :: waiters != 0 -> seq++; futex_wake_all()
  :: else -> skip
  fi
}

active proctype Waiter() {
  byte s;
  lock();
  do
  :: stopped -> break
  :: else ->            /* pred() is false: wait */
    waiters++;
    s = seq;
#ifndef BUG_NO_STOP_RECHECK
    if
    :: stopped -> waiters--; break
    :: else -> skip
    fi;
#endif
    unlock();
    futex_wait(seq, s);
    waiters--;
    lock()
  od;
  unlock()
}

active proctype Stopper() {
  stopped = 1;    /* request_stop(), then its callback */
  notify_all()
}

active proctype Notifier() {
  lock();
  notify_all();
  unlock()
}
