/*
 * hooks.c — the runtime's and the lowering's calls: a spawning procedure
 * begins and ends, a spawn, a child run at its sync begins and ends
 * (SP-bags, bags.c).  Before a child runs, the stack below its parent's
 * stack pointer is dead: the child runs there, logically in parallel with
 * whatever used it before (the continuation's callees, a variable-length
 * array whose scope ended, a library function's own locals), so it
 * forgets its accesses.
 */
#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

/* A procedure is made at its function's first spawn (bags.c): entering
 * counts, and leaving one that never spawned counts down. */
void __ws_race_enter(ws_slot *tail) {
  (void)tail;
  if (ws_race_on())
    ws_race_lazy++;
}

void __ws_race_leave(void) {
  if (ws_race_on()) {
    if (ws_race_lazy)
      ws_race_lazy--;
    else
      ws_race_bags_leave();
  }
}

void __ws_race_spawn(ws_slot *slot) {
  if (ws_race_on())
    ws_race_bags_spawn(slot, (uintptr_t)__builtin_return_address(0));
}

/* Called by __ws_child_begin (views.c), called by the procedure that runs
 * the child at its sync: that procedure's stack pointer is its caller's
 * frame address + 16 (libws_race keeps frame pointers). */
void ws_race_child_begin(ws_slot *slot) {
  if (!ws_race_on())
    return;
  uintptr_t sp = *(uintptr_t *)__builtin_frame_address(0) + 16;
  ws_race_stack_dead_below(sp);
  ws_race_bags_child_begin(slot);
}

void ws_race_child_end(void) {
  if (ws_race_on())
    ws_race_bags_child_end();
}

WS_RACE_NO_LIBCALLS_END
