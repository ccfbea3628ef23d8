/* slots.c — a deque's slot array, and the message when it is full.
 *
 * The array ends at a page the process may not touch: a push past the last
 * slot writes its task there and faults, so the fast path tests no bound.
 * The runtime's SIGSEGV handler (faults.c) recognises a fault in a guard
 * page, says which worker's deque is full and what to raise, and exits
 * with status 2.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "faults.h"
#include "worker.h"

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096;
}

/* The guard pages of all deques, for the handler: [lo, hi) each, lo = 0
 * when the entry is free. */
typedef struct guard {
  _Atomic(uintptr_t) lo, hi;
  ws_dq *_Atomic q;
} guard;
#define WS_MAX_GUARDS (2 * WS_MAX_WORKERS)
static guard guards[WS_MAX_GUARDS];
static _Atomic int guard_lock;

ws_dq *ws_deque_guard_at(uintptr_t a) {
  for (int i = 0; i < WS_MAX_GUARDS; i++)
    if (a >= atomic_load_explicit(&guards[i].lo, ws_acquire) &&
        a < atomic_load_explicit(&guards[i].hi, ws_relaxed))
      return atomic_load_explicit(&guards[i].q, ws_relaxed);
  return NULL;
}

/* Records the guard page [lo, hi) of q: its index, or -1 if all are taken. */
static int set_guard(ws_dq *q, uintptr_t lo, uintptr_t hi) {
  while (atomic_exchange_explicit(&guard_lock, 1, ws_acquire))
    ws_cpu_relax();
  int found = -1;
  for (int i = 0; i < WS_MAX_GUARDS && found < 0; i++)
    if (!atomic_load_explicit(&guards[i].lo, ws_relaxed)) {
      atomic_store_explicit(&guards[i].hi, hi, ws_relaxed);
      atomic_store_explicit(&guards[i].q, q, ws_relaxed);
      atomic_store_explicit(&guards[i].lo, lo, ws_release);
      found = i;
    }
  atomic_store_explicit(&guard_lock, 0, ws_release);
  return found;
}

/* capacity slots, then a guard page.  The mapping is reserved, not
 * committed: a page costs memory once a spawn reaches it. */
int ws_slots_alloc(ws_dq *q, ws_worker *w, size_t capacity) {
  size_t page = page_size();
  size_t bytes = (capacity * sizeof(ws_slot) + page - 1) / page * page;
  char *p = mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    return -1;
  if (mprotect(p + bytes, page, PROT_NONE)) {
    munmap(p, bytes + page);
    return -1;
  }
  q->end = (ws_slot *)(p + bytes);
  q->base = q->end - capacity;
  q->w = w;
  atomic_init(&q->T, q->base);
  int i = set_guard(q, (uintptr_t)q->end, (uintptr_t)(p + bytes + page));
  if (i < 0) {
    munmap(p, bytes + page);
    return -1;
  }
  ws_faults_install();
  return 0;
}

void ws_slots_free(ws_dq *q) {
  if (!q->base)
    return;
  size_t page = page_size();
  for (int i = 0; i < WS_MAX_GUARDS; i++)
    if (atomic_load(&guards[i].q) == q && atomic_load(&guards[i].lo)) {
      atomic_store(&guards[i].lo, 0);
      char *lo = (char *)q->end - ((size_t)(q->end - q->base) * sizeof(ws_slot) +
                                   page - 1) / page * page;
      munmap(lo, (size_t)((char *)atomic_load(&guards[i].hi) - lo));
      break;
    }
  q->base = q->end = NULL;
}

void ws_deque_overflow(ws_dq *q) {
  /* After a fault in its guard page, or when a slow path finds no room. */
  ws_fatal("deque overflow on worker %d: more than %ld outstanding spawns; "
           "raise WS_DEQUE_SIZE (at most %ld) or spawn less deeply",
           q->w ? q->w->id : -1, (long)(q->end - q->base),
           (long)WS_MAX_DEQUE_SIZE);
}
