// The filters of filter.hpp: integer arithmetic only.
#include "filter.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace wsync_filter {

namespace {

inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
inline uint8_t clamp_byte(int v) { return static_cast<uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v)); }

inline uint8_t luma(const uint8_t* p) { return static_cast<uint8_t>((77 * p[0] + 150 * p[1] + 29 * p[2] + 128) >> 8); }

// Integer square root (floor) of 0 <= v < 2^30: Sobel's gx^2 + gy^2 (< 2^21) and
// the sample's squared distances (< 2^25).
inline int isqrt(int v) {
  int r = 0;
  for (int bit = 1 << 14; bit != 0; bit >>= 1) {  // v < 2^30: the root is below 2^15
    const int t = r | bit;
    if (t * t <= v) r = t;
  }
  return r;
}

// Row k of Pascal's triangle for n = 2 * radius: C(n, k), k = 0 .. n.
struct Binomial {
  int64_t weight[2 * kMaxRadius + 1];
  explicit Binomial(int radius) {
    const int n = 2 * radius;
    weight[0] = 1;
    for (int k = 1; k <= n; ++k) weight[k] = weight[k - 1] * (n - k + 1) / k;  // exact at every step
  }
};

void grayscale_rows(const Frame& f, int y0, int y1) {
  for (int y = y0; y < y1; ++y) {
    const uint8_t* src = f.in + static_cast<size_t>(y) * f.width * 4;
    uint8_t* dst = f.out + static_cast<size_t>(y) * f.width * 4;
    for (int x = 0; x < f.width; ++x, src += 4, dst += 4) {
      const uint8_t l = luma(src);
      dst[0] = dst[1] = dst[2] = l;
      dst[3] = src[3];
    }
  }
}

// Adds tap k of one direction of the separable blur, weighted by `w`, to a
// row of sums: that tap's source row (vertical) or the row shifted by the
// tap (horizontal), so every inner loop runs over contiguous bytes and the
// compiler vectorizes it (wasm SIMD128 with -msimd128, SSE natively); the
// few pixels whose horizontal taps fall off the edge add the edge pixel
// instead. All four channels are summed alike.
void add_tap(uint32_t* acc, uint32_t w, const uint8_t* src, const Frame& f, int y, int k, bool vertical) {
  const int width = f.width;
  const size_t stride = static_cast<size_t>(width) * 4;
  if (vertical) {
    const uint8_t* row = src + static_cast<size_t>(clamp_index(y + k, f.height)) * stride;
    for (size_t i = 0; i < stride; ++i) acc[i] += w * row[i];
    return;
  }
  const uint8_t* row = src + static_cast<size_t>(y) * stride;
  // x + k stays inside the row for x in [inside0, inside1).
  const int inside0 = std::min(width, std::max(0, -k)), inside1 = std::max(inside0, std::min(width, width - k));
  const ptrdiff_t offset = ptrdiff_t{k} * 4;
  for (ptrdiff_t i = ptrdiff_t{inside0} * 4; i < ptrdiff_t{inside1} * 4; ++i) acc[i] += w * row[i + offset];
  const uint8_t* first = row;
  const uint8_t* last = row + static_cast<size_t>(width - 1) * 4;
  for (int x = 0; x < inside0; ++x) {
    for (int c = 0; c < 4; ++c) acc[x * 4 + c] += w * first[c];
  }
  for (int x = inside1; x < width; ++x) {
    for (int c = 0; c < 4; ++c) acc[x * 4 + c] += w * last[c];
  }
}

// The largest radius whose sums fit in 32 bits: the weights sum to 2^(2r),
// and 2^(2r) * 255 + 2^(2r - 1) (the half added for rounding) < 2^32.
constexpr int kMaxRadius32 = 12;

// One direction of the blur over rows [y0, y1): each channel's exact
// weighted sum, rounded and divided by 2^(2r); alpha is then copied from
// the input. The sums are exact integers, so the order of the additions
// does not change a byte.
//
// Every sum is kept in 32-bit lanes, four to a SIMD128 vector: x86 has no
// packed 64-bit multiply before AVX-512, and radius 20 in 64-bit lanes took
// 2x as long as now in V8 and 13x in JavaScriptCore. Past radius 12 a sum
// needs up to 48 bits, so each weight is split in halves,
// w = hi * 2^16 + lo, summed apart:
//   L = sum(lo * p) <= 41 * (2^16 - 1) * 255 < 2^30,
//   H = sum(hi * p) <= 2^(2r - 16) * 255 <= 2^24 * 255 (radius 20),
// and the result, floor((H * 2^16 + L + 2^(2r - 1)) / 2^(2r)), is
// floor((H + floor(L / 2^16) + 2^(2r - 17)) / 2^(2r - 16)), whose
// numerator stays below 2^24 * 255 + 2^23 + 2^14 < 2^32.
void blur_pass(const uint8_t* src, uint8_t* dst, const Frame& f, int radius, bool vertical, int y0, int y1) {
  static_assert(kMaxRadius <= 20, "the split sums' bounds above hold up to radius 20");
  const Binomial kernel(radius);
  const int shift = 2 * radius;  // the weights sum to 2^(2r)
  const bool split = radius > kMaxRadius32;
  const size_t stride = static_cast<size_t>(f.width) * 4;
  std::vector<uint32_t> sums(split ? 2 * stride : stride);
  uint32_t* const lo = sums.data();
  uint32_t* const hi = lo + stride;  // used when split
  for (int y = y0; y < y1; ++y) {
    std::fill(sums.begin(), sums.end(), 0u);
    for (int k = -radius; k <= radius; ++k) {
      const auto w = static_cast<uint64_t>(kernel.weight[k + radius]);
      if (!split) {
        add_tap(lo, static_cast<uint32_t>(w), src, f, y, k, vertical);
        continue;
      }
      add_tap(lo, static_cast<uint32_t>(w & 0xffff), src, f, y, k, vertical);
      add_tap(hi, static_cast<uint32_t>(w >> 16), src, f, y, k, vertical);
    }
    uint8_t* d = dst + static_cast<size_t>(y) * stride;
    if (!split) {
      const uint32_t half = 1u << (shift - 1);
      for (size_t i = 0; i < stride; ++i) d[i] = static_cast<uint8_t>((lo[i] + half) >> shift);
    } else {
      const uint32_t half = 1u << (shift - 17);
      for (size_t i = 0; i < stride; ++i) d[i] = static_cast<uint8_t>((hi[i] + (lo[i] >> 16) + half) >> (shift - 16));
    }
    const uint8_t* alpha = f.in + static_cast<size_t>(y) * stride;
    for (size_t i = 3; i < stride; i += 4) d[i] = alpha[i];
  }
}

void sharpen_rows(const Frame& f, int y0, int y1) {
  const size_t stride = static_cast<size_t>(f.width) * 4;
  for (int y = y0; y < y1; ++y) {
    const uint8_t* up = f.in + clamp_index(y - 1, f.height) * stride;
    const uint8_t* row = f.in + y * stride;
    const uint8_t* down = f.in + clamp_index(y + 1, f.height) * stride;
    uint8_t* dst = f.out + y * stride;
    for (int x = 0; x < f.width; ++x) {
      const size_t l = static_cast<size_t>(clamp_index(x - 1, f.width)) * 4;
      const size_t c = static_cast<size_t>(x) * 4;
      const size_t r = static_cast<size_t>(clamp_index(x + 1, f.width)) * 4;
      for (int ch = 0; ch < 3; ++ch) {
        const int v = 5 * row[c + ch] - row[l + ch] - row[r + ch] - up[c + ch] - down[c + ch];
        dst[c + ch] = clamp_byte(v);
      }
      dst[c + 3] = row[c + 3];
    }
  }
}

// Pass 0 of edges: luma into scratch (one byte per pixel, at offset x).
void luma_rows(const Frame& f, int y0, int y1) {
  for (int y = y0; y < y1; ++y) {
    const uint8_t* src = f.in + static_cast<size_t>(y) * f.width * 4;
    uint8_t* dst = f.scratch + static_cast<size_t>(y) * f.width;
    for (int x = 0; x < f.width; ++x) dst[x] = luma(src + static_cast<size_t>(x) * 4);
  }
}

void sobel_rows(const Frame& f, int y0, int y1) {
  const auto at = [&f](int x, int y) -> int {
    return f.scratch[static_cast<size_t>(clamp_index(y, f.height)) * f.width + clamp_index(x, f.width)];
  };
  for (int y = y0; y < y1; ++y) {
    uint8_t* dst = f.out + static_cast<size_t>(y) * f.width * 4;
    for (int x = 0; x < f.width; ++x, dst += 4) {
      const int gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) -
                     (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
      const int gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) -
                     (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
      const uint8_t m = clamp_byte(isqrt(gx * gx + gy * gy));
      dst[0] = dst[1] = dst[2] = m;
      dst[3] = 255;
    }
  }
}

}  // namespace

std::string_view check(const Params& params, const Frame& frame) noexcept {
  if (frame.width < 1 || frame.width > kMaxSide || frame.height < 1 || frame.height > kMaxSide) {
    return "image size must be 1..4096 pixels on each side";
  }
  if (frame.in == nullptr || frame.out == nullptr || frame.scratch == nullptr) return "NULL image buffer";
  switch (params.kind) {
    case Kind::blur:
      if (params.radius < 1 || params.radius > kMaxRadius) return "blur radius must be 1..20";
      return "";
    case Kind::grayscale:
    case Kind::sharpen:
    case Kind::edges:
      return "";
  }
  return "unknown filter";
}

void run_chunks(const Params& params, const Frame& frame, int pass, std::atomic<int>& next, int chunks) noexcept {
  for (int c; (c = next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
    run_pass(params, frame, pass, band_start(frame.height, c, chunks), band_start(frame.height, c + 1, chunks));
  }
}

int passes(Kind kind) noexcept { return kind == Kind::blur || kind == Kind::edges ? 2 : 1; }

void run_pass(const Params& params, const Frame& frame, int pass, int y0, int y1) noexcept {
  switch (params.kind) {
    case Kind::grayscale:
      return grayscale_rows(frame, y0, y1);
    case Kind::blur:
      if (pass == 0) return blur_pass(frame.in, frame.scratch, frame, params.radius, false, y0, y1);
      return blur_pass(frame.scratch, frame.out, frame, params.radius, true, y0, y1);
    case Kind::sharpen:
      return sharpen_rows(frame, y0, y1);
    case Kind::edges:
      if (pass == 0) return luma_rows(frame, y0, y1);
      return sobel_rows(frame, y0, y1);
  }
}

void apply(const Params& params, const Frame& frame) noexcept {
  for (int pass = 0; pass < passes(params.kind); ++pass) run_pass(params, frame, pass, 0, frame.height);
}

void make_sample(uint8_t* rgba, int width, int height) noexcept {
  // Gradients (smooth areas for the blur), concentric bands and a
  // checkerboard (edges for Sobel and sharpen), and a little noise.
  const int band = std::max(4, std::min(width, height) / 48);
  const int square = std::max(4, std::min(width, height) / 16);
  uint32_t seed = 0x9e3779b9u;  // xorshift32: the same noise everywhere
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      seed ^= seed << 13;
      seed ^= seed >> 17;
      seed ^= seed << 5;
      const int cx = x - width / 2, cy = y - height / 2;
      const bool in_band = (isqrt(cx * cx + cy * cy) / band) % 2 == 0;
      const bool in_board = x < width / 3 && y > height * 2 / 3 && ((x / square + y / square) % 2 == 0);
      const int noise = static_cast<int>(seed & 15) - 8;
      uint8_t* p = rgba + (static_cast<size_t>(y) * width + x) * 4;
      p[0] = clamp_byte(x * 255 / std::max(1, width - 1) + noise);
      p[1] = clamp_byte((in_band ? 190 : 60) + noise);
      p[2] = clamp_byte(in_board ? 20 : y * 255 / std::max(1, height - 1) - noise);
      p[3] = 255;
    }
  }
}

uint64_t checksum(const uint8_t* bytes, size_t size) noexcept {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= bytes[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

const char* name(Kind kind) noexcept {
  switch (kind) {
    case Kind::grayscale:
      return "grayscale";
    case Kind::blur:
      return "blur";
    case Kind::sharpen:
      return "sharpen";
    case Kind::edges:
      return "edges";
  }
  return "unknown";
}

}  // namespace wsync_filter
