#include <cstdio>
#include <string>
#include <vector>
#include <ws/ws.h>
template <typename T> T tfib(T n) {
  if (n < 2) return n;
  T a, b;
  ws_spawn(a, tfib<T>, n - 1);
  b = tfib<T>(n - 2);
  ws_sync();
  return a + b;
}
struct Math {
  static long sq(long x) { return x * x; }
  static std::string rep(int n) { return std::string(n, 'x'); }
};
struct Agg { std::vector<int> v; };
static void fill(std::vector<int> *v, int n) { for (int i = 0; i < n; i++) v->push_back(i); }
int main() {
  int fails = 0;
  long r1; int r2; std::string s; long r3;
  ws_spawn(r1, tfib<long>, 25L);
  ws_spawn(r2, tfib<int>, 20);
  ws_spawn(s, Math::rep, 5);          // non-trivial result: assignment runs in the task
  ws_spawn(r3, Math::sq, 12);
  std::vector<int> v;
  ws_spawn_void(fill, &v, 100);
  ws_sync();
  std::vector<long> sq(10000);
  ws::parallel_for(0, 10000, 64, [&](long lo, long hi) {
    for (long i = lo; i < hi; i++) sq[i] = i * i;
  });
  long total = 0;
  for (long x : sq) total += x;
  if (total != 333283335000L) { std::printf("FAIL parallel_for %ld\n", total); fails++; }
  if (r1 != 75025 || r2 != 6765 || s != "xxxxx" || r3 != 144 || v.size() != 100) { std::printf("FAIL %ld %d %s %ld %zu\n", r1, r2, s.c_str(), r3, v.size()); fails++; }
  std::printf("%s\n", fails ? "FAILED" : "ok");
  return fails;
}
