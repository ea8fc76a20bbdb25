// Must not compile: wsync counts in 31 bits where std::counting_semaphore
// may count to PTRDIFF_MAX (tests/CMakeLists.txt checks the message).
#include "wsync/semaphore.hpp"

wsync::CountingSemaphore<wsync::Semaphore::kMax + 1> too_large(0);
