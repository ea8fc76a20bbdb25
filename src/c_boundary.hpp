// Checks shared by every C entry point (wsync.h, async.h): NULL objects and
// NaN timeouts are misuse; a C struct is its C++ object, word for word.
#pragma once

#include <cmath>
#include <type_traits>

#include "wsync/mutex.hpp"
#include "wsync/wait_group.hpp"
#include "wsync/wsync.h"

namespace wsync {
namespace detail {

template <class C, class Cxx>
constexpr bool kSameLayout = sizeof(C) == sizeof(Cxx) && alignof(C) == alignof(Cxx) &&
                             std::is_standard_layout_v<C> && std::is_standard_layout_v<Cxx>;
static_assert(kSameLayout<wsync_mutex_t, Mutex>, "wsync_mutex_t must match wsync::Mutex");
static_assert(kSameLayout<wsync_wg_t, WaitGroup>, "wsync_wg_t must match wsync::WaitGroup");

inline Mutex& as_mutex(wsync_mutex_t* m) {
  if (m == nullptr) fatal("wsync: NULL wsync_mutex_t");
  return *reinterpret_cast<Mutex*>(m);
}

inline WaitGroup& as_wait_group(wsync_wg_t* wg) {
  if (wg == nullptr) fatal("wsync: NULL wsync_wg_t");
  return *reinterpret_cast<WaitGroup*>(wg);
}

// A C timeout: milliseconds as a double, INFINITY = none, <= 0 = try once.
inline Deadline deadline_after_ms(double ms) {
  if (std::isnan(ms)) fatal("wsync: timeout is NaN");
  return Deadline::after_ms(ms);
}

}  // namespace detail
}  // namespace wsync
