// A strand whose reads change nothing in an 8-byte granule split by its
// bytes' locations (two fields written at two lines) skips its later
// reads there without a check, remembering the granule's split pair
// (runtime/src/race/shadow.c, split_bytes); the pair names a block of
// per-byte records, which goes back to a free list when the granule is
// freed and comes to the next granule split.  Then the strand's reads of
// that other granule are checked again: here `q`, written whole by a
// sibling task before, half written by this task (a race), then its other
// half read (a second race, missed if the freed block's pair were still
// remembered).  Both are reported.
// RUN: %ws-clang -fws-race -O1 %s -o %t
// RUN: %t > %t.out 2>&1 || echo "exit status $?" >> %t.out
// RUN: FileCheck %s < %t.out

#include <stdio.h>
#include <stdlib.h>
#include <ws/ws.h>

struct two {
  int a, b;
};
union word {
  long l;
  int half[2];
};

__attribute__((noinline)) void set_a(struct two *t, int v) { t->a = v; }
__attribute__((noinline)) void set_b(struct two *t, int v) { t->b = v; }
__attribute__((noinline)) int get_a(const struct two *t) { return t->a; }
__attribute__((noinline)) int get_b(const struct two *t) { return t->b; }
__attribute__((noinline)) int get_a_again(const struct two *t) { return t->a; }
__attribute__((noinline)) void set_word(union word *w) { w->l = 56; }
__attribute__((noinline)) void set_low(union word *w) { w->half[0] = 9; }
__attribute__((noinline)) int get_high(const union word *w) { return w->half[1]; }

static union word *q;

static int reader(struct two *p) {
  int s = get_a(p) + get_b(p);
  s += get_a_again(p); // the granule's pair remembered
  free(p);             // its block freed
  set_low(q);          // q split, in that block: a race
  return s + get_high(q); // q's other half: a race
}

int main(void) {
  struct two *p = malloc(sizeof *p);
  q = malloc(sizeof *q);
  set_a(p, 1);
  set_b(p, 2);
  int r;
  ws_spawn(r, reader, p);
  ws_spawn_void(set_word, q);
  ws_sync();
  printf("r=%d\n", r);
  free(q);
  return 0;
}
// CHECK: ws-race: determinacy race on address
// CHECK-NEXT: write here:
// CHECK-NEXT: #0 set_low {{.*}}split-reuse.c:33:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 set_word {{.*}}split-reuse.c:32:
// CHECK: ws-race: determinacy race on address
// CHECK-NEXT: read here:
// CHECK-NEXT: #0 get_high {{.*}}split-reuse.c:34:
// CHECK: logically parallel write before it
// CHECK-NEXT: #0 set_word {{.*}}split-reuse.c:32:
// CHECK: ws-race: 2 determinacy races found in this run
// CHECK: exit status 66
