// The demo's image filter (examples/filter): known values, the blur against
// its definition, and the pool, the pthread baseline and the benchmarks'
// ceiling agree with the single-threaded reference byte for byte, for any
// number of threads.
#include "filter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "pool.hpp"

namespace {

using wsync_filter::Kind;
using wsync_filter::Params;

struct Images {
  int width, height;
  std::vector<uint8_t> in, out, scratch;
  Images(int w, int h) : width(w), height(h), in(size()), out(size()), scratch(size()) {}
  size_t size() const { return static_cast<size_t>(width) * height * 4; }
  wsync_filter::Frame frame() { return {in.data(), out.data(), scratch.data(), width, height}; }
};

const Params kAll[] = {{Kind::grayscale, 0}, {Kind::blur, 1},    {Kind::blur, 5},
                       {Kind::blur, 20},     {Kind::sharpen, 0}, {Kind::edges, 0}};

TEST(Filter, KnownValuesOnFlatImages) {
  Images img(9, 7);
  for (size_t i = 0; i < img.size(); i += 4) {
    img.in[i] = 255, img.in[i + 1] = 0, img.in[i + 2] = 0, img.in[i + 3] = 200;
  }
  wsync_filter::apply({Kind::grayscale, 0}, img.frame());
  EXPECT_EQ(img.out[0], 77);  // (77 * 255 + 128) >> 8
  EXPECT_EQ(img.out[3], 200) << "alpha is kept";
  for (const Params& p : {Params{Kind::blur, 7}, Params{Kind::sharpen, 0}}) {
    wsync_filter::apply(p, img.frame());
    EXPECT_EQ(img.out, img.in) << wsync_filter::name(p.kind) << " of a flat image is the image";
  }
  wsync_filter::apply({Kind::edges, 0}, img.frame());
  for (size_t i = 0; i < img.size(); i += 4) ASSERT_EQ(img.out[i] + img.out[i + 3], 255) << "no edges, opaque";
}

TEST(Filter, EdgesFindAStep) {
  Images img(8, 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 8; ++x) {
      uint8_t* p = &img.in[(static_cast<size_t>(y) * 8 + x) * 4];
      p[0] = p[1] = p[2] = x < 4 ? 0 : 100;
      p[3] = 255;
    }
  }
  wsync_filter::apply({Kind::edges, 0}, img.frame());
  EXPECT_EQ(img.out[(8 + 0) * 4], 0);
  EXPECT_EQ(img.out[(8 + 3) * 4], 255) << "gx = 4 * 100 at the step, clamped";
  EXPECT_EQ(img.out[(8 + 7) * 4], 0);
}

// The blur by its definition, one output pixel at a time: the binomial
// weights C(2r, k) over the clamped neighbours, horizontally into a scratch
// image and then vertically, each channel rounded to nearest by >> 2r, alpha
// copied. The library sums whole rows (so that they vectorize) and in 32
// bits where they fit; this is what it must equal, byte for byte.
std::vector<uint8_t> blur_by_definition(const std::vector<uint8_t>& in, int width, int height, int radius) {
  std::vector<int64_t> weight(2 * static_cast<size_t>(radius) + 1);
  weight[0] = 1;
  for (int k = 1; k <= 2 * radius; ++k) weight[k] = weight[k - 1] * (2 * radius - k + 1) / k;
  const auto at = [width, height](const std::vector<uint8_t>& img, int x, int y, int c) {
    return img[(static_cast<size_t>(std::clamp(y, 0, height - 1)) * width + std::clamp(x, 0, width - 1)) * 4 + c];
  };
  std::vector<uint8_t> across(in.size()), out(in.size());
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<uint8_t>& src = pass == 0 ? in : across;
    std::vector<uint8_t>& dst = pass == 0 ? across : out;
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const size_t i = (static_cast<size_t>(y) * width + x) * 4;
        for (int c = 0; c < 3; ++c) {
          int64_t sum = 0;
          for (int k = -radius; k <= radius; ++k) {
            sum += weight[k + radius] * (pass == 0 ? at(src, x + k, y, c) : at(src, x, y + k, c));
          }
          dst[i + c] = static_cast<uint8_t>((sum + (int64_t{1} << (2 * radius - 1))) >> (2 * radius));
        }
        dst[i + 3] = in[i + 3];
      }
    }
  }
  return out;
}

TEST(Filter, BlurEqualsItsDefinitionAtEveryRadiusAndSize) {
  // Sizes narrower and shorter than the radius, where most taps are clamped.
  for (const auto [width, height] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{7, 5}, std::pair{41, 23}}) {
    Images img(width, height);
    wsync_filter::make_sample(img.in.data(), width, height);
    for (int radius = 1; radius <= wsync_filter::kMaxRadius; ++radius) {
      wsync_filter::apply({Kind::blur, radius}, img.frame());
      ASSERT_EQ(img.out, blur_by_definition(img.in, width, height, radius))
          << width << " x " << height << ", radius " << radius;
    }
  }
}

TEST(Filter, BlurOfExtremeValuesDoesNotOverflow) {
  // All 255 (the largest sums) and alternating 0 / 255 stripes, at the
  // radii on either side of the switch from one 32-bit sum to split ones.
  Images img(33, 17);
  for (size_t i = 0; i < img.size(); ++i) img.in[i] = (i / 4 / 3) % 2 ? 255 : 0;
  for (int radius : {11, 12, 13, 20}) {
    wsync_filter::apply({Kind::blur, radius}, img.frame());
    ASSERT_EQ(img.out, blur_by_definition(img.in, 33, 17, radius)) << "stripes, radius " << radius;
  }
  std::fill(img.in.begin(), img.in.end(), 255);
  for (int radius : {12, 13, 20}) {
    wsync_filter::apply({Kind::blur, radius}, img.frame());
    EXPECT_EQ(img.out, img.in) << "all 255, radius " << radius;
  }
}

TEST(Filter, PoolAndPthreadsMatchTheReferenceForEveryThreadCount) {
  Images ref(97, 61), got(97, 61);
  wsync_filter::make_sample(ref.in.data(), ref.width, ref.height);
  got.in = ref.in;
  wsync_filter::Pool pool(5);
  for (const Params& p : kAll) {
    wsync_filter::apply(p, ref.frame());
    for (int k = 1; k <= 5; ++k) {
      std::fill(got.out.begin(), got.out.end(), 0);
      ASSERT_EQ(pool.run(p, got.frame(), k), "");
      ASSERT_EQ(got.out, ref.out) << wsync_filter::name(p.kind) << " radius " << p.radius << " on " << k;
      std::fill(got.out.begin(), got.out.end(), 0);
      ASSERT_EQ(wsync_filter::run_with_pthreads(p, got.frame(), k), "");
      ASSERT_EQ(got.out, ref.out) << "pthreads: " << wsync_filter::name(p.kind) << " on " << k;
    }
  }
}

// run() does one of the k shares on the calling thread, and counts itself in
// done() while it does: even with no worker in the job (k = 1), a start()
// from another thread meanwhile is refused instead of taking over the job.
TEST(Filter, RunTakesPartAndCountsTheCallerAsRunning) {
  Images ref(512, 512), got(512, 512);
  wsync_filter::make_sample(ref.in.data(), ref.width, ref.height);
  got.in = ref.in;
  const Params blur{Kind::blur, 20};
  wsync_filter::apply(blur, ref.frame());
  wsync_filter::Pool pool(1);
  std::atomic<bool> finished{false};
  std::thread caller([&] {
    EXPECT_EQ(pool.run(blur, got.frame(), 1), "");
    finished.store(true);
  });
  bool seen = false;
  while (!finished.load() && !(seen = pool.done().count() != 0)) std::this_thread::yield();
  Images other(8, 8);
  if (seen) {
    const std::string_view refused = pool.start(blur, other.frame(), 1);
    if (refused.empty()) pool.done().wait();  // it took over: let it finish before `other` goes
    EXPECT_EQ(refused, "a filter job is already running");
  }
  caller.join();
  EXPECT_TRUE(seen) << "run(k = 1) finished without ever counting its caller in done()";
  EXPECT_EQ(pool.done().count(), 0);
  EXPECT_EQ(got.out, ref.out);
}

// The benchmarks' ceiling: bands that reach past their edges instead of
// meeting a barrier give the filter's output too, whatever the band height
// against the reach (a radius-20 blur in bands of 12 rows, bands of no rows).
TEST(Filter, BandsAloneMatchTheReference) {
  for (auto [width, height] : {std::pair{97, 61}, std::pair{5, 3}}) {
    Images ref(width, height), got(width, height);
    wsync_filter::make_sample(ref.in.data(), width, height);
    got.in = ref.in;
    for (const Params& p : kAll) {
      wsync_filter::apply(p, ref.frame());
      for (int k = 1; k <= 6; ++k) {
        std::fill(got.out.begin(), got.out.end(), 0);
        double ms = -1;
        ASSERT_EQ(wsync_filter::run_bands_alone(p, got.frame(), k, &ms), "");
        EXPECT_GE(ms, 0);
        ASSERT_EQ(got.out, ref.out) << wsync_filter::name(p.kind) << " radius " << p.radius << " in " << k
                                    << " bands of " << width << " x " << height;
      }
    }
  }
}

TEST(Filter, MoreThreadsThanRowsStillCoverEveryRow) {
  Images ref(5, 3), got(5, 3);
  wsync_filter::make_sample(ref.in.data(), 5, 3);
  got.in = ref.in;
  wsync_filter::Pool pool(6);
  wsync_filter::apply({Kind::blur, 3}, ref.frame());
  ASSERT_EQ(pool.run({Kind::blur, 3}, got.frame(), 6), "");
  EXPECT_EQ(got.out, ref.out);
  std::fill(got.out.begin(), got.out.end(), 0);
  ASSERT_EQ(wsync_filter::run_with_pthreads({Kind::blur, 3}, got.frame(), 6), "");
  EXPECT_EQ(got.out, ref.out) << "pthreads";
}

TEST(Filter, ChunksCoverEveryRowOnceAcrossThreads) {
  // A one-pass filter whose output depends on nothing but the row: each
  // chunk of rows is run by whichever thread takes it, and every row must
  // come out exactly as the reference has it, for chunk counts that do and
  // do not divide the height.
  for (int height : {1, 7, 64, 101}) {
    Images ref(9, height), got(9, height);
    wsync_filter::make_sample(ref.in.data(), 9, height);
    got.in = ref.in;
    wsync_filter::apply({Kind::grayscale, 1}, ref.frame());
    for (int threads : {1, 2, 3}) {
      std::fill(got.out.begin(), got.out.end(), 0);
      std::atomic<int> next{0};
      const int chunks = wsync_filter::chunk_count(height, threads);
      EXPECT_EQ(chunks, std::min(height, threads * wsync_filter::kChunksPerThread));
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&] { wsync_filter::run_chunks({Kind::grayscale, 1}, got.frame(), 0, next, chunks); });
      }
      for (std::thread& t : pool) t.join();
      EXPECT_EQ(got.out, ref.out) << "height " << height << ", " << threads << " threads";
      EXPECT_EQ(next.load(), chunks + threads) << "each thread stops at the first chunk past the end";
    }
  }
}

TEST(Filter, BadParametersAreRefusedWithAReason) {
  Images img(4, 4);
  wsync_filter::Pool pool(2);
  EXPECT_EQ(pool.start({Kind::blur, 0}, img.frame(), 1), "blur radius must be 1..20");
  EXPECT_EQ(pool.start({Kind::blur, 21}, img.frame(), 1), "blur radius must be 1..20");
  EXPECT_EQ(pool.start({static_cast<Kind>(9), 0}, img.frame(), 1), "unknown filter");
  EXPECT_EQ(pool.start({Kind::sharpen, 0}, img.frame(), 3), "thread count must be 1..the pool's size");
  EXPECT_EQ(pool.start({Kind::sharpen, 0}, img.frame(), 0), "thread count must be 1..the pool's size");
  wsync_filter::Frame bad = img.frame();
  bad.width = 0;
  EXPECT_EQ(pool.start({Kind::sharpen, 0}, bad, 1), "image size must be 1..4096 pixels on each side");
  bad = img.frame();
  bad.out = nullptr;
  EXPECT_EQ(pool.start({Kind::sharpen, 0}, bad, 1), "NULL image buffer");
  EXPECT_EQ(pool.done().count(), 0) << "nothing was started";
  double ms = -1;
  EXPECT_EQ(wsync_filter::run_bands_alone({Kind::blur, 0}, img.frame(), 1, &ms), "blur radius must be 1..20");
  EXPECT_EQ(wsync_filter::run_bands_alone({Kind::sharpen, 0}, img.frame(), 0, &ms), "thread count must be 1..256");
  EXPECT_EQ(wsync_filter::run_bands_alone({Kind::sharpen, 0}, img.frame(), 257, &ms), "thread count must be 1..256");
  EXPECT_EQ(wsync_filter::run_bands_alone({Kind::sharpen, 0}, bad, 1, &ms), "NULL image buffer");
  EXPECT_EQ(ms, -1) << "a refused job reports no time";
}

TEST(Filter, SampleAndChecksumAreDeterministic) {
  Images a(33, 17), b(33, 17);
  wsync_filter::make_sample(a.in.data(), 33, 17);
  wsync_filter::make_sample(b.in.data(), 33, 17);
  EXPECT_EQ(a.in, b.in);
  EXPECT_EQ(wsync_filter::checksum(nullptr, 0), 0xcbf29ce484222325ull);
  EXPECT_EQ(wsync_filter::checksum(reinterpret_cast<const uint8_t*>("a"), 1), 0xaf63dc4c8601ec8cull);
}

}  // namespace
