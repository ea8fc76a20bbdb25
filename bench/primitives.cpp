// wsync_bench: wsync's primitives against the platform's (Emscripten's musl
// pthreads or glibc; libc++ or libstdc++ std::), and against the floor of
// bare atomic RMWs, in one process. Prints one JSON line per point.
//
//   wsync_bench [spin=N] [handoff=US] [uncontended|contended|fairness|pingpong|forkjoin|blocked]...
//   (default: all groups; spin and handoff set wsync/tuning.h's knobs)
#include <pthread.h>
#include <semaphore.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <future>
#include <latch>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "wsync/tuning.h"
#include "wsync/wsync.hpp"

// Emscripten's own primitives for pthreads (since 5.0.3; before, for Wasm
// Workers only): peers wherever they fit.
#if defined(__EMSCRIPTEN__) && __has_include(<emscripten/threading_primitives.h>)
#include <emscripten/threading_primitives.h>
#define BENCH_HAS_EMSCRIPTEN_PRIMITIVES 1
#else
#define BENCH_HAS_EMSCRIPTEN_PRIMITIVES 0
#endif

namespace {

using bench::emit;
using bench::now_ms;
using bench::stats;
using bench::work;

// ------------------------------------------------------------ lock types --

// The floor: the two RMWs any lock+unlock pair needs (a CAS to take, a swap
// to release), and nothing else.
struct Floor {
  std::atomic<uint32_t> word{0};
  void lock() {
    uint32_t expected = 0;
    while (!word.compare_exchange_weak(expected, 1, std::memory_order_acquire, std::memory_order_relaxed)) {
      expected = 0;
    }
  }
  void unlock() { word.exchange(0, std::memory_order_release); }
};

struct PthreadMutex {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  void lock() { pthread_mutex_lock(&m); }
  void unlock() { pthread_mutex_unlock(&m); }
};

#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
// emscripten_lock_t, sleeping on the futex when taken (waitinf) or spinning
// until it is free (busyspin, the form Emscripten offers the main thread).
struct EmscriptenLock {
  emscripten_lock_t l = EMSCRIPTEN_LOCK_T_STATIC_INITIALIZER;
  void lock() { emscripten_lock_waitinf_acquire(&l); }
  void unlock() { emscripten_lock_release(&l); }
};
struct EmscriptenLockBusySpin {
  emscripten_lock_t l = EMSCRIPTEN_LOCK_T_STATIC_INITIALIZER;
  void lock() { emscripten_lock_busyspin_waitinf_acquire(&l); }
  void unlock() { emscripten_lock_release(&l); }
};
#endif

volatile long g_sink;  // keeps critical sections from being optimized away

// ---------------------------------------------------------- uncontended --

template <class Lock>
double uncontended_ns(Lock& lock, long iterations) {
  const double start = now_ms();
  for (long i = 0; i < iterations; ++i) {
    lock.lock();
    g_sink = g_sink + 1;
    lock.unlock();
  }
  return (now_ms() - start) * 1e6 / static_cast<double>(iterations);
}

template <class Lock>
bench::Series uncontended_series(const char* impl, long iterations) {
  auto lock = bench::isolated<Lock>();
  (void)uncontended_ns(lock->value, iterations / 4);  // warm up
  return {impl, "", [lock, iterations] { return uncontended_ns(lock->value, iterations); }, {}};
}

void uncontended() {
  const long iterations = 4'000'000L * bench::scale();
  std::vector<bench::Series> all;
  all.push_back(uncontended_series<Floor>("floor (2 RMWs)", iterations));
  all.push_back(uncontended_series<wsync::Mutex>("wsync::Mutex", iterations));
  all.push_back(uncontended_series<PthreadMutex>("pthread_mutex", iterations));
  all.push_back(uncontended_series<std::mutex>("std::mutex", iterations));
#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
  all.push_back(uncontended_series<EmscriptenLock>("emscripten_lock_t", iterations));
#endif
  bench::interleave(all);
  bench::emit_all(bench::platform(), "uncontended", "ns per lock+unlock", all);
}

// ------------------------------------------------------------ contended --

struct ContendedResult {
  double per_ms;        // acquisitions per ms, all threads
  double fairness;      // max/min acquisitions per thread
  double longest_wait;  // ms, the longest single lock() (only when timed)
};

// `threads` threads lock, work `inside` units, unlock, work `outside` units,
// for `ms`. `Timed`: also time every lock() (a clock read on each side, so
// never in the runs whose throughput is reported).
template <bool Timed, class Lock>
ContendedResult contended_run(Lock& lock, int threads, unsigned inside, unsigned outside, double ms) {
  struct Flags {
    std::atomic<bool> go{false}, stop{false};
  };
  bench::Isolated<Flags> isolated;  // read every iteration by every thread: a line of its own
  Flags& flags = isolated.value;
  std::vector<long> counts(static_cast<size_t>(threads), 0);
  std::vector<double> longest(static_cast<size_t>(threads), 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Locals, so the loop does not read them through the closure (a heap
      // block of the allocator's choosing) after every call.
      Lock& l = lock;
      const Flags& f = flags;
      const unsigned in = inside, out = outside;
      while (!f.go.load(std::memory_order_acquire)) {
      }
      long n = 0;
      double most = 0;
      while (!f.stop.load(std::memory_order_relaxed)) {
        if constexpr (Timed) {
          const double start = now_ms();
          l.lock();
          most = std::max(most, now_ms() - start);
        } else {
          l.lock();
        }
        g_sink = g_sink + static_cast<long>(work(in));
        l.unlock();
        (void)work(out);
        ++n;
      }
      counts[static_cast<size_t>(t)] = n;
      longest[static_cast<size_t>(t)] = most;
    });
  }
  const double start = now_ms();
  flags.go.store(true, std::memory_order_release);
  while (now_ms() - start < ms) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  flags.stop.store(true);
  for (std::thread& t : pool) t.join();
  const double elapsed = now_ms() - start;
  long total = 0, most = 0, least = counts[0];
  for (long c : counts) {
    total += c;
    most = std::max(most, c);
    least = std::min(least, c);
  }
  return {static_cast<double>(total) / elapsed, static_cast<double>(most) / static_cast<double>(std::max(1L, least)),
          *std::max_element(longest.begin(), longest.end())};
}

// One contended point (threads, units inside) for every implementation; the
// wsync rows also show the effect of the blocking spin budget.
void contended_point(int threads, unsigned inside, int spin) {
  // Three times the repetitions, a third as long each: this host's line
  // transfers between the two cores change speed within a second or so
  // (bench::Isolated), and a pair of repetitions should see the same one.
  const double ms = 50.0 * bench::scale();
  const int repetitions = 3 * bench::reps();
  char params[64];
  std::snprintf(params, sizeof params, "threads=%d inside=%u", threads, inside);
  std::vector<bench::Series> all;
  std::vector<std::shared_ptr<std::vector<double>>> fairness;  // fairness[i]: series i's, per repetition
  std::vector<std::function<double()>> longest_wait;           // longest_wait[i]: one timed run of series i
  auto add = [&](const char* impl, int spin_limit, auto lock) {
    auto fair = std::make_shared<std::vector<double>>();
    fairness.push_back(fair);
    all.push_back({impl,
                   params,
                   [=] {
                     const int previous = wsync_set_spin_limit(spin_limit);
                     const ContendedResult r = contended_run<false>(lock->value, threads, inside, 50, ms);
                     wsync_set_spin_limit(previous);
                     fair->push_back(r.fairness);
                     return r.per_ms;
                   },
                   {}});
    longest_wait.push_back([=] {
      const int previous = wsync_set_spin_limit(spin_limit);
      const ContendedResult r = contended_run<true>(lock->value, threads, inside, 50, 2 * ms);
      wsync_set_spin_limit(previous);
      return r.longest_wait;
    });
  };
  add("wsync::Mutex", spin, bench::isolated<wsync::Mutex>());
  add("wsync::Mutex, spin 0", 0, bench::isolated<wsync::Mutex>());
  add("wsync::Mutex, spin 10x", 10 * spin, bench::isolated<wsync::Mutex>());
  add("pthread_mutex", spin, bench::isolated<PthreadMutex>());
  add("std::mutex", spin, bench::isolated<std::mutex>());
#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
  add("emscripten_lock_t", spin, bench::isolated<EmscriptenLock>());
  add("emscripten_lock_t, busyspin", spin, bench::isolated<EmscriptenLockBusySpin>());
#endif
  bench::interleave(all, repetitions);
  for (size_t i = 0; i < all.size(); ++i) {
    char extra[96];
    std::snprintf(extra, sizeof extra, "\"fairness\": %.3g, \"longest_wait_ms\": %.3g", stats(*fairness[i]).median,
                  longest_wait[i]());
    all[i].extra = extra;
  }
  bench::emit_all(bench::platform(), "contended", "acquisitions per ms", all);
}

void contended() {
  const int spin = wsync_set_spin_limit(-1);  // the default (or spin=N), read, not changed
  for (int threads : {2, 4, 8}) {
    for (unsigned inside : {0u, 50u}) contended_point(threads, inside, spin);
  }
}

// ------------------------------------------------------------- fairness --

// Go's TestMutexFairness, measured: a holder locks, sleeps 100 us inside,
// unlocks and relocks at once, in a loop; a waiter sleeps 100 us and then
// locks, 10 times. One repetition: the waiter's 10 acquisitions, in ms.
// Also reports the longest single acquisition over all repetitions.
template <class Lock>
double relocking_holder_round(Lock& lock, double& longest) {
  std::atomic<bool> stop{false};
  std::atomic<bool> holding{false};
  std::thread holder([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      lock.lock();
      holding.store(true, std::memory_order_relaxed);
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      lock.unlock();
    }
  });
  while (!holding.load(std::memory_order_relaxed)) std::this_thread::yield();
  double total = 0;
  for (int i = 0; i < 10; ++i) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    const double start = now_ms();
    lock.lock();
    const double waited = now_ms() - start;
    lock.unlock();
    total += waited;
    longest = std::max(longest, waited);
  }
  stop = true;
  holder.join();
  return total;
}

void fairness() {
  std::vector<bench::Series> all;
  std::vector<std::shared_ptr<double>> longest;
  auto add = [&](const char* impl, auto lock) {
    auto most = std::make_shared<double>(0);
    longest.push_back(most);
    all.push_back({impl, "", [=] { return relocking_holder_round(lock->value, *most); }, {}});
  };
  add("wsync::Mutex", bench::isolated<wsync::Mutex>());
  add("pthread_mutex", bench::isolated<PthreadMutex>());
  add("std::mutex", bench::isolated<std::mutex>());
  bench::interleave(all, 7);
  for (size_t i = 0; i < all.size(); ++i) {
    char extra[48];
    std::snprintf(extra, sizeof extra, "\"longest_wait_ms\": %.3g", *longest[i]);
    all[i].extra = extra;
  }
  bench::emit_all(bench::platform(), "fairness", "ms for 10 acquisitions", all);
}

// ------------------------------------------------------------- ping-pong --

// Two threads hand a turn back and forth `hops` times; each hop wakes the other.
// The pair starts a cache line (as bench::Isolated): on the stack it lay
// wherever the frame fell, and in wasm a hop took 0.21 us at some places and
// 0.33 us at others, wsync's semaphores and libc++'s alike, so the ratio to
// a peer measured where the stack happened to put each.
struct alignas(128) SemPair {  // ping: A releases b, acquires a
  virtual ~SemPair() = default;
  virtual void give(int side) = 0;  // wake the other side
  virtual void take(int side) = 0;  // wait for our turn
};

struct WsyncSems : SemPair {
  wsync::BinarySemaphore s[2]{wsync::BinarySemaphore(0), wsync::BinarySemaphore(0)};
  void give(int side) override { s[1 - side].release(); }
  void take(int side) override { s[side].acquire(); }
};

struct StdSems : SemPair {
  std::binary_semaphore s[2]{std::binary_semaphore(0), std::binary_semaphore(0)};
  void give(int side) override { s[1 - side].release(); }
  void take(int side) override { s[side].acquire(); }
};

struct PosixSems : SemPair {
  sem_t s[2];
  PosixSems() {
    sem_init(&s[0], 0, 0);
    sem_init(&s[1], 0, 0);
  }
  ~PosixSems() override {
    sem_destroy(&s[0]);
    sem_destroy(&s[1]);
  }
  void give(int side) override { sem_post(&s[1 - side]); }
  void take(int side) override {
    while (sem_wait(&s[side]) != 0) {
    }
  }
};

#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
struct EmscriptenSems : SemPair {
  emscripten_semaphore_t s[2] = {EMSCRIPTEN_SEMAPHORE_T_STATIC_INITIALIZER(0),
                                 EMSCRIPTEN_SEMAPHORE_T_STATIC_INITIALIZER(0)};
  void give(int side) override { emscripten_semaphore_release(&s[1 - side], 1); }
  void take(int side) override { emscripten_semaphore_waitinf_acquire(&s[side], 1); }
};

// emscripten_condvar_t as a condition variable of CondTurn (below).
struct EmscriptenCondVar {
  emscripten_condvar_t cv = EMSCRIPTEN_CONDVAR_T_STATIC_INITIALIZER;
  void notify_one() { emscripten_condvar_signal(&cv, 1); }
  void wait(std::unique_lock<EmscriptenLock>& lock) { emscripten_condvar_waitinf(&cv, &lock.mutex()->l); }
};
#endif

// A turn variable under a mutex, with a condition variable: the classic shape.
template <class M, class CV>
struct CondTurn : SemPair {
  M m;
  CV cv;
  int turn = 0;
  void give(int side) override {
    std::lock_guard<M> lock(m);
    turn = 1 - side;
    cv.notify_one();
  }
  void take(int side) override {
    std::unique_lock<M> lock(m);
    while (turn != side) cv.wait(lock);
  }
};

struct PthreadCond : SemPair {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
  int turn = 0;
  void give(int side) override {
    pthread_mutex_lock(&m);
    turn = 1 - side;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
  }
  void take(int side) override {
    pthread_mutex_lock(&m);
    while (turn != side) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
  }
};

double pingpong_us(SemPair& pair, int hops) {
  // Side 0 starts (it has the turn); each side takes, then gives.
  std::thread other([&] {
    for (int i = 0; i < hops / 2; ++i) {
      pair.take(1);
      pair.give(1);
    }
  });
  const double start = now_ms();
  for (int i = 0; i < hops / 2; ++i) {
    pair.give(0);
    pair.take(0);
  }
  const double elapsed = now_ms() - start;
  other.join();
  return elapsed * 1000.0 / hops;
}

template <class Pair>
bench::Series pingpong_series(const char* impl, int hops) {
  char params[32];
  std::snprintf(params, sizeof params, "hops=%d", hops * bench::reps());
  return {impl,
          params,
          [hops] {
            Pair pair;
            return pingpong_us(pair, hops);
          },
          {}};
}

void pingpong() {
  const int hops = 20'000 * bench::scale();
  std::vector<bench::Series> all;
  all.push_back(pingpong_series<WsyncSems>("wsync::BinarySemaphore", hops));
  all.push_back(pingpong_series<CondTurn<wsync::Mutex, wsync::CondVar>>("wsync::Mutex + CondVar", hops));
  all.push_back(pingpong_series<PthreadCond>("pthread_cond", hops));
  all.push_back(pingpong_series<CondTurn<std::mutex, std::condition_variable>>("std::condition_variable", hops));
  all.push_back(pingpong_series<StdSems>("std::binary_semaphore", hops));
  all.push_back(pingpong_series<PosixSems>("sem_t", hops));
#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
  all.push_back(pingpong_series<EmscriptenSems>("emscripten_semaphore_t", hops));
  all.push_back(pingpong_series<CondTurn<EmscriptenLock, EmscriptenCondVar>>("emscripten_condvar_t", hops));
#endif
  bench::interleave(all);
  bench::emit_all(bench::platform(), "pingpong", "us per hop", all);
}

// ------------------------------------------------------------- fork-join --

// Each round the coordinator releases K workers, each does a little work, and
// the coordinator waits for all of them: the shape of a parallel loop. Each
// implementation's object starts a cache line, as SemPair above.
struct alignas(128) ForkJoin {
  virtual ~ForkJoin() = default;
  virtual void fork(int round) = 0;    // coordinator: start the round
  virtual void join(int round) = 0;    // coordinator: wait for the round
  virtual void start(int round) = 0;   // worker: wait for the round to start
  virtual void finish(int round) = 0;  // worker: report the round done
};

template <class B>
struct Barriers : ForkJoin {  // two barrier phases per round, K + 1 participants
  B barrier;
  explicit Barriers(int k) : barrier(k + 1) {}
  void fork(int) override { barrier.arrive_and_wait(); }
  void join(int) override { barrier.arrive_and_wait(); }
  void start(int) override { barrier.arrive_and_wait(); }
  void finish(int) override { barrier.arrive_and_wait(); }
};

struct PthreadBarrier {
  pthread_barrier_t b;
  explicit PthreadBarrier(int n) { pthread_barrier_init(&b, nullptr, static_cast<unsigned>(n)); }
  ~PthreadBarrier() { pthread_barrier_destroy(&b); }
  void arrive_and_wait() { pthread_barrier_wait(&b); }
};

template <class L>
struct Latches : ForkJoin {  // a start latch (1) and an end latch (K) per round
  std::vector<std::optional<L>> starts, ends;
  Latches(int k, int rounds) : starts(static_cast<size_t>(rounds)), ends(static_cast<size_t>(rounds)) {
    for (auto& s : starts) s.emplace(1);
    for (auto& e : ends) e.emplace(k);
  }
  void fork(int r) override { starts[static_cast<size_t>(r)]->count_down(); }
  void join(int r) override { ends[static_cast<size_t>(r)]->wait(); }
  void start(int r) override { starts[static_cast<size_t>(r)]->wait(); }
  void finish(int r) override { ends[static_cast<size_t>(r)]->count_down(); }
};

struct WaitGroupJoin : ForkJoin {  // a start latch per round, one reused WaitGroup to join
  std::vector<std::optional<wsync::Latch>> starts;
  wsync::WaitGroup done;
  int k;
  WaitGroupJoin(int k_, int rounds) : starts(static_cast<size_t>(rounds)), k(k_) {
    for (auto& s : starts) s.emplace(1);
  }
  void fork(int r) override {
    done.add(k);
    starts[static_cast<size_t>(r)]->count_down();
  }
  void join(int) override { done.wait(); }
  void start(int r) override { starts[static_cast<size_t>(r)]->wait(); }
  void finish(int) override { done.done(); }
};

double forkjoin_us(ForkJoin& fj, int k, int rounds) {
  std::vector<std::thread> pool;
  for (int t = 0; t < k; ++t) {
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        fj.start(r);
        g_sink = g_sink + static_cast<long>(work(20, static_cast<unsigned>(t)));
        fj.finish(r);
      }
    });
  }
  const double start = now_ms();
  for (int r = 0; r < rounds; ++r) {
    fj.fork(r);
    fj.join(r);
  }
  const double elapsed = now_ms() - start;
  for (std::thread& t : pool) t.join();
  return elapsed * 1000.0 / rounds;
}

template <class Make>
bench::Series forkjoin_series(const char* impl, int k, int rounds, Make make) {
  char params[48];
  std::snprintf(params, sizeof params, "workers=%d rounds=%d", k, rounds * bench::reps());
  return {impl,
          params,
          [=] {
            std::unique_ptr<ForkJoin> fj = make(k, rounds);
            return forkjoin_us(*fj, k, rounds);
          },
          {}};
}

void forkjoin() {
  const int rounds = 20'000 * bench::scale();  // 10^5 rounds in all at the default 5 repetitions
  // The common case first: a pool of one worker fewer than the cores, the
  // coordinator being the last (1 on this 2-core host); then oversubscribed.
  std::vector<int> workers = {std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1)};
  for (int k : {2, 4, 8}) {
    if (k > workers[0]) workers.push_back(k);
  }
  for (int k : workers) {
    std::vector<bench::Series> all;
    all.push_back(forkjoin_series("wsync::Barrier", k, rounds,
                                  [](int n, int) { return std::make_unique<Barriers<wsync::Barrier<>>>(n); }));
    all.push_back(forkjoin_series("wsync::Latch", k, rounds,
                                  [](int n, int r) { return std::make_unique<Latches<wsync::Latch>>(n, r); }));
    all.push_back(forkjoin_series("wsync::WaitGroup", k, rounds,
                                  [](int n, int r) { return std::make_unique<WaitGroupJoin>(n, r); }));
    all.push_back(forkjoin_series("pthread_barrier", k, rounds,
                                  [](int n, int) { return std::make_unique<Barriers<PthreadBarrier>>(n); }));
    all.push_back(forkjoin_series("std::barrier", k, rounds,
                                  [](int n, int) { return std::make_unique<Barriers<std::barrier<>>>(n); }));
    all.push_back(forkjoin_series("std::latch", k, rounds,
                                  [](int n, int r) { return std::make_unique<Latches<std::latch>>(n, r); }));
    bench::interleave(all);
    bench::emit_all(bench::platform(), "forkjoin", "us per round", all);
  }
}

// --------------------------------------------------------------- blocked --

// What a waiter costs while it is blocked: a thread waits 300 ms for a
// release, and the CPU time it uses meanwhile is measured: natively by the
// waiter's own CPU clock; in wasm, which has no thread CPU clock, by the
// process's CPU time over the 300 ms, beside an "idle" row in which nobody
// waits (what Node and the sleeping main thread use anyway).
struct Blocked {
  virtual ~Blocked() = default;
  virtual void hold() {}  // before the waiter starts: make it wait
  virtual void wait() = 0;
  virtual void release() = 0;
};

template <class Sem>
struct BlockedSem : Blocked {
  Sem s{0};
  void wait() override { s.acquire(); }
  void release() override { s.release(); }
};

template <class Lock>
struct BlockedLock : Blocked {
  Lock m;
  void hold() override { m.lock(); }
  void wait() override {
    m.lock();
    m.unlock();
  }
  void release() override { m.unlock(); }
};

struct BlockedLatch : Blocked {
  wsync::Latch l{1};
  void wait() override { l.wait(); }
  void release() override { l.count_down(); }
};

struct BlockedSemT : Blocked {
  sem_t s;
  BlockedSemT() { sem_init(&s, 0, 0); }
  ~BlockedSemT() override { sem_destroy(&s); }
  void wait() override {
    while (sem_wait(&s) != 0) {
    }
  }
  void release() override { sem_post(&s); }
};

#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
struct BlockedEmscriptenSem : Blocked {
  emscripten_semaphore_t s = EMSCRIPTEN_SEMAPHORE_T_STATIC_INITIALIZER(0);
  void wait() override { emscripten_semaphore_waitinf_acquire(&s, 1); }
  void release() override { emscripten_semaphore_release(&s, 1); }
};
#endif

struct Idle : Blocked {  // nobody waits: the process's own cost
  void wait() override {}
  void release() override {}
};

inline double thread_cpu_ms() {
#ifdef __EMSCRIPTEN__
  return std::numeric_limits<double>::quiet_NaN();
#else
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
#endif
}

// One repetition: percent of a core used during the 300 ms wait.
double blocked_percent(Blocked& b) {
  constexpr double kWaitMs = 300;
  b.hold();
  std::atomic<bool> started{false};
  double waiter_cpu = 0;
  std::thread waiter([&] {
    const double cpu = thread_cpu_ms();
    started.store(true);
    b.wait();
    waiter_cpu = thread_cpu_ms() - cpu;
  });
  while (!started.load()) std::this_thread::yield();
  const double cpu = bench::process_cpu_ms(), wall = now_ms();
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kWaitMs));
  const double process_cpu = bench::process_cpu_ms() - cpu, elapsed = now_ms() - wall;
  b.release();
  waiter.join();
#ifdef __EMSCRIPTEN__
  return 100 * process_cpu / elapsed;
#else
  (void)process_cpu;
  return 100 * waiter_cpu / elapsed;
#endif
}

void blocked() {
  std::vector<bench::Series> all;
  auto add = [&](const char* impl, auto make) {
    all.push_back({impl, "wait=300ms", [make] {
                     auto b = make();
                     return blocked_percent(*b);
                   }});
  };
#ifdef __EMSCRIPTEN__
  add("idle", [] { return std::make_unique<Idle>(); });
#endif
  add("wsync::BinarySemaphore", [] { return std::make_unique<BlockedSem<wsync::BinarySemaphore>>(); });
  add("wsync::Mutex", [] { return std::make_unique<BlockedLock<wsync::Mutex>>(); });
  add("wsync::Latch", [] { return std::make_unique<BlockedLatch>(); });
  add("std::binary_semaphore", [] { return std::make_unique<BlockedSem<std::binary_semaphore>>(); });
  add("std::mutex", [] { return std::make_unique<BlockedLock<std::mutex>>(); });
  add("sem_t", [] { return std::make_unique<BlockedSemT>(); });
#if BENCH_HAS_EMSCRIPTEN_PRIMITIVES
  add("emscripten_semaphore_t", [] { return std::make_unique<BlockedEmscriptenSem>(); });
#endif
  bench::interleave(all);
  for (bench::Series& s : all) s.cores.clear();  // the value is the CPU measure itself
  bench::emit_all(bench::platform(), "blocked", "% of a core while blocked", all);
}

}  // namespace

int main(int argc, char** argv) {
  bench::parse_settings(argc, argv);
  // spin=N: wsync's blocking spin count, handoff=US: the Mutex's handoff
  // bound, for the whole run (tuning experiments).
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "spin=", 5) == 0) {
      wsync_set_spin_limit(std::atoi(argv[i] + 5));
    } else if (std::strncmp(argv[i], "handoff=", 8) == 0) {
      wsync_set_handoff_after_us(std::atoi(argv[i] + 8));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  // Natively, glibc takes a single-threaded shortcut in its locks until a
  // second thread exists: start one first, parked until the end.
  std::promise<void> release;
  std::thread parked([f = release.get_future()]() mutable { f.wait(); });
  const struct {
    const char* name;
    void (*run)();
  } groups[] = {{"uncontended", uncontended}, {"contended", contended}, {"fairness", fairness},
                {"pingpong", pingpong},       {"forkjoin", forkjoin},   {"blocked", blocked}};
  int status = 0;
  for (const auto& g : groups) {
    bool wanted = argc == 1;
    for (int i = 1; i < argc; ++i) wanted = wanted || std::strcmp(argv[i], g.name) == 0;
    if (wanted) g.run();
  }
  for (int i = 1; i < argc; ++i) {
    bool known = false;
    for (const auto& g : groups) known = known || std::strcmp(argv[i], g.name) == 0;
    if (!known) {
      std::fprintf(stderr, "wsync_bench: unknown group %s\n", argv[i]);
      status = 2;
    }
  }
  release.set_value();
  parked.join();
  return status;
}
