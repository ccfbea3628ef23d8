/*
 * checked.c — which code is checked: only the thread that runs the
 * computation (the main thread), and on it not the runtime's own work nor
 * the reducers' callbacks.  The bottom of -fws-race's layers.
 *
 * ws_race_me is the current strand while the checks are on, 0 otherwise:
 * one thread-local load tells an entry point both whether to check and
 * which strand accesses (local-exec: libws_race is linked into the
 * executable only, ws-clang links no shared library with it).
 */
#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

__thread ws_strand ws_race_me __attribute__((tls_model("local-exec")));
__thread int ws_race_thread __attribute__((tls_model("initial-exec")));
int ws_race_started;

ws_strand ws_race_running;
uint64_t ws_race_same_read[WS_RACE_SAME_READS] = {WS_RACE_NO_PAIR, WS_RACE_NO_PAIR,
                                                   WS_RACE_NO_PAIR, WS_RACE_NO_PAIR};
unsigned ws_race_same_next;
uint32_t ws_race_generation = 1;
int ws_race_ignored;

/* The collector's thresholds and entry (collect.c, race.h). */
uint32_t ws_race_strands_due = WS_RACE_MIN_STRANDS, ws_race_stacks_due = WS_RACE_MIN_STACKS;
void (*ws_race_collector)(void);

void ws_race_ignore_begin(void) {
  if (!ws_race_thread)
    return;
  ws_race_ignored++;
  ws_race_me = 0;
}

void ws_race_ignore_end(void) {
  if (!ws_race_thread)
    return;
  if (--ws_race_ignored == 0)
    ws_race_me = ws_race_running;
}

WS_RACE_NO_LIBCALLS_END
