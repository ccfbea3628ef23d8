/*
 * scale_env.h — the environment of a program built with -fws-scale, parsed
 * with the runtime's parsers (env_value.h): a bad value is one line naming the variable and
 * what it accepts, and the program stops (status 2) before main.
 */
#ifndef WS_SCALE_ENV_H
#define WS_SCALE_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "../env_value.h"

#define WS_SCALE_DEFAULT_OUT "ws-scale.csv"
/* What the burdened span charges every spawn, in ns or in instructions:
 * see docs/scale.md for where the figures come from. */
#define WS_SCALE_DEFAULT_BURDEN_NS 1000
#define WS_SCALE_DEFAULT_BURDEN_INSTRUCTIONS 2500
#define WS_SCALE_DEFAULT_WORKERS 16
#define WS_SCALE_MAX_BURDEN 1000000000u
#define WS_SCALE_MAX_WORKERS 1024

typedef struct ws_scale_env {
  const char *out;    /* WS_SCALE_OUT: the CSV file; NULL: not set */
  int clock;          /* WS_SCALE_CLOCK: a ws_scale_clock_id; -1: not set */
  int burden_set;     /* WS_SCALE_BURDEN given */
  uint64_t burden;    /*   its value, in the clock's unit */
  int workers;        /* WS_SCALE_WORKERS: last P of the table; 0: not set */
} ws_scale_env;

/* Returns 0, or -1 with one line (no newline) in err. */
int ws_scale_env_parse(ws_env_lookup lookup, void *ctx,
                       ws_scale_env *out, char *err, size_t errlen);

#endif
