/*
 * heap.c — start-up of -fws-race, and freed memory forgetting its
 * accesses: the next block malloc places there is new memory, not a race
 * with the strands that used the old one.  free and realloc are the
 * program's (it exports them, so libc's callers, C++'s operator delete
 * among them, come here too) and go on to libc's.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>

#include "race.h"

extern void __libc_free(void *p);
extern void *__libc_realloc(void *p, size_t n);

/* Every instrumented module's constructor calls it; the first call, on
 * the main thread, makes it the one that is checked. */
void __tsan_init(void) {
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

void ws_race_ignore_begin(void) { ws_race_checked--; }
void ws_race_ignore_end(void) { ws_race_checked++; }

void free(void *p) {
  if (p && ws_race_checked > 0)
    ws_race_forget((uintptr_t)p, malloc_usable_size(p));
  __libc_free(p);
}

void *realloc(void *p, size_t n) {
  size_t old = p && ws_race_checked > 0 ? malloc_usable_size(p) : 0;
  void *q = __libc_realloc(p, n);
  if (old && q && q != p)
    ws_race_forget((uintptr_t)p, old);
  return q;
}
