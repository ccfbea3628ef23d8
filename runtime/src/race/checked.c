/*
 * checked.c — which code is checked: only the thread that runs the
 * computation (the main thread), and on it not the runtime's own work nor
 * the reducers' callbacks.  The bottom of -fws-race's layers.
 */
#include "race.h"

__thread int ws_race_checked __attribute__((tls_model("initial-exec")));

void ws_race_ignore_begin(void) { ws_race_checked--; }
void ws_race_ignore_end(void) { ws_race_checked++; }
