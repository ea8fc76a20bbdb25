// wsync::WaitGroup (the algorithm is src/counter.hpp) and the wsync_wg_* C API.
#include "wsync/wait_group.hpp"

#include "async.hpp"
#include "c_boundary.hpp"
#include "counter.hpp"

namespace wsync {

void WaitGroup::add(int delta) noexcept {
  detail::counter_add(state_, delta, "wsync: negative WaitGroup counter", "wsync: WaitGroup counter overflow");
}

bool WaitGroup::wait_until_deadline(detail::Deadline deadline) noexcept {
  return detail::counter_wait(state_, deadline);
}

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_wg_add(wsync_wg_t* wg, int delta) { as_cxx(wg).add(delta); }

void wsync_wg_done(wsync_wg_t* wg) { as_cxx(wg).done(); }

void wsync_wg_wait(wsync_wg_t* wg) { as_cxx(wg).wait(); }

bool wsync_wg_wait_timeout(wsync_wg_t* wg, double ms) {
  wsync::WaitGroup& group = as_cxx(wg);
  return group.wait_until_deadline(deadline_after_ms(ms));
}

#ifdef __EMSCRIPTEN__
void wsync_wg_wait_async(wsync_wg_t* wg, wsync_async_callback callback, void* user, double ms) {
  wsync::WaitGroup& group = as_cxx(wg);
  wsync::detail::start_async(wsync::detail::counter_waiter(group.native_word(), deadline_after_ms(ms)),
                             callback, user);
}
#endif

}  // extern "C"
