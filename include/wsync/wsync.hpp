// wsync/wsync.hpp: every wsync primitive in one include.
#pragma once

#include "wsync/barrier.hpp"
#include "wsync/cond_var.hpp"
#include "wsync/latch.hpp"
#include "wsync/mutex.hpp"
#include "wsync/once.hpp"
#include "wsync/semaphore.hpp"
#include "wsync/version.h"
#include "wsync/wait_group.hpp"
