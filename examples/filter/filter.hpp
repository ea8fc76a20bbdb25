// wsync_filter: integer-exact RGBA image filters, split in row bands so a
// pool of threads can run them (pool.hpp), with a Barrier between passes.
//
// Every filter is integer arithmetic only, so a wasm build and a native
// build give bit-identical output, and so does any number of threads (each
// output pixel is computed the same way, whichever band it falls in).
//
//   | filter    | passes | what each pass does                                  |
//   |-----------|--------|------------------------------------------------------|
//   | grayscale | 1      | in -> out: BT.601 luma (77 R + 150 G + 29 B) >> 8    |
//   | blur      | 2      | in -> scratch horizontally, scratch -> out vertically:|
//   |           |        | binomial kernel C(2r, k) / 4^r (a Gaussian, sigma    |
//   |           |        | sqrt(r / 2)), edges clamped                          |
//   | sharpen   | 1      | in -> out: 3x3 [0 -1 0; -1 5 -1; 0 -1 0], clamped    |
//   | edges     | 2      | in -> scratch luma, scratch -> out Sobel magnitude   |
//   |           |        | isqrt(gx^2 + gy^2), clamped to 255                   |
//
// Alpha is copied (grayscale, blur, sharpen) or opaque (edges).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace wsync_filter {

enum class Kind : int { grayscale = 0, blur = 1, sharpen = 2, edges = 3 };

inline constexpr int kMaxRadius = 20;  // blur: its sums stay in 32 bits up to here (filter.cpp)
inline constexpr int kMaxSide = 4096;  // width and height: 1 .. kMaxSide

struct Params {
  Kind kind = Kind::blur;
  int radius = 4;  // blur only: 1 .. kMaxRadius
};

// Three RGBA buffers of width * height * 4 bytes each: the input, the
// output, and scratch space for two-pass filters. `in` is never written.
struct Frame {
  const uint8_t* in;
  uint8_t* out;
  uint8_t* scratch;
  int width;
  int height;
};

// "": fine; otherwise what is wrong, e.g. "blur radius must be 1..20, got 0".
std::string_view check(const Params& params, const Frame& frame) noexcept;

// How many passes the filter has; pass p + 1 reads what pass p wrote, so
// every band of pass p must be finished before any band of pass p + 1 starts.
int passes(Kind kind) noexcept;

// Runs rows [y0, y1) of one pass.
void run_pass(const Params& params, const Frame& frame, int pass, int y0, int y1) noexcept;

// Band `band` of `bands`: rows [first, last), the same split for every pass.
inline int band_start(int height, int band, int bands) noexcept {
  return static_cast<int>(static_cast<int64_t>(height) * band / bands);
}

// How the threads of a job share a pass: its rows are cut into more chunks
// than there are threads, and each thread takes the next chunk nobody has
// taken until none is left. A thread slowed by something else on its core
// (another process, the page's own painting in a browser) then does less
// of the pass, instead of holding everyone up at the barrier after it.
inline constexpr int kChunksPerThread = 8;
inline int chunk_count(int height, int threads) noexcept {
  return std::max(1, std::min(height, threads * kChunksPerThread));
}

// The most passes a filter has (passes() below).
inline constexpr int kMaxPasses = 2;

// Runs chunks of `pass` taken from `next` (shared by the job's threads,
// 0 before the pass) until none is left. Relaxed: the counter only hands
// out distinct chunks; the rows are published by the barrier (or join) the
// threads meet at after the pass.
void run_chunks(const Params& params, const Frame& frame, int pass, std::atomic<int>& next, int chunks) noexcept;

// The whole filter on the calling thread (the reference).
void apply(const Params& params, const Frame& frame) noexcept;

// A deterministic sample picture (gradients, rings, text-like stripes and
// noise from a fixed-seed generator): the same bytes in wasm and natively.
void make_sample(uint8_t* rgba, int width, int height) noexcept;

// FNV-1a (64-bit) over `size` bytes: how the tests compare outputs.
uint64_t checksum(const uint8_t* bytes, size_t size) noexcept;

const char* name(Kind kind) noexcept;

}  // namespace wsync_filter
