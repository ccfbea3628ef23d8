/* sb_kernel.c — an x86-64 code generator for the few instructions of the
 * Fig. 6 loop, and its timing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <x86intrin.h>

#include "sb_kernel.h"

#define LINE 64
#define KERNEL_ALIGN 64

typedef void (*kernel_fn)(char *lines, uint64_t iters);

struct sb_kernels {
  unsigned char *code;
  size_t code_size;
  unsigned kmax;
  size_t *entry; /* offset of kernel (k, same) at entry[2 * k + same] */
  char *lines;   /* kmax cache lines, the stores' targets */
};

typedef struct emitter {
  unsigned char *p;
  size_t at;
} emitter;

static void emit(emitter *e, const unsigned char *bytes, size_t n) {
  if (e->p)
    memcpy(e->p + e->at, bytes, n);
  e->at += n;
}

static void emit_i32(emitter *e, int32_t v) {
  unsigned char b[4];
  memcpy(b, &v, 4); /* x86 is little-endian */
  emit(e, b, 4);
}

/* void kernel(char *lines: rdi, uint64_t iters: rsi) */
static void emit_kernel(emitter *e, unsigned k, int same, unsigned chain) {
  static const unsigned char mov_eax_3[] = {0xb8, 3, 0, 0, 0};
  static const unsigned char cvtsi2sd_xmm0_eax[] = {0xf2, 0x0f, 0x2a, 0xc0};
  static const unsigned char mov_m32_esi[] = {0x89, 0xb7}; /* [rdi+disp32] */
  static const unsigned char sqrtsd_xmm0_xmm0[] = {0xf2, 0x0f, 0x51, 0xc0};
  static const unsigned char dec_rsi[] = {0x48, 0xff, 0xce};
  static const unsigned char jnz_rel32[] = {0x0f, 0x85};
  static const unsigned char ret[] = {0xc3};

  emit(e, mov_eax_3, sizeof mov_eax_3); /* the chain starts at sqrt(3) */
  emit(e, cvtsi2sd_xmm0_eax, sizeof cvtsi2sd_xmm0_eax);
  size_t top = e->at;
  for (unsigned j = 0; j < k; j++) {
    emit(e, mov_m32_esi, sizeof mov_m32_esi);
    emit_i32(e, same ? 0 : (int32_t)(j * LINE));
  }
  for (unsigned j = 0; j < chain; j++)
    emit(e, sqrtsd_xmm0_xmm0, sizeof sqrtsd_xmm0_xmm0);
  emit(e, dec_rsi, sizeof dec_rsi);
  emit(e, jnz_rel32, sizeof jnz_rel32);
  emit_i32(e, (int32_t)top - (int32_t)(e->at + 4));
  emit(e, ret, sizeof ret);
  e->at = (e->at + KERNEL_ALIGN - 1) & ~(size_t)(KERNEL_ALIGN - 1);
}

/* Two passes: the first only measures, the second writes. */
static void emit_all(emitter *e, sb_kernels *ks, unsigned chain) {
  for (unsigned k = 0; k <= ks->kmax; k++)
    for (int same = 0; same < 2; same++) {
      if (e->p)
        ks->entry[2 * k + same] = e->at;
      emit_kernel(e, k, same, chain);
    }
}

sb_kernels *sb_kernels_new(unsigned kmax, unsigned chain, char *err,
                           size_t errlen) {
  sb_kernels *ks = calloc(1, sizeof *ks);
  if (!ks) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  ks->kmax = kmax;
  ks->entry = calloc(2 * ((size_t)kmax + 1), sizeof *ks->entry);
  ks->lines = aligned_alloc(4096, ((size_t)kmax * LINE + 4096) & ~(size_t)4095);
  emitter sizing = {NULL, 0};
  emit_all(&sizing, ks, chain);
  long page = sysconf(_SC_PAGESIZE);
  ks->code_size = (sizing.at + (size_t)page - 1) & ~((size_t)page - 1);
  ks->code = mmap(NULL, ks->code_size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (!ks->entry || !ks->lines || ks->code == MAP_FAILED) {
    snprintf(err, errlen, "out of memory for %u kernels", kmax);
    ks->code = ks->code == MAP_FAILED ? NULL : ks->code;
    sb_kernels_free(ks);
    return NULL;
  }
  memset(ks->lines, 0, (size_t)kmax * LINE);
  emitter writing = {ks->code, 0};
  emit_all(&writing, ks, chain);
  if (mprotect(ks->code, ks->code_size, PROT_READ | PROT_EXEC)) {
    snprintf(err, errlen,
             "cannot make generated code executable (mprotect: %s); a "
             "policy against executable mappings forbids this tool",
             strerror(errno));
    sb_kernels_free(ks);
    return NULL;
  }
  return ks;
}

void sb_kernels_free(sb_kernels *ks) {
  if (!ks)
    return;
  if (ks->code)
    munmap(ks->code, ks->code_size);
  free(ks->entry);
  free(ks->lines);
  free(ks);
}

double sb_kernels_time(sb_kernels *ks, unsigned k, int same_location,
                       uint64_t iters) {
  kernel_fn f = (kernel_fn)(void *)(ks->code + ks->entry[2 * k + !!same_location]);
  f(ks->lines, 64); /* lines into L1 (write-allocate), code into the caches */
  _mm_lfence();
  uint64_t t0 = __rdtsc();
  _mm_lfence();
  f(ks->lines, iters);
  _mm_lfence();
  uint64_t t1 = __rdtsc();
  return (double)(t1 - t0) / (double)iters;
}
