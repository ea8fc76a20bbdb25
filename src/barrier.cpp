// wsync::Barrier's words (the phase algorithm) and the wsync_barrier_* C API.
#include "wsync/barrier.hpp"

#include <new>

#include "async.hpp"
#include "c_boundary.hpp"
#include "waiter.hpp"

namespace wsync {
namespace detail {

namespace {

struct PhaseIsNot {
  uint32_t token;
  bool operator()(uint32_t phase) const noexcept { return phase != token; }
};

using BarrierWaiter = WaitersBitWaiter<PhaseIsNot>;

}  // namespace

BarrierWords::Arrival BarrierWords::count_down(ptrdiff_t update) noexcept {
  if (update < 1) fatal("wsync: Barrier arrive() count must be at least 1");
  // Relaxed: the phase cannot move on before this arrival (it is one of the
  // arrivals the phase waits for), so any load reads the current phase.
  const uint32_t phase = phase_.load(std::memory_order_relaxed) & kCountMask;
  uint32_t r = remaining_.load(std::memory_order_relaxed);
  do {
    // Counts are 31 bits: a larger one means the words were overwritten.
    if (r > kCountMask) fatal("wsync: corrupted Barrier words");
    // Checked before anything is stored: misuse never changes the count.
    if (update > static_cast<ptrdiff_t>(r)) fatal("wsync: Barrier over-arrival");
    // acq_rel: release publishes what this participant did before arriving;
    // the arrival reaching zero acquires every earlier one (their RMWs form
    // one release sequence), so the completion function sees it all.
  } while (!remaining_.compare_exchange_weak(r, r - static_cast<uint32_t>(update), std::memory_order_acq_rel,
                                             std::memory_order_relaxed));
  return {phase, update == static_cast<ptrdiff_t>(r)};
}

void BarrierWords::complete(uint32_t phase) noexcept {
  // Relaxed: arrive_and_drop's decrement was sequenced before its arrival,
  // which our final arrival acquired. The store is published by the release
  // below: participants arrive in the next phase only after seeing it.
  remaining_.store(expected_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  // Release: the completion and the reset happen-before every waiter's
  // acquire load of the new phase. Clearing WAITERS here means the next
  // phase notifies nobody unless somebody sleeps again.
  const uint32_t old = phase_.exchange((phase + 1) & kCountMask, std::memory_order_release);
  if ((old & kWaitersBit) != 0) futex_wake_all(phase_);
}

void BarrierWords::drop() noexcept {
  uint32_t e = expected_.load(std::memory_order_relaxed);
  do {
    if (e > kCountMask) fatal("wsync: corrupted Barrier words");
    if (e == 0) fatal("wsync: Barrier over-arrival");
  } while (!expected_.compare_exchange_weak(e, e - 1, std::memory_order_relaxed));
}

bool BarrierWords::wait_until_deadline(uint32_t phase, Deadline deadline) noexcept {
  BarrierWaiter waiter(phase_, PhaseIsNot{phase}, deadline);
  return wait_blocking(waiter);
}

#ifdef __EMSCRIPTEN__
void BarrierWords::start_async(uint32_t phase, AsyncCallback callback, double timeout_ms) noexcept {
  wait_async(BarrierWaiter(phase_, PhaseIsNot{phase}, deadline_after_ms(timeout_ms)), callback);
}
#endif

}  // namespace detail
}  // namespace wsync

using wsync::detail::as_cxx;
using wsync::detail::deadline_after_ms;

extern "C" {

void wsync_barrier_init(wsync_barrier_t* barrier, ptrdiff_t count) {
  wsync::detail::BarrierWords& b = as_cxx(barrier);
  new (&b) wsync::detail::BarrierWords(count);
}

wsync_barrier_token_t wsync_barrier_arrive(wsync_barrier_t* barrier, ptrdiff_t n) {
  wsync::NoCompletion none;
  return as_cxx(barrier).arrive(n, none).phase;
}

void wsync_barrier_wait(wsync_barrier_t* barrier, wsync_barrier_token_t token) {
  (void)as_cxx(barrier).wait_until_deadline(token, wsync::detail::Deadline::never());
}

bool wsync_barrier_wait_timeout(wsync_barrier_t* barrier, wsync_barrier_token_t token, double ms) {
  wsync::detail::BarrierWords& b = as_cxx(barrier);
  return b.wait_until_deadline(token, deadline_after_ms(ms));
}

bool wsync_barrier_arrive_and_wait(wsync_barrier_t* barrier) {
  wsync::detail::BarrierWords& b = as_cxx(barrier);
  wsync::NoCompletion none;
  const wsync::detail::BarrierWords::Arrival a = b.arrive(1, none);
  if (!a.last) (void)b.wait_until_deadline(a.phase, wsync::detail::Deadline::never());
  return a.last;
}

void wsync_barrier_arrive_and_drop(wsync_barrier_t* barrier) {
  wsync::detail::BarrierWords& b = as_cxx(barrier);
  b.drop();
  (void)wsync_barrier_arrive(barrier, 1);
}

#ifdef __EMSCRIPTEN__
void wsync_barrier_wait_async(wsync_barrier_t* barrier, wsync_barrier_token_t token, wsync_async_callback callback,
                              void* user, double ms) {
  as_cxx(barrier).start_async(token, wsync::detail::AsyncCallback{callback, user}, ms);
}
#endif

}  // extern "C"
