// wsync_filter_bench: the demo's image filter (examples/filter) at 1 .. 2x
// the cores, with wsync's pool (threads started once, Barrier between the
// passes, WaitGroup to finish) and with pthread_create + pthread_barrier +
// pthread_join per run. One JSON line per point. Beside them, the machine's
// own ceiling: the same blur in bands that wait for nothing
// (wsync_filter::run_bands_alone), on 1 and on `cores` threads, which is how
// far this host lets the arithmetic scale at that moment (bench/report.mjs
// quotes it beside the filter's speedup).
//
//   wsync_filter_bench [SIDE]   (default 1024: a SIDE x SIDE blur, radius 8)
#include "filter.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "pool.hpp"

namespace {

// A run that did not happen must not become a figure.
void ran(std::string_view problem) {
  if (problem.empty()) return;
  std::fprintf(stderr, "wsync_filter_bench: %.*s\n", static_cast<int>(problem.size()), problem.data());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  bench::parse_settings(argc, argv);
  const int side = argc > 1 ? std::atoi(argv[1]) : 1024;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const int most = static_cast<int>(2 * cores);
  const size_t bytes = static_cast<size_t>(side) * side * 4;
  std::vector<uint8_t> in(bytes), out(bytes), scratch(bytes);
  wsync_filter::make_sample(in.data(), side, side);
  const wsync_filter::Frame frame{in.data(), out.data(), scratch.data(), side, side};
  const wsync_filter::Params params{wsync_filter::Kind::blur, 8};
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
    char params_text[64];
    std::snprintf(params_text, sizeof params_text, "threads=%d side=%d cores=%u", k, side, cores);
    all.push_back({"wsync pool",
                   params_text,
                   [&, k] {
                     const double start = bench::now_ms();
                     ran(pool.run(params, frame, k));
                     return bench::now_ms() - start;
                   },
                   {}});
    all.push_back({"pthread_create + pthread_barrier + join",
                   params_text,
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
    char params_text[64];
    std::snprintf(params_text, sizeof params_text, "threads=%d side=%d cores=%u", k, side, cores);
    all.push_back({"ceiling: bands with halos, no barrier",
                   params_text,
                   [&, k] {
                     double ms = 0;
                     ran(wsync_filter::run_bands_alone(params, frame, k, &ms));
                     return ms;
                   },
                   {}});
  }
  // Three times the repetitions: a run is short, and this host's speed per
  // core changes from moment to moment (docs/benchmarks.md, the filter).
  bench::interleave(all, 3 * bench::reps());
  bench::emit_all(bench::platform(), "filter", "ms per run", all);
  return 0;
}
