// Reducers whose views own heap memory are race-free (issue 34, item 1):
// ws::reducer<ws::append<std::string>> and <std::vector<long>> updated from
// ws::parallel_for, views that grow (the view's storage moves while its
// strand appends), and reduce steps that free the right view's storage.
// The monoid's code runs unchecked; memory it frees must still forget its
// accesses, or the next malloc of that block by a sibling is "racy".
// RUN: %ws-clang++ -fws-race -std=c++17 -O0 %s -o %t.O0
// RUN: %ws-clang++ -fws-race -std=c++17 -O2 %s -o %t.O2
// RUN: %t.O0 2>&1 | FileCheck %s --implicit-check-not=ws-race
// RUN: %t.O2 2>&1 | FileCheck %s --implicit-check-not=ws-race
// CHECK: reducers text=ok vector=ok sum=ok

#include <cstdio>
#include <string>
#include <vector>
#include <ws/ws.h>

int main() {
  const long n = 3000;
  ws::reducer<ws::append<std::string>> text;
  ws::parallel_for(0, n, 1, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++)
      for (int k = 0; k < 20; k++)
        text->push_back(char('a' + (i + k) % 26));
  });
  std::string want;
  for (long i = 0; i < n; i++)
    for (int k = 0; k < 20; k++)
      want.push_back(char('a' + (i + k) % 26));
  ws::reducer<ws::append<std::vector<long>>> items;
  ws::parallel_for(0, n, 3, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++)
      for (long k = 0; k < 10; k++)
        items->push_back(i * 10 + k);
  });
  bool vector_ok = (long)items.get().size() == 10 * n;
  for (long i = 0; vector_ok && i < 10 * n; i++)
    vector_ok = items.get()[i] == i;
  // Heap blocks of the same sizes, allocated by tasks after the reductions.
  ws::reducer<ws::sum<long>> sum;
  ws::parallel_for(0, n, 1, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++) {
      std::string s(40 + i % 100, 'x');
      std::vector<long> v(10 + i % 50, i);
      *sum += (long)s.size() + v[0];
    }
  });
  long want_sum = 0;
  for (long i = 0; i < n; i++)
    want_sum += 40 + i % 100 + i;
  std::printf("reducers text=%s vector=%s sum=%s\n", text.get() == want ? "ok" : "bad",
              vector_ok ? "ok" : "bad", sum.get() == want_sum ? "ok" : "bad");
  return 0;
}
