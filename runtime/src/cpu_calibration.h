/*
 * cpu_calibration.h — the calibration file ws-sbmeasure --save writes and
 * the runtime reads at start-up: one line per CPU model,
 *
 *     S vendor family model stepping brand string
 *
 * e.g. "113 GenuineIntel 6 167 1 Intel(R) Xeon(R) Processor" (decimal
 * numbers; the brand is the rest of the line).  A record applies only to a
 * CPU whose CPUID gives exactly that vendor, family, model, stepping and
 * brand.  Lines that are blank or start with '#' are comments.
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

typedef struct ws_calibration_record {
  uint32_t S;
  ws_cpu cpu; /* vendor, family, model, stepping, brand */
} ws_calibration_record;

/* The file's path in path[n]; returns 1 if it came from
 * WS_CALIBRATION_FILE, 0 from the XDG/home default, -1 if none can be named
 * (no HOME) or it does not fit. */
int ws_calibration_path(ws_env_lookup lookup, void *ctx, char *path, size_t n);

/* One line (with or without its newline): 1 a record, 0 a comment or
 * blank, -1 malformed. */
int ws_calibration_parse_line(const char *line, ws_calibration_record *out);

/* The record as one line, newline included; -1 if it does not fit or the
 * CPU cannot be written as a record (unknown, blank in its vendor). */
int ws_calibration_format(const ws_calibration_record *r, char *buf, size_t n);

/* Whether the record is for exactly this CPU. */
int ws_calibration_matches(const ws_calibration_record *r, const ws_cpu *c);

typedef enum ws_calibration_result {
  WS_CALIB_FOUND,     /* *S set */
  WS_CALIB_NO_RECORD, /* readable, no record for this CPU */
  WS_CALIB_NO_FILE,   /* does not exist */
  WS_CALIB_BAD,       /* unreadable or malformed: err says where and why */
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

/* The S of the first record for exactly this CPU. */
ws_calibration_result ws_calibration_lookup(const char *path, const ws_cpu *c,
                                            uint32_t *S, char *err, size_t n);

#endif
