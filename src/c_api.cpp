// The C API: thin wrappers that run the C++ algorithms on the C structs.
#include "wsync/wsync.h"

#include <cmath>
#include <type_traits>

#include "wsync/mutex.hpp"
#include "wsync/wait_group.hpp"

namespace {

// The C structs and the C++ classes must be interchangeable word for word.
template <class C, class Cxx>
constexpr bool kSameLayout = sizeof(C) == sizeof(Cxx) && alignof(C) == alignof(Cxx) &&
                             std::is_standard_layout_v<C> && std::is_standard_layout_v<Cxx>;
static_assert(kSameLayout<wsync_mutex_t, wsync::Mutex>, "wsync_mutex_t must match wsync::Mutex");
static_assert(kSameLayout<wsync_wg_t, wsync::WaitGroup>, "wsync_wg_t must match wsync::WaitGroup");

wsync::Mutex& as_mutex(wsync_mutex_t* m) {
  if (m == nullptr) wsync::detail::fatal("wsync: NULL wsync_mutex_t");
  return *reinterpret_cast<wsync::Mutex*>(m);
}

wsync::WaitGroup& as_wait_group(wsync_wg_t* wg) {
  if (wg == nullptr) wsync::detail::fatal("wsync: NULL wsync_wg_t");
  return *reinterpret_cast<wsync::WaitGroup*>(wg);
}

wsync::detail::Deadline deadline_after_ms(double ms) {
  if (std::isnan(ms)) wsync::detail::fatal("wsync: timeout is NaN");
  return wsync::detail::Deadline::after_ms(ms);
}

}  // namespace

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
