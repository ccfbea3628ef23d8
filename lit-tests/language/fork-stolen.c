// fork() while a task of the forking thread is stolen: the thief is a thread
// of the parent, so in the child that task never ends.  The child's sync on
// it stops with one clear line and status 2, never a hang.  The parent goes
// on unharmed.  Every variant, 2, 4 and 16 workers (one worker steals
// nothing); FF-THE and FF-CL steal only past delta tasks, so the program
// spawns more than any delta before it waits for the steal.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v || exit 1; done
// RUN: %ws-run --workers 2,4,16 --env WS_STORE_BUFFER=56 --expect '^child: ws: fork: .*stolen.* \| child status=2 \| parent r=7 ok$' $(for v in %ws-variants; do echo %t.$v; done) | FileCheck %s

// CHECK: ws-run: all {{[0-9]+}} runs as expected

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <ws/ws.h>

static atomic_int running, release;

static long slow(long x) {
  atomic_store(&running, 1);
  while (!atomic_load(&release))
    sched_yield();
  return x;
}
static long one(long x) { return x; }

/* A spawn and a sync: private and split deques answer thieves here. */
static void poll_once(void) {
  long r;
  ws_spawn(r, one, 1);
  ws_sync();
  (void)r;
}

int main(void) {
  long r, f[256];
  ws_spawn(r, slow, 7); /* the oldest task: the first stolen */
  for (int i = 0; i < 256; i++)
    ws_spawn(f[i], one, i);
  while (!atomic_load(&running))
    poll_once();
  int p[2];
  if (pipe(p))
    abort();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(p[0]);
    dup2(p[1], 2);
    ws_sync(); /* slow's thief is not in this process */
    printf("child passed the sync: r=%ld\n", r);
    return 0;
  }
  close(p[1]);
  char buf[4096];
  size_t len = 0;
  ssize_t n;
  int status = 0, i;
  for (i = 0; i < 30000; i++) { /* ~30 s: a hang is a failure */
    if (waitpid(pid, &status, WNOHANG) == pid)
      break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  if (i == 30000) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    printf("child hung\n");
  }
  while (len < sizeof buf - 1 && (n = read(p[0], buf + len, sizeof buf - 1 - len)) > 0)
    len += (size_t)n;
  buf[len] = 0;
  char *nl = strchr(buf, '\n');
  if (nl)
    *nl = 0;
  printf("child: %s\n", buf);
  printf("child status=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  atomic_store(&release, 1);
  ws_sync();
  long s = 0;
  for (int k = 0; k < 256; k++)
    s += f[k] == k;
  printf("parent r=%ld %s\n", r, s == 256 ? "ok" : "BAD");
  return 0;
}
