/*
 * init.c — start-up of -fws-race: the shadow memory, the report's
 * settings, the checked thread's stack, the C library's functions; the
 * process is made multi-threaded in glibc's eyes (below); then the main
 * thread is checked, as the first strand.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

/* A parallel run has worker threads, and the C and C++ libraries take
 * their thread-safe paths: libstdc++ updates a std::shared_ptr's count
 * with atomic operations (which never race) unless glibc says the process
 * has only ever had one thread (__libc_single_threaded), when it uses
 * plain ones.  The race run has one thread, and would check plain updates
 * that no parallel run makes: a thread started and joined here makes the
 * process multi-threaded for good, as in any parallel run. */
static void *nothing(void *arg) { return arg; }
static void be_multithreaded(void) {
  pthread_t t;
  if (!pthread_create(&t, NULL, nothing, NULL))
    pthread_join(t, NULL);
}

/* Every instrumented module's constructor calls it; the first call, on
 * the main thread, makes it the one that is checked. */
void __ws_race_init(void) {
  static int done;
  if (done)
    return;
  done = 1;
  be_multithreaded();
  ws_race_shadow_init();
  ws_race_report_init();
  ws_race_intercept_init();
  pthread_attr_t a;
  void *lo;
  size_t size;
  if (!pthread_getattr_np(pthread_self(), &a)) {
    if (!pthread_attr_getstack(&a, &lo, &size))
      ws_race_stack_init((uintptr_t)lo, size);
    pthread_attr_destroy(&a);
  }
  ws_race_collector = ws_race_collect;
  ws_race_thread = 1;
  ws_race_started = 1;
  ws_race_bags_start();
}

WS_RACE_NO_LIBCALLS_END
