/* env.c — parsing of WS_NUM_WORKERS, WS_DEQUE, WS_STORE_BUFFER,
 * WS_DEQUE_SIZE, WS_STACK_SIZE, WS_STATS and WS_BARRIER. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "env.h"

/* Strictly a decimal integer in [lo, hi]: no sign games, no trailing junk. */
static int parse_uint(const char *s, long lo, long hi, long *out) {
  if (!*s)
    return -1;
  for (const char *p = s; *p; p++)
    if (*p < '0' || *p > '9')
      return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < (unsigned long long)lo || v > (unsigned long long)hi)
    return -1;
  *out = (long)v;
  return 0;
}

/* A size in bytes: a decimal integer with an optional K, M or G (powers of
 * 1024), in [lo, hi]. */
static int parse_size(const char *s, size_t lo, size_t hi, size_t *out) {
  char digits[32];
  size_t n = strlen(s);
  unsigned shift = 0;
  if (n > 0) {
    switch (s[n - 1]) {
    case 'K': shift = 10; n--; break;
    case 'M': shift = 20; n--; break;
    case 'G': shift = 30; n--; break;
    }
  }
  long v;
  if (n == 0 || n >= sizeof digits)
    return -1;
  memcpy(digits, s, n);
  digits[n] = 0;
  if (parse_uint(digits, 1, (long)(hi >> shift), &v))
    return -1;
  size_t bytes = (size_t)v << shift;
  if (bytes < lo)
    return -1;
  *out = bytes;
  return 0;
}

static int bad(char *err, size_t n, const char *var, const char *val,
               const char *accepts) {
  snprintf(err, n, "%s=\"%s\" is not valid: expected %s", var, val, accepts);
  /* One line, whatever the value holds. */
  for (char *p = err; n && *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      *p = '?';
  return -1;
}

int ws_env_parse(ws_env_lookup lookup, void *ctx, ws_env *out, char *err,
                 size_t n) {
  memset(out, 0, sizeof *out);
  const char *v;
  long x;
  char what[128];

  if ((v = lookup("WS_NUM_WORKERS", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d", WS_MAX_WORKERS);
    if (parse_uint(v, 1, WS_MAX_WORKERS, &x))
      return bad(err, n, "WS_NUM_WORKERS", v, what);
    out->nworkers = (int)x;
  }
  if ((v = lookup("WS_DEQUE", ctx))) {
    out->deque = ws_variant_by_name(v);
    if (!out->deque) {
      snprintf(what, sizeof what, "one of %s", ws_variant_names());
      return bad(err, n, "WS_DEQUE", v, what);
    }
  }
  if ((v = lookup("WS_STORE_BUFFER", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d, or inf",
             WS_MAX_STORE_BUFFER);
    if (strcmp(v, "inf") == 0) {
      out->S_inf = 1;
    } else if (parse_uint(v, 1, WS_MAX_STORE_BUFFER, &x)) {
      return bad(err, n, "WS_STORE_BUFFER", v, what);
    }
    out->s_set = 1;
    out->S = out->S_inf ? 0 : (uint32_t)x;
  }
  if ((v = lookup("WS_DEQUE_SIZE", ctx))) {
    snprintf(what, sizeof what, "an integer from %d to %ld (tasks per worker)",
             WS_MIN_DEQUE_SIZE, (long)WS_MAX_DEQUE_SIZE);
    if (parse_uint(v, WS_MIN_DEQUE_SIZE, WS_MAX_DEQUE_SIZE, &x))
      return bad(err, n, "WS_DEQUE_SIZE", v, what);
    size_t p = 1;
    while (p < (size_t)x)
      p <<= 1;
    out->deque_size = p;
  }
  if ((v = lookup("WS_STACK_SIZE", ctx))) {
    snprintf(what, sizeof what,
             "bytes, optionally with K, M or G, from %luK to %luG (the stack of "
             "each worker thread)",
             (unsigned long)(WS_MIN_STACK_SIZE >> 10),
             (unsigned long)(WS_MAX_STACK_SIZE >> 30));
    if (parse_size(v, WS_MIN_STACK_SIZE, WS_MAX_STACK_SIZE, &out->stack_size))
      return bad(err, n, "WS_STACK_SIZE", v, what);
  }
  if ((v = lookup("WS_STATS", ctx))) {
    if (strcmp(v, "0") == 0)
      out->stats = 0;
    else if (strcmp(v, "1") == 0)
      out->stats = 1;
    else
      return bad(err, n, "WS_STATS", v, "0 or 1");
  }
  if ((v = lookup("WS_BARRIER", ctx))) {
    if (strcmp(v, "auto") == 0)
      out->barrier_signal = 0;
    else if (strcmp(v, "signal") == 0)
      out->barrier_signal = 1;
    else
      return bad(err, n, "WS_BARRIER", v, "auto or signal");
  }
  return 0;
}
