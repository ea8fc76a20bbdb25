// The WaitGroup pattern: hand work to threads, wait for all of it, then read
// the results straight from shared memory. No messages, no joins, no futures.
//
// Two pthreads compute a square and a cube and write them into `results`;
// the caller waits on one WaitGroup and reads both. WaitGroup's promise
// (everything before done() is visible after wait() returns) is what makes
// the plain reads safe.
#include <pthread.h>

#include <cstdio>

#include "wsync/wait_group.hpp"

namespace {

struct Job {
  int input;
  int power;
  long* result;
  wsync::WaitGroup* wg;
};

void* run(void* arg) {
  auto* job = static_cast<Job*>(arg);
  long value = 1;
  for (int i = 0; i < job->power; ++i) value *= job->input;
  *job->result = value;  // a plain write: done() publishes it
  job->wg->done();
  return nullptr;
}

}  // namespace

int main() {
  long results[2] = {0, 0};
  wsync::WaitGroup wg;
  Job jobs[2] = {{3, 2, &results[0], &wg}, {4, 3, &results[1], &wg}};

  wg.add(2);  // before the work starts, as in Go
  pthread_t threads[2];
  for (int i = 0; i < 2; ++i) {
    if (pthread_create(&threads[i], nullptr, run, &jobs[i]) != 0) {
      std::fprintf(stderr, "pthread_create failed\n");
      return 1;
    }
  }

  wg.wait();  // no join is needed to read the results: done() published them
  const long square = results[0], cube = results[1];

  // The join only keeps the runtime tidy before printing: with Emscripten
  // 3.1.6, a pthread still in its exit path while the main thread writes to
  // stderr/stdout can crash the write (a libc race we observed, not wsync's).
  for (pthread_t t : threads) pthread_join(t, nullptr);
  std::printf("square of 3 = %ld\ncube of 4 = %ld\n", square, cube);
  return square == 9 && cube == 64 ? 0 : 1;
}
