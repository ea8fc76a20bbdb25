// The run-time options of wsync/main_thread.h, read by the wasm waits.
#pragma once

namespace wsync {
namespace detail {

double main_thread_spin_us() noexcept;  // spin budget before sleeping, microseconds
double main_thread_warn_ms() noexcept;  // polling time before the one warning, ms
bool main_thread_abort() noexcept;      // abort instead of warning

// The one line a blocking wait that cannot suspend prints (or aborts with)
// once it has polled on the browser main thread for main_thread_warn_ms():
// the second in a -sJSPI program. "%.0f" is the threshold in milliseconds.
inline constexpr const char* kMainThreadBlockedFormat =
    "wsync: a wait blocked the browser main thread for %.0f ms; use the async API "
    "(lock_async, wait_async, ...) or link with -sASYNCIFY";
inline constexpr const char* kMainThreadBlockedJspiFormat =
    "wsync: a wait blocked the browser main thread for %.0f ms; under JSPI only calls from main() "
    "or a -sJSPI_EXPORTS export suspend; use the async API (lock_async, wait_async, ...) elsewhere";

}  // namespace detail
}  // namespace wsync
