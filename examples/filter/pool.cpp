// wsync_filter::Pool and the pthread baseline.
#include "pool.hpp"

#include <chrono>
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
  return begin(params, frame, k, k);
}

std::string_view Pool::run(const Params& params, const Frame& frame, int k) noexcept {
  if (std::string_view problem = begin(params, frame, k, k - 1); !problem.empty()) return problem;
  take_part(job_);
  done_.done();
  done_.wait();
  return "";
}

std::string_view Pool::begin(const Params& params, const Frame& frame, int k, int workers) noexcept {
  if (std::string_view problem = check(params, frame); !problem.empty()) return problem;
  if (k < 1 || k > size()) return "thread count must be 1..the pool's size";
  if (done_.count() != 0) return "a filter job is already running";
  job_ = Job{params, frame, k};
  for (std::atomic<int>& next : next_chunk_)
    next.store(0, std::memory_order_relaxed);  // published by the release below
  done_.add(k);
  start_.release(workers);
  return "";
}

void* Pool::worker_main(void* self) noexcept {
  static_cast<Pool*>(self)->work();
  return nullptr;
}

void Pool::work() noexcept {
  for (;;) {
    start_.acquire();
    if (stop_) return;
    take_part(job_);  // job_ came with the permit and stays until done_ is zero
    done_.done();
  }
}

void Pool::take_part(const Job& job) noexcept {
  const int chunks = chunk_count(job.frame.height, job.threads);
  for (int pass = 0; pass < passes(job.params.kind); ++pass) {
    if (pass > 0) barriers_[static_cast<size_t>(job.threads) - 1]->arrive_and_wait();
    run_chunks(job.params, job.frame, pass, next_chunk_[pass], chunks);
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

namespace {

// Band `band` of `bands` of the whole job, needing no other band: pass 0
// also covers the rows that pass 1 reads beyond the band's (the radius for
// blur, 1 for edges), into scratch rows of the band's own. Pass 0 of either
// filter works on each row alone, so it runs on a frame cut down to those
// rows; pass 1 then clamps at that frame's edges only where they are the
// picture's. The scratch is allocated (and zeroed) here, before run().
class BandAlone {
 public:
  BandAlone(const Params& params, const Frame& frame, int band, int bands)
      : params_(params),
        frame_(frame),
        y0_(band_start(frame.height, band, bands)),
        y1_(band_start(frame.height, band + 1, bands)) {
    if (passes(params.kind) == 1) return;
    const int reach = params.kind == Kind::blur ? params.radius : 1;
    const int top = std::max(0, y0_ - reach);
    const int bottom = std::min(frame.height, y1_ + reach);
    const size_t stride = static_cast<size_t>(frame.width) * 4;
    scratch_.resize((bottom - top) * stride);
    rows_ = {frame.in + top * stride, frame.out + top * stride, scratch_.data(), frame.width, bottom - top};
    top_ = top;
  }

  void run() noexcept {
    if (passes(params_.kind) == 1) return run_pass(params_, frame_, 0, y0_, y1_);
    run_pass(params_, rows_, 0, 0, rows_.height);
    run_pass(params_, rows_, 1, y0_ - top_, y1_ - top_);
  }

 private:
  const Params& params_;
  const Frame& frame_;
  const int y0_, y1_;  // the band's rows
  std::vector<uint8_t> scratch_;
  Frame rows_{};  // two-pass filters: the rows pass 0 covers, from top_
  int top_ = 0;
};

struct AloneJob {
  const Params* params;
  const Frame* frame;
  int bands;
  std::atomic<int> next_band{1};  // band 0 is the caller's
  std::atomic<int> running{0};
  std::atomic<bool> go{false};
};

void* alone_worker(void* arg) {
  AloneJob& job = *static_cast<AloneJob*>(arg);
  BandAlone band(*job.params, *job.frame, job.next_band.fetch_add(1, std::memory_order_relaxed), job.bands);
  job.running.fetch_add(1, std::memory_order_relaxed);
  // Spins, so that every band starts the moment the caller says go (at most
  // k - 1 threads spin, for as long as the others take to start). Acquire:
  // pairs with the caller's release, after which the bands run.
  while (!job.go.load(std::memory_order_acquire)) {
  }
  band.run();
  return nullptr;
}

}  // namespace

std::string_view run_bands_alone(const Params& params, const Frame& frame, int k, double* ms) noexcept {
  if (std::string_view problem = check(params, frame); !problem.empty()) return problem;
  if (k < 1 || k > 256) return "thread count must be 1..256";
  AloneJob job{&params, &frame, k};
  BandAlone own(params, frame, 0, k);
  std::vector<pthread_t> threads;
  for (int b = 1; b < k; ++b) {
    pthread_t t;
    if (pthread_create(&t, nullptr, alone_worker, &job) != 0) break;
    threads.push_back(t);
  }
  const int started = static_cast<int>(threads.size());
  while (job.running.load(std::memory_order_relaxed) < started) {
  }
  const auto start = std::chrono::steady_clock::now();
  job.go.store(true, std::memory_order_release);
  // Without all its threads the job is incomplete: those that did start
  // finish their bands, and the caller hears why.
  if (started == k - 1) own.run();
  for (pthread_t t : threads) pthread_join(t, nullptr);
  if (started != k - 1) return "pthread_create failed";
  if (ms != nullptr) *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return "";
}

}  // namespace wsync_filter
