// The demo page's wasm side: a wsync_filter::Pool started once, images in
// wasm memory, and calls the page makes (web/demo.js). The page never blocks:
// it starts a job with demo_start() and awaits the pool's WaitGroup with
// wsync.mjs's WaitGroup.waitAsync() on the same word, or it calls
// demo_run_blocking(), whose plain C++ wait() suspends (JSPI or Asyncify).
#include <emscripten/emscripten.h>
#include <pthread.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "filter.hpp"
#include "pool.hpp"

namespace {

std::unique_ptr<wsync_filter::Pool> g_pool;
int g_width = 0, g_height = 0;
std::vector<uint8_t> g_in, g_out, g_scratch;
std::string g_text;  // the last string handed to JS

// demo_start_bands_alone's run: written by the page's thread before the
// pthread starts, and by the pthread before done() (which publishes them).
struct BandsAlone {
  wsync_filter::Params params;
  int threads = 0;
  std::string_view problem;
  double ms = 0;
  wsync::WaitGroup done;
} g_alone;

wsync_filter::Frame frame() { return {g_in.data(), g_out.data(), g_scratch.data(), g_width, g_height}; }

const char* text(std::string_view s) {
  g_text.assign(s.data(), s.size());
  return g_text.c_str();
}

void* run_bands_alone(void*) {
  g_alone.problem = wsync_filter::run_bands_alone(g_alone.params, frame(), g_alone.threads, &g_alone.ms);
  g_alone.done.done();
  return nullptr;
}

}  // namespace

extern "C" {

// Starts the pool (once); returns its size.
EMSCRIPTEN_KEEPALIVE int demo_init(int threads) {
  if (!g_pool) g_pool = std::make_unique<wsync_filter::Pool>(threads);
  return g_pool->size();
}

// (Re)allocates the three images; returns the input's address, or NULL if a
// side is outside 1..kMaxSide.
EMSCRIPTEN_KEEPALIVE uint8_t* demo_images(int width, int height) {
  if (width < 1 || width > wsync_filter::kMaxSide || height < 1 || height > wsync_filter::kMaxSide) return nullptr;
  g_width = width;
  g_height = height;
  const size_t bytes = static_cast<size_t>(width) * height * 4;
  g_in.assign(bytes, 0);
  g_out.assign(bytes, 0);
  g_scratch.assign(bytes, 0);
  return g_in.data();
}

EMSCRIPTEN_KEEPALIVE uint8_t* demo_output() { return g_out.data(); }

EMSCRIPTEN_KEEPALIVE void demo_make_sample() { wsync_filter::make_sample(g_in.data(), g_width, g_height); }

// The pool's WaitGroup: zero when the job's output is complete.
EMSCRIPTEN_KEEPALIVE void* demo_done_word() { return &g_pool->done(); }

// Starts a job on k threads and returns at once: "" or why it was refused.
EMSCRIPTEN_KEEPALIVE const char* demo_start(int kind, int radius, int k) {
  return text(g_pool->start({static_cast<wsync_filter::Kind>(kind), radius}, frame(), k));
}

// The blocking way: starts the job and waits for the pool's WaitGroup with
// the plain WaitGroup::wait(). On the page's main thread that wait suspends
// (the program is linked with -sJSPI or -sASYNCIFY, and the page calls this
// with ccall(..., {async: true})), so the page keeps painting meanwhile.
EMSCRIPTEN_KEEPALIVE const char* demo_run_blocking(int kind, int radius, int k) {
  const char* problem = demo_start(kind, radius, k);
  if (*problem == '\0') g_pool->done().wait();
  return problem;
}

// The compare mode: the same job with pthread_create, pthread_barrier and
// pthread_join, which blocks this (the page's main) thread until it ends.
EMSCRIPTEN_KEEPALIVE const char* demo_run_pthreads(int kind, int radius, int k) {
  return text(wsync_filter::run_with_pthreads({static_cast<wsync_filter::Kind>(kind), radius}, frame(), k));
}

// The benchmarks' ceiling (bench/browser.mjs): the same job in k bands that
// wait for nothing (wsync_filter::run_bands_alone), called on a pthread of
// its own, so that every band runs on a worker, as the pool's chunks do,
// and the page's main thread stays free. Returns at once: "" or why it was
// refused; the page then awaits the WaitGroup at demo_bands_alone_done(),
// and reads demo_bands_alone_problem() ("" or why run_bands_alone refused
// or failed) and demo_bands_alone_ms() (the bands' time, without the
// threads' start-up).
EMSCRIPTEN_KEEPALIVE const char* demo_start_bands_alone(int kind, int radius, int k) {
  if (g_alone.done.count() != 0) return text("a run is already in progress");
  g_alone.params = {static_cast<wsync_filter::Kind>(kind), radius};
  g_alone.threads = k;
  g_alone.done.add(1);
  pthread_t thread;
  if (pthread_create(&thread, nullptr, run_bands_alone, nullptr) != 0) {
    g_alone.done.done();
    return text("pthread_create failed");
  }
  pthread_detach(thread);
  return text("");
}

EMSCRIPTEN_KEEPALIVE void* demo_bands_alone_done() { return &g_alone.done; }
EMSCRIPTEN_KEEPALIVE const char* demo_bands_alone_problem() { return text(g_alone.problem); }
EMSCRIPTEN_KEEPALIVE double demo_bands_alone_ms() { return g_alone.ms; }

// FNV-1a of the input (0) or the output (1), as 16 hex digits.
EMSCRIPTEN_KEEPALIVE const char* demo_checksum(int which) {
  const std::vector<uint8_t>& image = which == 0 ? g_in : g_out;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, wsync_filter::checksum(image.data(), image.size()));
  return text(hex);
}

}  // extern "C"
