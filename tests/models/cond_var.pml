/* wsync::CondVar (include/wsync/cond_var.hpp, src/cond_var.cpp), state for
 * state: `seq` (notifications so far) and `waiters` (agents inside wait(),
 * registered before they unlock). Two consumers each wait, under the mutex,
 * for an item; a producer adds two items under the mutex and notifies,
 * first with notify_one and then with notify_all, either still holding the
 * mutex or after unlocking it (both are allowed).
 *
 * The mutex here is an abstract blocking lock (its own algorithm is checked
 * in mutex.pml), so only `seq` uses the futex: every wake is a wake on seq.
 * seq is a byte; it wraps at 256, as the word wraps at 2^32.
 *
 * Checked: no invalid end state (a consumer asleep while an item waits for
 * it: a lost notification; every consumer that ends took one item).
 * Seeded bugs: -DBUG_SEQ_AFTER_UNLOCK, wait reads seq after it unlocks (a
 * notify in between is missed); -DBUG_REGISTER_AFTER_UNLOCK, wait counts
 * itself in `waiters` only after it unlocks (a notify in between sees no
 * waiter and does nothing). */
#include "futex.pml"

byte seq = 0;
byte waiters = 0;
bit held = 0;   /* the mutex */
byte items = 0;
byte consumed = 0;

inline lock() { atomic { held == 0 -> held = 1 } }
inline unlock() { assert(held == 1); held = 0 }

/* notify_one / notify_all: only if someone waits, bump seq, wake. */
inline notify(all) {
  if
  :: waiters != 0 ->
    seq++;
    if :: all -> futex_wake_all() :: else -> futex_wake_one() fi
  :: else -> skip
  fi
}

/* wait(): register and read seq under the lock, unlock, sleep while seq is
 * unchanged, unregister, relock. */
inline cv_wait() {
#ifdef BUG_REGISTER_AFTER_UNLOCK
  unlock();
  waiters++;
  s = seq;
#elif defined(BUG_SEQ_AFTER_UNLOCK)
  waiters++;
  unlock();
  s = seq;
#else
  waiters++;
  s = seq;
  unlock();
#endif
  futex_wait(seq, s);
  waiters--;
  lock()
}

active [2] proctype Consumer() {
  byte s;
  lock();
  do   /* wait(lock, pred) */
  :: items > 0 -> items--; consumed++; break
  :: else -> cv_wait()
  od;
  unlock()
}

active proctype Producer() {
  byte round;
  for (round : 1 .. 2) {
    lock();
    items++;
    if
    :: notify(round == 2); unlock()    /* notify holding the lock */
    :: unlock(); notify(round == 2)    /* or after unlocking */
    fi
  }
}
