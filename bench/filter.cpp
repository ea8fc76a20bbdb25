// wsync_filter_bench: the demo's image filter (examples/filter) at 1 .. 2x
// the cores, with wsync's pool (threads started once, the caller one of the
// k, Barrier between the passes, WaitGroup to finish) and with
// pthread_create + pthread_barrier + pthread_join per run. One JSON line per
// point. Beside them, the machine's own ceiling: the same blur in bands that
// wait for nothing (wsync_filter::run_bands_alone), on 1 and on `cores`
// threads, which is how far this host lets the arithmetic scale at that
// moment (bench/report.mjs quotes it beside the filter's speedup).
//
// With on-core=C the process only times that blur on one thread, and its
// caller must have pinned the whole process to core C (bench/run uses
// taskset -c C, core by core). This host's cores at times run the blur at
// different speeds, so the best the cores can do together is known only from
// each one's time alone (bench/report.mjs).
//
//   wsync_filter_bench [on-core=C] [SIDE]   (default 1024: a SIDE x SIDE blur, radius 8)
#include "filter.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "pool.hpp"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sched.h>
#endif

namespace {

// A run that did not happen must not become a figure.
void ran(std::string_view problem) {
  if (problem.empty()) return;
  std::fprintf(stderr, "wsync_filter_bench: %.*s\n", static_cast<int>(problem.size()), problem.data());
  std::exit(1);
}

constexpr const char* kOneCore = "one core alone: one band, pinned";

// A point's parameters as bench/report.mjs reads them; `core` only for one
// core alone.
std::string point(int threads, int side, unsigned cores, int core = -1) {
  char text[96];
  if (core < 0) {
    std::snprintf(text, sizeof text, "threads=%d side=%d cores=%u", threads, side, cores);
  } else {
    std::snprintf(text, sizeof text, "threads=%d core=%d side=%d cores=%u", threads, core, side, cores);
  }
  return text;
}

// The ceiling on k threads: the bands' own time, without their start-up.
double bands_alone_ms(const wsync_filter::Params& params, const wsync_filter::Frame& frame, int k) {
  double ms = 0;
  ran(wsync_filter::run_bands_alone(params, frame, k, &ms));
  return ms;
}

// The blur on one thread, in a process its caller pinned to `core`. A wasm
// program cannot see its affinity; natively a process that is not pinned
// to exactly that core is refused, so no unpinned time passes for a core's.
int time_one_core(const wsync_filter::Params& params, const wsync_filter::Frame& frame, int core, int side,
                  unsigned cores) {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1 || !CPU_ISSET(core, &set)) {
    std::fprintf(stderr, "wsync_filter_bench: on-core=%d needs the process pinned to core %d (taskset -c %d)\n", core,
                 core, core);
    return 1;
  }
#endif
  for (int w = 0; w < 4; ++w) (void)bands_alone_ms(params, frame, 1);  // as main() warms up
  std::vector<bench::Series> one{
      {kOneCore, point(1, side, cores, core), [&] { return bands_alone_ms(params, frame, 1); }, {}}};
  bench::interleave(one);
  bench::emit_all(bench::platform(), "filter", "ms per run", one);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bench::parse_settings(argc, argv);
  int core = -1;
  if (argc > 1 && std::strncmp(argv[1], "on-core=", 8) == 0) {
    core = std::atoi(argv[1] + 8);
    ++argv;
    --argc;
  }
  const int side = argc > 1 ? std::atoi(argv[1]) : 1024;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t bytes = static_cast<size_t>(side) * side * 4;
  std::vector<uint8_t> in(bytes), out(bytes), scratch(bytes);
  wsync_filter::make_sample(in.data(), side, side);
  const wsync_filter::Frame frame{in.data(), out.data(), scratch.data(), side, side};
  const wsync_filter::Params params{wsync_filter::Kind::blur, 8};
  if (core >= 0) return time_one_core(params, frame, core, side, cores);
  const int most = static_cast<int>(2 * cores);
  wsync_filter::Pool pool(most);
  // Warm up: a wasm engine first runs its baseline compiler's code and
  // swaps in optimized code only after a function has run for a while (in
  // Node a pass runs about twice as long until then). One run per thread
  // count was not enough: the first timed runs were still the slow ones.
  for (int w = 0; w < 4; ++w) (void)pool.run(params, frame, 1);
  for (int k = 1; k <= most; ++k) {
    (void)pool.run(params, frame, k);
    (void)wsync_filter::run_with_pthreads(params, frame, k);
  }
  // Every thread count and both ways take turns (bench::interleave), so the
  // speedups compare runs made in the same stretch of the machine's load.
  std::vector<bench::Series> all;
  for (int k = 1; k <= most; ++k) {
    all.push_back({"wsync pool",
                   point(k, side, cores),
                   [&, k] {
                     const double start = bench::now_ms();
                     ran(pool.run(params, frame, k));
                     return bench::now_ms() - start;
                   },
                   {}});
    all.push_back({"pthread_create + pthread_barrier + join",
                   point(k, side, cores),
                   [&, k] {
                     const double start = bench::now_ms();
                     ran(wsync_filter::run_with_pthreads(params, frame, k));
                     return bench::now_ms() - start;
                   },
                   {}});
  }
  // The ceiling, at 1 and at `cores` threads.
  for (int k : {1, static_cast<int>(cores)}) {
    if (k == 1 && cores == 1) continue;
    all.push_back({"ceiling: bands with halos, no barrier",
                   point(k, side, cores),
                   [&, k] { return bands_alone_ms(params, frame, k); },
                   {}});
  }
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  // Each core alone, in turn with the rest: the ceiling's one band with this
  // thread pinned to the core, so the report can say how fast the cores
  // could do the job together while the pool's runs were timed.
  cpu_set_t allowed;
  if (cores > 1 && sched_getaffinity(0, sizeof allowed, &allowed) == 0 &&
      CPU_COUNT(&allowed) == static_cast<int>(cores)) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (!CPU_ISSET(c, &allowed)) continue;
      all.push_back({kOneCore,
                     point(1, side, cores, c),
                     [&, c] {
                       cpu_set_t one;
                       CPU_ZERO(&one);
                       CPU_SET(c, &one);
                       if (sched_setaffinity(0, sizeof one, &one) != 0) ran("sched_setaffinity failed");
                       const double ms = bands_alone_ms(params, frame, 1);
                       (void)sched_setaffinity(0, sizeof allowed, &allowed);
                       return ms;
                     },
                     {}});
    }
  }
#endif
  // Three times the repetitions: a run is short, and this host's speed per
  // core changes from moment to moment (docs/benchmarks.md, the filter).
  bench::interleave(all, 3 * bench::reps());
  bench::emit_all(bench::platform(), "filter", "ms per run", all);
  return 0;
}
