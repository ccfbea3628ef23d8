/*
 * omp/team.h — parallel regions (team.c).
 */
#ifndef WS_OMP_TEAM_H
#define WS_OMP_TEAM_H

#include "state.h"

/* The largest team a region of the calling thread would get now (no
 * num_threads clause): omp_get_max_threads. */
int ws_omp_max_threads(void);

/* The members waiting for the next region go back to the workers
 * (omp_pause_resource). */
void ws_omp_release_team(void);

#endif
