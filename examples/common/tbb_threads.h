/*
 * tbb_threads.h — the thread count and stack size of the oneTBB peers.
 *
 * oneTBB reads no environment variable for its thread count, so the peers
 * read TBB_NUM_THREADS (default: all CPUs) the way our programs read
 * WS_NUM_WORKERS and the OpenMP ones OMP_NUM_THREADS.  Worker stacks get
 * 64 MiB, as the wsff runtime's do, so deep trees (uts T3L) fit.
 */
#ifndef WS_EXAMPLES_TBB_THREADS_H
#define WS_EXAMPLES_TBB_THREADS_H

#include <tbb/global_control.h>
#include <tbb/info.h>

#include <cstdio>
#include <cstdlib>

class tbb_threads {
public:
  tbb_threads()
      : threads_(tbb::global_control::max_allowed_parallelism, count()),
        stack_(tbb::global_control::thread_stack_size, 64UL << 20) {}

  static std::size_t count() {
    const char *s = std::getenv("TBB_NUM_THREADS");
    if (!s)
      return static_cast<std::size_t>(tbb::info::default_concurrency());
    char *end;
    long v = std::strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 1024) {
      std::fprintf(stderr,
                   "TBB_NUM_THREADS='%s': expected a number of threads, 1..1024\n", s);
      std::exit(2);
    }
    return static_cast<std::size_t>(v);
  }

private:
  tbb::global_control threads_;
  tbb::global_control stack_;
};

#endif
