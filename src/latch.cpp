// wsync::Latch (the algorithm is src/counter.hpp) and the wsync_latch_* C API.
#include "wsync/latch.hpp"

#include <new>

#include "async.hpp"
#include "c_boundary.hpp"
#include "counter.hpp"

namespace wsync {

void Latch::count_down(ptrdiff_t n) noexcept {
  if (n < 0) detail::fatal("wsync: Latch count_down() of a negative amount");
  detail::counter_add(state_, -static_cast<int64_t>(n), "wsync: Latch counted down below zero",
                      "wsync: Latch counted down below zero");
}

bool Latch::wait_until_deadline(detail::Deadline deadline) const noexcept {
  return detail::counter_wait(state_, deadline);
}

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_latch_init(wsync_latch_t* latch, ptrdiff_t count) {
  wsync::Latch& l = as_cxx(latch);
  new (&l) wsync::Latch(count);
}

void wsync_latch_count_down(wsync_latch_t* latch, ptrdiff_t n) { as_cxx(latch).count_down(n); }

bool wsync_latch_try_wait(wsync_latch_t* latch) { return as_cxx(latch).try_wait(); }

void wsync_latch_wait(wsync_latch_t* latch) { as_cxx(latch).wait(); }

bool wsync_latch_wait_timeout(wsync_latch_t* latch, double ms) {
  wsync::Latch& l = as_cxx(latch);
  const wsync::detail::Deadline deadline = deadline_after_ms(ms);
  return l.try_wait() || l.wait_until_deadline(deadline);
}

#ifdef __EMSCRIPTEN__
void wsync_latch_wait_async(wsync_latch_t* latch, wsync_async_callback callback, void* user, double ms) {
  wsync::Latch& l = as_cxx(latch);
  wsync::detail::start_async(wsync::detail::counter_waiter(l.native_word(), deadline_after_ms(ms)), callback,
                             user);
}
#endif

}  // extern "C"
