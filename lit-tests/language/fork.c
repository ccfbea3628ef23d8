// fork() in a program that spawns: the child gets a usable runtime.  It runs
// serially on the forking thread (its own tasks are taken back by itself:
// nobody steals), spawns and syncs, and exits at once without waiting for
// the worker threads, which are the parent's.  Forks at top level (the child
// returns from main), in tasks that may be stolen (the child exits inside
// the task), and in a continuation while the spawning function's tasks are
// out.  Each child's stderr comes back through a pipe: with WS_STATS=1 its
// report must say it ran as a forked child.  Every variant, 1, 2, 4 and 16
// workers; the serial elision prints the same.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v || exit 1; done
// RUN: %ws-clang -fws-fencefree -O0 %s -o %t.O0
// RUN: %ws-run --workers 1,2,4,16 --env WS_STATS=1 --expect '^forks=18 ok$' %t.O0 $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s
// RUN: %clang -I%ws-include -O1 %s -o %t.serial && %t.serial | FileCheck %s --check-prefix=SERIAL

// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL: forks=18 ok

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <ws/ws.h>

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static atomic_int forks, bad;

/* The child's work: spawns and syncs on its own. */
static void child_work(int fd) {
  long r = fib(20);
  dprintf(fd, "fib(20)=%ld\n", r);
}

/* Waits for the child (at most ~60 s: a hang is a failure, not a stuck
 * test), then reads what it wrote to its stderr.  Children forked meanwhile
 * hold the pipe's write end too: read what is there, do not wait for EOF. */
static void check_child(pid_t pid, int rd, const char *where) {
  int status = 0;
  for (int i = 0;; i++) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      break;
    if (i == 60000) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      printf("%s: child hung\n", where);
      atomic_fetch_add(&bad, 1);
      close(rd);
      return;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  char buf[8192];
  size_t len = 0;
  ssize_t n;
  fcntl(rd, F_SETFL, O_NONBLOCK);
  while (len < sizeof buf - 1 && (n = read(rd, buf + len, sizeof buf - 1 - len)) > 0)
    len += (size_t)n;
  buf[len] = 0;
  close(rd);
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
           strstr(buf, "fib(20)=6765\n") != NULL;
  if (getenv("WS_STATS") && !strstr(buf, "ws: forked child:"))
    ok = 0;
  if (!ok) {
    printf("%s: child status %#x said: %s\n", where, status, buf);
    atomic_fetch_add(&bad, 1);
  }
  atomic_fetch_add(&forks, 1);
}

/* Forks; the child does its work and exits inside the task (what follows
 * the task may be on a thread of the parent). */
static long fork_in_task(long i) {
  int p[2];
  if (pipe(p))
    abort();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    abort();
  if (pid == 0) {
    close(p[0]);
    dup2(p[1], 2);
    child_work(p[1]);
    exit(0);
  }
  close(p[1]);
  check_child(pid, p[0], "task");
  return i;
}

/* Forks in the continuation while the tasks spawned before are out. */
static long fork_in_continuation(long n) {
  long r[8];
  for (int i = 0; i < 8; i++)
    ws_spawn(r[i], fib, n);
  fork_in_task(0);
  ws_sync();
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += r[i];
  return s;
}

int main(void) {
  /* Top level: the child returns from main. */
  int p[2];
  if (pipe(p))
    abort();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    dup2(p[1], 2);
    child_work(p[1]);
    return 0;
  }
  close(p[1]);
  check_child(pid, p[0], "top");

  long r[16];
  for (int i = 0; i < 16; i++)
    ws_spawn(r[i], fork_in_task, i);
  ws_sync();
  for (int i = 0; i < 16; i++)
    if (r[i] != i)
      atomic_fetch_add(&bad, 1);

  if (fork_in_continuation(15) != 8 * 610)
    atomic_fetch_add(&bad, 1);
  printf("forks=%d %s\n", atomic_load(&forks), atomic_load(&bad) ? "BAD" : "ok");
  return 0;
}
