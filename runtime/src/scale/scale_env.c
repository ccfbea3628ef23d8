/*
 * scale_env.c — parsing of WS_SCALE_OUT, WS_SCALE_CLOCK, WS_SCALE_BURDEN
 * and WS_SCALE_WORKERS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scale_clock.h"
#include "scale_env.h"

/* Strictly a decimal integer in [lo, hi]. */
static int parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!*s || strlen(s) > 19)
    return -1;
  for (const char *p = s; *p; p++)
    if (*p < '0' || *p > '9')
      return -1;
  errno = 0;
  unsigned long long v = strtoull(s, NULL, 10);
  if (errno || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

static int bad(char *err, size_t n, const char *var, const char *val,
               const char *accepts) {
  snprintf(err, n, "%s=\"%s\" is not valid: expected %s", var, val, accepts);
  for (char *p = err; n && *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f)
      *p = '?';
  return -1;
}

int ws_scale_env_parse(ws_scale_env_lookup lookup, void *ctx,
                       ws_scale_env *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  out->clock = -1;
  const char *v;
  uint64_t x;
  char what[128];

  if ((v = lookup("WS_SCALE_OUT", ctx))) {
    if (!*v)
      return bad(err, n, "WS_SCALE_OUT", v, "the path of the CSV file");
    out->out = v;
  }
  if ((v = lookup("WS_SCALE_CLOCK", ctx))) {
    out->clock = ws_scale_clock_by_name(v);
    if (out->clock < 0)
      return bad(err, n, "WS_SCALE_CLOCK", v,
                 ws_scale_clock_by_name("tsc") >= 0
                     ? "tsc, wall, cpu or instructions"
                     : "wall, cpu or instructions (no tsc on this processor)");
  }
  if ((v = lookup("WS_SCALE_BURDEN", ctx))) {
    snprintf(what, sizeof what,
             "the cost of a spawn in the clock's unit (ns or instructions), "
             "an integer from 0 to %u",
             WS_SCALE_MAX_BURDEN);
    if (parse_uint(v, 0, WS_SCALE_MAX_BURDEN, &x))
      return bad(err, n, "WS_SCALE_BURDEN", v, what);
    out->burden_set = 1;
    out->burden = x;
  }
  if ((v = lookup("WS_SCALE_WORKERS", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d", WS_SCALE_MAX_WORKERS);
    if (parse_uint(v, 1, WS_SCALE_MAX_WORKERS, &x))
      return bad(err, n, "WS_SCALE_WORKERS", v, what);
    out->workers = (int)x;
  }
  return 0;
}
