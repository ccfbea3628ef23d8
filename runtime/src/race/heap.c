/*
 * heap.c — freed memory forgets its accesses: the next block malloc places
 * there is new memory, not a race with the strands that used the old one.
 * free and realloc are the program's (it exports them, so libc's callers,
 * C++'s operator delete among them, come here too) and go on to libc's.
 *
 * Every block freed forgets, whoever frees it: the checked code, the code
 * that is not checked on the checked thread (a reducer's reduce or
 * destroy, the runtime), or another thread — whose request the checked
 * thread carries out before its next check that could see the block
 * (shadow.c).  realloc forgets the old block when it moves, and the tail
 * it cut off when it shrinks a block in place.
 */
#define _GNU_SOURCE
#include <malloc.h>

#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

static void forget(void *p, size_t n) {
  if (!n)
    return;
  if (ws_race_thread)
    ws_race_forget((uintptr_t)p, n);
  else if (ws_race_started)
    ws_race_forget_later((uintptr_t)p, n);
}

void free(void *p) {
  if (p && ws_race_started)
    forget(p, malloc_usable_size(p));
  __libc_free(p);
}

void *realloc(void *p, size_t n) {
  if (!p || !ws_race_started)
    return __libc_realloc(p, n);
  size_t old = malloc_usable_size(p);
  if (!n) { /* glibc frees the block */
    forget(p, old);
    return __libc_realloc(p, n);
  }
  void *q = __libc_realloc(p, n);
  if (!q)
    return q;
  if (q != p) {
    forget(p, old);
  } else {
    size_t now = malloc_usable_size(q);
    if (now < old)
      forget((char *)p + now, old - now);
  }
  return q;
}

WS_RACE_NO_LIBCALLS_END
