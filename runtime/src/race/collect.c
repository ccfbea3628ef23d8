/*
 * collect.c — strands and call stacks no longer referenced are reclaimed,
 * so that a run's memory follows its live strands and its shadow, not its
 * spawns (docs/race.md, "Memory").
 *
 * A strand is needed while the shadow names it (a byte's last writer or
 * reader) or a procedure on the stack does (its S- or P-bag, its current
 * segment, a continuation waiting for its sync); and with it its set's
 * root, which says whether it is parallel.  The shadow forgets freed
 * blocks and dead stack frames, so few strands stay referenced.  When the
 * strands made since the last collection reach twice those it kept (and at
 * least a quarter of the granules the shadow holds, so that reading the
 * shadow costs a bounded amount per strand made), or the call stacks made
 * since reach twice those kept, the referenced ones are marked and
 * renumbered from 1, and the union-find's arrays are reused.  Then the
 * call stacks: the trie nodes the kept strands began in, and the current
 * stack's, are kept, the same way (before the strands' collection, the
 * dropped strands would keep theirs).
 */
#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

enum { MIN_STRANDS = WS_RACE_MIN_STRANDS, MIN_STACKS = WS_RACE_MIN_STACKS };

#define strands_due ws_race_strands_due
#define stacks_due ws_race_stacks_due

static void mark_stack(uint32_t *id, void *marks) { ws_race_stack_mark(*id, marks); }
static void renumber_stack(uint32_t *id, void *remap) { *id = ((uint32_t *)remap)[*id]; }

static void collect_stacks(void) {
  uint8_t *marks = ws_race_calloc(ws_race_stack_ids(), 1);
  if (!marks)
    ws_fatal("-fws-race: out of memory for call stacks");
  ws_race_strands_stacks(mark_stack, marks);
  uint32_t *remap = ws_race_stack_compact(marks);
  ws_race_strands_stacks(renumber_stack, remap);
  ws_race_free(remap);
  ws_race_free(marks);
  uint32_t live = ws_race_stack_ids();
  stacks_due = 2 * live > MIN_STACKS ? 2 * live : MIN_STACKS;
}

static void collect_strands(void) {
  uint8_t *marks = ws_race_calloc(ws_race_strands(), 1);
  if (!marks)
    ws_fatal("-fws-race: out of memory for strands");
  ws_race_shadow_mark(marks);
  ws_race_strands_mark_own(marks);
  ws_strand *remap = ws_race_strands_compact(marks);
  ws_race_shadow_renumber(remap);
  ws_race_free(remap);
  ws_race_free(marks);
  uint64_t live = ws_race_strands(), shadow = ws_race_shadow_granules() / 4, due = 2 * live;
  if (due < shadow)
    due = shadow;
  if (due < MIN_STRANDS)
    due = MIN_STRANDS;
  strands_due = due > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uint32_t)due;
  /* The strands dropped held call stacks. */
  collect_stacks();
}

/* Strands first: the call stacks that only dropped strands held go too. */
void ws_race_collect(void) { collect_strands(); }

WS_RACE_NO_LIBCALLS_END
