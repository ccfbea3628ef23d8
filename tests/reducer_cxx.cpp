// reducer_cxx — the C++ API: ws::reducer over the built-in monoids and a
// user monoid (2x2 matrix product modulo 2^64: associative, exact, not
// commutative), ws::parallel_for with automatic and explicit grains,
// nested parallel loops, and ws::parallel_reduce with a reducer and with a
// lambda pair; a reducer of static storage, which its destructor
// unregisters after main returns (the runtime's check at exit then finds
// none).  Every result is checked against a serial loop.
//
// usage: reducer_cxx [n]     (default 100000)
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <list>
#include <string>
#include <vector>

#include <ws/ws.h>

namespace {

struct mat {
  unsigned long a = 1, b = 0, c = 0, d = 1; // the identity
  bool operator==(const mat &o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
mat operator*(const mat &x, const mat &y) {
  return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
          x.c * y.b + x.d * y.d};
}
mat of(long i) {
  unsigned long u = (unsigned long)i * 0x9e3779b97f4a7c15ul;
  return {u | 1, u >> 7, u >> 13, (u >> 3) | 1};
}
// A user monoid: no `commutative`, so the order is kept.
struct product {
  using value_type = mat;
  static mat identity() { return mat(); }
  static void reduce(mat &left, mat &right) { left = left * right; }
};

ws::reducer<ws::sum<long>> statically;

int failures;
void check(bool ok, const char *what, long arg) {
  if (!ok) {
    std::printf("failed: %s (%ld)\n", what, arg);
    failures++;
  }
}

} // namespace

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 100000;
  mat want_product;
  std::string want_text;
  for (long i = 0; i < n; i++) {
    want_product = want_product * of(i);
    want_text.push_back(char('a' + i % 26));
  }

  for (long grain : {0L, 1L, 7L, 1000L}) {
    ws::reducer<ws::sum<long>> sum;
    ws::reducer<ws::min<long>> lo;
    ws::reducer<ws::max<double>> hi;
    ws::reducer<product> prod;
    ws::reducer<ws::append<std::string>> text;
    ws::reducer<ws::append<std::vector<long>>> vec;
    ws::reducer<ws::append<std::list<long>>> list;
    ws::parallel_for(0, n, grain, [&](long a, long b) {
      mat &p = prod.view();
      for (long i = a; i < b; i++) {
        *sum += i;
        if (n - i < *lo)
          *lo = n - i;
        if (double(i) > *hi)
          *hi = double(i);
        p = p * of(i);
        text->push_back(char('a' + i % 26));
        vec->push_back(i);
        list->push_back(i);
      }
    });
    check(sum.get() == n * (n - 1) / 2, "sum", grain);
    check(lo.get() == 1 && hi.get() == double(n - 1), "min and max", grain);
    check(prod.get() == want_product, "matrix product in order", grain);
    check(text.get() == want_text, "string append in order", grain);
    bool vec_ok = (long)vec.get().size() == n, list_ok = (long)list.get().size() == n;
    for (long i = 0; vec_ok && i < n; i++)
      vec_ok = vec.get()[i] == i;
    long k = 0;
    for (long x : list.get())
      list_ok = list_ok && x == k++;
    check(vec_ok && list_ok, "vector and list append in order", grain);
  }

  { // ranges longer than LONG_MAX, in pieces within the grain; empty and
    // reversed ranges run nothing, and parallel_reduce gives the identity
    ws::reducer<ws::sum<unsigned long>> length;
    ws::reducer<ws::max<unsigned long>> longest;
    ws::reducer<ws::sum<long>> pieces;
    ws::parallel_for(LONG_MIN, LONG_MAX, 1L << 60, [&](long a, long b) {
      *length += (unsigned long)b - (unsigned long)a;
      if ((unsigned long)b - (unsigned long)a > *longest)
        *longest = (unsigned long)b - (unsigned long)a;
      *pieces += 1;
    });
    check(length.get() == ULONG_MAX && longest.get() <= 1UL << 60 && pieces.get() == 16,
          "a range of 2^64 - 1 iterations", pieces.get());
    long calls = 0;
    auto count = [&](long, long, long x) { calls++; return x; };
    auto add = [](long a, long b) { return a + b; };
    ws::parallel_for(5, 3, [&](long, long) { calls++; });
    long reversed = ws::parallel_reduce(5, 3, 1, 42L, count, add);
    long empty = ws::parallel_reduce(7, 7, 0, 42L, count, add);
    check(calls == 0 && reversed == 42 && empty == 42, "empty and reversed ranges", calls);
  }

  { // nested loops: the inner loops' views join the outer ones in order
    long m = 200;
    ws::reducer<ws::append<std::vector<long>>> vec;
    ws::reducer<ws::sum<long>> sum;
    ws::parallel_for(0, m, [&](long a, long b) {
      for (long i = a; i < b; i++)
        ws::parallel_for(0, m, 3, [&](long c, long d) {
          for (long j = c; j < d; j++) {
            vec->push_back(i * m + j);
            *sum += i * m + j;
          }
        });
    });
    bool ok = (long)vec.get().size() == m * m;
    for (long i = 0; ok && i < m * m; i++)
      ok = vec.get()[i] == i;
    check(ok && sum.get() == m * m * (m * m - 1) / 2, "nested loops", m);
  }

  { // parallel_reduce with a reducer
    ws::reducer<product> prod;
    ws::parallel_reduce(0, n, 0, prod, [](long a, long b, mat &view) {
      for (long i = a; i < b; i++)
        view = view * of(i);
    });
    check(prod.get() == want_product, "parallel_reduce with a reducer", n);
  }

  for (long grain : {0L, 3L}) { // and with a lambda pair
    mat p = ws::parallel_reduce(
        0, n, grain, mat(),
        [](long a, long b, mat acc) {
          for (long i = a; i < b; i++)
            acc = acc * of(i);
          return acc;
        },
        [](const mat &x, const mat &y) { return x * y; });
    check(p == want_product, "parallel_reduce with a lambda pair", grain);
    std::string s = ws::parallel_reduce(
        0, 3000, grain, std::string(),
        [](long a, long b, std::string acc) {
          for (long i = a; i < b; i++)
            acc += std::to_string(i) + ",";
          return acc;
        },
        [](const std::string &x, const std::string &y) { return x + y; });
    std::string want;
    for (long i = 0; i < 3000; i++)
      want += std::to_string(i) + ",";
    check(s == want, "parallel_reduce of strings", grain);
  }

  ws::parallel_for(0, n, [&](long a, long b) {
    for (long i = a; i < b; i++)
      *statically += i;
  });
  check(statically.get() == n * (n - 1) / 2, "a reducer of static storage", n);

  std::printf("n=%ld %s\n", n, failures ? "FAIL" : "ok");
  return failures != 0;
}
