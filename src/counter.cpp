// WaitGroup and Latch: one counter algorithm on one word (the state table is
// in include/wsync/wait_group.hpp), their members, and the wsync_wg_* and
// wsync_latch_* C API.
#include <new>

#include "async.hpp"
#include "c_boundary.hpp"
#include "waiter.hpp"
#include "wsync/detail/access.hpp"
#include "wsync/latch.hpp"
#include "wsync/wait_group.hpp"

using wsync::detail::Access;

namespace wsync {
namespace detail {
namespace {

// Adds `delta` to the counter. A result below zero aborts with `below_zero`,
// above 2^31 - 1 with `overflow`, before anything is stored. Reaching zero
// clears WAITERS in the same CAS and wakes every sleeper.
void counter_add(std::atomic<uint32_t>& word, int64_t delta, const char* below_zero, const char* overflow) noexcept {
  uint32_t s = word.load(std::memory_order_relaxed);
  for (;;) {
    const int64_t count = static_cast<int64_t>(s & kCountMask) + delta;
    // Checked before anything is stored: misuse never corrupts the word.
    if (count < 0) fatal(below_zero);
    if (count > static_cast<int64_t>(kCountMask)) fatal(overflow);
    // Reaching zero clears WAITERS in the same CAS: every sleeper is woken
    // below, and a reused WaitGroup starts with no stale flag (so its next
    // zero notifies nobody unless somebody waits again).
    const uint32_t next = count == 0 ? 0 : (s & kWaitersBit) | static_cast<uint32_t>(count);
    // Release: everything this thread did before the change happens-before
    // a waiter's acquire load that reads zero (later RMWs by other threads
    // continue this release sequence). Relaxed on failure: we just retry.
    if (word.compare_exchange_weak(s, next, std::memory_order_release, std::memory_order_relaxed)) {
      if (count == 0 && (s & kWaitersBit) != 0) futex_wake_all(word);
      return;
    }
  }
}

struct CounterIsZero {
  bool operator()(uint32_t count) const noexcept { return count == 0; }
};

// Waits for the counter to reach zero.
WaitersBitWaiter<CounterIsZero> counter_waiter(std::atomic<uint32_t>& word, Deadline deadline) noexcept {
  return {word, CounterIsZero{}, deadline};
}

bool counter_wait(std::atomic<uint32_t>& word, Deadline deadline) noexcept {
  auto waiter = counter_waiter(word, deadline);
  return wait_blocking(waiter);
}

}  // namespace
}  // namespace detail

void WaitGroup::add(int delta) noexcept {
  detail::counter_add(state_, delta, "wsync: negative WaitGroup counter", "wsync: WaitGroup counter overflow");
}

bool WaitGroup::wait_until_deadline(detail::Deadline deadline) noexcept {
  return detail::counter_wait(state_, deadline);
}

void Latch::count_down(ptrdiff_t n) noexcept {
  if (n < 0) detail::fatal("wsync: Latch count_down() of a negative amount");
  detail::counter_add(state_, -static_cast<int64_t>(n), "wsync: Latch counted down below zero",
                      "wsync: Latch counted down below zero");
}

bool Latch::wait_until_deadline(detail::Deadline deadline) const noexcept {
  return detail::counter_wait(state_, deadline);
}

#ifdef __EMSCRIPTEN__
void WaitGroup::start_async(detail::AsyncCallback callback, double timeout_ms) noexcept {
  detail::wait_async(detail::counter_waiter(state_, detail::deadline_after_ms(timeout_ms)), callback);
}

void Latch::start_async(detail::AsyncCallback callback, double timeout_ms) const noexcept {
  detail::wait_async(detail::counter_waiter(state_, detail::deadline_after_ms(timeout_ms)), callback);
}
#endif

}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_wg_add(wsync_wg_t* wg, int delta) { as_cxx(wg).add(delta); }

void wsync_wg_done(wsync_wg_t* wg) { as_cxx(wg).done(); }

void wsync_wg_wait(wsync_wg_t* wg) { as_cxx(wg).wait(); }

bool wsync_wg_wait_timeout(wsync_wg_t* wg, double ms) {
  wsync::WaitGroup& group = as_cxx(wg);
  return Access::wait_until_deadline(group, deadline_after_ms(ms));
}

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
  return l.try_wait() || Access::wait_until_deadline(l, deadline);
}

#ifdef __EMSCRIPTEN__
void wsync_wg_wait_async(wsync_wg_t* wg, wsync_async_callback callback, void* user, double ms) {
  Access::start_async(as_cxx(wg), wsync::detail::AsyncCallback{callback, user}, ms);
}

void wsync_latch_wait_async(wsync_latch_t* latch, wsync_async_callback callback, void* user, double ms) {
  Access::start_async(as_cxx(latch), wsync::detail::AsyncCallback{callback, user}, ms);
}
#endif

}  // extern "C"
