/*
 * shadow.c — the last writer and reader of every byte the program touched,
 * and the check of each access against them (SP-bags: the write rule and
 * the read rule of Feng and Leiserson).  The layout is shadow.h's: a pair
 * (writer, reader) per 8-byte granule and where those accesses were, or,
 * for a granule whose bytes differ, one such record per byte.
 *
 * The rules, for an access by strand me of a byte whose last writer is w
 * and kept reader r:
 *   read:  w == me: nothing to do (a later write parallel with this read
 *          is parallel with w's write, and found there);
 *          else a race if w is parallel; r becomes me unless r is a
 *          parallel reader (keep the reader a later write may race with).
 *   write: a race if w (not me) is parallel, and if r (not me) is
 *          parallel; else r is dropped (a later write parallel with r is
 *          parallel with this one too, which becomes w).
 * Each race found is a real one, and every byte that has a race in the
 * run has one found on it (docs/race.md says exactly what is reported).
 * An access of several granules checks each run of equal granules once.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "shadow.h"

WS_RACE_NO_LIBCALLS_BEGIN

ws_pair **ws_race_regions;

/* The regions reserved, in order. */
static uintptr_t *region_list;
static size_t nregions, regions_cap;

enum { PAIR_BYTES = WS_SH_GRANULES * sizeof(ws_pair) };

void ws_race_shadow_init(void) {
  void *t = mmap(NULL, WS_SH_REGIONS * sizeof(ws_pair *), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (t == MAP_FAILED)
    ws_fatal("-fws-race: cannot reserve the shadow memory's table");
  ws_race_regions = t;
}

static __attribute__((noinline)) ws_pair *region_new(uintptr_t i) {
  /* The pairs, then the locations: 2 x 16 MiB reserved, backed by the
   * kernel as they are written. */
  void *m = mmap(NULL, 2 * (size_t)PAIR_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    ws_fatal("-fws-race: out of memory for the shadow memory");
  if (nregions == regions_cap) {
    regions_cap = regions_cap ? 2 * regions_cap : 64;
    region_list = ws_race_realloc(region_list, regions_cap * sizeof *region_list);
    if (!region_list)
      ws_fatal("-fws-race: out of memory for the shadow memory");
  }
  region_list[nregions++] = i;
  return ws_race_regions[i] = m;
}

static inline uint64_t *pcs_of(ws_pair *p) { return (uint64_t *)(p + WS_SH_GRANULES); }

/* ---- split granules: a record per byte ---- */

typedef ws_rec rec;

enum { CHUNK_BITS = WS_SH_CHUNK_BITS, CHUNK = 1 << CHUNK_BITS };
ws_rec (**ws_race_chunks)[8]; /* blocks of 8 records, CHUNK blocks a chunk */
#define chunks ws_race_chunks
static uint32_t nchunks, blocks_made, free_block = UINT32_MAX;
static size_t live_splits;

static inline rec *block(uint32_t b) { return chunks[b >> CHUNK_BITS][b & (CHUNK - 1)]; }

static uint32_t block_new(void) {
  uint32_t b = free_block;
  if (b != UINT32_MAX) {
    free_block = block(b)->w;
  } else {
    if (blocks_made == (uint32_t)nchunks << CHUNK_BITS) {
      if (nchunks == 1u << (30 - CHUNK_BITS))
        ws_fatal("-fws-race: too many split granules");
      chunks = ws_race_realloc(chunks, (nchunks + 1) * sizeof *chunks);
      if (!chunks || !(chunks[nchunks] = ws_race_realloc(NULL, CHUNK * sizeof **chunks)))
        ws_fatal("-fws-race: out of memory for the shadow memory");
      nchunks++;
    }
    b = blocks_made++;
  }
  live_splits++;
  return b;
}

static void block_free(uint32_t b) {
  /* Its pair may be one that reads of the current strand change nothing
   * in (split_bytes): the block may go to another granule next. */
  ws_pair v = WS_SPLIT_PAIR(b);
  for (int i = 0; i < WS_RACE_SAME_READS; i++)
    if (ws_race_same_read[i] == v)
      ws_race_same_read[i] = WS_RACE_NO_PAIR;
  block(b)->w = free_block;
  free_block = b;
  live_splits--;
}

static inline rec rec_of(ws_pair v, uint64_t pcs) {
  ws_strand w = (uint32_t)v, r = (uint32_t)(v >> 32);
  return (rec){w, r, w ? (uint32_t)pcs : 0, r ? (uint32_t)(pcs >> 32) : 0};
}

static inline int rec_same(rec a, rec b) {
  return (WS_PAIR(a.w, a.r) ^ WS_PAIR(b.w, b.r)) == 0 &&
         (((uint64_t)a.wpc | (uint64_t)a.rpc << 32) ^ ((uint64_t)b.wpc | (uint64_t)b.rpc << 32)) == 0;
}

/* A granule's locations word is where its writer and its reader accessed
 * it (wpc | rpc << 32), or, when its bytes share the pair but not the
 * locations (a structure's fields written at different places, then read
 * as a whole), LOCS | block << 32: the block's records hold each byte's
 * locations (their strands are unused).  The pair stays one, so the fast
 * paths and the rules see one granule; a check that finds a race, or
 * that gives its bytes different pairs, splits it first (each byte's race
 * is reported with its own location).  A zero or split pair has no such
 * block.  No code offset is LOCS (ws_race_code_offset). */
#define LOCS 0xffffffffu
static inline int is_locs(uint64_t pcs) { return (uint32_t)pcs == LOCS; }
static inline uint32_t locs_block(uint64_t pcs) { return (uint32_t)(pcs >> 32); }
/* How many granules have such a block (forgetting looks for them only
 * then). */
static size_t live_locs;

/* Pairs that reads of the current strand skip may name split block b:
 * not once b holds something else. */
static inline void same_reads_forget_block(uint32_t b) {
  ws_pair v = WS_SPLIT_PAIR(b);
  for (int i = 0; i < WS_RACE_SAME_READS; i++)
    if (ws_race_same_read[i] == v)
      ws_race_same_read[i] = WS_RACE_NO_PAIR;
}

/* Granule p (not split) becomes split, each byte as it was. */
static uint32_t split(ws_pair *p) {
  uint64_t *pcs = pcs_of(p);
  uint32_t b;
  rec *r;
  if (is_locs(*pcs)) { /* the block of locations becomes the records */
    b = locs_block(*pcs);
    r = block(b);
    ws_strand w = (uint32_t)*p, rd = (uint32_t)(*p >> 32);
    for (int k = 0; k < 8; k++) {
      r[k].w = w;
      r[k].r = rd;
    }
    *pcs = 0;
    live_locs--;
  } else {
    b = block_new();
    rec one = rec_of(*p, *pcs);
    r = block(b);
    for (int k = 0; k < 8; k++)
      r[k] = one;
  }
  *p = WS_SPLIT_PAIR(b);
  return b;
}

/* A split granule whose bytes agree again is one pair, with its block as
 * the bytes' locations if they differ there and locs_ok (an access of the
 * whole granule: one of part of it would split it again). */
static void merge_if_same(ws_pair *p, int locs_ok) {
  uint32_t b = WS_BLOCK_OF(*p);
  rec *r = block(b);
  ws_pair v = WS_PAIR(r[0].w, r[0].r);
  for (int k = 1; k < 8; k++)
    if (WS_PAIR(r[k].w, r[k].r) != v)
      return;
  int locs_same = 1;
  for (int k = 1; k < 8; k++)
    locs_same &= r[k].wpc == r[0].wpc && r[k].rpc == r[0].rpc;
  if (!locs_same && v && !locs_ok)
    return;
  *p = v;
  if (locs_same || !v) {
    *pcs_of(p) = r[0].wpc | (uint64_t)r[0].rpc << 32;
    block_free(b);
  } else {
    same_reads_forget_block(b);
    *pcs_of(p) = LOCS | (uint64_t)b << 32;
    live_locs++;
  }
}

/* Granule p, whose locations are per byte, all 8 bytes accessed at
 * `here` without a race: its pair becomes nv; one block of locations no
 * longer needed when they agree again. */
static void locs_set(ws_pair *p, ws_pair nv, uint32_t here) {
  ws_pair v = *p;
  uint64_t *pcs = pcs_of(p);
  uint32_t b = locs_block(*pcs);
  rec *r = block(b);
  int wch = (uint32_t)nv != (uint32_t)v, rch = (nv >> 32) != (v >> 32);
  uint32_t rpc = (nv >> 32) ? here : 0;
  for (int k = 0; k < 8; k++) {
    if (wch)
      r[k].wpc = here;
    if (rch)
      r[k].rpc = rpc;
  }
  *p = nv;
  for (int k = 1; k < 8; k++)
    if (r[k].wpc != r[0].wpc || r[k].rpc != r[0].rpc)
      return;
  *pcs = r[0].wpc | (uint64_t)r[0].rpc << 32;
  block_free(b);
  live_locs--;
}

/* ---- the rules ---- */

/* Calls of ws_race_found, reported or not: a run of granules whose check
 * found a race is checked again granule by granule. */
static unsigned long found;

static inline void race(enum ws_race_kind kind, uintptr_t at, uintptr_t pc, ws_strand earlier,
                        uint32_t earlier_pc) {
  found++;
  ws_race_found(kind, at, pc, earlier, ws_race_code_address(earlier_pc));
}

/* The access of me at pc to a byte (or granule) at `at` with last
 * accesses v and their locations pcs: the races, and the new pair. */
static inline ws_pair rules(ws_pair v, uint64_t pcs, uintptr_t at, uintptr_t pc, int write,
                            ws_strand me) {
  ws_strand w = (uint32_t)v, r = (uint32_t)(v >> 32);
  if (write) {
    if (w && w != me && ws_race_parallel(w))
      race(WS_RACE_WRITE_WRITE, at, pc, w, (uint32_t)pcs);
    if (r && r != me) {
      if (ws_race_parallel(r))
        race(WS_RACE_READ_WRITE, at, pc, r, (uint32_t)(pcs >> 32));
      else
        r = 0;
    }
    return WS_PAIR(me, r);
  }
  if (w == me)
    return v;
  if (w && ws_race_parallel(w))
    race(WS_RACE_WRITE_READ, at, pc, w, (uint32_t)pcs);
  if (r != me && (!r || !ws_race_parallel(r)))
    r = me;
  return WS_PAIR(w, r);
}

/* The locations after v became nv by an access at `here`. */
static inline uint64_t pcs_after(ws_pair v, ws_pair nv, uint64_t pcs, uint32_t here) {
  if ((uint32_t)nv != (uint32_t)v)
    pcs = (pcs & 0xffffffff00000000ull) | here;
  if ((nv >> 32) != (v >> 32))
    pcs = (pcs & 0xffffffffull) | (uint64_t)((nv >> 32) ? here : 0) << 32;
  return pcs;
}

static inline int unchanged(ws_pair v, ws_strand me, int write) {
  return ws_race_unchanged_pair(v, me, write);
}

/* Would a read by a strand that is neither w nor r, of a byte whose writer
 * is w and kept reader r, change nothing and race with nothing?  Only if
 * the reader is parallel (and so kept) and the writer serial or none. */
static inline int others_read_kept(ws_strand w, ws_strand r) {
  return r && ws_race_parallel(r) && !(w && ws_race_parallel(w));
}

/* Would a read by me of a byte whose record is c change nothing and race
 * with nothing (the read rule, without its effects)? */
static inline int read_changes_nothing(rec c, ws_strand me) {
  return c.w == me || c.r == me || others_read_kept(c.w, c.r);
}

/* A read of bytes [off, off+len) of a split granule's records r changed
 * none of them: would it change none of the granule's other bytes either
 * (each distinct pair looked at once)?  Then the read is the same as its
 * strand's last one for the whole granule. */
static int others_read_unchanged(const rec *r, unsigned off, unsigned len, ws_strand me) {
  ws_pair last = WS_PAIR(r[off].w, r[off].r);
  for (unsigned k = 0; k < 8; k++) {
    ws_pair v = WS_PAIR(r[k].w, r[k].r);
    if (v == last || (k >= off && k < off + len))
      continue;
    if (!read_changes_nothing(r[k], me))
      return 0;
    last = v;
  }
  return 1;
}

/* Bytes [off, off+len) of split granule p, the first at address x.  Bytes
 * whose records are equal — most of them — get the rules once: a record
 * checked without a race becomes the same record each time.  A read that
 * changes nothing, and to which no byte of the granule would change
 * anything, makes the granule's pair one of those the strand's reads skip
 * (the fast path, shadow.h): the second field of a structure, or the next
 * read of the same one, needs no call here. */
static int split_bytes(ws_pair *p, unsigned off, unsigned len, uintptr_t x, uintptr_t pc,
                       int write, ws_strand me) {
  rec *r = block(WS_BLOCK_OF(*p));
  uint32_t here = ws_race_code_offset(pc);
  int changed = 0, reuse = 0;
  unsigned long before = found;
  ws_pair was = 0, now = 0;
  for (unsigned k = off; k < off + len; k++) {
    rec c = r[k];
    ws_pair v = WS_PAIR(c.w, c.r);
    uint64_t pcs = c.wpc | (uint64_t)c.rpc << 32;
    /* The rules give what they gave the byte before with the same pair
     * (no race found there); only the locations are the byte's own (a
     * structure's fields written at different places). */
    if (reuse && v == was) {
      if (now != v) {
        rec n = rec_of(now, pcs_after(v, now, pcs, here));
        if (!rec_same(n, c)) {
          r[k] = n;
          changed = 1;
        }
      }
      continue;
    }
    if (unchanged(v, me, write))
      continue;
    unsigned long f = found;
    ws_pair nv = rules(v, pcs, x + (k - off), pc, write, me);
    was = v;
    now = nv;
    if (nv != v) {
      r[k] = rec_of(nv, pcs_after(v, nv, pcs, here));
      changed = 1;
    }
    reuse = found == f;
  }
  if (changed) {
    merge_if_same(p, len == 8);
  } else if (!write && found == before) {
    /* The bytes read passed; the others, each distinct pair once. */
    if (!others_read_unchanged(r, off, len, me))
      return 0;
    ws_race_same_read_add(*p);
  }
  return changed;
}

/* Bytes [off, off+len) of granule p, whose locations are per byte (its
 * pair is not split and the access changes it or may race), the first at
 * x.  The rules once for the pair when they find no race and leave the
 * bytes one pair (the whole granule accessed); else byte by byte. */
static int locs_access(ws_pair *p, unsigned off, unsigned len, uintptr_t x, uintptr_t pc,
                       int write, ws_strand me) {
  ws_pair v = *p, nv;
  ws_strand w = (uint32_t)v, r = (uint32_t)(v >> 32);
  int racy;
  if (write) {
    racy = (w && w != me && ws_race_parallel(w)) || (r && r != me && ws_race_parallel(r));
    nv = WS_PAIR(me, r == me ? me : 0); /* a serial reader is dropped */
  } else {
    if (w == me)
      return 0;
    racy = w && ws_race_parallel(w);
    nv = r != me && (!r || !ws_race_parallel(r)) ? WS_PAIR(w, me) : v;
  }
  if (racy || (nv != v && len < 8)) {
    split(p);
    return split_bytes(p, off, len, x, pc, write, me);
  }
  if (nv == v) { /* a read, a parallel reader kept: as for every byte */
    ws_race_same_read_add(v);
    return 0;
  }
  locs_set(p, nv, ws_race_code_offset(pc));
  return 1;
}

/* Bytes [off, off+len) (not all 8) of split granule p, the first at x:
 * split_bytes for a few bytes (a byte of a string or a board, a field),
 * byte by byte. */
static int split_part(ws_pair *p, unsigned off, unsigned len, uintptr_t x, uintptr_t pc,
                      int write, ws_strand me) {
  rec *r = block(WS_BLOCK_OF(*p));
  int changed = 0;
  unsigned long before = found;
  for (unsigned k = off; k < off + len; k++) {
    rec c = r[k];
    ws_pair v = WS_PAIR(c.w, c.r);
    if (unchanged(v, me, write))
      continue;
    uint64_t pcs = c.wpc | (uint64_t)c.rpc << 32;
    ws_pair nv = rules(v, pcs, x + (k - off), pc, write, me);
    if (nv != v) {
      r[k] = rec_of(nv, pcs_after(v, nv, pcs, ws_race_code_offset(pc)));
      changed = 1;
    }
  }
  if (changed) {
    /* Bytes that agree again: seldom after a part changed (the others
     * first). */
    if (WS_PAIR(r[0].w, r[0].r) == WS_PAIR(r[7].w, r[7].r))
      merge_if_same(p, 0);
  } else if (!write && found == before) {
    /* The bytes read passed; the others, each distinct pair once. */
    if (!others_read_unchanged(r, off, len, me))
      return 0;
    ws_race_same_read_add(*p);
  }
  return changed;
}

/* Bytes [off, off+len) of granule p (not all 8), the first at x. */
static int part(ws_pair *p, unsigned off, unsigned len, uintptr_t x, uintptr_t pc, int write,
                ws_strand me) {
  ws_pair v = *p;
  if ((uint32_t)v == WS_SPLIT)
    return split_part(p, off, len, x, pc, write, me);
  if (!v) { /* never accessed, or forgotten: the rules' result, its bytes apart */
    uint32_t b = block_new(), here = ws_race_code_offset(pc);
    rec *r = block(b), now = write ? (rec){me, 0, here, 0} : (rec){0, me, 0, here};
    for (unsigned k = 0; k < 8; k++)
      r[k] = k >= off && k < off + len ? now : (rec){0, 0, 0, 0};
    *p = WS_SPLIT_PAIR(b);
    return 1;
  }
  if (unchanged(v, me, write))
    return 0;
  if (is_locs(*pcs_of(p)))
    return locs_access(p, off, len, x, pc, write, me);
  uint64_t pcs = *pcs_of(p);
  unsigned long before = found;
  ws_pair nv = rules(v, pcs, x, pc, write, me);
  if (nv == v) {
    if (!write && found == before) /* as for every byte of the granule */
      ws_race_same_read_add(v);
    return 0;
  }
  uint32_t b = split(p);
  rec now = rec_of(nv, pcs_after(v, nv, pcs, ws_race_code_offset(pc))), *r = block(b);
  for (unsigned k = off; k < off + len; k++)
    r[k] = now;
  return 1;
}

/* Granule p, all 8 bytes, at address x. */
static inline int whole(ws_pair *p, uintptr_t x, uintptr_t pc, int write, ws_strand me) {
  ws_pair v = *p;
  if ((uint32_t)v == WS_SPLIT)
    return split_bytes(p, 0, 8, x, pc, write, me);
  uint64_t *pcs = pcs_of(p);
  if (!v) { /* never accessed, or forgotten (a frame's new locals): the rules' result */
    uint32_t here = ws_race_code_offset(pc);
    *pcs = write ? here : (uint64_t)here << 32;
    *p = write ? WS_PAIR(me, 0) : WS_PAIR(0, me);
    return 1;
  }
  if (unchanged(v, me, write))
    return 0;
  if (is_locs(*pcs))
    return locs_access(p, 0, 8, x, pc, write, me);
  unsigned long before = found;
  ws_pair nv = rules(v, *pcs, x, pc, write, me);
  if (nv == v) {
    if (!write && found == before)
      ws_race_same_read_add(v);
    return 0;
  }
  *pcs = pcs_after(v, nv, *pcs, ws_race_code_offset(pc));
  *p = nv;
  return 1;
}

/* How many of p[0..n), from the first, an access of me changes nothing
 * in; how many equal c. */
static inline size_t count_unchanged(const ws_pair *p, size_t n, ws_strand me, int write) {
  size_t k = 0;
  if (write) {
    for (; k + 4 <= n; k += 4)
      if (((uint32_t)p[k] != me) | ((uint32_t)p[k + 1] != me) | ((uint32_t)p[k + 2] != me) |
          ((uint32_t)p[k + 3] != me))
        break;
    while (k < n && (uint32_t)p[k] == me)
      k++;
  } else {
    while (k < n && ws_race_unchanged_pair(p[k], me, 0))
      k++;
  }
  return k;
}
static inline size_t count_equal(const ws_pair *p, size_t n, ws_pair c) {
  size_t k = 0;
  for (; k + 4 <= n; k += 4)
    if ((p[k] ^ c) | (p[k + 1] ^ c) | (p[k + 2] ^ c) | (p[k + 3] ^ c))
      break;
  while (k < n && p[k] == c)
    k++;
  return k;
}

/* Whole granules p[0..n), the first at address x. */
static int granules(ws_pair *p, size_t n, uintptr_t x, uintptr_t pc, int write, ws_strand me) {
  uint64_t *pcs = pcs_of(p);
  uint32_t here = 0;
  int changed = 0;
  size_t i = 0;
  while (i < n) {
    i += count_unchanged(p + i, n - i, me, write);
    if (i == n)
      break;
    ws_pair v = p[i];
    if ((uint32_t)v == WS_SPLIT) {
      changed |= split_bytes(p + i, 0, 8, x + 8 * i, pc, write, me);
      i++;
      continue;
    }
    if (is_locs(pcs[i])) {
      changed |= locs_access(p + i, 0, 8, x + 8 * i, pc, write, me);
      i++;
      continue;
    }
    size_t j = i + 1 + count_equal(p + i + 1, n - i - 1, v);
    unsigned long before = found;
    ws_pair nv = rules(v, pcs[i], x + 8 * i, pc, write, me);
    if (found != before)
      j = i + 1; /* the others' earlier accesses may be elsewhere: each its own */
    else if (nv == v && !write)
      ws_race_same_read_add(v);
    if (nv != v) {
      if (!here)
        here = ws_race_code_offset(pc);
      for (size_t k = i; k < j; k++) {
        if (is_locs(pcs[k])) { /* the same pair: the same rules */
          locs_set(p + k, nv, here);
          continue;
        }
        pcs[k] = pcs_after(v, nv, pcs[k], here);
        p[k] = nv;
      }
      changed = 1;
    }
    i = j;
  }
  return changed;
}

/* ---- the checked thread's stack ---- */

/* The serial run puts logically parallel strands' frames at the same
 * addresses.  ws_race_stack_dirty is the lowest stack address whose shadow
 * changed since the stack below it was last forgotten: nothing below it is
 * kept (race.h's ws_race_stack_dead_below reads it inline). */
uintptr_t ws_race_stack_lo, ws_race_stack_size, ws_race_stack_dirty = UINTPTR_MAX;

void ws_race_stack_init(uintptr_t lo, size_t size) {
  ws_race_stack_lo = lo;
  ws_race_stack_size = size;
}

void ws_race_stack_forget_below(uintptr_t sp) {
  uintptr_t from = ws_race_stack_dirty & ~(uintptr_t)7;
  ws_race_forget(from, sp - from);
  ws_race_stack_dirty = sp;
}

/* The shadow of address a changed: on the stack, it is kept from now on. */
static inline void stack_changed(uintptr_t a) {
  if (a - ws_race_stack_lo < ws_race_stack_size && a < ws_race_stack_dirty)
    ws_race_stack_dirty = a;
}

/* ---- memory other threads freed ---- */

typedef struct span {
  uintptr_t x;
  size_t n;
} span;
static span *later;
static size_t nlater, later_cap;
static int later_lock, pending;

static void take_later(void) {
  while (__atomic_exchange_n(&later_lock, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(&later_lock, __ATOMIC_RELAXED))
      __builtin_ia32_pause();
}
static void give_later(void) { __atomic_store_n(&later_lock, 0, __ATOMIC_RELEASE); }

void ws_race_forget_later(uintptr_t x, size_t n) {
  take_later();
  if (nlater == later_cap) {
    size_t cap = later_cap ? 2 * later_cap : 256;
    span *s = ws_race_realloc(later, cap * sizeof *s);
    if (!s) {
      give_later();
      ws_fatal("-fws-race: out of memory for freed blocks");
    }
    later = s;
    later_cap = cap;
  }
  later[nlater++] = (span){x, n};
  __atomic_store_n(&pending, 1, __ATOMIC_RELEASE);
  give_later();
}

static __attribute__((noinline)) void forget_pending(void) {
  take_later();
  for (size_t i = 0; i < nlater; i++)
    ws_race_forget(later[i].x, later[i].n);
  nlater = 0;
  __atomic_store_n(&pending, 0, __ATOMIC_RELAXED);
  give_later();
}

static inline void settle(void) {
  if (__builtin_expect(__atomic_load_n(&pending, __ATOMIC_ACQUIRE), 0))
    forget_pending();
}

/* ---- accesses ---- */

static void check_access(uintptr_t x, size_t size, uintptr_t pc, int write) {
  ws_strand me = ws_race_me;
  if (!me || !size)
    return;
  if (me == WS_RACE_PENDING) { /* the strand's first access the shadow keeps */
    ws_race_collect_if_due();
    me = ws_race_make_me();
  }
  settle();
  uintptr_t start = x;
  int changed = 0;
  if ((x & 7) + size <= 8) { /* one granule: the usual case */
    uintptr_t i = x >> WS_SH_REGION_BITS;
    if (i >= WS_SH_REGIONS)
      return;
    ws_pair *base = ws_race_regions[i];
    if (!base)
      base = region_new(i);
    ws_pair *p = base + WS_SH_OFFSET(x);
    changed = size == 8 ? whole(p, x, pc, write, me) : part(p, x & 7, (unsigned)size, x, pc, write, me);
    size = 0;
  }
  while (size) {
    uintptr_t i = x >> WS_SH_REGION_BITS;
    if (i >= WS_SH_REGIONS)
      return;
    ws_pair *base = ws_race_regions[i];
    if (!base)
      base = region_new(i);
    ws_pair *p = base + WS_SH_OFFSET(x);
    unsigned off = x & 7;
    if (off || size < 8) {
      unsigned len = 8 - off < size ? 8 - off : (unsigned)size;
      changed |= part(p, off, len, x, pc, write, me);
      x += len;
      size -= len;
      continue;
    }
    size_t n = size / 8, room = WS_SH_GRANULES - WS_SH_OFFSET(x);
    if (n > room)
      n = room;
    changed |= granules(p, n, x, pc, write, me);
    x += 8 * n;
    size -= 8 * n;
  }
  if (changed) {
    ws_race_strand_named(me);
    stack_changed(start);
  }
}

/* Would a read of size bytes at x (one granule) by a strand not made yet
 * change nothing and race with nothing?  A new strand is neither the
 * granule's writer nor its reader: others_read_kept decides it from
 * theirs alone.  Then the strand need not be made for it: many a task only
 * reads shared data that its parallel siblings read first (knapsack's
 * items). */
static inline int pending_read_unchanged(uintptr_t x, size_t size) {
  ws_pair *p = ws_race_pair_of(x);
  if (!p)
    return 0;
  ws_pair v = *p;
  if ((uint32_t)v == WS_SPLIT) {
    const rec *r = block(WS_BLOCK_OF(v)) + (x & 7);
    for (size_t k = 0; k < size; k++)
      if (!others_read_kept(r[k].w, r[k].r))
        return 0;
    return 1;
  }
  if (!others_read_kept((uint32_t)v, (uint32_t)(v >> 32)))
    return 0;
  ws_race_same_read_add(v); /* until the strand is made or changes */
  return 1;
}

/* An access within one granule (the entry points' usual call): the first
 * case of check_access, in a function of its own with fewer registers to
 * save. */
static inline __attribute__((always_inline)) void check_one(uintptr_t x, size_t size,
                                                            uintptr_t pc, int write) {
  ws_strand me = ws_race_me;
  if (!me)
    return;
  settle();
  if (me == WS_RACE_PENDING) {
    if (!write && pending_read_unchanged(x, size))
      return;
    ws_race_collect_if_due();
    me = ws_race_make_me();
  }
  uintptr_t i = x >> WS_SH_REGION_BITS;
  if (__builtin_expect(i >= WS_SH_REGIONS, 0))
    return;
  ws_pair *base = ws_race_regions[i];
  if (__builtin_expect(!base, 0))
    base = region_new(i);
  ws_pair *p = base + WS_SH_OFFSET(x);
  if (size == 8 ? whole(p, x, pc, write, me) : part(p, x & 7, (unsigned)size, x, pc, write, me)) {
    ws_race_strand_named(me);
    stack_changed(x);
  }
}

void ws_race_read(uintptr_t addr, size_t size, uintptr_t pc) {
  if (size && (addr & 7) + size <= 8)
    check_one(addr, size, pc, 0);
  else
    check_access(addr, size, pc, 0);
}
void ws_race_write(uintptr_t addr, size_t size, uintptr_t pc) {
  if (size && (addr & 7) + size <= 8)
    check_one(addr, size, pc, 1);
  else
    check_access(addr, size, pc, 1);
}

void ws_race_strided(uintptr_t x, size_t size, intptr_t stride, size_t count, uintptr_t pc,
                     int write) {
  if (!count || !size)
    return;
  uintptr_t step = stride < 0 ? -(uintptr_t)stride : (uintptr_t)stride;
  if (step <= size) { /* dense (or overlapping): one range */
    uintptr_t lo = stride < 0 ? x - (count - 1) * step : x;
    check_access(lo, (count - 1) * step + size, pc, write);
    return;
  }
  ws_strand me = ws_race_me;
  if (!me)
    return;
  /* Apart: each on its own, but one whose granules an access changes
   * nothing in, or that are all like those of the last one checked, to
   * which that check changed nothing and found no race, needs none. */
  ws_pair same = WS_RACE_NO_PAIR; /* no granule's pair */
  int small = size <= 64;
  size_t k = 0;
  if (small && !(x & 7) && !(size & 7) && !(stride & 7)) {
    /* Whole granules: the elements an access changes nothing in, in a
     * tight loop, while they are in one region. */
    intptr_t step_g = stride / 8;
    size_t n = size / 8;
    while (k < count) {
      ws_pair *p = ws_race_pair_of(x);
      if (!p)
        break;
      uintptr_t first = WS_SH_OFFSET(x);
      size_t fit = count - k;
      /* How many elements from here lie in this region. */
      if (stride > 0) {
        size_t room = (WS_SH_GRANULES - first - n) / (size_t)step_g + 1;
        if (first + n > WS_SH_GRANULES)
          break;
        fit = fit < room ? fit : room;
      } else {
        size_t room = first / (size_t)-step_g + 1;
        if (first + n > WS_SH_GRANULES)
          break;
        fit = fit < room ? fit : room;
      }
      size_t j = 0;
      for (; j < fit; j++, p += step_g) {
        size_t g = 0;
        while (g < n && ws_race_unchanged_pair(p[g], me, write))
          g++;
        if (g < n)
          break;
      }
      k += j;
      x += (uintptr_t)stride * j;
      if (j < fit)
        break; /* this one needs a check */
    }
  }
  for (; k < count; k++, x += (uintptr_t)stride) {
    ws_pair *p = small ? ws_race_pair_of(x) : 0;
    size_t g = 0, n = ((x & 7) + size + 7) / 8;
    if (p && WS_SH_OFFSET(x) + n <= WS_SH_GRANULES) {
      while (g < n && (ws_race_unchanged_pair(p[g], me, write) || p[g] == same))
        g++;
      if (g == n)
        continue;
    } else {
      p = 0;
    }
    ws_pair v = p ? p[0] : same;
    int uniform = p != 0;
    for (g = 1; uniform && g < n; g++)
      uniform = p[g] == v;
    unsigned long before = found;
    check_access(x, size, pc, write);
    me = ws_race_me;
    for (g = 0; uniform && g < n; g++)
      uniform = p[g] == v;
    if (uniform && (uint32_t)v != WS_SPLIT && found == before)
      same = v;
  }
}

/* ---- forgetting ---- */

/* Pairs p[0..n), and their split granules' blocks, are zero. */
static void clear_pairs(ws_pair *p, size_t n) {
  if (!live_splits) {
    /* Only what is not zero already: a page never written (memory
     * allocated and freed unused) is not made resident here. */
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
      uint64_t any = 0;
      for (int j = 0; j < 8; j++)
        any |= p[k + j];
      if (any)
        for (int j = 0; j < 8; j++)
          p[k + j] = 0;
    }
    for (; k < n; k++)
      if (p[k])
        p[k] = 0;
    return;
  }
  uint64_t *pcs = pcs_of(p);
  for (size_t k = 0; k < n; k++) {
    ws_pair v = p[k];
    if (v) {
      if ((uint32_t)v == WS_SPLIT) {
        block_free(WS_BLOCK_OF(v));
      } else if (live_locs && is_locs(pcs[k])) {
        block_free(locs_block(pcs[k]));
        pcs[k] = 0;
        live_locs--;
      }
      p[k] = 0;
    }
  }
}

/* Memory forgotten in a range this large (its pairs) gives its whole
 * pages back to the kernel; a smaller range is cleared in place.  Most
 * are heap blocks that malloc hands out again soon (strassen's
 * temporaries, freed and allocated again at every level): given back,
 * their pages came back zeroed by a page fault each, and half of
 * strassen's CPU time under -fws-race was the kernel's.  So the shadow's
 * resident part follows the program's own peak use of the heap, and a
 * block of 64 MiB or more, which malloc maps and unmaps on its own, gives
 * its shadow back. */
#define RETURNED_BYTES ((size_t)64 << 20)

static void zero_pairs(ws_pair *p, size_t n, int give_back) {
  uintptr_t page = 4096, lo = ((uintptr_t)p + page - 1) & ~(page - 1),
            hi = (uintptr_t)(p + n) & ~(page - 1);
  if (give_back && hi > lo) {
    if (live_splits)
      clear_pairs((ws_pair *)lo, (ws_pair *)hi - (ws_pair *)lo);
    clear_pairs(p, (ws_pair *)lo - p);
    clear_pairs((ws_pair *)hi, p + n - (ws_pair *)hi);
    madvise((void *)lo, hi - lo, MADV_DONTNEED);
    madvise((void *)(lo + PAIR_BYTES), hi - lo, MADV_DONTNEED); /* their locations */
    return;
  }
  clear_pairs(p, n);
}

static void forget_part(ws_pair *p, unsigned off, unsigned len) {
  if (!*p)
    return;
  if ((uint32_t)*p != WS_SPLIT)
    split(p);
  rec *r = block(WS_BLOCK_OF(*p));
  for (unsigned k = off; k < off + len; k++)
    r[k] = (rec){0, 0, 0, 0};
  merge_if_same(p, 0);
}

void ws_race_forget(uintptr_t x, size_t size) {
  if (!ws_race_regions)
    return;
  ws_race_generation++; /* the loops' checks remembered (access.c) are void */
  int give_back = size >= RETURNED_BYTES;
  while (size) {
    uintptr_t i = x >> WS_SH_REGION_BITS;
    if (i >= WS_SH_REGIONS)
      return;
    size_t room = ((uintptr_t)1 << WS_SH_REGION_BITS) - (x & (((uintptr_t)1 << WS_SH_REGION_BITS) - 1));
    size_t n = size < room ? size : room;
    ws_pair *p = ws_race_regions[i];
    if (p) {
      p += WS_SH_OFFSET(x);
      size_t left = n;
      unsigned off = x & 7;
      if (off || left < 8) {
        unsigned len = 8 - off < left ? 8 - off : (unsigned)left;
        forget_part(p++, off, len);
        left -= len;
      }
      zero_pairs(p, left / 8, give_back);
      if (left & 7)
        forget_part(p + left / 8, 0, left & 7);
    }
    x += n;
    size -= n;
  }
}

/* ---- collection (collect.c) ---- */

static size_t granules_seen;

size_t ws_race_shadow_granules(void) { return granules_seen; }

/* Every resident page of pairs (the others are all zero). */
static void each_page(void (*f)(ws_pair *p, size_t n, void *arg), void *arg) {
  static unsigned char resident[PAIR_BYTES / 4096];
  long page = sysconf(_SC_PAGESIZE);
  if (page < 4096 || page > PAIR_BYTES)
    page = 4096;
  size_t per = (size_t)page / sizeof(ws_pair), pages = PAIR_BYTES / (size_t)page;
  granules_seen = 0;
  for (size_t k = 0; k < nregions; k++) {
    ws_pair *base = ws_race_regions[region_list[k]];
    int known = mincore(base, PAIR_BYTES, resident) == 0;
    for (size_t j = 0; j < pages; j++)
      if (!known || (resident[j] & 1)) {
        f(base + j * per, per, arg);
        granules_seen += per;
      }
  }
}

static void mark_page(ws_pair *p, size_t n, void *arg) {
  uint8_t *marks = arg;
  for (size_t k = 0; k < n; k++) {
    ws_pair v = p[k];
    if (!v)
      continue;
    if ((uint32_t)v == WS_SPLIT) {
      rec *r = block(WS_BLOCK_OF(v));
      for (int b = 0; b < 8; b++) {
        ws_race_strand_mark(r[b].w, marks);
        ws_race_strand_mark(r[b].r, marks);
      }
    } else {
      ws_race_strand_mark((uint32_t)v, marks);
      ws_race_strand_mark((uint32_t)(v >> 32), marks);
    }
  }
}

static void renumber_page(ws_pair *p, size_t n, void *arg) {
  const ws_strand *remap = arg;
  for (size_t k = 0; k < n; k++) {
    ws_pair v = p[k];
    if (!v)
      continue;
    if ((uint32_t)v == WS_SPLIT) {
      rec *r = block(WS_BLOCK_OF(v));
      for (int b = 0; b < 8; b++) {
        r[b].w = remap[r[b].w];
        r[b].r = remap[r[b].r];
      }
    } else {
      p[k] = WS_PAIR(remap[(uint32_t)v], remap[(uint32_t)(v >> 32)]);
    }
  }
}

void ws_race_shadow_mark(uint8_t *marks) {
  settle();
  each_page(mark_page, marks);
}

void ws_race_shadow_renumber(const ws_strand *remap) {
  each_page(renumber_page, (void *)remap);
}

WS_RACE_NO_LIBCALLS_END
