// What every wsync benchmark shares: repetitions, medians with min and max,
// and one JSON line per measured point (bench/report.mjs turns the lines of
// a run into docs/benchmarks.md). Benchmarks never fail on a slow machine:
// they measure and print, and every figure in the report is a ratio against
// a baseline measured in the same process.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <time.h>
#endif

namespace bench {

// Settings: WSYNC_BENCH_REPS (default 5) repetitions of every point,
// WSYNC_BENCH_SCALE (default 1) multiplies the work per repetition. Also
// taken as arguments reps=N scale=N (a wasm program in Node does not see the
// environment), which parse_settings() removes from argv.
inline int g_reps = 0, g_scale = 0;

inline int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::max(1, std::atoi(v)) : fallback;
}

inline int reps() { return g_reps ? g_reps : env_int("WSYNC_BENCH_REPS", 5); }
inline int scale() { return g_scale ? g_scale : env_int("WSYNC_BENCH_SCALE", 1); }

inline void parse_settings(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("reps=", 0) == 0) {
      g_reps = std::max(1, std::atoi(a.c_str() + 5));
    } else if (a.rfind("scale=", 0) == 0) {
      g_scale = std::max(1, std::atoi(a.c_str() + 6));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

inline double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU time of the whole process (every thread), in ms; NaN where it cannot
// be read (a wasm program in a browser). In Node, process.cpuUsage() counts
// every worker, so a peer that spins while it waits shows what that costs.
inline double process_cpu_ms() {
#ifdef __EMSCRIPTEN__
  return EM_ASM_DOUBLE({
    if (typeof process == "undefined" || !process.cpuUsage) return NaN;
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  });
#else
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
#endif
}

struct Stats {
  double median, min, max;
  std::vector<double> values;  // every repetition, in the order they ran
};

inline Stats stats(const std::vector<double>& values) {
  std::vector<double> xs = values;
  std::sort(xs.begin(), xs.end());
  const size_t n = xs.size();
  const double median = n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
  return {median, xs.front(), xs.back(), values};
}

// One implementation at one point: run() measures one repetition.
struct Series {
  std::string impl;
  std::string params;  // the point, e.g. "threads=4 inside=0"
  std::function<double()> run;
  std::vector<double> values;
  std::string extra = "";  // more JSON members for emit(), known once it ran
  // Per repetition, the process's CPU time over its wall time (cores kept
  // busy on average), measured around run(): the report turns it into CPU
  // time per operation.
  std::vector<double> cores = {};
};

// Runs every series' repetitions in turns (repetition 1 of each, then
// repetition 2, ...), so a noisy stretch of a shared machine falls on all
// of them alike instead of on whichever happened to be running: the ratios
// between them are what the report compares.
// `repetitions`: reps() unless a group needs more, shorter ones.
inline void interleave(std::vector<Series>& all, int repetitions = 0) {
  for (int r = 0; r < (repetitions > 0 ? repetitions : reps()); ++r) {
    for (Series& s : all) {
      const double cpu = process_cpu_ms(), wall = now_ms();
      s.values.push_back(s.run());
      s.cores.push_back((process_cpu_ms() - cpu) / (now_ms() - wall));
    }
  }
}

// One point: {"group", "impl", "params", "unit", "median", "min", "max",
// "values", extra...}. The values let the report pair repetitions that ran
// in the same turn (interleave()).
inline void emit(const char* platform, const std::string& group, const std::string& impl, const std::string& params,
                 const char* unit, const Stats& s, const std::string& extra = "") {
  std::string values;
  for (double v : s.values) {
    char one[32];
    std::snprintf(one, sizeof one, "%s%.6g", values.empty() ? "" : ", ", v);
    values += one;
  }
  std::printf(
      "{\"platform\": \"%s\", \"group\": \"%s\", \"impl\": \"%s\", \"params\": \"%s\", \"unit\": \"%s\", "
      "\"median\": %.6g, \"min\": %.6g, \"max\": %.6g, \"values\": [%s]%s%s}\n",
      platform, group.c_str(), impl.c_str(), params.c_str(), unit, s.median, s.min, s.max, values.c_str(),
      extra.empty() ? "" : ", ", extra.c_str());
  std::fflush(stdout);
}

// One line per series (after interleave()), with its "cores" per repetition
// when the process's CPU time could be read.
inline void emit_all(const char* platform, const std::string& group, const char* unit, const std::vector<Series>& all) {
  for (const Series& s : all) {
    std::string extra = s.extra;
    if (!s.cores.empty() && s.cores[0] == s.cores[0]) {  // not NaN
      extra += extra.empty() ? "\"cores\": [" : ", \"cores\": [";
      for (size_t i = 0; i < s.cores.size(); ++i) {
        char one[32];
        std::snprintf(one, sizeof one, "%s%.4g", i ? ", " : "", s.cores[i]);
        extra += one;
      }
      extra += "]";
    }
    emit(platform, group, s.impl, s.params, unit, stats(s.values), extra);
  }
}

// An object under test on cache lines of its own (128 bytes: x86 cores fetch
// lines in adjacent pairs). A wsync::Mutex is 4 bytes and a pthread_mutex_t
// 40, and the allocator puts such blocks next to anything, such as the
// closure a benchmark thread reads every iteration: without this, a
// benchmark would also measure false sharing, differently for each size.
template <class T>
struct alignas(128) Isolated {
  T value;
};

template <class T>
std::shared_ptr<Isolated<T>> isolated() {
  return std::make_shared<Isolated<T>>();
}

// Busy work the optimizer cannot delete: `units` dependent steps.
inline unsigned work(unsigned units, unsigned seed = 1) {
  volatile unsigned x = seed;
  for (unsigned i = 0; i < units; ++i) x = x * 1103515245u + 12345u;
  return x;
}

#ifdef __EMSCRIPTEN__
inline const char* platform() { return "wasm"; }
#else
inline const char* platform() { return "native"; }
#endif

}  // namespace bench
