// filter_reference WIDTH HEIGHT [THREADS]: the checksums the browser tests
// compare the demo with. Builds the sample picture, runs every filter (blur
// at radius 1, 4 and 20) with a Pool of THREADS (default 1) and prints one
// JSON object: {"sample": "<hex>", "grayscale": "<hex>", "blur-1": ...}.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "filter.hpp"
#include "pool.hpp"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: filter_reference WIDTH HEIGHT [THREADS]\n");
    return 2;
  }
  const int width = std::atoi(argv[1]), height = std::atoi(argv[2]);
  const int threads = argc == 4 ? std::atoi(argv[3]) : 1;
  if (width < 1 || width > wsync_filter::kMaxSide || height < 1 || height > wsync_filter::kMaxSide || threads < 1 ||
      threads > 256) {
    std::fprintf(stderr, "filter_reference: sizes must be 1..%d and THREADS 1..256\n", wsync_filter::kMaxSide);
    return 2;
  }
  const size_t bytes = static_cast<size_t>(width) * height * 4;
  std::vector<uint8_t> in(bytes), out(bytes), scratch(bytes);
  wsync_filter::make_sample(in.data(), width, height);
  const wsync_filter::Frame frame{in.data(), out.data(), scratch.data(), width, height};
  wsync_filter::Pool pool(threads);

  std::printf("{\"sample\": \"%016" PRIx64 "\"", wsync_filter::checksum(in.data(), bytes));
  const struct {
    const char* label;
    wsync_filter::Params params;
  } runs[] = {
      {"grayscale", {wsync_filter::Kind::grayscale, 0}}, {"sharpen", {wsync_filter::Kind::sharpen, 0}},
      {"edges", {wsync_filter::Kind::edges, 0}},         {"blur-1", {wsync_filter::Kind::blur, 1}},
      {"blur-4", {wsync_filter::Kind::blur, 4}},         {"blur-20", {wsync_filter::Kind::blur, 20}},
  };
  for (const auto& run : runs) {
    const std::string_view problem = pool.run(run.params, frame, threads);
    if (!problem.empty()) {
      std::fprintf(stderr, "filter_reference: %.*s\n", static_cast<int>(problem.size()), problem.data());
      return 1;
    }
    std::printf(", \"%s\": \"%016" PRIx64 "\"", run.label, wsync_filter::checksum(out.data(), bytes));
  }
  std::printf("}\n");
  return 0;
}
