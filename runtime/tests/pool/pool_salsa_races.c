/*
 * pool_salsa_races.c — SALSA's races, replayed one step at a time on one
 * thread.  The pool is built with WS_POOL_TEST_HOOKS: the algorithm calls
 * ws_pool_test_point between two steps, and the test runs another
 * consumer's whole operation there.  Every scenario checks that each task
 * comes out exactly once.
 *
 *   pool_salsa_races SCENARIO
 *
 * last-announced   a thief takes the chunk over after the owner announced
 *                  its last slot: the thief backs off, the owner takes it
 * last-read        ... before the owner announced it: the thief wins the
 *                  slot's CAS and ends the chunk; it is reused through the
 *                  thief's chunk pool (producer-based balancing)
 * last-both        the owner reads the last slot, a thief takes the chunk
 *                  over and claims that slot, then the owner announces it and
 *                  wins the slot's CAS: only the owner may end the chunk (as
 *                  we read paper 002 Alg. 5, the losing thief would end it
 *                  too, and the chunk would be handed out twice).  Needs two
 *                  threads, run in strict alternation.
 * mid-read, mid-announced   the same two races on a slot in the middle
 *                  (after mid-read the owner's get goes on to steal the
 *                  chunk back and takes the next task)
 * reuse            many rounds of fill and drain by two consumers: chunks
 *                  are reused, not allocated again (salsa and salsa-cas)
 * aba              a thief stalls after reading a node; meanwhile the chunk
 *                  is stolen and stolen back by the same victim: the tag
 *                  makes the stale thief's CAS fail
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool/salsa_core.h"

#define CHUNK 4

void (*ws_pool_test_point)(const char *where);

static ws_pool *pool;
static int seen[1024];
static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                              \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static ws_pool *make(const char *variant, int workers) {
  memset(seen, 0, sizeof seen);
  return ws_pool_create(&(ws_pool_config){
      .variant = variant, .workers = workers, .chunk_size = CHUNK});
}

static ws_pool_task get(int w) {
  ws_pool_task t = ws_pool_get(pool, w);
  if (t >= sizeof seen / sizeof *seen) {
    CHECK(0, "consumer %d got a task that was never put: %#lx", w,
          (unsigned long)t);
    return WS_POOL_NONE;
  }
  if (t != WS_POOL_NONE)
    seen[t]++;
  return t;
}

static void put_range(int slot, int from, int to) {
  for (int t = from; t <= to; t++)
    ws_pool_put(pool, slot, (ws_pool_task)t);
}

static void check_once(int from, int to) {
  for (int t = from; t <= to; t++)
    CHECK(seen[t] == 1, "task %d came out %d times", t, seen[t]);
}

/* Lets finished chunks pass their grace period: each empty get of a
 * consumer runs its reclamation and advances the epoch. */
static void settle(int workers) {
  for (int i = 0; i < 4; i++)
    for (int w = 0; w < workers; w++)
      CHECK(get(w) == WS_POOL_NONE, "pool should be empty");
}

/* --- the owner's take racing a steal --------------------------------- */

static const char *race_point;
static int race_armed;
static ws_pool_task thief_got;

static void race_hook(const char *where) {
  if (race_armed && strcmp(where, race_point) == 0) {
    race_armed = 0;
    thief_got = get(1);
  }
}

static void race(const char *point, int slot, ws_pool_task want_owner,
                 ws_pool_task want_thief) {
  pool = make("salsa", 2);
  put_range(0, 1, CHUNK);
  for (int t = 1; t <= slot; t++)
    CHECK(get(0) == (ws_pool_task)t, "owner takes %d first", t);
  ws_pool_test_point = race_hook;
  race_point = point;
  race_armed = 1;
  thief_got = WS_POOL_NONE;
  ws_pool_task owner_got = get(0);
  ws_pool_test_point = NULL;
  CHECK(!race_armed, "the race point %s was not reached", point);
  CHECK(owner_got == want_owner, "owner got %lu, expected %lu",
        (unsigned long)owner_got, (unsigned long)want_owner);
  CHECK(thief_got == want_thief, "thief got %lu, expected %lu",
        (unsigned long)thief_got, (unsigned long)want_thief);
  for (int w = 0; w < 2; w++) /* the rest, by whoever holds the chunk now */
    while (get(w) != WS_POOL_NONE)
      ;
  check_once(1, CHUNK);
  /* The finished chunk is reused exactly once: the next chunk's worth of
   * tasks needs no new chunk, and comes out once. */
  settle(2);
  put_range(0, CHUNK + 1, 2 * CHUNK);
  CHECK(salsa_chunks_allocated(pool) == 1, "%u chunks allocated, expected 1",
        salsa_chunks_allocated(pool));
  for (int w = 0; w < 2; w++)
    while (get(w) != WS_POOL_NONE)
      ;
  check_once(CHUNK + 1, 2 * CHUNK);
  ws_pool_destroy(pool);
}

/* --- both claim the last slot: two threads in strict alternation ------ */

static sem_t thief_go, owner_go;
static pthread_t owner_thread;
static int both_stage;

static void both_hook(const char *where) {
  int owner = pthread_equal(pthread_self(), owner_thread);
  if (owner && both_stage == 0 && strcmp(where, "salsa-take-read") == 0) {
    both_stage = 1; /* the owner read slot 3 and saw the chunk still its own */
    sem_post(&thief_go);
    sem_wait(&owner_go);
  } else if (!owner && both_stage == 1 && strcmp(where, "salsa-steal-claimed") == 0) {
    both_stage = 2; /* the thief owns the chunk and claimed slot 3 */
    sem_post(&owner_go);
    sem_wait(&thief_go);
  }
}

static void *thief_main(void *arg) {
  sem_wait(&thief_go);
  thief_got = get(1);
  return arg;
}

static void both(void) {
  pool = make("salsa", 2);
  put_range(0, 1, CHUNK);
  for (int t = 1; t < CHUNK; t++)
    CHECK(get(0) == (ws_pool_task)t, "owner takes %d first", t);
  sem_init(&thief_go, 0, 0);
  sem_init(&owner_go, 0, 0);
  owner_thread = pthread_self();
  both_stage = 0;
  thief_got = WS_POOL_NONE;
  ws_pool_test_point = both_hook;
  pthread_t thief;
  pthread_create(&thief, NULL, thief_main, NULL);
  ws_pool_task owner_got = get(0);
  sem_post(&thief_go); /* let the thief's CAS on slot 3 fail */
  pthread_join(thief, NULL);
  ws_pool_test_point = NULL;
  CHECK(both_stage == 2, "the interleaving was not reached (stage %d)", both_stage);
  CHECK(owner_got == CHUNK, "owner got %lu", (unsigned long)owner_got);
  CHECK(thief_got == WS_POOL_NONE, "thief got %lu", (unsigned long)thief_got);
  check_once(1, CHUNK);
  /* Two chunks' worth: if the finished chunk had been handed out twice, the
   * producer would fill it twice and overwrite tasks not yet taken. */
  settle(2);
  put_range(0, CHUNK + 1, 3 * CHUNK);
  for (int w = 0; w < 2; w++)
    while (get(w) != WS_POOL_NONE)
      ;
  check_once(CHUNK + 1, 3 * CHUNK);
  CHECK(salsa_chunks_allocated(pool) == 2, "%u chunks allocated, expected 2",
        salsa_chunks_allocated(pool));
  ws_pool_destroy(pool);
}

/* --- chunk reuse ----------------------------------------------------------- */

static void reuse(const char *variant) {
  pool = make(variant, 2);
  int next = 1;
  for (int round = 0; round < 2000; round++) {
    int from = next, to = next + 3 * CHUNK - 1;
    next = to + 1;
    put_range(round % 2, from, to);
    for (int t = from; t <= to; t++)
      seen[t % 1024] = 0;
    int got = 0;
    for (int w = round % 2; got < 3 * CHUNK; w ^= 1) {
      ws_pool_task t = ws_pool_get(pool, w);
      if (t != WS_POOL_NONE) {
        CHECK((int)t >= from && (int)t <= to, "task %lu is not from this round",
              (unsigned long)t);
        seen[t % 1024]++;
        got++;
      }
    }
    for (int t = from; t <= to; t++)
      CHECK(seen[t % 1024] == 1, "%s round %d: task %d came out %d times",
            variant, round, t, seen[t % 1024]);
  }
  settle(2);
  /* Three chunks in use per round, a few more waiting for their grace period
   * or held by a hazard. */
  CHECK(salsa_chunks_allocated(pool) <= 12, "%s allocated %u chunks", variant,
        salsa_chunks_allocated(pool));
  ws_pool_destroy(pool);
}

/* --- ABA on the owner word -------------------------------------------------- */

static int aba_armed;

static void aba_hook(const char *where) {
  if (!aba_armed || strcmp(where, "salsa-steal-snapshot") != 0)
    return;
  aba_armed = 0;
  /* Consumer 1 steals the chunk from 0 (and takes task 1), then consumer 0
   * steals it back (and takes task 2): the owner is 0 again.  Consumer 0 then
   * takes task 3 on its fast path, which leaves no mark in the slot: a stale
   * thief that got the chunk would take it again. */
  CHECK(get(1) == 1, "consumer 1 steals the chunk and takes task 1");
  CHECK(get(0) == 2, "consumer 0 steals it back and takes task 2");
  CHECK(get(0) == 3, "consumer 0 takes task 3 from its own chunk");
}

static void aba(void) {
  pool = make("salsa", 3);
  put_range(0, 1, CHUNK);
  ws_pool_test_point = aba_hook;
  aba_armed = 1;
  ws_pool_task t = get(2); /* stalls between its snapshot and its CAS */
  ws_pool_test_point = NULL;
  CHECK(!aba_armed, "the steal snapshot was not reached");
  CHECK(t == WS_POOL_NONE, "the stale thief took task %lu", (unsigned long)t);
  for (int w = 0; w < 3; w++)
    while (get(w) != WS_POOL_NONE)
      ;
  check_once(1, CHUNK);
  ws_pool_destroy(pool);
}

int main(int argc, char **argv) {
  const char *s = argc == 2 ? argv[1] : "";
  if (strcmp(s, "last-announced") == 0)
    race("salsa-take-announced", CHUNK - 1, CHUNK, WS_POOL_NONE);
  else if (strcmp(s, "last-read") == 0)
    race("salsa-take-read", CHUNK - 1, WS_POOL_NONE, CHUNK);
  else if (strcmp(s, "last-both") == 0)
    both();
  else if (strcmp(s, "mid-announced") == 0)
    race("salsa-take-announced", 1, 2, 3);
  else if (strcmp(s, "mid-read") == 0)
    race("salsa-take-read", 1, 3, 2);
  else if (strcmp(s, "reuse") == 0) {
    reuse("salsa");
    reuse("salsa-cas");
  } else if (strcmp(s, "aba") == 0)
    aba();
  else {
    fprintf(stderr, "usage: pool_salsa_races last-announced|last-read|"
                    "last-both|mid-announced|mid-read|reuse|aba\n");
    return 2;
  }
  printf("%s: %s\n", s, failures ? "FAIL" : "ok");
  return failures != 0;
}
