/*
 * shadow.c — the last writer and reader of every byte the program touched,
 * and the check of each access against them (SP-bags: the write rule and
 * the read rule of Feng and Leiserson).
 *
 * A byte's cell holds the strand that last wrote it and the one that read
 * it that a later write must be checked against; every 8 bytes share a
 * record of where those accesses were (code offsets in the executable),
 * for reports.  Cells come in pages of 4 KiB of memory, found
 * through a hash table of page numbers; a page of memory that was never
 * touched has none.  An access whose bytes all have the same cell (memory
 * written by accesses of its own size: the usual case) is checked once.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "race.h"

typedef union cell {
  struct {
    ws_strand w, r;
  };
  uint64_t both;
} cell;

typedef struct sites {
  uint32_t wpc, rpc;
} sites;

enum { PAGE_BITS = 12, PAGE = 1 << PAGE_BITS };

typedef struct page {
  uintptr_t number;
  cell *cells;   /* PAGE of them, then PAGE / 8 sites */
} page;

static page *table;
static size_t table_cap, table_used;
/* The pages looked up last, by the low bits of their number. */
enum { RECENT = 256 };
static page recent[RECENT];

static size_t slot_of(uintptr_t number, size_t cap) {
  return (size_t)((number * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

static void grow(void) {
  size_t cap = table_cap ? 2 * table_cap : 1 << 12;
  page *t = calloc(cap, sizeof *t);
  if (!t)
    ws_fatal("-fws-race: out of memory for the shadow table");
  for (size_t i = 0; i < table_cap; i++)
    if (table[i].cells) {
      size_t j = slot_of(table[i].number, cap);
      while (t[j].cells)
        j = (j + 1) & (cap - 1);
      t[j] = table[i];
    }
  ws_race_free(table);
  table = t;
  table_cap = cap;
}

static size_t page_bytes(void) { return PAGE * sizeof(cell) + PAGE / 8 * sizeof(sites); }

static page *recent_of(uintptr_t number) {
  return &recent[(number ^ number >> 7 ^ number >> 15) & (RECENT - 1)];
}

/* The cells of a page; made (all zero: no access) when `make`. */
static __attribute__((noinline)) cell *cells_slow(uintptr_t number, int make) {
  page *r = recent_of(number);
  if (table_cap) {
    for (size_t j = slot_of(number, table_cap); table[j].cells; j = (j + 1) & (table_cap - 1))
      if (table[j].number == number) {
        *r = table[j];
        return r->cells;
      }
  }
  if (!make)
    return NULL;
  if (2 * (table_used + 1) > table_cap)
    grow();
  cell *c = mmap(NULL, page_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (c == MAP_FAILED)
    ws_fatal("-fws-race: out of memory for shadow cells");
  size_t j = slot_of(number, table_cap);
  while (table[j].cells)
    j = (j + 1) & (table_cap - 1);
  table[j] = (page){number, c};
  table_used++;
  *r = table[j];
  return c;
}

static inline cell *cells_of(uintptr_t number, int make) {
  page *r = recent_of(number);
  if (__builtin_expect(r->cells && r->number == number, 1))
    return r->cells;
  return cells_slow(number, make);
}

static sites *sites_of(cell *cells, size_t in) {
  return (sites *)(cells + PAGE) + in / 8;
}

/* Code addresses are kept as 32-bit offsets from the executable's load
 * address (code elsewhere, in a shared library: 0, unknown). */
static uintptr_t code_base;
static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(uintptr_t *)data = info->dlpi_addr;
  return 1;
}
void ws_race_shadow_init(void) { dl_iterate_phdr(first_object, &code_base); }
static uint32_t code_offset(uintptr_t pc) {
  return pc > code_base && pc - code_base < UINT32_MAX ? (uint32_t)(pc - code_base) : 0;
}
static uintptr_t code_address(uint32_t offset) { return offset ? code_base + offset : 0; }

/* One cell c of byte `at`, its sites s: the rules, and the new cell (the
 * caller records where, when it changed). */
static inline cell check(cell c, const sites *s, uintptr_t at, uintptr_t pc, int write) {
  ws_strand me = ws_race_current;
  if (c.w && c.w != me && ws_race_parallel(c.w))
    ws_race_found(write ? WS_RACE_WRITE_WRITE : WS_RACE_WRITE_READ, at, pc, c.w,
                  code_address(s->wpc));
  if (write) {
    if (c.r && c.r != me && ws_race_parallel(c.r))
      ws_race_found(WS_RACE_READ_WRITE, at, pc, c.r, code_address(s->rpc));
    c.w = me;
  } else if (c.r != me && (!c.r || !ws_race_parallel(c.r))) {
    /* The earlier reader is serial with us: a later write that is parallel
     * with it is parallel with us too (the read rule). */
    c.r = me;
  }
  return c;
}

/* The checked thread's stack, and the lowest address in it accessed since
 * the frames there returned: the serial run reuses the stack for strands
 * that are logically parallel, so dead frames forget their accesses. */
static uintptr_t stack_lo, stack_size, dirty = UINTPTR_MAX;

void ws_race_stack_init(uintptr_t lo, size_t size) {
  stack_lo = lo;
  stack_size = size;
}

void ws_race_frame_returned(uintptr_t top) {
  if (dirty < top && top - stack_lo <= stack_size) {
    ws_race_forget(dirty, top - dirty);
    dirty = top;
  }
}

/* Where the accesses that changed cells [in, in+n) were. */
static void record(cell *cells, size_t in, size_t n, cell old, cell now, uintptr_t pc) {
  uint32_t at = code_offset(pc);
  for (size_t g = in / 8; g <= (in + n - 1) / 8; g++) {
    sites *s = sites_of(cells, g * 8);
    if (now.w != old.w)
      s->wpc = at;
    if (now.r != old.r)
      s->rpc = at;
  }
}

static void access(uintptr_t addr, size_t size, uintptr_t pc, int write) {
  if (addr - stack_lo < stack_size && addr < dirty)
    dirty = addr;
  while (size) {
    size_t in = addr & (PAGE - 1), n = PAGE - in < size ? PAGE - in : size;
    cell *cells = cells_of(addr >> PAGE_BITS, 1), *c = cells + in;
    uint64_t differ = 0; /* a loop the compiler vectorizes */
    for (size_t i = 1; i < n; i++)
      differ |= c[i].both ^ c[0].both;
    if (!differ) {
      /* The usual case: one cell for the whole access, checked once. */
      cell old = c[0], now = check(old, sites_of(cells, in), addr, pc, write);
      if (now.both != old.both) {
        for (size_t i = 0; i < n; i++)
          c[i] = now;
        record(cells, in, n, old, now, pc);
      }
    } else {
      for (size_t i = 0; i < n; i++) {
        cell old = c[i], now = check(old, sites_of(cells, in + i), addr + i, pc, write);
        if (now.both != old.both) {
          c[i] = now;
          record(cells, in + i, 1, old, now, pc);
        }
      }
    }
    addr += n;
    size -= n;
  }
}

void ws_race_read(uintptr_t addr, size_t size, uintptr_t pc) { access(addr, size, pc, 0); }
void ws_race_write(uintptr_t addr, size_t size, uintptr_t pc) { access(addr, size, pc, 1); }

void ws_race_forget(uintptr_t addr, size_t size) {
  while (size) {
    size_t in = addr & (PAGE - 1), n = PAGE - in < size ? PAGE - in : size;
    cell *c = cells_of(addr >> PAGE_BITS, 0);
    if (c)
      memset(c + in, 0, n * sizeof *c);
    addr += n;
    size -= n;
  }
}
