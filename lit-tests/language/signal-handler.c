// A spawning function called from a signal handler stops the program with
// one line and status 2, never a hang (before issue 23 it hung, or ran):
// handlers on the main thread interrupting spawning code (SIGALRM of a
// timer every 2 ms, installed by sigaction with SA_SIGINFO), one on
// whichever worker runs a task that raises the signal (signal()), one on a
// thread of the program's.  A handler that leaves by siglongjmp, on the
// thread's stack or on the alternate signal stack, leaves no trace:
// spawning calls go on afterwards, even from deeper in the stack than the
// handler ran, or with its signal blocked again, and sigaction() and
// signal() report the program's own handlers.  Every variant, 1, 2, 4
// and 16 workers; the serial elision runs the calls in the handlers.
// RUN: for v in %ws-variants; do %ws-clang -fws-fencefree=$v -O1 %s -o %t.$v || exit 1; done
// RUN: %ws-run --workers 1,2,4,16 --timeout 60 --status 2 --expect-stderr '^ws: a spawning function was called from a signal handler \(signal 14, SIGALRM\): spawning code cannot run there; record the signal in the handler \(a volatile sig_atomic_t\) and call the function after it returns$' $(for v in %ws-variants; do echo %t.$v; done) -- timer | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --timeout 60 --status 2 --expect-stderr '^ws: a spawning function was called from a signal handler \(signal 10, SIGUSR1\)' $(for v in %ws-variants; do echo %t.$v; done) -- task | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --timeout 60 --status 2 --expect-stderr '^ws: a spawning function was called from a signal handler \(signal 12, SIGUSR2\)' $(for v in %ws-variants; do echo %t.$v; done) -- thread | FileCheck %s
// RUN: %ws-run --workers 1,2,4,16 --timeout 60 --expect '^jumps=30 ok$' $(for v in %ws-variants; do echo %t.$v; done) -- jump | FileCheck %s
// RUN: %clang -I%ws-include -O1 %s -o %t.serial
// RUN: %t.serial timer | FileCheck %s --check-prefix=SERIAL-TIMER
// RUN: %t.serial task | FileCheck %s --check-prefix=SERIAL-TASK
// RUN: %t.serial thread | FileCheck %s --check-prefix=SERIAL-THREAD
// RUN: %t.serial jump | FileCheck %s --check-prefix=SERIAL-JUMP

// CHECK: ws-run: all {{[0-9]+}} runs as expected
// SERIAL-TIMER: handled=100 fib(20)=6765
// SERIAL-TASK: handled=1 fib(20)=6765
// SERIAL-THREAD: handled=1 fib(20)=6765
// SERIAL-JUMP: jumps=30 ok

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
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

static volatile sig_atomic_t handled;
static volatile long result;

/* The misuse: spawning code in the handler. */
static void call_fib(int sig) {
  (void)sig;
  result = fib(20);
  handled++;
}

static void call_fib_info(int sig, siginfo_t *si, void *uc) {
  (void)si;
  (void)uc;
  call_fib(sig);
}

/* Main is in spawning code when the timer fires (or a worker is). */
static void timer(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = call_fib_info;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK; /* the runtime's threads have one */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval it = {{0, 2000}, {0, 2000}};
  setitimer(ITIMER_REAL, &it, NULL);
  while (handled < 100)
    fib(20);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
}

static void raise_usr1(void) { raise(SIGUSR1); }

/* The handler runs on the worker that runs the task. */
static void task(void) {
  signal(SIGUSR1, call_fib);
  fib(15);
  ws_spawn_void(raise_usr1);
  ws_sync();
}

static void *thread_main(void *arg) {
  (void)arg;
  fib(15); /* with one worker, the thread has a deque of its own from here */
  raise(SIGUSR2);
  return NULL;
}

/* The handler runs on a thread of the program's. */
static void thread(void) {
  signal(SIGUSR2, call_fib);
  pthread_t t;
  pthread_create(&t, NULL, thread_main, NULL);
  pthread_join(t, NULL);
}

static sigjmp_buf env;
static void jump_out(int sig) { siglongjmp(env, sig); }

/* Spawning code deeper in the stack than the handler ran. */
static long deep(int depth) {
  volatile char pad[256];
  pad[0] = (char)depth;
  return depth ? deep(depth - 1) + pad[0] - (char)depth : fib(15);
}

static void jump(void) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = jump_out;
  sigemptyset(&sa.sa_mask);
  int ok = sigaction(SIGUSR1, &sa, NULL) == 0 && sigaction(SIGUSR1, NULL, &old) == 0 &&
           old.sa_handler == jump_out && !(old.sa_flags & SA_SIGINFO) &&
           signal(SIGUSR1, jump_out) == jump_out;
  int jumps = 0;
  for (int i = 0; i < 20; i++) {
    if (sigsetjmp(env, 1) == 0) {
      fib(12);
      raise(SIGUSR1);
      ok = 0; /* not reached */
    }
    jumps++;
    if (i % 2) {
      /* The handler's signal blocked again, but its frame is gone. */
      sigset_t usr1;
      sigemptyset(&usr1);
      sigaddset(&usr1, SIGUSR1);
      sigprocmask(SIG_BLOCK, &usr1, NULL);
      ok &= fib(20) == 6765;
      sigprocmask(SIG_UNBLOCK, &usr1, NULL);
    }
    ok &= deep(100) == 610 && fib(20) == 6765;
  }
  /* The same from a handler on the alternate signal stack. */
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR2, &sa, NULL);
  for (int i = 0; i < 10; i++) {
    if (sigsetjmp(env, 1) == 0) {
      raise(SIGUSR2);
      ok = 0;
    }
    jumps++;
    ok &= deep(100) == 610;
  }
  printf("jumps=%d %s\n", jumps, ok ? "ok" : "FAIL");
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "timer"))
    timer();
  else if (!strcmp(mode, "task"))
    task();
  else if (!strcmp(mode, "thread"))
    thread();
  else if (!strcmp(mode, "jump"))
    jump();
  else
    return 1;
  if (strcmp(mode, "jump"))
    printf("handled=%d fib(20)=%ld\n", (int)handled, result);
  return 0;
}
