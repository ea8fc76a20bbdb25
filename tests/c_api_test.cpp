// Runs the C11 checks in c_api_test.c and checks C/C++ layout agreement.
#include <gtest/gtest.h>

#include <chrono>

#include "test_util.hpp"
#include "wsync/wsync.h"
#include "wsync/wsync.hpp"

extern "C" long c_api_counter_under_mutex(void);
extern "C" int c_api_single_thread_checks(void);
extern "C" unsigned c_api_sizes(void);
extern "C" int c_api_family_checks(void);

namespace {

TEST(CApi, StructsHaveTheCxxLayout) {
  EXPECT_EQ(c_api_sizes(), 4u * 100 + 4u * 10 + 4u);
  EXPECT_EQ(sizeof(wsync_mutex_t), sizeof(wsync::Mutex));
  EXPECT_EQ(sizeof(wsync_wg_t), sizeof(wsync::WaitGroup));
}

TEST(CApi, EveryCallFromC) {
  const int ok = c_api_single_thread_checks();
  EXPECT_TRUE(ok & 1) << "trylock on a free mutex";
  EXPECT_TRUE(ok & 2) << "trylock on a held mutex must fail";
  EXPECT_TRUE(ok & 4) << "lock_timeout(0) on a held mutex must fail";
  EXPECT_TRUE(ok & 8) << "lock_timeout(INFINITY) on a free mutex";
  EXPECT_TRUE(ok & 16) << "wg_wait_timeout with work pending must time out";
  EXPECT_TRUE(ok & 32) << "wg_wait_timeout at zero";
  EXPECT_TRUE(ok & 64) << "a negative timeout only tries";
}

TEST(CApi, CounterUnderMutexFromCThreads) { EXPECT_EQ(c_api_counter_under_mutex(), 40000); }

TEST(CApi, TheWholeFamilyFromCThreads) {
  const int ok = c_api_family_checks();
  EXPECT_TRUE(ok & 1) << "wsync_call_once ran its function exactly once";
  EXPECT_TRUE(ok & 2) << "the latch was released by four count_downs";
  EXPECT_TRUE(ok & 4) << "exactly one arrival per phase completed it (100 phases)";
  EXPECT_TRUE(ok & 8) << "every released item was acquired";
  EXPECT_TRUE(ok & 16) << "the semaphore ends empty";
  EXPECT_TRUE(ok & 32) << "timed waits on an empty semaphore, a pending latch and phase time out";
  EXPECT_TRUE(ok & 64) << "try forms and arrive_and_drop";
}

TEST(CApi, FamilyStructsHaveTheCxxLayout) {
  EXPECT_EQ(sizeof(wsync_cond_t), sizeof(wsync::CondVar));
  EXPECT_EQ(sizeof(wsync_sem_t), sizeof(wsync::Semaphore));
  EXPECT_EQ(sizeof(wsync_latch_t), sizeof(wsync::Latch));
  EXPECT_EQ(sizeof(wsync_barrier_t), sizeof(wsync::detail::BarrierWords));  // a Barrier<F> starts with them
  EXPECT_EQ(sizeof(wsync_once_t), sizeof(wsync::Once));
}

TEST(CApi, TimeoutInMillisecondsNeverEarly) {
  wsync_mutex_t m = WSYNC_MUTEX_INIT;
  wsync_mutex_lock(&m);
  wsync_wg_t wg = WSYNC_WG_INIT;
  wsync_wg_add(&wg, 1);
  std::thread([&] {
    auto start = wsync_test::Clock::now();
    EXPECT_FALSE(wsync_mutex_lock_timeout(&m, 25.0));
    EXPECT_GE(wsync_test::Clock::now() - start, std::chrono::milliseconds(25));
    start = wsync_test::Clock::now();
    EXPECT_FALSE(wsync_wg_wait_timeout(&wg, 25.0));
    EXPECT_GE(wsync_test::Clock::now() - start, std::chrono::milliseconds(25));
  }).join();
  wsync_mutex_unlock(&m);
  wsync_wg_done(&wg);
}

// The C and C++ views of one word are the same object.
TEST(CApi, CAndCxxShareOneWord) {
  wsync::Mutex m;
  auto* as_c = reinterpret_cast<wsync_mutex_t*>(&m);
  wsync_mutex_lock(as_c);
  EXPECT_FALSE(m.try_lock());
  m.unlock();
  EXPECT_TRUE(wsync_mutex_trylock(as_c));
  wsync_mutex_unlock(as_c);
}

}  // namespace
