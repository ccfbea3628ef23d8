/*
 * init.c — start-up of -fws-race: the shadow memory, the report's
 * settings, the checked thread's stack; then the main thread is checked.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "race.h"

/* Every instrumented module's constructor calls it; the first call, on
 * the main thread, makes it the one that is checked. */
void __ws_race_init(void) {
  static int done;
  if (done)
    return;
  done = 1;
  ws_race_shadow_init();
  ws_race_report_init();
  pthread_attr_t a;
  void *lo;
  size_t size;
  if (!pthread_getattr_np(pthread_self(), &a)) {
    if (!pthread_attr_getstack(&a, &lo, &size))
      ws_race_stack_init((uintptr_t)lo, size);
    pthread_attr_destroy(&a);
  }
  ws_race_checked = 1;
}

/* ThreadSanitizer's instrumentation's name for it. */
void __tsan_init(void) { __ws_race_init(); }
