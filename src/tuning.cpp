// wsync/tuning.h: the blocking spin count and the Mutex handoff bound.
#include "wsync/tuning.h"

#include <atomic>

#include "mutex_waiter.hpp"
#include "waiter.hpp"

namespace wsync {
namespace detail {

namespace {
// Relaxed: a tuning value, read once per slow-path wait; no data depends on it.
std::atomic<int> g_spin_limit{Spinner::kSpinLimit};
std::atomic<int> g_handoff_after_us{1000};
}  // namespace

int spin_limit() noexcept { return g_spin_limit.load(std::memory_order_relaxed); }
int64_t handoff_after_ns() noexcept { return int64_t{g_handoff_after_us.load(std::memory_order_relaxed)} * 1000; }

}  // namespace detail
}  // namespace wsync

extern "C" int wsync_set_spin_limit(int pauses) {
  if (pauses < 0) return wsync::detail::g_spin_limit.load(std::memory_order_relaxed);
  return wsync::detail::g_spin_limit.exchange(pauses, std::memory_order_relaxed);
}

extern "C" int wsync_set_handoff_after_us(int microseconds) {
  if (microseconds < 0) return wsync::detail::g_handoff_after_us.load(std::memory_order_relaxed);
  return wsync::detail::g_handoff_after_us.exchange(microseconds, std::memory_order_relaxed);
}
