/*
 * env_value.h — reading the environment variables of ws/env.def and
 * parsing their values: the one parser that every wsff library uses (the
 * runtime's env.c, the pools' pool_env.c, libws_scale's scale_env.c,
 * libws_race's report.c, the calibration file's path).  A bad value is
 * one line, `VAR="value" is not valid: expected <what it accepts>`; the
 * caller stops with status 2.  Uses only fatal.h.
 */
#ifndef WS_ENV_VALUE_H
#define WS_ENV_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* Looks a variable up; NULL when unset.  ws_env_getenv in a program,
 * a table in tests and fuzzers. */
typedef const char *(*ws_env_lookup)(const char *name, void *ctx);

/* getenv, as a ws_env_lookup.  A WS_ name that ws/env.def does not list
 * is the library's bug, not the user's: it stops the program (ws_fatal),
 * so that the table stays the one list of the variables read. */
const char *ws_env_getenv(const char *name, void *ctx);
/* Whether ws/env.def lists `name`. */
int ws_env_listed(const char *name);

/* Strictly a decimal integer in [lo, hi] (no sign, no space, no trailing
 * text): 0 and *out, or -1. */
int ws_env_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* A size in bytes: a decimal integer with an optional K, M or G (powers of
 * 1024), in [lo, hi]: 0 and *out, or -1. */
int ws_env_size(const char *s, size_t lo, size_t hi, size_t *out);
/* The index of s among the NULL-terminated `words`, or -1. */
int ws_env_choice(const char *s, const char *const *words);
/* Writes the one line for `var`'s bad value `val` into err (control
 * characters of the value shown as '?'), and returns -1. */
int ws_env_bad(char *err, size_t n, const char *var, const char *val, const char *accepts);
/* The same line, and the program stops (ws_fatal): for a library that
 * reads a variable where it is used, not in a parse at start-up. */
__attribute__((noreturn)) void ws_env_refuse(const char *var, const char *val,
                                             const char *accepts);

#endif
