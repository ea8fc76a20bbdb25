// wsync/detail/async_callback.hpp: runs a C++ callable through the C async
// API (wsync/async.h), which takes a function pointer and a user pointer.
#pragma once

#ifdef __EMSCRIPTEN__
#include <utility>

#include "wsync/async.h"

namespace wsync {
namespace detail {

// Moves `callback` to the heap, calls `start(object, trampoline, held,
// timeout_ms)` (a C async function, or a lambda that forwards to one), and
// calls the callback once with the result, then frees it.
template <class Start, class CObject, class Callback>
void start_async(Start start, CObject* object, Callback callback, double timeout_ms) {
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
