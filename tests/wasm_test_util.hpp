// Helpers of the wasm test programs whose main() returns to the event loop
// (async_test.cpp, async_family_test.cpp) and of the JS interop module
// (js/interop.cpp).
#pragma once

#include <emscripten/emscripten.h>
#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

namespace wasm_test {

inline const char* g_program = "test";  // the prefix of every line printed
inline int g_checks = 0;
inline double g_start = 0;  // set before a wait; elapsed_ms() measures from it

// A failed check prints "<program>: FAILED: <what>" and exits 1.
inline void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("%s: FAILED: %s\n", g_program, what);
    std::fflush(stdout);
    emscripten_force_exit(1);
  }
  ++g_checks;
}

// Prints "<program>: N checks passed" and exits 0.
inline void pass() {
  std::printf("%s: %d checks passed\n", g_program, g_checks);
  std::fflush(stdout);
  emscripten_force_exit(0);
}

inline double elapsed_ms() { return emscripten_get_now() - g_start; }

// Runs `work` on a detached pthread after `delay_ms`.
inline void later(int delay_ms, std::function<void()> work) {
  auto* job = new std::function<void()>([delay_ms, work = std::move(work)] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    work();
  });
  pthread_t t;
  pthread_create(
      &t, nullptr,
      [](void* arg) -> void* {
        auto* f = static_cast<std::function<void()>*>(arg);
        (*f)();
        delete f;
        return nullptr;
      },
      job);
  pthread_detach(t);
}

}  // namespace wasm_test
