/*
 * fatal.c — the runtime's one way to stop a program (fatal.h).  Two threads
 * may fail at once (two stacks overflowing): the first prints its line and
 * exits; the second waits for that exit (a second at most, then exits
 * itself, never a hang), so there is one line.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fatal.h"

static _Atomic int taken;

static void once(void) {
  if (!atomic_exchange_explicit(&taken, 1, memory_order_acq_rel))
    return;
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < 1000; i++)
    nanosleep(&ms, NULL);
  _exit(2);
}

void ws_vfatal_as(const char *who, const char *fmt, va_list ap) {
  once();
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  fflush(stdout);
  fprintf(stderr, "%s: %s\n", who, buf);
  _exit(2);
}

void ws_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ws_vfatal_as("ws", fmt, ap);
}

void ws_fatal_as(const char *who, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ws_vfatal_as(who, fmt, ap);
}

void ws_fatal_in_handler(const char *fmt, ...) {
  once();
  char buf[512] = "ws: ";
  va_list ap;
  va_start(ap, fmt);
  size_t len = 4 + ws_format_safe(buf + 4, sizeof buf - 5, fmt, ap);
  va_end(ap);
  buf[len++] = '\n';
  for (size_t done = 0; done < len;) {
    ssize_t w = write(2, buf + done, len - done);
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  _exit(2);
}

/* The output of ws_format_safe: a buffer and how much of it is used. */
typedef struct out {
  char *p;
  size_t n, len; /* room (n - 1 characters), used */
} out;

static void put(out *o, char c) {
  if (o->len + 1 < o->n)
    o->p[o->len++] = c;
}

static void put_unsigned(out *o, uintmax_t v, unsigned base) {
  char digits[3 * sizeof v];
  int k = 0;
  do {
    digits[k++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  while (k)
    put(o, digits[--k]);
}

size_t ws_format_safe(char *buf, size_t n, const char *fmt, va_list ap) {
  out o = {buf, n, 0};
  if (!n)
    return 0;
  for (const char *f = fmt; *f; f++) {
    if (*f != '%') {
      put(&o, *f);
      continue;
    }
    const char *spec = f++;
    int longs = 0, size = 0;
    for (; *f == 'l'; f++)
      longs++;
    if (*f == 'z') {
      size = 1;
      f++;
    }
    switch (*f) {
    case 'd':
    case 'i': {
      intmax_t v = size ? (intmax_t)va_arg(ap, ssize_t)
                 : longs >= 2 ? (intmax_t)va_arg(ap, long long)
                 : longs ? (intmax_t)va_arg(ap, long)
                         : (intmax_t)va_arg(ap, int);
      if (v < 0)
        put(&o, '-');
      put_unsigned(&o, v < 0 ? -(uintmax_t)v : (uintmax_t)v, 10);
      break;
    }
    case 'u':
    case 'x': {
      uintmax_t v = size ? (uintmax_t)va_arg(ap, size_t)
                  : longs >= 2 ? (uintmax_t)va_arg(ap, unsigned long long)
                  : longs ? (uintmax_t)va_arg(ap, unsigned long)
                          : (uintmax_t)va_arg(ap, unsigned);
      put_unsigned(&o, v, *f == 'x' ? 16 : 10);
      break;
    }
    case 'p':
      put(&o, '0');
      put(&o, 'x');
      put_unsigned(&o, (uintptr_t)va_arg(ap, void *), 16);
      break;
    case 's': {
      const char *s = va_arg(ap, const char *);
      for (s = s ? s : "(null)"; *s; s++)
        put(&o, *s);
      break;
    }
    case 'c':
      put(&o, (char)va_arg(ap, int));
      break;
    case '%':
      put(&o, '%');
      break;
    default: /* not ours: as it stands (nothing is consumed) */
      for (; spec <= f && *spec; spec++)
        put(&o, *spec);
      if (!*f)
        f--;
    }
  }
  buf[o.len] = '\0';
  return o.len;
}
