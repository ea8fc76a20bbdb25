// wsync/tuning.h: the blocking spin count.
#include "wsync/tuning.h"

#include <atomic>

#include "waiter.hpp"

namespace wsync {
namespace detail {

namespace {
// Relaxed: a tuning value, read once per slow-path wait; no data depends on it.
std::atomic<int> g_spin_limit{Spinner::kSpinLimit};
}  // namespace

int spin_limit() noexcept { return g_spin_limit.load(std::memory_order_relaxed); }

}  // namespace detail
}  // namespace wsync

extern "C" int wsync_set_spin_limit(int pauses) {
  if (pauses < 0) return wsync::detail::g_spin_limit.load(std::memory_order_relaxed);
  return wsync::detail::g_spin_limit.exchange(pauses, std::memory_order_relaxed);
}
