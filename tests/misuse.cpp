// Misuse programs: each case must abort with its exact message (checked by
// ctest's PASS_REGULAR_EXPRESSION). Reaching "survived misuse" is a failure.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "wsync/wsync.h"
#include "wsync/wsync.hpp"
#ifdef __EMSCRIPTEN__
#include "wsync/async.h"
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: wsync_misuse CASE\n");
    return 2;
  }
  const char* name = argv[1];
  if (!std::strcmp(name, "negative_wait_group")) {
    wsync::WaitGroup wg;
    wg.add(1);
    wg.done();
    wg.done();
  } else if (!std::strcmp(name, "wait_group_overflow")) {
    wsync::WaitGroup wg;
    wg.add(0x7fffffff);
    wg.add(1);
  } else if (!std::strcmp(name, "unlock_unlocked")) {
    wsync::Mutex m;
    m.lock();
    m.unlock();
    m.unlock();
  } else if (!std::strcmp(name, "corrupted_mutex")) {
    wsync::Mutex m;
    m.native_word().store(0xdead);
    m.lock();
  } else if (!std::strcmp(name, "null_mutex")) {
    wsync_mutex_lock(nullptr);
  } else if (!std::strcmp(name, "null_wait_group")) {
    wsync_wg_done(nullptr);
  } else if (!std::strcmp(name, "nan_timeout")) {
    wsync_mutex_t m = WSYNC_MUTEX_INIT;
    (void)wsync_mutex_lock_timeout(&m, std::nan(""));
#ifdef __EMSCRIPTEN__
  } else if (!std::strcmp(name, "null_callback")) {
    wsync_mutex_t m = WSYNC_MUTEX_INIT;
    wsync_mutex_lock_async(&m, nullptr, nullptr, 0);
#endif
  } else {
    std::fprintf(stderr, "unknown case %s\n", name);
    return 2;
  }
  std::printf("survived misuse\n");
  return 0;
}
