/* cpu_calibration.c — reading and writing calibration records. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "cpu_calibration.h"

#define WS_CALIBRATION_SUBPATH "wsff/store-buffer.conf"

int ws_calibration_path(ws_env_lookup lookup, void *ctx, char *path, size_t n) {
  const char *v = lookup("WS_CALIBRATION_FILE", ctx);
  int r;
  if (v && *v) {
    r = snprintf(path, n, "%s", v);
    return r < 0 || (size_t)r >= n ? -1 : 1;
  }
  /* XDG Base Directory: a relative XDG_CONFIG_HOME is to be ignored. */
  if ((v = lookup("XDG_CONFIG_HOME", ctx)) && v[0] == '/')
    r = snprintf(path, n, "%s/" WS_CALIBRATION_SUBPATH, v);
  else if ((v = lookup("HOME", ctx)) && *v)
    r = snprintf(path, n, "%s/.config/" WS_CALIBRATION_SUBPATH, v);
  else
    return -1;
  return r < 0 || (size_t)r >= n ? -1 : 0;
}

/* A decimal number in [0, hi] at *p, moving *p past it. */
static int take_uint(const char **p, unsigned long hi, unsigned long *out) {
  const char *s = *p;
  unsigned long v = 0;
  if (*s < '0' || *s > '9')
    return -1;
  for (; *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (unsigned long)(*s - '0');
    if (v > hi)
      return -1;
  }
  *p = s;
  *out = v;
  return 0;
}

static int take_space(const char **p) {
  if (**p != ' ')
    return -1;
  ++*p;
  return 0;
}

uint32_t ws_calibration_margin(uint32_t passed) {
  uint32_t quarter = passed / 4 + (passed % 4 != 0);
  return quarter < 8 ? 8 : quarter;
}

#define VALIDATED " ; validated"

/* "; validated entries=E states=N passed=P margin=M litmus=R stress=R" at
 * *p (the ';' itself), into *c. */
static int take_check(const char **p, ws_calibration_check *c) {
  static const char head[] = "; validated";
  static const struct {
    const char *key;
    unsigned long lo, hi;
  } fields[6] = {
      {" entries=", 0, WS_MAX_STORE_BUFFER}, {" states=", 1, 2},
      {" passed=", 0, WS_MAX_STORE_BUFFER},  {" margin=", 0, WS_MAX_STORE_BUFFER},
      {" litmus=", 0, WS_CALIBRATION_RUNS_MAX}, {" stress=", 0, WS_CALIBRATION_RUNS_MAX},
  };
  unsigned long v[6];
  if (strncmp(*p, head, strlen(head)))
    return -1;
  *p += strlen(head);
  for (int i = 0; i < 6; i++) {
    size_t k = strlen(fields[i].key);
    if (strncmp(*p, fields[i].key, k))
      return -1;
    *p += k;
    if (take_uint(p, fields[i].hi, &v[i]) || v[i] < fields[i].lo)
      return -1;
  }
  c->entries = (uint32_t)v[0];
  c->states = (uint32_t)v[1];
  c->passed = (uint32_t)v[2];
  c->margin = (uint32_t)v[3];
  c->litmus = v[4];
  c->stress = v[5];
  return 0;
}

int ws_calibration_parse_line(const char *line, ws_calibration_record *out) {
  const char *p = line + strspn(line, " \t");
  if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0)
    return 0;
  memset(out, 0, sizeof *out);
  unsigned long S = 0, family, model, stepping;
  if (strncmp(p, "inf", 3) == 0) {
    out->inf = 1;
    p += 3;
  } else if (take_uint(&p, WS_MAX_STORE_BUFFER, &S) || S < 1) {
    return -1;
  }
  if (take_space(&p))
    return -1;
  size_t vlen = strcspn(p, " \t\r\n");
  if (vlen == 0 || vlen >= sizeof out->cpu.vendor)
    return -1;
  memcpy(out->cpu.vendor, p, vlen);
  p += vlen;
  if (take_space(&p) || take_uint(&p, 0xfff, &family) || take_space(&p) ||
      take_uint(&p, 0xff, &model) || take_space(&p) ||
      take_uint(&p, 0xf, &stepping))
    return -1;
  /* The brand: everything after one space, up to the line end or the ';'
   * of the validation. */
  const char *brand = p;
  size_t blen = 0;
  if (*p == ' ') {
    brand = ++p;
    blen = strcspn(p, ";\r\n");
  }
  const char *end = brand + blen;
  if (*end == ';') {
    if (take_check(&end, &out->check))
      return -1;
    out->validated = 1;
  }
  /* "With or without its newline" (the header): a CRLF line split at the
   * \n still ends in \r. */
  if (strcmp(end, "") && strcmp(end, "\n") && strcmp(end, "\r\n") && strcmp(end, "\r"))
    return -1;
  while (blen && brand[blen - 1] == ' ')
    blen--;
  if (blen >= sizeof out->cpu.brand)
    return -1;
  memcpy(out->cpu.brand, brand, blen);
  out->S = (uint32_t)S;
  out->cpu.family = (unsigned)family;
  out->cpu.model = (unsigned)model;
  out->cpu.stepping = (unsigned)stepping;
  out->cpu.known = 1;
  /* A record its own evidence refutes is no record. */
  if (out->validated && !out->inf &&
      (out->S < out->check.passed || !out->check.litmus || !out->check.stress))
    return -1;
  return 1;
}

int ws_calibration_format(const ws_calibration_record *r, char *buf, size_t n) {
  const ws_cpu *c = &r->cpu;
  const ws_calibration_check *v = &r->check;
  if (!c->known || !c->vendor[0] || strpbrk(c->vendor, " \t\r\n") ||
      strpbrk(c->brand, ";\r\n") ||
      (!r->inf && (r->S < 1 || r->S > WS_MAX_STORE_BUFFER)))
    return -1;
  if (r->validated &&
      (v->entries > WS_MAX_STORE_BUFFER || v->states < 1 || v->states > 2 ||
       v->passed > WS_MAX_STORE_BUFFER || v->margin > WS_MAX_STORE_BUFFER ||
       v->litmus > WS_CALIBRATION_RUNS_MAX || v->stress > WS_CALIBRATION_RUNS_MAX ||
       (!r->inf && (r->S < v->passed || !v->litmus || !v->stress))))
    return -1;
  char S[16], check[200] = "";
  if (r->inf)
    snprintf(S, sizeof S, "inf");
  else
    snprintf(S, sizeof S, "%u", r->S);
  if (r->validated)
    snprintf(check, sizeof check,
             VALIDATED " entries=%u states=%u passed=%u margin=%u litmus=%llu stress=%llu",
             v->entries, v->states, v->passed, v->margin, (unsigned long long)v->litmus,
             (unsigned long long)v->stress);
  int k = snprintf(buf, n, "%s %s %u %u %u%s%s%s\n", S, c->vendor, c->family, c->model,
                   c->stepping, c->brand[0] ? " " : "", c->brand, check);
  return k < 0 || (size_t)k >= n ? -1 : 0;
}

int ws_calibration_matches(const ws_calibration_record *r, const ws_cpu *c) {
  return c->known && strcmp(r->cpu.vendor, c->vendor) == 0 &&
         r->cpu.family == c->family && r->cpu.model == c->model &&
         r->cpu.stepping == c->stepping && strcmp(r->cpu.brand, c->brand) == 0;
}

/* The whole file into buf (*len bytes, then a NUL): 0, or -1 with *res
 * WS_CALIB_NO_FILE or WS_CALIB_BAD (and err).  Only a regular file of at most WS_CALIBRATION_FILE_MAX
 * bytes is read: a device (/dev/zero never ends) or a FIFO (it blocks
 * until a writer comes) is not a calibration file, and the open itself
 * must not block. */
static int read_whole(const char *path, char *buf, size_t *len,
                      ws_calibration_result *res, char *err, size_t n) {
  *res = WS_CALIB_BAD;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      *res = WS_CALIB_NO_FILE;
    else
      snprintf(err, n, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  int rc = -1;
  if (fstat(fd, &st)) {
    snprintf(err, n, "%s: cannot read: %s", path, strerror(errno));
    goto out;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, n, "%s: not a regular file", path);
    goto out;
  }
  *len = 0;
  for (;;) { /* to one byte past the limit, which tells a file too large */
    ssize_t k = read(fd, buf + *len, WS_CALIBRATION_FILE_MAX + 1 - *len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0) {
      snprintf(err, n, "%s: cannot read: %s", path, strerror(errno));
      goto out;
    }
    *len += (size_t)k;
    if (k == 0 || *len > WS_CALIBRATION_FILE_MAX)
      break;
  }
  if (*len > WS_CALIBRATION_FILE_MAX) {
    snprintf(err, n, "%s: larger than %d bytes, not a calibration file", path,
             WS_CALIBRATION_FILE_MAX);
    goto out;
  }
  buf[*len] = 0;
  rc = 0;
out:
  close(fd);
  return rc;
}

ws_calibration_result ws_calibration_read(const char *path, ws_calibration_line_fn fn,
                                          void *ctx, char *err, size_t n) {
  static const char expected[] =
      "expected \"S vendor family model stepping brand ; validated ...\", as "
      "ws-calibrate writes";
  char *buf = malloc(WS_CALIBRATION_FILE_MAX + 2);
  if (!buf) {
    snprintf(err, n, "%s: out of memory", path);
    return WS_CALIB_BAD;
  }
  size_t len = 0;
  ws_calibration_result res;
  if (read_whole(path, buf, &len, &res, err, n)) {
    free(buf);
    return res;
  }
  /* The whole file is checked: a malformed line anywhere makes it
   * untrustworthy, even after a matching record. */
  res = WS_CALIB_NO_RECORD;
  unsigned no = 1;
  for (char *line = buf; line < buf + len; no++) {
    char *nl = memchr(line, '\n', (size_t)(buf + len - line));
    char *end = nl ? nl + 1 : buf + len;
    char one[WS_CALIBRATION_LINE_MAX + 2];
    size_t k = (size_t)(end - line);
    ws_calibration_record rec;
    int r = -1;
    const char *why = expected;
    if (memchr(line, 0, k))
      why = "a NUL byte";
    else if (k > WS_CALIBRATION_LINE_MAX)
      why = "a line too long";
    else {
      memcpy(one, line, k);
      one[k] = 0;
      r = ws_calibration_parse_line(one, &rec);
    }
    if (r < 0) {
      snprintf(err, n, "%s:%u: not a calibration record (%s)", path, no, why);
      res = WS_CALIB_BAD;
      break;
    }
    fn(no, one, r == 1 ? &rec : NULL, ctx);
    line = end;
  }
  free(buf);
  return res;
}

typedef struct lookup_ctx {
  const ws_cpu *cpu;
  ws_calibration_record *rec;
  unsigned line; /* of the first record for this CPU; 0: none */
} lookup_ctx;

static void lookup_line(unsigned no, const char *line, const ws_calibration_record *rec,
                        void *ctx) {
  lookup_ctx *l = ctx;
  (void)line;
  if (rec && !l->line && ws_calibration_matches(rec, l->cpu)) {
    *l->rec = *rec;
    l->line = no;
  }
}

ws_calibration_result ws_calibration_lookup(const char *path, const ws_cpu *c,
                                            ws_calibration_record *rec, char *err,
                                            size_t n) {
  lookup_ctx l = {c, rec, 0};
  ws_calibration_result res = ws_calibration_read(path, lookup_line, &l, err, n);
  if (res != WS_CALIB_NO_RECORD || !l.line)
    return res;
  if (rec->validated)
    return WS_CALIB_FOUND;
  snprintf(err, n,
           "%s:%u: the record for this CPU was never validated (ws-sbmeasure "
           "--save wrote it from the knee alone); run ws-calibrate",
           path, l.line);
  return WS_CALIB_UNVALIDATED;
}
