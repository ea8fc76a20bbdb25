// wsync_filter::Pool: a pool of pthreads started once that runs filter jobs
// on k threads, with wsync primitives only.
//
//   start(params, frame, k)   (never blocks: fine on the browser main thread)
//     job_ = {params, frame, k}; next_chunk_[*] = 0; done_.add(k); start_.release(k)
//   run(params, frame, k)     (blocks: the caller is one of the k threads)
//     the same with start_.release(k - 1); then the caller's share; done_.wait()
//   each of the job's threads (a worker after start_.acquire()):
//     for each pass: run_chunks(pass) (take row chunks until none is left,
//       filter.hpp); barrier(k).arrive_and_wait() between passes
//     done_.done()
//   after start(): done().wait() on a thread that may block, or
//     done().wait_async(cb) / JS: WaitGroup on the word at &pool.done(), waitAsync()
//
// Why run()'s caller takes part: a thread that wakes two sleepers and keeps
// running (it spins a little before it sleeps on done_) can have Linux queue
// both on the other core, where they share it for most of the job while this
// core idles after the spin (seen on a 2-core host at 2 threads: 22 ms
// against 15). When the waker goes on working instead, the one worker of a
// 2-thread job gets the idle core, and each job wakes one thread fewer.
//
// Happens-before: start_.release() publishes job_ to the workers that
// acquire its permits; each thread's done() publishes its chunks of the
// output to whoever sees the WaitGroup reach zero; the Barrier publishes
// each pass to the next (the barrier's promise).
//
// One job at a time: start() or run() while a job runs is refused ("a
// filter job is already running"). k may be anything from 1 to size(): any
// k (run(): k - 1) of the workers take the permits, and barrier k (one per
// k, built once) has exactly k participants.
#pragma once

#include <pthread.h>

#include <atomic>
#include <memory>
#include <string_view>
#include <vector>

#include "filter.hpp"
#include "wsync/wsync.hpp"

namespace wsync_filter {

class Pool {
 public:
  // Starts `threads` workers (1 .. 256). On the browser main thread, link
  // with -sPTHREAD_POOL_SIZE >= threads so their workers exist up front.
  explicit Pool(int threads);
  ~Pool();  // stops and joins the workers (waits for a running job)
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int size() const noexcept { return static_cast<int>(threads_.size()); }

  // Starts a job on `k` workers and returns at once; "" on success, or why
  // it was refused (bad parameters, k out of range, a job already running).
  std::string_view start(const Params& params, const Frame& frame, int k) noexcept;

  // Counts the job's unfinished threads; zero when the output is complete.
  wsync::WaitGroup& done() noexcept { return done_; }

  // The whole job on `k` threads, the caller (which must be able to block)
  // and k - 1 workers; returns once the output is complete, with "" or why
  // the job was refused, as start().
  std::string_view run(const Params& params, const Frame& frame, int k) noexcept;

 private:
  struct Job {
    Params params;
    Frame frame;
    int threads;
  };

  static void* worker_main(void* self) noexcept;
  void work() noexcept;
  // Sets up a job on k threads and wakes `workers` of the pool's for it.
  std::string_view begin(const Params& params, const Frame& frame, int k, int workers) noexcept;
  // One thread's part of a job: chunks of every pass, the barrier between.
  void take_part(const Job& job) noexcept;

  wsync::Semaphore start_{0};
  wsync::WaitGroup done_;
  std::vector<std::unique_ptr<wsync::Barrier<>>> barriers_;  // barriers_[k - 1]: k participants
  std::atomic<int> next_chunk_[kMaxPasses] = {};             // the next chunk of each pass to take
  Job job_{};          // written by begin() before release(), read after acquire()
  bool stop_ = false;  // likewise
  std::vector<pthread_t> threads_;
};

// The baselines the demo's "compare" mode and the benchmarks run: the same
// chunks and passes with Emscripten's (or glibc's) pthread primitives:
// k threads created and joined per job, pthread_barrier_t between passes.
// Blocks the caller (pthread_join) for the whole job.
std::string_view run_with_pthreads(const Params& params, const Frame& frame, int k) noexcept;

// How far this machine lets the arithmetic scale at this moment, which the
// benchmarks quote beside the pool's speedup: the same job in k bands that
// wait for nothing, run by the caller and k - 1 threads created here. Each
// band's first pass also covers the rows that its second pass reads beyond
// the band's edges (the radius for blur, 1 for edges), into scratch rows of
// its own (allocated here; the frame's scratch is unused), so no band waits
// for another; the output is the filter's. `*ms` is the caller's clock from
// the moment every thread runs to the end of the last band: thread start-up
// is not counted. Blocks the caller until all bands are done.
std::string_view run_bands_alone(const Params& params, const Frame& frame, int k, double* ms) noexcept;

}  // namespace wsync_filter
