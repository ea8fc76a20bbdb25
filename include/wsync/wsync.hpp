// wsync/wsync.hpp: every wsync primitive in one include.
#pragma once

#include "wsync/mutex.hpp"
#include "wsync/wait_group.hpp"
