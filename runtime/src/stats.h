/* stats.h — the WS_STATS=1 report. */
#ifndef WS_STATS_H
#define WS_STATS_H

#include <stdio.h>

/* One line "ws: variant=V workers=N S=S delta=D x=X spawns=... steals=...
 * aborts=... echo_waits=... leaps=..." and then one line per worker. */
void ws_stats_print(FILE *out);

#endif
