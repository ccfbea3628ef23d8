/*
 * heap.c — freed memory forgets its accesses: the next block malloc places
 * there is new memory, not a race with the strands that used the old one.  free and realloc are the
 * program's (it exports them, so libc's callers, C++'s operator delete
 * among them, come here too) and go on to libc's.
 */
#define _GNU_SOURCE
#include <malloc.h>

#include "race.h"

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
