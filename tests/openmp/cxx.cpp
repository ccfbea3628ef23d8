// C++: firstprivate objects of tasks (copied into the task, destroyed by
// the runtime's destructor call), threadprivate objects with
// constructors, a vector filled by tasks, a reduction over a class type.
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

static std::atomic<long> live{0}, made{0};

struct Tracked {
  std::string s;
  explicit Tracked(std::string v) : s(std::move(v)) { live++, made++; }
  Tracked(const Tracked &o) : s(o.s) { live++, made++; }
  ~Tracked() { live--; }
};

struct Counter {
  long n = 7;
};
static Counter tp;
#pragma omp threadprivate(tp)

int main() {
  const int n = 2000;
  std::vector<long> lengths(n);
  {
    Tracked t("wsff");
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(t, i) shared(lengths)
      lengths[i] = (long)t.s.size() + i;
    }
  }
  long sum = 0;
  for (long l : lengths)
    sum += l;
  long tp_ok = 0;
#pragma omp parallel reduction(+ : tp_ok)
  {
    tp.n += omp_get_thread_num();
    tp_ok += tp.n == 7 + omp_get_thread_num();
  }
  std::string all;
#pragma omp parallel
#pragma omp single
  {
    std::vector<std::string> parts(10);
    for (int i = 0; i < 10; i++) {
#pragma omp task shared(parts) firstprivate(i)
      parts[i] = std::to_string(i * i);
    }
#pragma omp taskwait
    for (auto &p : parts)
      all += p + ",";
  }
  std::printf("sum %ld, copies destroyed %s, threadprivate %s, joined %s\n", sum,
              live == 0 && made > 1 ? "all" : "NOT ALL",
              tp_ok == omp_get_max_threads() ? "right" : "WRONG", all.c_str());
  return live != 0;
}
