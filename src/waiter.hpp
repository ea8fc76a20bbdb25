// Waiters: every primitive's slow path, written once, run by two drivers.
//
// A waiter is a small struct holding one wait in progress on some wsync
// word(s). It offers
//
//   Step attempt(Spinner&);  // try to finish; else name a word and value to sleep on
//   Step on_timeout();       // the deadline passed: finish, or go_on() (attempt again)
//   Deadline deadline() const;  // may change once on_timeout() went on (CondVar's relock)
//   void slept(int64_t from_ns, int64_t to_ns, bool woken);
//                            // optional: a sleep ran from from_ns to to_ns
//                            // (steady clock, the driver's readings; to_ns
//                            // is kNoReading where the driver took no
//                            // reading, and the waiter reads the clock if it
//                            // needs the time) and was woken (Woke::kWoken)
//                            // or timed out; a wait that returned at once
//                            // (not-equal) is no sleep
//
// and knows nothing about how it sleeps. wait_blocking() below drives it with
// futex_wait (pthreads, workers, Node's main thread; on the browser main
// thread futex_wait itself spins, suspends under Asyncify, or warns). The
// event-loop driver (src/async_wasm.cpp) drives the very same waiter with
// Atomics.waitAsync for the async API. So each algorithm exists once.
//
// The wake protocol both drivers keep: after a wake (or any return that is
// not a timeout) the waiter attempts again before anyone looks at the
// deadline; only a sleep that timed out, and so consumed no wake, may end the
// wait unsuccessfully. A wait that times out at the moment it is notified
// therefore never swallows a wake meant for another agent.
#pragma once

#include <algorithm>
#include <atomic>
#ifndef __EMSCRIPTEN__
#include <sched.h>
#endif
#include <cstdint>
#include <type_traits>
#include <utility>

#include "wsync/detail/futex.hpp"

namespace wsync {
namespace detail {

// The most a blocking wait spins, set by wsync_set_spin_limit() (src/tuning.cpp).
int spin_limit() noexcept;

// A steady-clock reading not taken (Deadline::now_ns() is never negative):
// a spin's before it ran out, and slept()'s to_ns where the event-loop
// driver took none at the wake (in wasm a reading is a call into
// JavaScript, and a main-thread wake that takes the lock needs none).
inline constexpr int64_t kNoReading = -1;

// What a waiter wants next: finished (with its result), or to sleep while
// `*word == expected`.
struct Step {
  bool finished;
  bool ok;
  const std::atomic<uint32_t>* word;
  uint32_t expected;

  static constexpr Step done(bool ok) noexcept { return {true, ok, nullptr, 0}; }
  static constexpr Step sleep_while(const std::atomic<uint32_t>& word, uint32_t expected) noexcept {
    return {false, false, &word, expected};
  }
  // From on_timeout(): not finished, attempt again (with the new deadline).
  static constexpr Step go_on() noexcept { return {false, false, nullptr, 0}; }
};

// What a spin waits for, which decides how long it is worth spinning.
enum class Awaited {
  // A Mutex's holder to unlock (lock()): a critical section is usually over
  // within a few hundred cycles, and while its holder runs, every load of
  // ours pulls the line away from it, so that its unlock, and the next
  // lock, must fetch it back. A short spin (kLockHolderDivisor).
  kLockHolder,
  // A release at the end of another thread's short step (Semaphore's
  // release; CondVar's relock, whose holder unlocks after its notify, a
  // futex call of microseconds in wasm): the whole budget, which spins
  // through the releaser's step instead of sleeping and being woken.
  kRelease,
  // Other threads' work (WaitGroup, Latch, Barrier, Once, CondVar's
  // notify): often longer, and with more threads than cores, spinning for
  // it takes the core that work needs (kEventDivisor).
  kEvent,
};

// A bounded, load-only spin ("easier on the caches" than CASes: the line
// stays shared while its owner finishes). Blocking drivers count pauses (a
// held lock is often released within a few hundred cycles, and sleeping
// costs a futex round trip on both sides); the event-loop driver spins for
// the main-thread time budget, never past the wait's deadline.
//
// How far a blocking wait spins is learned, per thread, from its recent
// sleeps, as glibc's adaptive mutex and WebKit's ParkingLot learn theirs: a
// sleep that a wake ended within kShortSleepNs would have been caught by a
// longer spin (and cost both sides a futex round trip), so the next spin is
// twice as long, up to spin_limit(); a longer sleep, or a timeout, means the
// spin only burned its core, so the next one is half as long, down to
// 1/64 of spin_limit(), from where a run of long sleeps tries the whole
// limit once more (kLongSleepsBeforeProbe). Two threads handing a turn back
// and forth thus end up spinning through each other's wake-up instead of
// both sleeping on every hop, while a thread that waits long spins little.
// Per thread: what a thread waited for lately (its pool's next task, a
// partner's turn) is what it is likely to wait for next.
class Spinner {
 public:
  // The default of wsync_set_spin_limit(), in pauses. Natively a pause is
  // the pause instruction (about 20 ns on the benchmark machine), and 100
  // of them are followed by yields. wasm has neither, so a pause is a read
  // of a local, and 262144 of them take about 130 us in V8 there: the whole
  // spin goes to a release (the reply of a thread that runs, as in a
  // ping-pong), and must outlast one futex wake with room to spare, which
  // in Node on the benchmark machine takes 5 to 15 us at some moments and
  // 25 to 60 at others. How the figures were chosen: docs/how-it-works.md.
#ifdef __EMSCRIPTEN__
  static constexpr int kSpinLimit = 262144;
  // An event spins a quarter of the budget, about 32 us at the limit, and
  // no yield follows: spinning the whole budget for other threads' work
  // made rounds of oversubscribed fork-join (8 workers on 2 cores) a
  // quarter longer.
  static constexpr int kEventDivisor = 4;
  // A Mutex's waiter spins 1/128 of the budget: about 1 us in V8 at the
  // limit. Longer, its loads kept running holders waiting for their line,
  // and the contended benchmark lost throughput at every point
  // (docs/how-it-works.md).
  static constexpr int kLockHolderDivisor = 128;
#else
  static constexpr int kSpinLimit = 100;
  static constexpr int kYields = 16;
  // Natively an event spin gets an eighth of the budget, then the same
  // yields: with more threads than cores, the thread that will release us
  // may need this core.
  static constexpr int kEventDivisor = 8;
  // A Mutex's waiter spins 4 pauses (then the yields), for the same reason
  // as in wasm.
  static constexpr int kLockHolderDivisor = 32;
#endif
  // A sleep ended by a wake within this was short: a longer spin, within
  // the wasm limit, would have saved it.
  static constexpr int64_t kShortSleepNs = 20'000;
  // The least a learned budget falls to: the limit halved this many times
  // (1/64 of it), so that waits that have been long still spin briefly, and
  // can learn that they became short again.
  static constexpr int kMostHalvings = 6;
  // After this many long sleeps in a row at the least budget, the next spin
  // is the whole limit again. Two threads handing a turn back and forth,
  // both at the least budget, sleep on every hop, and each sleep lasts the
  // other side's wake and then its own: where two wakes take longer than
  // kShortSleepNs (a 3.1.6 build in Node: 13 to 15 us each), no sleep is
  // short and neither thread would spin longer again. The whole spin
  // catches the other side's reply after one wake; the other side's
  // sleeps, now one wake long, are short, and it learns to spin too. A
  // thread whose waits are long spends one whole spin, and the halvings
  // back down, per this many sleeps.
  static constexpr int kLongSleepsBeforeProbe = 32;
  // The longest gap between two loads of a spin on a lock or a release, in pauses.
  static constexpr int kMaxGap = 16;

  static Spinner counted() noexcept { return Spinner(false, budget(), 0, 0); }

  // This thread's next blocking spin, in pauses: the limit halved as often
  // as its recent sleeps asked (a share of the limit, so a new limit applies
  // at once), and at least 1 pause while the limit is not 0.
  static int budget() noexcept {
    const int limit = spin_limit();
    const int share = limit >> std::min(t_halvings_, kMostHalvings);
    return share > 0 || limit == 0 ? share : 1;
  }

  // The blocking driver's report of one sleep: how long it lasted, and
  // whether a wake ended it (not its deadline). Sets the next spin's budget.
  static void learn(bool woken, int64_t slept_ns) noexcept {
    if (woken && slept_ns < kShortSleepNs) {
      t_halvings_ = std::max(0, std::min(t_halvings_, kMostHalvings) - 1);
    } else if (++t_halvings_ == kMostHalvings + kLongSleepsBeforeProbe) {
      t_halvings_ = 0;
    }
  }

  // The event-loop driver's spin: for `budget_us`, never past `deadline`.
  // The clock is first read when the spin must wait: a wait that a wake
  // has already ended (its usual case) reads none.
  static Spinner timed(double budget_us, Deadline deadline) noexcept {
    return Spinner(true, 0, static_cast<int64_t>(budget_us * 1000), deadline.ns());
  }

  // The most pauses a counted spin for `awaited` spends: its share of this
  // thread's budget, rounded up (any budget above 0 spins at least once).
  // In 64 bits, so that a budget near INT_MAX neither overflows here nor in
  // while_equal's count.
  int64_t pauses_for(Awaited awaited) const noexcept {
    const int divisor = awaited == Awaited::kLockHolder ? kLockHolderDivisor
                        : awaited == Awaited::kEvent    ? kEventDivisor
                                                        : 1;
    return (int64_t{limit_} + divisor - 1) / divisor;
  }

  // The start of the sleep that follows, for the driver's report: the
  // reading taken when this attempt's spin ran out, if it did, else now.
  // The spin's reading comes before the waiter's CAS that announces a
  // sleeper; a reading between that CAS and the wait would widen the window
  // in which the holder's unlock finds a sleeper announced, notifies in
  // vain, and leaves our wait to find the word changed. In wasm a reading
  // is a call into JavaScript of about 0.1 us, longer than a short critical
  // section. Each reading serves one sleep.
  int64_t sleep_start_ns() noexcept {
    const int64_t at = ran_out_ns_ != kNoReading ? ran_out_ns_ : Deadline::now_ns();
    ran_out_ns_ = kNoReading;
    return at;
  }

  // Spins while `word` holds `busy`, within the budget; returns the last
  // value seen. The spinning loads are relaxed (the line stays shared and
  // cheap); a change is read once more with acquire before it is returned,
  // so a waiter may act on the result at once: a COMPLETE or a released
  // counter it returns makes the writes before that release visible (a
  // relaxed value here once let a Once caller return too early). A budget
  // that ran out returns `busy`, on which waiters only CAS or sleep.
  //
  // The budget counts pauses, not loads. Waiting for a lock or a release, the
  // gap between two loads doubles up to kMaxGap pauses (exponential backoff,
  // as in Anderson's test-and-test-and-set locks): every load pulls the
  // holder's line into the shared state, and its unlock must fetch it back.
  uint32_t while_equal(const std::atomic<uint32_t>& word, uint32_t busy, Awaited awaited) noexcept {
    const int64_t limit = pauses_for(awaited);
    const int max_gap = awaited == Awaited::kEvent ? 1 : kMaxGap;
    int gap = 1;  // pauses before the next load
    for (int64_t spent = 0;;) {
      if (word.load(std::memory_order_relaxed) != busy) return word.load(std::memory_order_acquire);
      if (timed_ ? timed_out() : spent >= limit) break;
      for (int i = 0; i < gap; ++i) spin_pause();
      spent += gap;
      if (gap < max_gap) gap *= 2;
    }
#ifndef __EMSCRIPTEN__
    // Natively, then give the core away a few times before the futex: the
    // agent that will change the word may be waiting for this very core,
    // and a yield costs far less than a sleep and a wake.
    if (!timed_ && limit_ > 0) {
      for (int y = 0; y < kYields; ++y) {
        sched_yield();
        if (word.load(std::memory_order_relaxed) != busy) return word.load(std::memory_order_acquire);
      }
    }
#endif
    if (!timed_) ran_out_ns_ = Deadline::now_ns();  // a timed spin read it in timed_out()
    return busy;
  }

 private:
  constexpr Spinner(bool timed, int limit, int64_t budget_ns, int64_t deadline_ns) noexcept
      : timed_(timed), limit_(limit), budget_ns_(budget_ns), deadline_ns_(deadline_ns) {}

  // A timed spin's clock: starts it at the first call, then whether it ran out.
  bool timed_out() noexcept {
    const int64_t now = Deadline::now_ns();
    if (stop_ns_ == kNoReading) {
      stop_ns_ = deadline_ns_ - now < budget_ns_ ? deadline_ns_ : now + budget_ns_;
    }
    if (now < stop_ns_) return false;
    ran_out_ns_ = now;
    return true;
  }

  // Learned by learn(); a new thread spins the whole limit. Past
  // kMostHalvings it counts the long sleeps in a row at the least budget.
  static inline thread_local int t_halvings_ = 0;

  bool timed_;                       // spin by time (the event-loop driver) or by count
  int limit_;                        // pauses per call, when counted
  int64_t budget_ns_;                // a timed spin's length
  int64_t deadline_ns_;              // and the wait's deadline, which it never passes
  int64_t stop_ns_ = kNoReading;     // Deadline::now_ns() at which a timed spin stops
  int64_t ran_out_ns_ = kNoReading;  // and at which a spin last ran out, until sleep_start_ns() took it
};

// The waiter of the words with a WAITERS bit (wsync/detail/futex.hpp):
// WaitGroup, Latch and Barrier's phase. Released: a predicate on the word
// without bit 31 (the counter is zero, the phase is no longer the token's).
template <class Released>
class WaitersBitWaiter {
 public:
  WaitersBitWaiter(std::atomic<uint32_t>& word, Released released, Deadline deadline) noexcept
      : word_(word), released_(released), deadline_(deadline) {}

  Step attempt(Spinner& spin) noexcept {
    // Acquire: pairs with the release of the change that released us (the
    // done() reaching zero, the arrival completing the phase), so what was
    // done before it is visible after the wait.
    uint32_t s = word_.load(std::memory_order_acquire);
    for (;;) {
      if (released_(s & ~kWaitersBit)) return Step::done(true);
      // Spin before announcing a sleeper: a release that comes within the
      // spin then finds WAITERS clear and costs its releaser no wake. A
      // change the spin returns was read with acquire, like the load above.
      if (const uint32_t seen = spin.while_equal(word_, s, Awaited::kEvent); seen != s) {
        s = seen;
        continue;
      }
      if ((s & kWaitersBit) == 0) {
        // Announce a sleeper, so that the change that releases us wakes us.
        // Acquire on failure too: the reloaded s may release us.
        if (!word_.compare_exchange_weak(s, s | kWaitersBit, std::memory_order_acquire, std::memory_order_acquire)) {
          continue;
        }
        s |= kWaitersBit;
      }
      // Every change of the other bits changes the word: sleep only while
      // it still holds what we saw, so a change after our CAS is not missed.
      return Step::sleep_while(word_, s);
    }
  }

  // Timed out, unless released just now.
  Step on_timeout() noexcept { return Step::done(released_(word_.load(std::memory_order_acquire) & ~kWaitersBit)); }
  Deadline deadline() const noexcept { return deadline_; }

 private:
  std::atomic<uint32_t>& word_;
  Released released_;
  Deadline deadline_;
};

// Reports a sleep to a waiter that has slept() (the Mutex's).
template <class Waiter, class = void>
struct HasSlept : std::false_type {};
template <class Waiter>
struct HasSlept<Waiter, std::void_t<decltype(std::declval<Waiter&>().slept(int64_t{}, int64_t{}, bool{}))>>
    : std::true_type {};

template <class Waiter>
void report_sleep(Waiter& waiter, int64_t from_ns, int64_t to_ns, bool woken) noexcept {
  if constexpr (HasSlept<Waiter>::value) waiter.slept(from_ns, to_ns, woken);
}

// The blocking driver: attempt, sleep, repeat. Returns the waiter's result.
template <class Waiter>
bool wait_blocking(Waiter& waiter) noexcept {
  Spinner spin = Spinner::counted();
  for (;;) {
    Step step = waiter.attempt(spin);
    if (step.finished) return step.ok;
    const int64_t slept_at = spin.sleep_start_ns();
    const Woke how = futex_wait(*step.word, step.expected, waiter.deadline());
    if (how == Woke::kNotEqual) continue;
    const int64_t woke_at = Deadline::now_ns();
    Spinner::learn(how == Woke::kWoken, woke_at - slept_at);
    report_sleep(waiter, slept_at, woke_at, how == Woke::kWoken);
    if (how == Woke::kTimedOut) {
      step = waiter.on_timeout();
      if (step.finished) return step.ok;
    }
  }
}

}  // namespace detail
}  // namespace wsync
