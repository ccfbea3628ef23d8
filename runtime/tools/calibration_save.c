/* calibration_save.c — rewrite through a temporary file and rename, so a
 * reader never sees half a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calibration_save.h"

static const char header[] =
    "# wsff store-buffer calibration, written by ws-sbmeasure --save and read\n"
    "# by the runtime at start-up (docs/bounded-tso.md).  One line per CPU:\n"
    "# S vendor family model stepping brand\n";

/* mkdir -p of the directories above path. */
static int make_parents(const char *path, char *err, size_t errlen) {
  char dir[1024];
  if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
    snprintf(err, errlen, "%s: path too long", path);
    return -1;
  }
  for (char *s = dir + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = 0;
    if (mkdir(dir, 0755) && errno != EEXIST) {
      snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
      return -1;
    }
    *s = '/';
  }
  return 0;
}

int calibration_save(const char *path, const ws_calibration_record *rec,
                     char *err, size_t errlen) {
  char record[WS_CALIBRATION_LINE_MAX + 2], tmp[1100];
  if (ws_calibration_format(rec, record, sizeof record)) {
    snprintf(err, errlen, "this CPU cannot be written as a calibration record");
    return -1;
  }
  if (make_parents(path, err, errlen))
    return -1;
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *out = fopen(tmp, "w");
  if (!out) {
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    return -1;
  }
  FILE *in = fopen(path, "r");
  if (!in && errno != ENOENT) {
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    goto fail;
  }
  if (!in)
    fputs(header, out);
  char line[WS_CALIBRATION_LINE_MAX + 2];
  ws_calibration_record old;
  for (unsigned no = 1; in && fgets(line, sizeof line, in); no++) {
    int r = strlen(line) > WS_CALIBRATION_LINE_MAX
                ? -1
                : ws_calibration_parse_line(line, &old);
    if (r < 0) {
      snprintf(err, errlen,
               "%s:%u: not a calibration record; fix or remove the file first",
               path, no);
      goto fail;
    }
    if (r == 1 && ws_calibration_matches(&old, &rec->cpu))
      continue; /* replaced below */
    fputs(line, out);
    if (line[strlen(line) - 1] != '\n')
      fputc('\n', out);
  }
  if (in && ferror(in)) {
    snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
    goto fail;
  }
  fputs(record, out);
  if (in)
    fclose(in);
  in = NULL;
  if (fclose(out)) {
    out = NULL;
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    goto fail;
  }
  out = NULL;
  if (rename(tmp, path)) {
    snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
    goto fail;
  }
  return 0;
fail:
  if (in)
    fclose(in);
  if (out)
    fclose(out);
  unlink(tmp);
  return -1;
}
