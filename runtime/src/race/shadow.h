/*
 * shadow.h — the layout of the shadow memory, for the entry points' fast
 * paths (access.c, intercept.c); shadow.c does everything else.
 *
 * Memory is cut into 8-byte granules.  Each granule has a pair: the strand
 * that last wrote it and the one that read it that a later write must be
 * checked against (the low and high 32 bits), valid for all 8 bytes, and
 * next to it where those two accesses were (32-bit code offsets).  A
 * granule whose bytes differ — parts written by different strands, or at
 * different places — is split: its pair is WS_SPLIT and the index of a
 * block of 8 such records, one per byte; it is merged again when its bytes
 * agree.  Bytes that agree in their pair but not in their locations (a
 * structure's fields written at different lines, then read whole) keep
 * one pair, and their locations in such a block (shadow.c: LOCS).  So
 * every byte's last accesses and their locations are exact.
 *
 * The pairs of a 16 MiB region of memory are one array (16 MiB, then as
 * much for the locations), reserved when the region is first accessed and
 * backed by the kernel page by page as it is written; a table indexed by
 * the region's number (addresses up to 2^47) finds it: one load.
 */
#ifndef WS_RACE_SHADOW_H
#define WS_RACE_SHADOW_H

#include "race.h"

enum {
  WS_SH_REGION_BITS = 24,
  WS_SH_GRANULES = (1 << WS_SH_REGION_BITS) / 8, /* per region */
};
#define WS_SH_REGIONS ((uintptr_t)1 << (47 - WS_SH_REGION_BITS))
#define WS_SH_OFFSET(x) (((x) & (((uintptr_t)1 << WS_SH_REGION_BITS) - 1)) >> 3)

/* The writer (low 32 bits) and the reader (high) of a granule. */
typedef uint64_t ws_pair;
#define WS_PAIR(w, r) ((uint64_t)(uint32_t)(w) | (uint64_t)(uint32_t)(r) << 32)
/* A split granule's pair: WS_SPLIT, and its block's index with the top
 * bit set (fewer than 2^30 blocks), which no strand number (fewer than
 * 2^31) and not WS_RACE_PENDING equals: no test of a reader mistakes it. */
#define WS_SPLIT 0xffffffffu
#define WS_SPLIT_PAIR(b) WS_PAIR(WS_SPLIT, 0x80000000u | (b))
#define WS_BLOCK_OF(v) ((uint32_t)((v) >> 32) & 0x7fffffffu)

/* By region number: its pairs, then its locations (NULL: never accessed). */
extern ws_pair **ws_race_regions __attribute__((visibility("hidden")));

/* A split granule's byte: its last writer and kept reader, and where. */
typedef struct ws_rec {
  ws_strand w, r;
  uint32_t wpc, rpc;
} ws_rec;
/* The blocks of 8 records, by index: 2^WS_SH_CHUNK_BITS blocks a chunk. */
enum { WS_SH_CHUNK_BITS = 12 };
extern ws_rec (**ws_race_chunks)[8] __attribute__((visibility("hidden")));
static inline ws_rec *ws_race_block(uint32_t b) {
  return ws_race_chunks[b >> WS_SH_CHUNK_BITS][b & ((1u << WS_SH_CHUNK_BITS) - 1)];
}

/* The pair of the granule of address x; NULL where there is none yet. */
static inline ws_pair *ws_race_pair_of(uintptr_t x) {
  uintptr_t i = x >> WS_SH_REGION_BITS;
  if (__builtin_expect(i >= WS_SH_REGIONS, 0))
    return 0;
  ws_pair *base = ws_race_regions[i];
  return base ? base + WS_SH_OFFSET(x) : 0;
}

/* An access by strand me to a whole granule whose pair is v that needs
 * no check: me wrote it last (a later write's check finds what this one
 * would; and another strand's read kept since is serial with me, or was
 * found racing with me's write), or, for a read, me read it last (every
 * write since is serial with me: strands that ran while me was suspended
 * were in functions it called), or v is a pair reads of me lately found
 * unchanged (whether a strand is parallel with me does not change while
 * me runs).  The usual case. */
static inline int ws_race_unchanged_pair(ws_pair v, ws_strand me, int write) {
  if ((uint32_t)v == me)
    return 1;
  if (write)
    return 0;
  const uint64_t *same = ws_race_same_read;
  return (uint32_t)(v >> 32) == me || v == same[0] || v == same[1] || v == same[2] ||
         v == same[3];
}

/* An access of size bytes at x that needs no check (the above), told
 * without a call; in a split granule, by the records of the bytes it
 * accesses (the same test, byte by byte: a strand reading again the bytes
 * it read, a structure's field it wrote). */
static inline int ws_race_unchanged(uintptr_t x, size_t size, ws_strand me, int write) {
  if ((x & 7) + size > 8)
    return 0;
  ws_pair *p = ws_race_pair_of(x);
  if (!p)
    return 0;
  ws_pair v = *p;
  if ((uint32_t)v != WS_SPLIT)
    return ws_race_unchanged_pair(v, me, write);
  /* A split granule: its bytes' own records first (a pair of reads that
   * change nothing may name it too). */
  const ws_rec *r = ws_race_block(WS_BLOCK_OF(v)) + (x & 7);
  for (size_t k = 0; k < size; k++)
    if (r[k].w != me && (write || r[k].r != me))
      return !write && ws_race_unchanged_pair(v, me, 0);
  return 1;
}

/* A loop's accesses (count of size bytes, stride apart; a range: count 1)
 * that need no check, told without a call when they are whole granules in
 * one region. */
static inline int ws_race_strided_unchanged(uintptr_t x, uint64_t size, int64_t stride,
                                            uint64_t count, ws_strand me, int write) {
  if (((x | size | (uint64_t)stride) & 7) || !count || !size)
    return 0;
  uint64_t step = (uint64_t)(stride < 0 ? -stride : stride);
  uintptr_t lo = stride < 0 ? x - step * (count - 1) : x, hi = lo + step * (count - 1) + size;
  if ((lo >> WS_SH_REGION_BITS) != ((hi - 1) >> WS_SH_REGION_BITS))
    return 0;
  ws_pair *p = ws_race_pair_of(lo);
  if (!p)
    return 0;
  if (step <= size) { /* dense */
    for (size_t g = 0, n = (hi - lo) / 8; g < n; g++)
      if (!ws_race_unchanged_pair(p[g], me, write))
        return 0;
    return 1;
  }
  size_t n = size / 8;
  for (uint64_t k = 0; k < count; k++, p += step / 8)
    for (size_t g = 0; g < n; g++)
      if (!ws_race_unchanged_pair(p[g], me, write))
        return 0;
  return 1;
}

#endif
