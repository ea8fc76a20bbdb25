// wsync/detail/async_callback.hpp: runs a C++ callable through the C async
// API (wsync/async.h), which takes a function pointer and a user pointer.
#pragma once

#ifdef __EMSCRIPTEN__
#include <utility>

#include "wsync/async.h"

namespace wsync {
namespace detail {

// Moves `callback` to the heap, starts `start(object, ...)`, and calls the
// callback once (then frees it) when the C call reports its result.
template <class Callback, class CObject>
void start_async(void (*start)(CObject*, wsync_async_callback, void*, double), CObject* object,
                 Callback callback, double timeout_ms) {
  auto* held = new Callback(std::move(callback));
  start(
      object,
      [](void* user, bool ok) {
        auto* f = static_cast<Callback*>(user);
        (*f)(ok);
        delete f;
      },
      held, timeout_ms);
}

}  // namespace detail
}  // namespace wsync
#endif
