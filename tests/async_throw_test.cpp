// An async callback that throws (wasm, Node): the exception leaves through
// Emscripten's callUserCallback, as from any event-loop callback, and still
// nothing of the wait is leaked: not the wait's state, nor the callable.
// And call_once_async's f that throws: as std::call_once, the Once goes
// back to INCOMPLETE and the next caller runs f.
// Counts every operator new and delete of the program (the library's too).
// wsync itself is built without exception support, so its own frames run
// no destructors while a throw passes through them: the count catches
// state that is freed only after the callback returns.
#include <emscripten/emscripten.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "wasm_test_util.hpp"
#include "wsync/wsync.hpp"

namespace {

std::atomic<int> g_live_allocations{0};

}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  g_live_allocations.fetch_add(1, std::memory_order_relaxed);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live_allocations.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace {

using wasm_test::check;

// The exception leaves wasm, Emscripten rethrows it, and Node sees an
// unhandled rejection, which ends the process by default (and Emscripten's
// quit sets exit code 1). The test keeps the process going and counts them.
EM_JS(void, count_uncaught_exceptions, (), {
  globalThis.wsyncUncaught = 0;
  function counted() {
    ++globalThis.wsyncUncaught;
    process.exitCode = 0;
  }
  process.removeAllListeners('unhandledRejection');
  process.removeAllListeners('uncaughtException');
  process.on('unhandledRejection', counted);
  process.on('uncaughtException', counted);
});
EM_JS(int, uncaught_exceptions, (), { return globalThis.wsyncUncaught; });

struct Thrown {};  // no message: nothing of its own on the heap

// A callable that counts its live copies.
int g_live_callables = 0;
struct Callable {
  Callable() { ++g_live_callables; }
  Callable(const Callable&) { ++g_live_callables; }
  Callable(Callable&&) noexcept { ++g_live_callables; }
  ~Callable() { --g_live_callables; }
};

constexpr int kRounds = 50;
int g_rounds = 0;
int g_allocations_before = 0;
wsync::Mutex g_mutex;
wsync::WaitGroup g_wg;

void round(void*);

void finish(void*) {
  check(uncaught_exceptions() == 2 * kRounds + 1, "every throw left its callback");
  check(g_live_callables == 0, "every callable was destroyed");
  check(g_live_allocations.load() == g_allocations_before, "no allocation outlived its wait");
  wasm_test::pass();
}

// call_once_async, twice in one turn: the first runs f, which throws; the
// second then finds the Once INCOMPLETE and runs f again, which returns.
wsync::Once g_once;
int g_f_runs = 0;
int g_done_calls = 0;

void once_started(void*) {
  wsync::call_once_async(
      g_once,
      [callable = Callable()] {
        ++g_f_runs;
        throw Thrown{};
      },
      [callable = Callable()] { ++g_done_calls; });
  wsync::call_once_async(
      g_once, [callable = Callable()] { ++g_f_runs; },
      [callable = Callable()] {
        check(g_f_runs == 2, "the second call ran f after the first's f threw");
        check(g_done_calls == 0, "the call whose f threw never called done");
        check(g_once.is_complete(), "the Once is complete once an f returned");
        emscripten_async_call(finish, nullptr, 0);
      });
}

// Each round throws out of two callbacks: one of Mutex::lock_async, and one
// of WaitGroup::wait_async, and schedules the next round before it throws.
void round(void*) {
  if (g_rounds++ == kRounds) return emscripten_async_call(once_started, nullptr, 0);
  g_mutex.lock_async([callable = Callable()](bool ok) {
    check(ok, "lock_async acquired the free mutex");
    g_mutex.unlock();
    g_wg.wait_async([callable = Callable()](bool ok2) {
      check(ok2, "wait_async on a zero counter succeeded");
      emscripten_async_call(round, nullptr, 0);
      throw Thrown{};
    });
    throw Thrown{};
  });
}

}  // namespace

int main() {
  wasm_test::g_program = "async throw";
  count_uncaught_exceptions();
  // Emscripten's runtime and the first wait allocate once, for good: a
  // first round, then the count.
  g_mutex.lock_async([](bool ok) {
    check(ok, "the first lock_async acquired the free mutex");
    g_mutex.unlock();
    emscripten_async_call(
        [](void*) {
          g_allocations_before = g_live_allocations.load();
          round(nullptr);
        },
        nullptr, 0);
  });
  return 0;
}
