/*
 * checked.c — which code is checked: only the thread that runs the
 * computation (the main thread), and on it not the runtime's own work nor
 * the reducers' callbacks.  The bottom of -fws-race's layers.
 *
 * ws_race_me is the current strand while the checks are on, 0 otherwise:
 * one thread-local load tells an entry point both whether to check and
 * which strand accesses.
 */
#include "race.h"

WS_RACE_NO_LIBCALLS_BEGIN

__thread ws_strand ws_race_me __attribute__((tls_model("initial-exec")));
__thread int ws_race_thread __attribute__((tls_model("initial-exec")));
int ws_race_started;

ws_strand ws_race_running;
uint64_t ws_race_same_read = WS_RACE_NO_PAIR;
int ws_race_ignored;

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
