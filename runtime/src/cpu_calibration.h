/*
 * cpu_calibration.h — the calibration file ws-calibrate writes and the
 * runtime reads at start-up: one line per CPU model,
 *
 *     S vendor family model stepping brand ; validated entries=E states=N
 *         passed=P margin=M litmus=R stress=R                (one line)
 *
 * e.g. "93 AuthenticAMD 25 17 1 AMD EPYC ; validated entries=64 states=2
 * passed=74 margin=19 litmus=1400000 stress=3000000" (decimal numbers; the
 * brand runs to the ';').  S is a number, or "inf" when no S survived the
 * validation (fence-free stealing off for this CPU).  After the ';', how
 * ws-calibrate validated S:
 *   entries  the largest store-buffer capacity ws-sbmeasure's method saw
 *   states   2 if its curve showed two capacities, else 1
 *   passed   the most earlier stores a load was seen to pass, in any run
 *   margin   what S adds to passed (ws_calibration_margin)
 *   litmus   litmus-test runs at S, at delta = the bound, none incorrect
 *   stress   take-stress rounds at S per fence-free variant, none bad
 * The older form without the ';' part (ws-sbmeasure --save wrote it, from
 * the knee alone) still reads, as a record that was never validated: the
 * runtime ignores it for its CPU with a warning.
 *
 * A record applies only to a CPU whose CPUID gives exactly that vendor,
 * family, model, stepping and brand.  Lines that are blank or start with
 * '#' are comments.
 *
 * Where: $WS_CALIBRATION_FILE; else $XDG_CONFIG_HOME/wsff/store-buffer.conf
 * (XDG_CONFIG_HOME set and absolute); else ~/.config/wsff/store-buffer.conf.
 */
#ifndef WS_CPU_CALIBRATION_H
#define WS_CPU_CALIBRATION_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_id.h"
#include "env.h"

#define WS_CALIBRATION_LINE_MAX 256
/* A larger file is not a calibration file (one line per CPU model). */
#define WS_CALIBRATION_FILE_MAX 65536

/* How ws-calibrate validated a record's S (the fields above). */
typedef struct ws_calibration_check {
  uint32_t entries, states, passed, margin;
  uint64_t litmus, stress;
} ws_calibration_check;

#define WS_CALIBRATION_RUNS_MAX 1000000000000000000ULL /* litmus=, stress= */

typedef struct ws_calibration_record {
  uint32_t S; /* 1..WS_MAX_STORE_BUFFER; 0 when inf */
  int inf;    /* no S survived: thieves never trust a stale T */
  ws_cpu cpu; /* vendor, family, model, stepping, brand */
  int validated;
  ws_calibration_check check; /* when validated */
} ws_calibration_record;

/* The margin over the most stores seen passed: a quarter of them, at least
 * 8 (docs/bounded-tso.md says why; ws/cpus.def's AMD rows use it too). */
uint32_t ws_calibration_margin(uint32_t passed);

/* The file's path in path[n]; returns 1 if it came from
 * WS_CALIBRATION_FILE, 0 from the XDG/home default, -1 if none can be named
 * (no HOME) or it does not fit. */
int ws_calibration_path(ws_env_lookup lookup, void *ctx, char *path, size_t n);

/* One line (with or without its newline): 1 a record, 0 a comment or
 * blank, -1 malformed.  A validated record is malformed also when its own
 * evidence refutes it: a finite S below `passed`, or no litmus run or
 * stress round at S. */
int ws_calibration_parse_line(const char *line, ws_calibration_record *out);

/* The record as one line, newline included; -1 if it does not fit or
 * cannot be read back (an unknown CPU, a blank in its vendor, a ';' in its
 * brand, fields out of range). */
int ws_calibration_format(const ws_calibration_record *r, char *buf, size_t n);

/* Whether the record is for exactly this CPU. */
int ws_calibration_matches(const ws_calibration_record *r, const ws_cpu *c);

typedef enum ws_calibration_result {
  WS_CALIB_FOUND,       /* a validated record for this CPU */
  WS_CALIB_NO_RECORD,   /* readable, no record for this CPU */
  WS_CALIB_NO_FILE,     /* does not exist */
  WS_CALIB_BAD,         /* unreadable or malformed: err says where and why */
  WS_CALIB_UNVALIDATED, /* this CPU's record was never validated: err says where */
} ws_calibration_result;

/* Called for each line of a well-formed file, in order: rec is the record
 * on it, or NULL for a comment or a blank line. */
typedef void (*ws_calibration_line_fn)(unsigned no, const char *line,
                                       const ws_calibration_record *rec, void *ctx);

/* Reads the file, never blocking: only a regular file of at most
 * WS_CALIBRATION_FILE_MAX bytes, whose every line must parse (a NUL byte
 * is malformed).  Calls fn for each line in order; a malformed line ends
 * the reading with WS_CALIB_BAD, and err names it.  Otherwise
 * WS_CALIB_NO_RECORD (the caller decides what it found). */
ws_calibration_result ws_calibration_read(const char *path, ws_calibration_line_fn fn,
                                          void *ctx, char *err, size_t n);

/* The first record for exactly this CPU, into *rec. */
ws_calibration_result ws_calibration_lookup(const char *path, const ws_cpu *c,
                                            ws_calibration_record *rec, char *err,
                                            size_t n);

#endif
