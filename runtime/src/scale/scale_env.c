/*
 * scale_env.c — libws_scale's variables of ws/env.def (WS_SCALE_OUT,
 * WS_SCALE_CLOCK, WS_SCALE_BURDEN, WS_SCALE_WORKERS) into a ws_scale_env,
 * with the runtime's parsers (env_value.h).
 */
#include <stdio.h>
#include <string.h>

#include "../env_value.h"
#include "scale_clock.h"
#include "scale_env.h"

int ws_scale_env_parse(ws_env_lookup lookup, void *ctx,
                       ws_scale_env *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  out->clock = -1;
  const char *v;
  uint64_t x;
  char what[128];

  if ((v = lookup("WS_SCALE_OUT", ctx))) {
    if (!*v)
      return ws_env_bad(err, n, "WS_SCALE_OUT", v, "the path of the CSV file");
    out->out = v;
  }
  if ((v = lookup("WS_SCALE_CLOCK", ctx))) {
    out->clock = ws_scale_clock_by_name(v);
    if (out->clock < 0)
      return ws_env_bad(err, n, "WS_SCALE_CLOCK", v,
                 ws_scale_clock_by_name("tsc") >= 0
                     ? "tsc, wall, cpu or instructions"
                     : "wall, cpu or instructions (no tsc on this processor)");
  }
  if ((v = lookup("WS_SCALE_BURDEN", ctx))) {
    snprintf(what, sizeof what,
             "the cost of a spawn in the clock's unit (ns or instructions), "
             "an integer from 0 to %u",
             WS_SCALE_MAX_BURDEN);
    if (ws_env_uint(v, 0, WS_SCALE_MAX_BURDEN, &x))
      return ws_env_bad(err, n, "WS_SCALE_BURDEN", v, what);
    out->burden_set = 1;
    out->burden = x;
  }
  if ((v = lookup("WS_SCALE_WORKERS", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d", WS_SCALE_MAX_WORKERS);
    if (ws_env_uint(v, 1, WS_SCALE_MAX_WORKERS, &x))
      return ws_env_bad(err, n, "WS_SCALE_WORKERS", v, what);
    out->workers = (int)x;
  }
  return 0;
}
