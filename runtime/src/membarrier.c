/* membarrier.c — forcing a memory barrier on another worker (membarrier.h). */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "membarrier.h"
#include "signals.h"
#include "worker.h"

static ws_barrier_mode mode;

/* The fallback's signal: one of the real-time ones, not the first few
 * (libraries take those). */
#define WS_BARRIER_SIGNAL_NO (SIGRTMIN + 7)

static long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }

/* The signal handler: the barrier, then the answer the thief waits for. */
static void on_barrier_signal(int sig) {
  (void)sig;
  int saved = errno;
  ws_worker *w = ws_tls_self;
  atomic_thread_fence(memory_order_seq_cst);
  if (w)
    atomic_fetch_add_explicit(&w->barriers_answered, 1, ws_release);
  errno = saved;
}

void ws_barrier_init(int force_signal) {
  long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (!force_signal && cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0) {
    mode = WS_BARRIER_MEMBARRIER;
    return;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_barrier_signal;
  sa.sa_flags = SA_RESTART; /* the owner's own system calls go on */
  sigemptyset(&sa.sa_mask);
  if (ws_real_sigaction(WS_BARRIER_SIGNAL_NO, &sa, NULL))
    ws_fatal("the ffmb deque needs membarrier(2) or a signal of its own, and "
             "has neither (%s); use another deque variant",
             strerror(errno));
  mode = WS_BARRIER_SIGNAL;
}

ws_barrier_mode ws_barrier_mode_now(void) { return mode; }

const char *ws_barrier_name(void) {
  return mode == WS_BARRIER_MEMBARRIER ? "membarrier"
         : mode == WS_BARRIER_SIGNAL   ? "signal"
                                       : "none";
}

static void init_auto(void) { ws_barrier_init(0); }

void ws_barrier_victim(ws_worker *victim) {
  /* Set up at start-up when the program was compiled for FF-MB; anyone
   * else driving the deque (tests) gets the automatic choice, late. */
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (mode == WS_BARRIER_NONE)
    pthread_once(&once, init_auto);
  if (mode == WS_BARRIER_MEMBARRIER) {
    /* Every running thread of the process, the owner among them. */
    if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
      return;
    ws_fatal("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after it "
             "was registered: %s",
             strerror(errno));
  }
  /* The signal's delivery and its handler's fence order the owner's
   * stores before the answer; wait for it. */
  uint64_t before = atomic_load_explicit(&victim->barriers_answered, ws_acquire);
  int rc = pthread_kill(victim->thread, WS_BARRIER_SIGNAL_NO);
  if (rc)
    ws_fatal("cannot signal worker %d for its memory barrier: %s", victim->id,
             strerror(rc));
  unsigned spins = 0;
  while (atomic_load_explicit(&victim->barriers_answered, ws_acquire) == before)
    if (++spins % 64 == 0)
      sched_yield();
    else
      ws_cpu_relax();
}
