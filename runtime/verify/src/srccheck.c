/*
 * srccheck.c — keeps the models honest: every C statement and condition a
 * model quotes must still appear, verbatim up to white space, in the
 * runtime's source.
 * When the runtime's code changes, this check fails until the model is
 * brought in line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

/* Collapses every run of white space to one blank. */
static void squeeze(char *s) {
  char *out = s;
  int blank = 0;
  for (; *s; s++) {
    int ws = *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r';
    if (ws && blank)
      continue;
    *out++ = ws ? ' ' : *s;
    blank = ws;
  }
  *out = 0;
}

static char *slurp(const char *dir, const char *file) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(buf);
    return NULL;
  }
  fclose(f);
  buf[n] = 0;
  squeeze(buf);
  return buf;
}

/* Checks the quotes of `n` steps; returns -1 when a file cannot be read. */
static int check_steps(const char *srcdir, const char *who,
                       const vf_step_info *steps, int n, int *checked,
                       int *missing) {
  for (int pc = 0; pc < n; pc++) {
    const vf_step_info *info = &steps[pc];
    struct {
      const char *file, *quotes[3];
    } sets[2] = {{info->file, {info->code, info->cond, NULL}},
                 {info->also_file, {info->also[0], info->also[1], info->also[2]}}};
    for (int k = 0; k < 2; k++) {
      if (!sets[k].file || !sets[k].quotes[0])
        continue;
      char *text = slurp(srcdir, sets[k].file);
      if (!text) {
        fprintf(stderr, "ws-verify: cannot read %s/%s\n", srcdir, sets[k].file);
        return -1;
      }
      for (int q = 0; q < 3 && sets[k].quotes[q]; q++) {
        char want[256];
        snprintf(want, sizeof want, "%s", sets[k].quotes[q]);
        squeeze(want);
        ++*checked;
        if (!strstr(text, want)) {
          printf("%s model: %s no longer contains: %s\n", who, sets[k].file,
                 sets[k].quotes[q]);
          ++*missing;
        }
      }
      free(text);
    }
  }
  return 0;
}

int vf_check_source(const char *srcdir) {
  int missing = 0, checked = 0;
  if (check_steps(srcdir, "scenario", vf_client_steps, C_NSTEPS, &checked, &missing))
    return 2;
  for (const vf_model *m = vf_models; m->v; m++)
    if (check_steps(srcdir, m->v->name, m->v->steps, m->v->nsteps, &checked,
                    &missing))
      return 2;
  /* The helpers whose calls give a step its order under --memory=weak. */
  for (const vf_helper *h = vf_helpers; h->call; h++) {
    if (!h->file)
      continue;
    vf_step_info info = {"helper", h->file, h->definition, NULL, NULL, {NULL}};
    if (check_steps(srcdir, "weak-memory order", &info, 1, &checked, &missing))
      return 2;
  }
  printf("%d statements and conditions quoted by the models, %d missing from %s\n",
         checked, missing, srcdir);
  return missing ? 1 : 0;
}
