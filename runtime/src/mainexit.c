/*
 * mainexit.c — pthread_exit() from main.  POSIX ends the process, as with
 * exit(0), when its last thread ends; the workers never end on their own,
 * so without this a program whose main thread left by pthread_exit would
 * run forever once its other threads were done.  A thread-specific value
 * of the main thread's tells us when it exits (its destructor runs only
 * then: not at a return from main, not at exit()); from then on worker 1,
 * when idle, looks at /proc/self/stat every few milliseconds and calls
 * exit(0) once the main thread is gone and only the workers are left
 * (worker 1 exists whenever worker threads do; parked, it is woken to
 * look).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idle.h"
#include "mainexit.h"
#include "worker.h"

static pthread_key_t main_key;
static _Atomic int main_exited;

/* On the main thread as it exits.  Its deque (worker 0's) will never hold
 * a task again: thieves skip it from now on, and one waiting for an answer
 * from it (private) gets "no work". */
static void on_main_exit(void *value) {
  (void)value;
  ws_worker *w = ws_tls_self;
  if (w && w->id == 0) {
    w->spawns = ws_tls_spawns;
    atomic_store_explicit(&w->ready, 0, ws_release);
    if (ws_rt.ops->quiesce)
      ws_rt.ops->quiesce(w->dq);
  }
  atomic_store_explicit(&main_exited, 1, ws_release);
  /* Worker 1 may be parked (a count of 1): it watches from now on. */
  ws_unpark_all();
}

int ws_main_exited(void) { return atomic_load_explicit(&main_exited, ws_acquire); }

void ws_main_exit_watch(void) {
  if (pthread_key_create(&main_key, on_main_exit) ||
      pthread_setspecific(main_key, &main_key))
    ws_fatal("cannot create a thread key to watch the main thread's exit");
}

/* Only the workers are left, the main thread among the dead: 1, else 0
 * (also when /proc cannot tell).  The leader of the thread group stays a
 * zombie, and counted, until the process ends. */
static int only_workers_left(void) {
  char buf[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  /* "pid (comm) state ppid ...": num_threads is the 20th field, the 18th
   * after the command, which may hold spaces and parentheses. */
  char *p = strrchr(buf, ')');
  if (!p || p[1] != ' ')
    return 0;
  p += 2; /* field 3, the state */
  char state = *p;
  for (int field = 3; field < 20; field++) {
    p = strchr(p, ' ');
    if (!p)
      return 0;
    p++;
  }
  long threads = strtol(p, NULL, 10);
  /* Every worker thread counts, parked ones included. */
  return state == 'Z' && threads == atomic_load_explicit(&ws_rt.nstarted, ws_acquire);
}

void ws_main_exit_poll(ws_worker *w) {
  static struct timespec last;
  if (w->id != 1 || !atomic_load_explicit(&main_exited, ws_acquire))
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  long since = (now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec);
  if (since < WS_MAIN_EXIT_POLL_NS)
    return;
  last = now;
  if (only_workers_left())
    exit(0);
}
