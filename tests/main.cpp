// GoogleTest entry point for every wsync suite.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
#if GTEST_HAS_DEATH_TEST
  // The suites start threads; re-executing the binary for each death test is
  // the fork-safe style.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
#endif
  return RUN_ALL_TESTS();
}
