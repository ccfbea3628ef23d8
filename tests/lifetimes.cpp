/*
 * lifetimes — C++ locals that tasks use outlive the tasks (issue 23 item 1):
 * a function that spawns syncs before the destructor of any local a task
 * may reach, on the normal and on the unwinding path, as its serial elision
 * would have finished the task before the local died.  Each object marks
 * itself dead in a global table when its destructor runs; each task checks
 * at its end that what it used is still alive and its data intact.  Also
 * inline lambdas with several captures (item 10).
 *
 * usage: lifetimes [rounds]     (default 200)
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>
#include <ws/ws.h>

static std::atomic<long> failures;
static void fail(const char *what) {
  if (failures.fetch_add(1) < 10)
    std::fprintf(stderr, "lifetimes: %s\n", what);
}

/* Long enough for a thief to take the task and the parent to go on. */
static void pause_a_little() {
  for (volatile int i = 0; i < 20000; i++) {
  }
}

enum { Alive = 1, Dead = 2 };
static std::atomic<int> state[4096];
static std::atomic<int> next_id;

struct Tracked {
  int id;
  long value = 7;
  Tracked() : id(next_id.fetch_add(1) % 4096) { state[id] = Alive; }
  ~Tracked() { state[id] = Dead; }
  Tracked(const Tracked &) = delete;
};

static void use(Tracked &t) {
  pause_a_little();
  if (state[t.id] != Alive || t.value != 7)
    fail("a task used a local after its destructor (std::ref)");
}

/* 1: std::ref to a local, no ws_sync before the return. */
__attribute__((noinline)) static void by_ref() {
  Tracked t;
  ws_spawn_void(use, std::ref(t));
}

/* 2: the data of a vector (1 MiB: freed with munmap). */
static void sum_into(const long *p, long n, long *out) {
  pause_a_little();
  long s = 0;
  for (long i = 0; i < n; i++)
    s += p[i];
  *out = s;
}
__attribute__((noinline)) static void vector_data(long *out) {
  std::vector<long> v(1 << 17, 3);
  ws_spawn_void(sum_into, v.data(), (long)v.size(), out);
}

/* 3: a function-scope reducer, updated by inline lambdas with several
 * captures, read by the destructor of an object declared after it. */
struct Report {
  ws::reducer<ws::sum<long>> &r;
  long *out;
  ~Report() { *out = r.get(); }
};
__attribute__((noinline)) static void reducer_in_scope(long *out) {
  ws::reducer<ws::sum<long>> r;
  Report report{r, out};
  long k = 3;
  for (int i = 0; i < 4; i++)
    ws_spawn_void([&r, k, i] {
      pause_a_little();
      *r += k + (i == 0);
    });
}

/* 4: per-iteration locals in a loop: each iteration's object outlives
 * its task. */
__attribute__((noinline)) static void loop_locals() {
  for (int i = 0; i < 8; i++) {
    Tracked t;
    ws_spawn_void(use, std::ref(t));
  }
}

/* 5: the unwinding path: the function throws after spawning; its local
 * dies during the unwinding, after the task. */
__attribute__((noinline)) static void throws_after_spawn() {
  Tracked t;
  ws_spawn_void(use, std::ref(t));
  throw std::runtime_error("own");
}

/* 6: a task that throws while the function's own exception unwinds: the
 * task's, serially first, is the one that leaves. */
static void use_then_throw(Tracked &t) {
  use(t);
  throw std::logic_error("task");
}
__attribute__((noinline)) static void both_throw() {
  Tracked t;
  ws_spawn_void(use_then_throw, std::ref(t));
  throw std::runtime_error("own");
}

/* 7: copies (std::string by value, a lambda capturing one) need no
 * sync: the task has its own. */
static void check_text(std::string s, long n) {
  pause_a_little();
  if ((long)s.size() != n)
    fail("a task's copy of a std::string is wrong");
}
__attribute__((noinline)) static void string_copies() {
  for (int i = 0; i < 8; i++) {
    std::string s(40 + i, 'x');
    ws_spawn_void(check_text, s, 40L + i);
    ws_spawn_void([s, i] { check_text(s, 40L + i); });
  }
}

/* 8: an inner scope's local, then more work in the function. */
__attribute__((noinline)) static long inner_scope() {
  long r = 0;
  {
    Tracked t;
    ws_spawn_void(use, std::ref(t));
  }
  Tracked u;
  ws_spawn_void(use, std::ref(u));
  ws_sync();
  return r;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  for (int round = 0; round < rounds; round++) {
    by_ref();
    long sum = 0;
    vector_data(&sum);
    if (sum != 3L << 17)
      fail("a task summed a vector after its destructor");
    long total = -1;
    reducer_in_scope(&total);
    if (total != 13)
      fail("a function-scope reducer lost updates to its destructor");
    loop_locals();
    try {
      throws_after_spawn();
      fail("no exception");
    } catch (const std::runtime_error &) {
    }
    try {
      both_throw();
      fail("no exception");
    } catch (const std::logic_error &) {
    } catch (...) {
      fail("the function's own exception, not its task's (serially first)");
    }
    string_copies();
    inner_scope();
  }
  if (failures) {
    std::printf("lifetimes: %ld failures\n", failures.load());
    return 1;
  }
  std::printf("lifetimes: ok\n");
  return 0;
}
