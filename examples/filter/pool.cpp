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
  if (done_.native_word().load(std::memory_order_acquire) != 0) return "a filter job is already running";
  job_ = Job{params, frame, k};
  next_band_.store(0, std::memory_order_relaxed);  // published by the release below
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
    const Job job = job_;
    // Relaxed: a unique number per worker is all we need; the job's data
    // came with the permit.
    const int band = next_band_.fetch_add(1, std::memory_order_relaxed);
    const int y0 = band_start(job.frame.height, band, job.bands);
    const int y1 = band_start(job.frame.height, band + 1, job.bands);
    const int n = passes(job.params.kind);
    for (int pass = 0; pass < n; ++pass) {
      if (pass > 0) barriers_[static_cast<size_t>(job.bands) - 1]->arrive_and_wait();
      run_pass(job.params, job.frame, pass, y0, y1);
    }
    done_.done();
  }
}

namespace {

struct PthreadJob {
  const Params* params;
  const Frame* frame;
  pthread_barrier_t* barrier;
  int band, bands;
};

void* pthread_band(void* arg) {
  const PthreadJob& job = *static_cast<PthreadJob*>(arg);
  const int y0 = band_start(job.frame->height, job.band, job.bands);
  const int y1 = band_start(job.frame->height, job.band + 1, job.bands);
  for (int pass = 0; pass < passes(job.params->kind); ++pass) {
    if (pass > 0) pthread_barrier_wait(job.barrier);
    run_pass(*job.params, *job.frame, pass, y0, y1);
  }
  return nullptr;
}

}  // namespace

std::string_view run_with_pthreads(const Params& params, const Frame& frame, int k) noexcept {
  if (std::string_view problem = check(params, frame); !problem.empty()) return problem;
  if (k < 1 || k > 256) return "thread count must be 1..256";
  pthread_barrier_t barrier;
  pthread_barrier_init(&barrier, nullptr, static_cast<unsigned>(k));
  std::vector<PthreadJob> jobs(static_cast<size_t>(k));
  std::vector<pthread_t> threads(static_cast<size_t>(k));
  for (int i = 0; i < k; ++i) {
    jobs[i] = PthreadJob{&params, &frame, &barrier, i, k};
    pthread_create(&threads[i], nullptr, pthread_band, &jobs[i]);
  }
  for (pthread_t t : threads) pthread_join(t, nullptr);
  pthread_barrier_destroy(&barrier);
  return "";
}

}  // namespace wsync_filter
