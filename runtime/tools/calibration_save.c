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
    "# wsff store-buffer calibration, written by ws-calibrate and read\n"
    "# by the runtime at start-up (docs/bounded-tso.md).  One line per CPU:\n"
    "# S vendor family model stepping brand ; validated entries= states= passed=\n"
    "#   margin= litmus= stress=   (S: a number, or inf)\n";

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

typedef struct kept {
  const ws_calibration_record *rec;
  FILE *out;
} kept;

/* Every line but this CPU's record goes to the new file as it was. */
static void keep_line(unsigned no, const char *line, const ws_calibration_record *old,
                      void *ctx) {
  kept *k = ctx;
  (void)no;
  if (old && ws_calibration_matches(old, &k->rec->cpu))
    return; /* replaced below */
  fputs(line, k->out);
  if (!*line || line[strlen(line) - 1] != '\n')
    fputc('\n', k->out);
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
  kept k = {rec, out};
  char why[1200];
  switch (ws_calibration_read(path, keep_line, &k, why, sizeof why)) {
  case WS_CALIB_BAD:
    snprintf(err, errlen, "%s; fix or remove the file first", why);
    goto fail;
  case WS_CALIB_NO_FILE:
    fputs(header, out);
    break;
  default:
    break;
  }
  fputs(record, out);
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
  if (out)
    fclose(out);
  unlink(tmp);
  return -1;
}
