// The C API: thin wrappers that run the C++ algorithms on the C structs.
#include "wsync/wsync.h"

#include "c_boundary.hpp"

using wsync::detail::as_mutex;
using wsync::detail::as_wait_group;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_mutex_lock(wsync_mutex_t* m) { as_mutex(m).lock(); }

bool wsync_mutex_trylock(wsync_mutex_t* m) { return as_mutex(m).try_lock(); }

bool wsync_mutex_lock_timeout(wsync_mutex_t* m, double ms) {
  wsync::Mutex& mutex = as_mutex(m);
  return mutex.try_lock_until_deadline(deadline_after_ms(ms));
}

void wsync_mutex_unlock(wsync_mutex_t* m) { as_mutex(m).unlock(); }

void wsync_wg_add(wsync_wg_t* wg, int delta) { as_wait_group(wg).add(delta); }

void wsync_wg_done(wsync_wg_t* wg) { as_wait_group(wg).done(); }

void wsync_wg_wait(wsync_wg_t* wg) { as_wait_group(wg).wait(); }

bool wsync_wg_wait_timeout(wsync_wg_t* wg, double ms) {
  wsync::WaitGroup& group = as_wait_group(wg);
  return group.wait_until_deadline(deadline_after_ms(ms));
}

}  // extern "C"
