/*
 * external_throw — an exception leaving a spawning function called from a
 * thread the program created reaches that thread's catch, as in the serial
 * elision (issue 23 item 3): thrown before the function spawns, after it,
 * or by one of its tasks; with more than one worker the call runs on the
 * workers and its exception travels back to the calling thread.  4
 * threads at once, each checking what it caught, `rounds` times.
 *
 * usage: external_throw [rounds]     (default 200)
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <stdexcept>
#include <string>
#include <ws/ws.h>

static std::atomic<long> failures;

static long fib(long n) {
  if (n < 2)
    return n;
  long a, b;
  ws_spawn(a, fib, n - 1);
  b = fib(n - 2);
  ws_sync();
  return a + b;
}

static long thrower(long n) {
  if (n == 5)
    throw std::runtime_error("task");
  return fib(n);
}

/* where: 0 before any spawn, 1 after spawning, 2 in a task, 3 none. */
__attribute__((noinline)) static long work(int where, long n) {
  if (where == 0)
    throw std::runtime_error("before");
  long a, b;
  ws_spawn(a, fib, n);
  ws_spawn(b, thrower, where == 2 ? 5L : n);
  if (where == 1)
    throw std::runtime_error("after");
  ws_sync();
  return a + b;
}

static void *user(void *arg) {
  long rounds = (long)arg;
  static const char *expect[] = {"before", "after", "task"};
  for (long r = 0; r < rounds; r++) {
    int where = (int)(r % 4);
    try {
      long v = work(where, 12);
      if (where != 3 || v != 2 * 144)
        failures++;
    } catch (const std::runtime_error &e) {
      if (where == 3 || std::string(e.what()) != expect[where]) {
        std::fprintf(stderr, "external_throw: caught '%s' for case %d\n", e.what(), where);
        failures++;
      }
    }
  }
  return nullptr;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? std::atol(argv[1]) : 200;
  pthread_t t[4];
  for (auto &th : t)
    if (pthread_create(&th, nullptr, user, (void *)rounds))
      return 2;
  for (auto &th : t)
    pthread_join(th, nullptr);
  if (failures) {
    std::printf("external_throw: %ld failures\n", failures.load());
    return 1;
  }
  std::printf("external_throw: ok\n");
  return 0;
}
