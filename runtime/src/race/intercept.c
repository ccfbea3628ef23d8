/*
 * intercept.c — what the C library reads and writes of the program's
 * memory on its behalf (docs/race.md, "The C library").  libws_race.a is
 * linked into the executable, so these definitions are the ones the
 * program's calls reach; each checks the bytes the function accesses, as
 * accesses of the calling strand at the call's location, and calls the C
 * library's own (found with dlsym(RTLD_NEXT)).  Only calls from the
 * executable's code are checked: the C++ library and other shared
 * libraries are not compiled with -fws-race, and their own memory (a
 * stream's buffer, a lazily built table) is theirs.
 *
 * The extents are exact where the result tells them: a string function
 * reads up to and including the NUL it stops at, a comparison up to the
 * first byte that differs, sprintf writes what it returns plus the NUL.
 * qsort writes the whole array (its element moves; the comparator, the
 * program's code, checks its own reads, in the caller's strand), and the
 * stack below it, where it may have kept copies of elements that the
 * comparator read, is forgotten when it returns.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

/* ---- the C library's own functions ---- */

static void *resolve(void **slot, const char *name) {
  void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (!f) {
    f = dlsym(RTLD_NEXT, name);
    if (!f)
      ws_fatal("-fws-race: cannot find the C library's %s", name);
    __atomic_store_n(slot, f, __ATOMIC_RELAXED);
  }
  return f;
}
#define REAL(name)                                                             \
  ((__typeof__(&name))resolve((void **)&real_##name, #name))
#define DEFINE_REAL(name) static __typeof__(&name) real_##name

/* ---- which calls are checked ---- */

static uintptr_t program_lo = 1, program_hi;

static int program_range(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    if (program_lo > program_hi || lo < program_lo)
      program_lo = lo;
    if (hi > program_hi)
      program_hi = hi;
  }
  return 1; /* the first object: the executable */
}

void ws_race_intercept_init(void) { dl_iterate_phdr(program_range, NULL); }

#define PC ((uintptr_t)__builtin_return_address(0))
/* The strand that checks this call, 0: none. */
#define CALLER() (ws_race_me && PC - program_lo < program_hi - program_lo ? ws_race_me : 0)
#define READ(p, n) ws_race_range((uintptr_t)(p), (n), PC, 0)
#define WRITE(p, n) ws_race_range((uintptr_t)(p), (n), PC, 1)

/* ---- lengths and differences, without calling what we define ---- */

DEFINE_REAL(strlen);
DEFINE_REAL(strnlen);
static size_t length(const char *s) { return REAL(strlen)(s); }
static size_t length_n(const char *s, size_t n) { return REAL(strnlen)(s, n); }

/* Where a and b first differ in n bytes (n: nowhere); strings stop at a
 * NUL (which then counts as the difference). */
static size_t differ(const void *a, const void *b, size_t n, int strings) {
  const unsigned char *x = a, *y = b;
  size_t k = 0;
  for (; k < n; k++)
    if (x[k] != y[k] || (strings && !x[k]))
      return k;
  return n;
}

/* ---- memory ---- */

DEFINE_REAL(memcpy);
DEFINE_REAL(memmove);
DEFINE_REAL(mempcpy);
DEFINE_REAL(memset);
DEFINE_REAL(memccpy);
DEFINE_REAL(explicit_bzero);
DEFINE_REAL(memcmp);
DEFINE_REAL(bcmp);
DEFINE_REAL(memchr);
DEFINE_REAL(memrchr);
DEFINE_REAL(rawmemchr);

void *memcpy(void *d, const void *s, size_t n) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(memcpy)(d, s, n);
}

void *memmove(void *d, const void *s, size_t n) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(memmove)(d, s, n);
}

void *mempcpy(void *d, const void *s, size_t n) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(mempcpy)(d, s, n);
}

void bcopy(const void *s, void *d, size_t n) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  REAL(memmove)(d, s, n);
}

void *memset(void *d, int c, size_t n) {
  if (n && CALLER())
    WRITE(d, n);
  return REAL(memset)(d, c, n);
}

void bzero(void *d, size_t n) {
  if (n && CALLER())
    WRITE(d, n);
  REAL(memset)(d, 0, n);
}

void explicit_bzero(void *d, size_t n) {
  if (n && CALLER())
    WRITE(d, n);
  REAL(explicit_bzero)(d, n);
}

void *memccpy(void *d, const void *s, int c, size_t n) {
  void *end = REAL(memccpy)(d, s, c, n);
  size_t copied = end ? (size_t)((char *)end - (char *)d) : n;
  if (copied && CALLER()) {
    READ(s, copied);
    WRITE(d, copied);
  }
  return end;
}

int memcmp(const void *a, const void *b, size_t n) {
  if (n && CALLER()) {
    size_t k = differ(a, b, n, 0), m = k < n ? k + 1 : n;
    READ(a, m);
    READ(b, m);
  }
  return REAL(memcmp)(a, b, n);
}

int bcmp(const void *a, const void *b, size_t n) {
  if (n && CALLER()) {
    size_t k = differ(a, b, n, 0), m = k < n ? k + 1 : n;
    READ(a, m);
    READ(b, m);
  }
  return REAL(bcmp)(a, b, n);
}

void *memchr(const void *s, int c, size_t n) {
  void *p = REAL(memchr)(s, c, n);
  if (n && CALLER())
    READ(s, p ? (size_t)((const char *)p - (const char *)s) + 1 : n);
  return p;
}

void *memrchr(const void *s, int c, size_t n) {
  void *p = REAL(memrchr)(s, c, n);
  if (n && CALLER()) {
    if (p)
      READ(p, (size_t)((const char *)s + n - (const char *)p));
    else
      READ(s, n);
  }
  return p;
}

void *rawmemchr(const void *s, int c) {
  void *p = REAL(rawmemchr)(s, c);
  if (CALLER())
    READ(s, (size_t)((const char *)p - (const char *)s) + 1);
  return p;
}

/* ---- strings ---- */

DEFINE_REAL(strcpy);
DEFINE_REAL(stpcpy);
DEFINE_REAL(strncpy);
DEFINE_REAL(stpncpy);
DEFINE_REAL(strcat);
DEFINE_REAL(strncat);
DEFINE_REAL(strcmp);
DEFINE_REAL(strncmp);
DEFINE_REAL(strchr);
DEFINE_REAL(strrchr);
DEFINE_REAL(strchrnul);
DEFINE_REAL(strstr);
DEFINE_REAL(strspn);
DEFINE_REAL(strcspn);
DEFINE_REAL(strpbrk);
DEFINE_REAL(strdup);
DEFINE_REAL(strndup);

size_t strlen(const char *s) {
  size_t n = length(s);
  if (CALLER())
    READ(s, n + 1);
  return n;
}

size_t strnlen(const char *s, size_t n) {
  size_t k = length_n(s, n);
  if (n && CALLER())
    READ(s, k < n ? k + 1 : n);
  return k;
}

char *strcpy(char *d, const char *s) {
  if (CALLER()) {
    size_t n = length(s) + 1;
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(strcpy)(d, s);
}

char *stpcpy(char *d, const char *s) {
  if (CALLER()) {
    size_t n = length(s) + 1;
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(stpcpy)(d, s);
}

char *strncpy(char *d, const char *s, size_t n) {
  if (n && CALLER()) {
    size_t k = length_n(s, n);
    READ(s, k < n ? k + 1 : n);
    WRITE(d, n); /* padded with NULs */
  }
  return REAL(strncpy)(d, s, n);
}

char *stpncpy(char *d, const char *s, size_t n) {
  if (n && CALLER()) {
    size_t k = length_n(s, n);
    READ(s, k < n ? k + 1 : n);
    WRITE(d, n);
  }
  return REAL(stpncpy)(d, s, n);
}

char *strcat(char *d, const char *s) {
  if (CALLER()) {
    size_t dn = length(d), sn = length(s) + 1;
    READ(d, dn + 1);
    READ(s, sn);
    WRITE(d + dn, sn);
  }
  return REAL(strcat)(d, s);
}

char *strncat(char *d, const char *s, size_t n) {
  if (CALLER()) {
    size_t dn = length(d), k = length_n(s, n);
    READ(d, dn + 1);
    if (n)
      READ(s, k < n ? k + 1 : n);
    WRITE(d + dn, k + 1);
  }
  return REAL(strncat)(d, s, n);
}

int strcmp(const char *a, const char *b) {
  if (CALLER()) {
    size_t k = differ(a, b, SIZE_MAX, 1);
    READ(a, k + 1);
    READ(b, k + 1);
  }
  return REAL(strcmp)(a, b);
}

int strncmp(const char *a, const char *b, size_t n) {
  if (n && CALLER()) {
    size_t k = differ(a, b, n, 1), m = k < n ? k + 1 : n;
    READ(a, m);
    READ(b, m);
  }
  return REAL(strncmp)(a, b, n);
}

char *strchr(const char *s, int c) {
  char *p = REAL(strchr)(s, c);
  if (CALLER())
    READ(s, p ? (size_t)(p - s) + 1 : length(s) + 1);
  return p;
}

char *strrchr(const char *s, int c) {
  if (CALLER())
    READ(s, length(s) + 1);
  return REAL(strrchr)(s, c);
}

char *strchrnul(const char *s, int c) {
  char *p = REAL(strchrnul)(s, c);
  if (CALLER())
    READ(s, (size_t)(p - s) + 1);
  return p;
}

char *strstr(const char *h, const char *n) {
  char *p = REAL(strstr)(h, n);
  if (CALLER()) {
    size_t nn = length(n);
    READ(n, nn + 1);
    if (!p)
      READ(h, length(h) + 1);
    else if (p - h + nn)
      READ(h, (size_t)(p - h) + nn);
  }
  return p;
}

size_t strspn(const char *s, const char *accept) {
  size_t k = REAL(strspn)(s, accept);
  if (CALLER()) {
    READ(s, k + 1);
    READ(accept, length(accept) + 1);
  }
  return k;
}

size_t strcspn(const char *s, const char *reject) {
  size_t k = REAL(strcspn)(s, reject);
  if (CALLER()) {
    READ(s, k + 1);
    READ(reject, length(reject) + 1);
  }
  return k;
}

char *strpbrk(const char *s, const char *accept) {
  char *p = REAL(strpbrk)(s, accept);
  if (CALLER()) {
    READ(s, p ? (size_t)(p - s) + 1 : length(s) + 1);
    READ(accept, length(accept) + 1);
  }
  return p;
}

char *strdup(const char *s) {
  char *d = REAL(strdup)(s);
  if (CALLER()) {
    size_t n = length(s) + 1;
    READ(s, n);
    if (d)
      WRITE(d, n);
  }
  return d;
}

char *strndup(const char *s, size_t n) {
  char *d = REAL(strndup)(s, n);
  if (CALLER()) {
    size_t k = length_n(s, n);
    if (n)
      READ(s, k < n ? k + 1 : n);
    if (d)
      WRITE(d, k + 1);
  }
  return d;
}

/* ---- formatted output into a buffer (the arguments' strings that %s
 * reads are not checked) ---- */

DEFINE_REAL(vsprintf);
DEFINE_REAL(vsnprintf);

/* sprintf wrote n characters and a NUL into at most size bytes. */
static void wrote(char *d, int n, size_t size, uintptr_t pc) {
  if (n < 0 || !size)
    return;
  size_t k = (size_t)n + 1 < size ? (size_t)n + 1 : size;
  ws_race_write((uintptr_t)d, k, pc);
}

int vsprintf(char *d, const char *fmt, va_list ap) {
  int n = REAL(vsprintf)(d, fmt, ap);
  if (CALLER())
    wrote(d, n, SIZE_MAX, PC);
  return n;
}

int vsnprintf(char *d, size_t size, const char *fmt, va_list ap) {
  int n = REAL(vsnprintf)(d, size, fmt, ap);
  if (CALLER())
    wrote(d, n, size, PC);
  return n;
}

int sprintf(char *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = REAL(vsprintf)(d, fmt, ap);
  va_end(ap);
  if (CALLER())
    wrote(d, n, SIZE_MAX, PC);
  return n;
}

int snprintf(char *d, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = REAL(vsnprintf)(d, size, fmt, ap);
  va_end(ap);
  if (CALLER())
    wrote(d, n, size, PC);
  return n;
}

/* ---- sorting ---- */

DEFINE_REAL(qsort);
DEFINE_REAL(qsort_r);

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  int checked = CALLER() != 0;
  if (checked && n > 1 && size)
    WRITE(base, n * size);
  REAL(qsort)(base, n, size, cmp);
  if (checked && ws_race_me)
    ws_race_stack_dead_below((uintptr_t)__builtin_frame_address(0));
}

void qsort_r(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *, void *), void *arg) {
  int checked = CALLER() != 0;
  if (checked && n > 1 && size)
    WRITE(base, n * size);
  REAL(qsort_r)(base, n, size, cmp, arg);
  if (checked && ws_race_me)
    ws_race_stack_dead_below((uintptr_t)__builtin_frame_address(0));
}

/* ---- input into a buffer, output from one ---- */

DEFINE_REAL(read);
DEFINE_REAL(pread);
DEFINE_REAL(write);
DEFINE_REAL(pwrite);
DEFINE_REAL(fread);
DEFINE_REAL(fwrite);
DEFINE_REAL(fgets);
DEFINE_REAL(fputs);
DEFINE_REAL(puts);

ssize_t read(int fd, void *buf, size_t n) {
  ssize_t k = REAL(read)(fd, buf, n);
  if (k > 0 && CALLER())
    WRITE(buf, (size_t)k);
  return k;
}

ssize_t pread(int fd, void *buf, size_t n, off_t at) {
  ssize_t k = REAL(pread)(fd, buf, n, at);
  if (k > 0 && CALLER())
    WRITE(buf, (size_t)k);
  return k;
}

ssize_t write(int fd, const void *buf, size_t n) {
  ssize_t k = REAL(write)(fd, buf, n);
  if (k > 0 && CALLER())
    READ(buf, (size_t)k);
  return k;
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at) {
  ssize_t k = REAL(pwrite)(fd, buf, n, at);
  if (k > 0 && CALLER())
    READ(buf, (size_t)k);
  return k;
}

size_t fread(void *p, size_t size, size_t n, FILE *f) {
  size_t k = REAL(fread)(p, size, n, f);
  if (k && size && CALLER())
    WRITE(p, k * size);
  return k;
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
  size_t k = REAL(fwrite)(p, size, n, f);
  if (k && size && CALLER())
    READ(p, k * size);
  return k;
}

char *fgets(char *s, int n, FILE *f) {
  char *r = REAL(fgets)(s, n, f);
  if (r && CALLER())
    WRITE(s, length(s) + 1);
  return r;
}

int fputs(const char *s, FILE *f) {
  if (CALLER())
    READ(s, length(s) + 1);
  return REAL(fputs)(s, f);
}

int puts(const char *s) {
  if (CALLER())
    READ(s, length(s) + 1);
  return REAL(puts)(s);
}

/* ---- the same under _FORTIFY_SOURCE ---- */

void *__memcpy_chk(void *d, const void *s, size_t n, size_t room);
void *__memmove_chk(void *d, const void *s, size_t n, size_t room);
void *__mempcpy_chk(void *d, const void *s, size_t n, size_t room);
void *__memset_chk(void *d, int c, size_t n, size_t room);
char *__strcpy_chk(char *d, const char *s, size_t room);
char *__stpcpy_chk(char *d, const char *s, size_t room);
char *__strncpy_chk(char *d, const char *s, size_t n, size_t room);
char *__strcat_chk(char *d, const char *s, size_t room);
char *__strncat_chk(char *d, const char *s, size_t n, size_t room);
int __vsprintf_chk(char *d, int flag, size_t room, const char *fmt, va_list ap);
int __vsnprintf_chk(char *d, size_t size, int flag, size_t room, const char *fmt, va_list ap);
int __sprintf_chk(char *d, int flag, size_t room, const char *fmt, ...);
int __snprintf_chk(char *d, size_t size, int flag, size_t room, const char *fmt, ...);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t room);
size_t __fread_chk(void *p, size_t room, size_t size, size_t n, FILE *f);
char *__fgets_chk(char *s, size_t room, int n, FILE *f);

DEFINE_REAL(__memcpy_chk);
DEFINE_REAL(__memmove_chk);
DEFINE_REAL(__mempcpy_chk);
DEFINE_REAL(__memset_chk);
DEFINE_REAL(__strcpy_chk);
DEFINE_REAL(__stpcpy_chk);
DEFINE_REAL(__strncpy_chk);
DEFINE_REAL(__strcat_chk);
DEFINE_REAL(__strncat_chk);
DEFINE_REAL(__vsprintf_chk);
DEFINE_REAL(__vsnprintf_chk);
DEFINE_REAL(__read_chk);
DEFINE_REAL(__fread_chk);
DEFINE_REAL(__fgets_chk);

void *__memcpy_chk(void *d, const void *s, size_t n, size_t room) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(__memcpy_chk)(d, s, n, room);
}

void *__memmove_chk(void *d, const void *s, size_t n, size_t room) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(__memmove_chk)(d, s, n, room);
}

void *__mempcpy_chk(void *d, const void *s, size_t n, size_t room) {
  if (n && CALLER()) {
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(__mempcpy_chk)(d, s, n, room);
}

void *__memset_chk(void *d, int c, size_t n, size_t room) {
  if (n && CALLER())
    WRITE(d, n);
  return REAL(__memset_chk)(d, c, n, room);
}

char *__strcpy_chk(char *d, const char *s, size_t room) {
  if (CALLER()) {
    size_t n = length(s) + 1;
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(__strcpy_chk)(d, s, room);
}

char *__stpcpy_chk(char *d, const char *s, size_t room) {
  if (CALLER()) {
    size_t n = length(s) + 1;
    READ(s, n);
    WRITE(d, n);
  }
  return REAL(__stpcpy_chk)(d, s, room);
}

char *__strncpy_chk(char *d, const char *s, size_t n, size_t room) {
  if (n && CALLER()) {
    size_t k = length_n(s, n);
    READ(s, k < n ? k + 1 : n);
    WRITE(d, n);
  }
  return REAL(__strncpy_chk)(d, s, n, room);
}

char *__strcat_chk(char *d, const char *s, size_t room) {
  if (CALLER()) {
    size_t dn = length(d), sn = length(s) + 1;
    READ(d, dn + 1);
    READ(s, sn);
    WRITE(d + dn, sn);
  }
  return REAL(__strcat_chk)(d, s, room);
}

char *__strncat_chk(char *d, const char *s, size_t n, size_t room) {
  if (CALLER()) {
    size_t dn = length(d), k = length_n(s, n);
    READ(d, dn + 1);
    if (n)
      READ(s, k < n ? k + 1 : n);
    WRITE(d + dn, k + 1);
  }
  return REAL(__strncat_chk)(d, s, n, room);
}

int __vsprintf_chk(char *d, int flag, size_t room, const char *fmt, va_list ap) {
  int n = REAL(__vsprintf_chk)(d, flag, room, fmt, ap);
  if (CALLER())
    wrote(d, n, SIZE_MAX, PC);
  return n;
}

int __vsnprintf_chk(char *d, size_t size, int flag, size_t room, const char *fmt, va_list ap) {
  int n = REAL(__vsnprintf_chk)(d, size, flag, room, fmt, ap);
  if (CALLER())
    wrote(d, n, size, PC);
  return n;
}

int __sprintf_chk(char *d, int flag, size_t room, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = REAL(__vsprintf_chk)(d, flag, room, fmt, ap);
  va_end(ap);
  if (CALLER())
    wrote(d, n, SIZE_MAX, PC);
  return n;
}

int __snprintf_chk(char *d, size_t size, int flag, size_t room, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = REAL(__vsnprintf_chk)(d, size, flag, room, fmt, ap);
  va_end(ap);
  if (CALLER())
    wrote(d, n, size, PC);
  return n;
}

ssize_t __read_chk(int fd, void *buf, size_t n, size_t room) {
  ssize_t k = REAL(__read_chk)(fd, buf, n, room);
  if (k > 0 && CALLER())
    WRITE(buf, (size_t)k);
  return k;
}

size_t __fread_chk(void *p, size_t room, size_t size, size_t n, FILE *f) {
  size_t k = REAL(__fread_chk)(p, room, size, n, f);
  if (k && size && CALLER())
    WRITE(p, k * size);
  return k;
}

char *__fgets_chk(char *s, size_t room, int n, FILE *f) {
  char *r = REAL(__fgets_chk)(s, room, n, f);
  if (r && CALLER())
    WRITE(s, length(s) + 1);
  return r;
}

WS_RACE_NO_LIBCALLS_END
