// wsync::Mutex slow paths (the lock loop is src/mutex_waiter.hpp), misuse,
// and the wsync_mutex_* C API.
#include "wsync/mutex.hpp"

#include "async.hpp"
#include "c_boundary.hpp"
#include "mutex_waiter.hpp"

namespace wsync {

bool Mutex::lock_contended(detail::Deadline deadline, bool as_contended) noexcept {
  detail::MutexWaiter waiter(state_, deadline, as_contended);
  return detail::wait_blocking(waiter);
}

void Mutex::unlock_slow(uint32_t seen) noexcept {
  // Release on each CAS, as in unlock(); a failed one re-reads the word (a
  // sleeper may have turned CONTENDED into STARVING meanwhile).
  for (;;) {
    uint32_t next;
    switch (seen) {
      case kLocked:
      case kContended:  // free it and wake one: it retries, or a barger wins
        next = kUnlocked;
        break;
      case kStarving:  // hand it over: only a sleeper may take HANDOFF
        next = kHandoff;
        break;
      case kUnlocked:
      case kHandoff:
        // Nothing was held: report, and change nothing for other threads.
        detail::fatal("wsync: unlock of unlocked Mutex");
      default:
        detail::fatal("wsync: corrupted Mutex word");
    }
    if (state_.compare_exchange_strong(seen, next, std::memory_order_release, std::memory_order_relaxed)) {
      if (seen != kLocked) detail::futex_wake_one(state_);
      return;
    }
  }
}

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_mutex_lock(wsync_mutex_t* m) { as_cxx(m).lock(); }

bool wsync_mutex_trylock(wsync_mutex_t* m) { return as_cxx(m).try_lock(); }

bool wsync_mutex_lock_timeout(wsync_mutex_t* m, double ms) {
  wsync::Mutex& mutex = as_cxx(m);
  return mutex.try_lock_until_deadline(deadline_after_ms(ms));
}

void wsync_mutex_unlock(wsync_mutex_t* m) { as_cxx(m).unlock(); }

#ifdef __EMSCRIPTEN__
void wsync_mutex_lock_async(wsync_mutex_t* m, wsync_async_callback callback, void* user, double ms) {
  wsync::Mutex& mutex = as_cxx(m);
  wsync::detail::start_async(wsync::detail::MutexWaiter(mutex.native_word(), deadline_after_ms(ms)),
                             callback, user);
}
#endif

}  // extern "C"
