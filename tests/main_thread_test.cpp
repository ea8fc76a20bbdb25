// wsync/main_thread.h on every target: the setters return the previous value
// and ignore what they cannot use; every thread a test runs on may block.
#include "wsync/main_thread.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

namespace {

TEST(MainThreadOptions, SpinBudgetDefaultsTo50usAndIgnoresBadValues) {
  const double original = wsync_set_main_thread_spin_us(10);
  EXPECT_EQ(original, 50);
  EXPECT_EQ(wsync_set_main_thread_spin_us(-1), 10);            // ignored
  EXPECT_EQ(wsync_set_main_thread_spin_us(std::nan("")), 10);  // ignored
  EXPECT_EQ(wsync_set_main_thread_spin_us(2e6), 10);           // above 1 s: ignored
  EXPECT_EQ(wsync_set_main_thread_spin_us(original), 10);
}

TEST(MainThreadOptions, WarningThresholdDefaultsTo100msAndAcceptsInfinity) {
  const double original = wsync_set_main_thread_warn_ms(INFINITY);
  EXPECT_EQ(original, 100);
  EXPECT_EQ(wsync_set_main_thread_warn_ms(-5), INFINITY);  // ignored
  EXPECT_EQ(wsync_set_main_thread_warn_ms(0), INFINITY);
  EXPECT_EQ(wsync_set_main_thread_warn_ms(original), 0);
}

TEST(MainThreadOptions, AbortDefaultsToOff) {
  EXPECT_FALSE(wsync_set_main_thread_abort(true));
  EXPECT_TRUE(wsync_set_main_thread_abort(false));
}

TEST(MainThreadOptions, EveryTestThreadMayBlock) {
  // Natively always; in wasm the suites run on pthreads (PROXY_TO_PTHREAD).
  EXPECT_TRUE(wsync_thread_can_block());
  bool other = false;
  std::thread([&] { other = wsync_thread_can_block(); }).join();
  EXPECT_TRUE(other);
}

TEST(MainThreadOptions, TheSuitesHaveNoSuspension) {
  // Natively there is none; the wasm suites are linked without Asyncify or
  // JSPI (the browser pages test those: tests/browser/main_thread.test.mjs).
  EXPECT_EQ(wsync_main_thread_suspension(), WSYNC_SUSPENSION_NONE);
}

}  // namespace
