/*
 * omp/echo.h — what a thread that waits in the OpenMP module owes THEP's
 * thieves (echo.c).
 *
 * A THEP thief unsure of its victim's tail waits, holding the victim's
 * lock, until the victim's next take echoes it (or the deque drains).  In
 * the scheduler nobody waits as a thief, or at all, with tasks of its own
 * in its spawn deque (a sync joins only after its take, and thieves take
 * the oldest task first), so the victim always takes again.  A thread
 * waiting in this module (a barrier, a taskwait's join, a taskyield, a
 * lock, the start of a team) may hold spawns of the frames below it,
 * fast-path or ws_spawn ones: a thief waiting on it would wait for it, and
 * it, perhaps, for that thief.  So such a thread echoes instead: it takes
 * its top spawn back and pushes it again, the take a thief waits for; and
 * it neither steals nor sleeps while it has one.
 */
#ifndef WS_OMP_ECHO_H
#define WS_OMP_ECHO_H

#include "../worker.h"

/* For worker self (may be NULL): under THEP, with tasks in its spawn
 * deque, echoes its thieves and returns 1 (do not steal, do not sleep);
 * else 0. */
int ws_omp_echo(ws_worker *self);

#endif
