// Checks shared by every C entry point (wsync.h, async.h): NULL objects and
// NaN timeouts (reported by Deadline) are misuse; a C struct is its C++
// object, word for word.
#pragma once

#include <type_traits>

#include "wsync/barrier.hpp"
#include "wsync/cond_var.hpp"
#include "wsync/latch.hpp"
#include "wsync/mutex.hpp"
#include "wsync/once.hpp"
#include "wsync/semaphore.hpp"
#include "wsync/wait_group.hpp"
#include "wsync/wsync.h"

namespace wsync {
namespace detail {

// Each C type, its C++ type, and the message a NULL of it aborts with.
template <class C>
struct CxxOf;
// One line per type, as a table:
// clang-format off
template <> struct CxxOf<wsync_mutex_t> { using type = Mutex; static constexpr const char* null = "wsync: NULL wsync_mutex_t"; };
template <> struct CxxOf<wsync_wg_t> { using type = WaitGroup; static constexpr const char* null = "wsync: NULL wsync_wg_t"; };
template <> struct CxxOf<wsync_cond_t> { using type = CondVar; static constexpr const char* null = "wsync: NULL wsync_cond_t"; };
template <> struct CxxOf<wsync_sem_t> { using type = Semaphore; static constexpr const char* null = "wsync: NULL wsync_sem_t"; };
template <> struct CxxOf<wsync_latch_t> { using type = Latch; static constexpr const char* null = "wsync: NULL wsync_latch_t"; };
template <> struct CxxOf<wsync_barrier_t> { using type = BarrierWords; static constexpr const char* null = "wsync: NULL wsync_barrier_t"; };
template <> struct CxxOf<wsync_once_t> { using type = Once; static constexpr const char* null = "wsync: NULL wsync_once_t"; };
// clang-format on

template <class C, class Cxx = typename CxxOf<C>::type>
constexpr bool kSameLayout =
    sizeof(C) == sizeof(Cxx) &&
    alignof(C) == alignof(Cxx) && std::is_standard_layout_v<C>&& std::is_standard_layout_v<Cxx>;
static_assert(kSameLayout<wsync_mutex_t>, "wsync_mutex_t must match wsync::Mutex");
static_assert(kSameLayout<wsync_wg_t>, "wsync_wg_t must match wsync::WaitGroup");
static_assert(kSameLayout<wsync_cond_t>, "wsync_cond_t must match wsync::CondVar");
static_assert(kSameLayout<wsync_sem_t>, "wsync_sem_t must match wsync::Semaphore");
static_assert(kSameLayout<wsync_latch_t>, "wsync_latch_t must match wsync::Latch");
static_assert(kSameLayout<wsync_barrier_t>, "wsync_barrier_t must match wsync::Barrier's words");
static_assert(kSameLayout<wsync_once_t>, "wsync_once_t must match wsync::Once");

// The C++ object behind a C pointer; a NULL aborts with its exact message.
template <class C>
typename CxxOf<C>::type& as_cxx(C* object) noexcept {
  if (object == nullptr) fatal(CxxOf<C>::null);
  return *reinterpret_cast<typename CxxOf<C>::type*>(object);
}

// A C timeout: milliseconds as a double, INFINITY = none, <= 0 = try once,
// NaN is misuse (Deadline reports it).
inline Deadline deadline_after_ms(double ms) noexcept { return Deadline::after_ms(ms); }

}  // namespace detail
}  // namespace wsync
