/* slots.c — a deque's slot array, and the message when it is full.
 *
 * The array ends at a page the process may not touch: a push past the last
 * slot writes its task there and faults, so the fast path tests no bound.
 * The page is registered with the runtime's SIGSEGV handler (faults.c),
 * which recognises a fault there, says which worker's deque is full and
 * what to raise, and exits with status 2.
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
  if (ws_faults_guard(q, (uintptr_t)q->end, (uintptr_t)(p + bytes + page))) {
    munmap(p, bytes + page);
    return -1;
  }
  return 0;
}

void ws_slots_free(ws_dq *q) {
  if (!q->base)
    return;
  size_t page = page_size();
  uintptr_t hi = ws_faults_unguard(q);
  if (hi) {
    char *lo = (char *)q->end - ((size_t)(q->end - q->base) * sizeof(ws_slot) +
                                 page - 1) / page * page;
    munmap(lo, (size_t)((char *)hi - lo));
  }
  q->base = q->end = NULL;
}

/* A slow path found no room (a fault in the guard page: faults.c). */
void ws_deque_overflow(ws_dq *q) { ws_fatal(WS_OVERFLOW_LINE, WS_OVERFLOW_ARGS(q)); }
