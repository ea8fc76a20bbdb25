// Misuse reporting: one line on stderr, then abort().
#include <cstdio>
#include <cstdlib>

#include "wsync/detail/futex.hpp"

namespace wsync {
namespace detail {

void fatal(const char* message) noexcept {
  // One fputs of the whole line (not two writes) so that concurrent reports
  // do not interleave mid-line; stderr is unbuffered.
  char line[256];
  std::snprintf(line, sizeof line, "%s\n", message);
  std::fputs(line, stderr);
  std::abort();
}

}  // namespace detail
}  // namespace wsync
