// wsync_filter::Pool and the pthread baseline.
#include "pool.hpp"

#include <cstdio>
#include <cstdlib>

namespace wsync_filter {

Pool::Pool(int threads) {
  if (threads < 1 || threads > 256) {
    std::fprintf(stderr, "wsync_filter: a Pool needs 1..256 threads, got %d\n", threads);
    std::abort();
  }
  for (int k = 1; k <= threads; ++k) barriers_.push_back(std::make_unique<wsync::Barrier<>>(k));
  threads_.resize(static_cast<size_t>(threads));
  for (pthread_t& t : threads_) {
    if (pthread_create(&t, nullptr, worker_main, this) != 0) {
      std::fprintf(stderr, "wsync_filter: pthread_create failed\n");
      std::abort();
    }
  }
}

Pool::~Pool() {
  done_.wait();  // a running job finishes first
  stop_ = true;  // published by the release below
  start_.release(size());
  for (pthread_t t : threads_) pthread_join(t, nullptr);
}

std::string_view Pool::start(const Params& params, const Frame& frame, int k) noexcept {
  if (std::string_view problem = check(params, frame); !problem.empty()) return problem;
  if (k < 1 || k > size()) return "thread count must be 1..the pool's size";
  if (done_.count() != 0) return "a filter job is already running";
  job_ = Job{params, frame, k};
  for (std::atomic<int>& next : next_chunk_)
    next.store(0, std::memory_order_relaxed);  // published by the release below
  done_.add(k);
  start_.release(k);
  return "";
}

std::string_view Pool::run(const Params& params, const Frame& frame, int k) noexcept {
  std::string_view problem = start(params, frame, k);
  if (problem.empty()) done_.wait();
  return problem;
}

void* Pool::worker_main(void* self) noexcept {
  static_cast<Pool*>(self)->work();
  return nullptr;
}

void Pool::work() noexcept {
  for (;;) {
    start_.acquire();
    if (stop_) return;
    const Job job = job_;  // came with the permit
    const int chunks = chunk_count(job.frame.height, job.threads);
    const int n = passes(job.params.kind);
    for (int pass = 0; pass < n; ++pass) {
      if (pass > 0) barriers_[static_cast<size_t>(job.threads) - 1]->arrive_and_wait();
      run_chunks(job.params, job.frame, pass, next_chunk_[pass], chunks);
    }
    done_.done();
  }
}

namespace {

struct PthreadJob {
  const Params* params;
  const Frame* frame;
  pthread_barrier_t* barrier;
  std::atomic<int>* next_chunk;  // kMaxPasses counters, shared by the job's threads
  int chunks;
};

void* pthread_worker(void* arg) {
  const PthreadJob& job = *static_cast<PthreadJob*>(arg);
  for (int pass = 0; pass < passes(job.params->kind); ++pass) {
    if (pass > 0) pthread_barrier_wait(job.barrier);
    run_chunks(*job.params, *job.frame, pass, job.next_chunk[pass], job.chunks);
  }
  return nullptr;
}

}  // namespace

std::string_view run_with_pthreads(const Params& params, const Frame& frame, int k) noexcept {
  if (std::string_view problem = check(params, frame); !problem.empty()) return problem;
  if (k < 1 || k > 256) return "thread count must be 1..256";
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, nullptr, static_cast<unsigned>(k));
  std::atomic<int> next_chunk[kMaxPasses] = {};
  PthreadJob job{&params, &frame, &barrier, next_chunk, chunk_count(frame.height, k)};
  std::vector<pthread_t> threads(static_cast<size_t>(k));
  for (pthread_t& t : threads) pthread_create(&t, nullptr, pthread_worker, &job);
  for (pthread_t t : threads) pthread_join(t, nullptr);
  pthread_barrier_destroy(&barrier);
  return "";
}

}  // namespace wsync_filter
