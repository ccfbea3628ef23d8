/*
 * calibration_fuzz.c — libFuzzer target of the calibration file's reader
 * (cpu_calibration.c), on arbitrary text, judged by what
 * cpu_calibration.h promises:
 *
 *   - ws_calibration_parse_line returns -1, 0 or 1; 0 exactly for a blank
 *     line or a '#' comment; a record has S in 1..WS_MAX_STORE_BUFFER, the
 *     number the line starts with, or inf when the line starts with it,
 *     fields within CPUID's ranges, and a vendor and brand that are
 *     terminated strings of one line without trailing blanks or a ';' in
 *     the brand; it is validated exactly when the line has "; validated",
 *     and then its check is within range and does not refute its own S
 *     (S >= passed, litmus and stress runs, unless S is inf);
 *   - a record ws_calibration_format writes reads back as the same record,
 *     and a buffer too short gets -1, never an overrun;
 *   - ws_calibration_lookup on the text as a file finds the first record
 *     for the CPU of its first record when that record is validated, and
 *     says it is unvalidated otherwise, or reports the file bad; its reason
 *     is one terminated line; it never claims a record the file does not
 *     have; a file with a NUL byte, or larger than WS_CALIBRATION_FILE_MAX,
 *     is bad;
 *   - ws_calibration_path names WS_CALIBRATION_FILE when set (1), else a
 *     store-buffer.conf under XDG_CONFIG_HOME or HOME (0), else -1, and
 *     the path is a terminated string within its buffer.
 *
 * Input: byte 0 is the size of the format and path buffers (0 to 255);
 * the rest is the text: its first line is also parsed alone, its first
 * three lines are WS_CALIBRATION_FILE, XDG_CONFIG_HOME and HOME for the
 * path (an empty line: unset).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cpu_calibration.h"

static const uint8_t *input;
static size_t input_size;

static _Noreturn void fail(const char *what) {
  fprintf(stderr, "calibration_fuzz: %s\ninput text: \"", what);
  for (size_t i = 1; i < input_size; i++)
    fprintf(stderr, input[i] >= 0x20 && input[i] < 0x7f ? "%c" : "\\x%02x",
            input[i]);
  fprintf(stderr, "\"\n");
  abort();
}

static int is_comment(const char *line) {
  line += strspn(line, " \t");
  return *line == '#' || *line == '\n' || *line == '\r' || *line == '\0';
}

static int terminated(const char *s, size_t n) { return memchr(s, '\0', n) != NULL; }

static int same_record(const ws_calibration_record *a,
                       const ws_calibration_record *b) {
  const ws_calibration_check *x = &a->check, *y = &b->check;
  return a->S == b->S && a->inf == b->inf && strcmp(a->cpu.vendor, b->cpu.vendor) == 0 &&
         a->cpu.family == b->cpu.family && a->cpu.model == b->cpu.model &&
         a->cpu.stepping == b->cpu.stepping &&
         strcmp(a->cpu.brand, b->cpu.brand) == 0 && a->validated == b->validated &&
         (!a->validated ||
          (x->entries == y->entries && x->states == y->states && x->passed == y->passed &&
           x->margin == y->margin && x->litmus == y->litmus && x->stress == y->stress));
}

/* Checks one line; 1 with *rec when it is a record. */
static int check_line(const char *line, size_t bufsize,
                      ws_calibration_record *rec) {
  int r = ws_calibration_parse_line(line, rec);
  if (r < -1 || r > 1)
    fail("parse_line returned neither -1, 0 nor 1");
  if ((r == 0) != is_comment(line))
    fail("parse_line: 0 for a line that is not blank nor a comment, or not "
         "0 for one that is");
  if (r != 1)
    return 0;
  const ws_cpu *c = &rec->cpu;
  const char *digits = line + strspn(line, " \t");
  if (rec->inf ? strncmp(digits, "inf ", 4) || rec->S
               : rec->S < 1 || rec->S > WS_MAX_STORE_BUFFER ||
                     strtoul(digits, NULL, 10) != rec->S)
    fail("parse_line: S is not the number (or inf) the line starts with, in range");
  const ws_calibration_check *v = &rec->check;
  if (rec->validated != (strstr(line, "; validated") != NULL))
    fail("parse_line: validated, but the line does not say so, or the other way");
  if (rec->validated &&
      (v->entries > WS_MAX_STORE_BUFFER || v->states < 1 || v->states > 2 ||
       v->passed > WS_MAX_STORE_BUFFER || v->margin > WS_MAX_STORE_BUFFER ||
       v->litmus > WS_CALIBRATION_RUNS_MAX || v->stress > WS_CALIBRATION_RUNS_MAX))
    fail("parse_line: a check field out of range");
  if (rec->validated && !rec->inf && (rec->S < v->passed || !v->litmus || !v->stress))
    fail("parse_line: a validated record whose own evidence refutes it");
  if (!c->known || c->family > 0xfff || c->model > 0xff || c->stepping > 0xf)
    fail("parse_line: a field out of CPUID's range");
  if (!terminated(c->vendor, sizeof c->vendor) || !c->vendor[0] ||
      !terminated(c->brand, sizeof c->brand))
    fail("parse_line: vendor or brand not a terminated string");
  size_t blen = strlen(c->brand);
  if (strpbrk(c->vendor, " \t\r\n") || strpbrk(c->brand, ";\r\n") ||
      (blen && c->brand[blen - 1] == ' '))
    fail("parse_line: vendor or brand with blanks it cannot have");

  /* Written back, it reads as the same record. */
  char *buf = malloc(bufsize ? bufsize : 1);
  if (ws_calibration_format(rec, buf, bufsize) == 0) {
    size_t len = strnlen(buf, bufsize);
    if (len == bufsize || len == 0 || buf[len - 1] != '\n' ||
        memchr(buf, '\n', len - 1))
      fail("format: not one terminated line ending in a newline");
    ws_calibration_record back;
    if (ws_calibration_parse_line(buf, &back) != 1 || !same_record(rec, &back))
      fail("format then parse_line does not give the record back");
  }
  free(buf);
  return 1;
}

static const char *env_value[3];

static const char *lookup(const char *name, void *ctx) {
  (void)ctx;
  static const char *const names[3] = {"WS_CALIBRATION_FILE",
                                       "XDG_CONFIG_HOME", "HOME"};
  for (int i = 0; i < 3; i++)
    if (strcmp(name, names[i]) == 0)
      return env_value[i];
  return NULL;
}

static void check_path(char *text, size_t bufsize) {
  char *lines[3] = {0};
  char *p = text;
  for (int i = 0; i < 3 && p; i++) {
    lines[i] = p;
    p = strchr(p, '\n');
    if (p)
      *p++ = '\0';
  }
  for (int i = 0; i < 3; i++)
    env_value[i] = lines[i] && *lines[i] ? lines[i] : NULL;
  char *path = malloc(bufsize ? bufsize : 1);
  int r = ws_calibration_path(lookup, NULL, path, bufsize);
  if (r < -1 || r > 1)
    fail("path returned neither -1, 0 nor 1");
  if (r >= 0 && !terminated(path, bufsize))
    fail("path: not a terminated string within the buffer");
  if (r == 1 && (!env_value[0] || strcmp(path, env_value[0]) != 0))
    fail("path: 1, but not WS_CALIBRATION_FILE");
  if (r == 0) {
    const char *tail = "/wsff/store-buffer.conf";
    size_t n = strlen(path), t = strlen(tail);
    if (env_value[0] || n < t || strcmp(path + n - t, tail) != 0)
      fail("path: 0, but not a store-buffer.conf under XDG_CONFIG_HOME or HOME");
  }
  if (r == -1 && env_value[0] && strlen(env_value[0]) < bufsize)
    fail("path: -1, though WS_CALIBRATION_FILE is set and fits");
  free(path);
}

static void check_lookup(const char *file, const char *text, size_t size) {
  FILE *f = fopen(file, "w");
  if (!f || fwrite(text, 1, size, f) != size || fclose(f))
    fail("cannot write the scratch file");
  /* The CPU of the first record, so that a match can happen. */
  ws_calibration_record first = {0};
  const char *line = text;
  int have = 0;
  while (!have && line < text + size) {
    char one[WS_CALIBRATION_LINE_MAX + 2];
    size_t len = strcspn(line, "\n");
    if (len > WS_CALIBRATION_LINE_MAX)
      break;
    memcpy(one, line, len);
    one[len] = '\0';
    have = ws_calibration_parse_line(one, &first) == 1;
    line += len + 1;
  }
  ws_cpu none = {0};
  const ws_cpu *cpu = have ? &first.cpu : &none;
  ws_calibration_record found;
  char err[128];
  memset(err, 'x', sizeof err);
  ws_calibration_result r = ws_calibration_lookup(file, cpu, &found, err, sizeof err);
  int must_be_bad = memchr(text, '\0', size) || size > WS_CALIBRATION_FILE_MAX;
  if (must_be_bad && r != WS_CALIB_BAD)
    fail("lookup: a file with a NUL byte or too large is not reported bad");
  switch (r) {
  case WS_CALIB_FOUND:
    if (!have || !found.validated)
      fail("lookup: found a record the file does not have, or an unvalidated one");
    if (!same_record(&found, &first))
      fail("lookup: the record found is not the first one for this CPU");
    break;
  case WS_CALIB_UNVALIDATED:
    if (!have || first.validated || !terminated(err, sizeof err) || strpbrk(err, "\n\r"))
      fail("lookup: unvalidated, but the first record is not, or no one-line reason");
    break;
  case WS_CALIB_NO_RECORD:
    if (have)
      fail("lookup: no record for the CPU of the file's first record");
    break;
  case WS_CALIB_BAD:
    if (!terminated(err, sizeof err) || strpbrk(err, "\n\r"))
      fail("lookup: the reason is not one terminated line");
    break;
  case WS_CALIB_NO_FILE:
    fail("lookup: the file it was given does not exist");
  default:
    fail("lookup: not a ws_calibration_result");
  }
}

static char scratch[64];

static void remove_scratch(void) { unlink(scratch); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!scratch[0]) {
    snprintf(scratch, sizeof scratch, "/tmp/calibration_fuzz.%d", (int)getpid());
    atexit(remove_scratch);
  }
  if (size < 1)
    return -1;
  input = data;
  input_size = size;
  size_t bufsize = data[0];
  size_t n = size - 1;
  char *text = malloc(n + 1);
  memcpy(text, data + 1, n);
  text[n] = '\0';

  ws_calibration_record rec;
  check_line(text, bufsize, &rec);
  check_lookup(scratch, text, n);
  check_path(text, bufsize);
  free(text);
  return 0;
}
