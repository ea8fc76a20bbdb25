// wsync/main_thread.h: the run-time options (every target) and the "may this
// thread block?" query.
#include "wsync/main_thread.h"

#include <atomic>
#include <cmath>

#include "main_thread_options.hpp"

#ifdef __EMSCRIPTEN__
// Emscripten's record of whether this thread may use Atomics.wait: a wasm
// global set when the thread starts, false only on the browser main thread.
extern "C" int _emscripten_thread_supports_atomics_wait(void);
// js/library_wsync.js: the program's Asyncify setting (0, 1, or 2 for JSPI).
extern "C" int wsync_js_suspension(void);
#endif

namespace wsync {
namespace detail {

namespace {

// Relaxed: each option is a lone value; a wait that reads it a moment late
// merely uses the previous setting.
std::atomic<double> g_spin_us{50};
std::atomic<double> g_warn_ms{100};
std::atomic<bool> g_abort{false};

static_assert(std::atomic<double>::is_always_lock_free, "the options are read inside wait loops");

double exchange_if(std::atomic<double>& option, double value, bool valid) {
  return valid ? option.exchange(value, std::memory_order_relaxed) : option.load(std::memory_order_relaxed);
}

}  // namespace

double main_thread_spin_us() noexcept { return g_spin_us.load(std::memory_order_relaxed); }
double main_thread_warn_ms() noexcept { return g_warn_ms.load(std::memory_order_relaxed); }
bool main_thread_abort() noexcept { return g_abort.load(std::memory_order_relaxed); }

}  // namespace detail
}  // namespace wsync

extern "C" {

double wsync_set_main_thread_spin_us(double us) {
  // NaN fails both comparisons and is ignored with the rest.
  return wsync::detail::exchange_if(wsync::detail::g_spin_us, us, us >= 0 && us <= 1e6);
}

double wsync_set_main_thread_warn_ms(double ms) {
  return wsync::detail::exchange_if(wsync::detail::g_warn_ms, ms, ms >= 0);
}

bool wsync_set_main_thread_abort(bool abort_instead_of_warning) {
  return wsync::detail::g_abort.exchange(abort_instead_of_warning, std::memory_order_relaxed);
}

bool wsync_thread_can_block(void) {
#ifdef __EMSCRIPTEN__
  return _emscripten_thread_supports_atomics_wait() != 0;
#else
  return true;
#endif
}

enum wsync_suspension wsync_main_thread_suspension(void) {
#ifdef __EMSCRIPTEN__
  return static_cast<enum wsync_suspension>(wsync_js_suspension());
#else
  return WSYNC_SUSPENSION_NONE;
#endif
}

}  // extern "C"
