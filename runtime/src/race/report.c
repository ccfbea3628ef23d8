/*
 * report.c — what a race report says, where it goes, and the exit status.
 *
 * A report names both accesses (file:line:col, from llvm-symbolizer, and
 * their call stacks) and the spawn that made them parallel.  A pair of
 * code locations is reported once.  WS_RACE_HALT=1 stops the program at
 * the first report; WS_RACE_LOG=path appends the reports to a file instead
 * of stderr.  A run that found races exits with status 66 (as the
 * sanitizers do), after the program's own output, unless it already exits
 * with a non-zero status: through exit (an exit handler), and through
 * _exit, _Exit and quick_exit, which run none (defined here, they end in
 * the C library's).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../env_value.h"
#include "race.h"

enum { RACE_EXIT_STATUS = 66, MAX_FRAMES = 16 };

static int halt;
static FILE *out;
static const char *log_path;
static unsigned long races;

/* ---- settings ---- */


static void on_exit_status(int status, void *arg);

uintptr_t ws_race_code_base;
static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(uintptr_t *)data = info->dlpi_addr;
  return 1;
}

void ws_race_report_init(void) {
  dl_iterate_phdr(first_object, &ws_race_code_base);
  static const char *const off_on[] = {"0", "1", NULL};
  const char *h = ws_env_getenv("WS_RACE_HALT", NULL);
  if (h && (halt = ws_env_choice(h, off_on)) < 0)
    ws_env_refuse("WS_RACE_HALT", h, "0 (report every race) or 1 (stop at the first)");
  log_path = ws_env_getenv("WS_RACE_LOG", NULL);
  if (log_path && !*log_path)
    ws_env_refuse("WS_RACE_LOG", log_path, "a file to append the reports to");
  on_exit(on_exit_status, NULL);
}

static FILE *stream(void) {
  if (out)
    return out;
  out = stderr;
  if (log_path) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0 || !(out = fdopen(fd, "a"))) {
      fprintf(stderr, "ws: WS_RACE_LOG=\"%s\": cannot open it for appending\n", log_path);
      _exit(2);
    }
  }
  return out;
}

/* ---- symbols: llvm-symbolizer, fed through a pipe ---- */

static FILE *to_symbolizer, *from_symbolizer;
static int symbolizer_failed;

static void start_symbolizer(void) {
  int in[2], back[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(back, O_CLOEXEC)) {
    symbolizer_failed = 1;
    return;
  }
  const char *mine = ws_env_getenv("WS_RACE_SYMBOLIZER", NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(back[1], 1);
    const char *tries[] = {mine, "llvm-symbolizer-19", "llvm-symbolizer",
                           "/usr/lib/llvm-19/bin/llvm-symbolizer"};
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++)
      if (tries[i])
        execlp(tries[i], tries[i], "--inlining", "--relativenames", "--functions=linkage",
               "--demangle", (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(back[1]);
  if (pid < 0) {
    close(in[1]);
    close(back[0]);
    symbolizer_failed = 1;
    return;
  }
  to_symbolizer = fdopen(in[1], "w");
  from_symbolizer = fdopen(back[0], "r");
  if (!to_symbolizer || !from_symbolizer)
    symbolizer_failed = 1;
}

/* The executable's path (llvm-symbolizer's /proc/self is its own). */
static const char *executable(void) {
  static char path[4096];
  if (!path[0]) {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
      snprintf(path, sizeof path, "/proc/%d/exe", (int)getpid());
    else
      path[n] = 0;
  }
  return path;
}

typedef struct module_of {
  uintptr_t pc, offset;
  const char *path;
} module_of;

static int find_module(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  module_of *m = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && m->pc >= lo && m->pc < lo + ph->p_memsz) {
      m->offset = m->pc - info->dlpi_addr;
      m->path = *info->dlpi_name ? info->dlpi_name : executable();
      return 1;
    }
  }
  return 0;
}

/* The frames of the code at pc, one line each ("func file:line:col",
 * several where code was inlined), from llvm-symbolizer; cached by pc. */
typedef struct symbol {
  uintptr_t pc;
  char *text;
} symbol;
static symbol *symbols;
static size_t nsymbols, symbols_cap;

static const char *symbolize(uintptr_t pc) {
  for (size_t i = 0; i < nsymbols; i++)
    if (symbols[i].pc == pc)
      return symbols[i].text;
  module_of m = {pc, 0, NULL};
  dl_iterate_phdr(find_module, &m);
  char *text = NULL;
  size_t len = 0;
  FILE *t = open_memstream(&text, &len);
  if (!t)
    ws_fatal("-fws-race: out of memory for a report");
  int any = 0, answered = 0;
  if (m.path && !to_symbolizer && !symbolizer_failed)
    start_symbolizer();
  if (m.path && !symbolizer_failed &&
      fprintf(to_symbolizer, "CODE %s 0x%lx\n", m.path, (unsigned long)m.offset) > 0 &&
      !fflush(to_symbolizer)) {
    /* Each frame is two lines (function, then file:line:col), of any
     * length (a C++ name can be thousands of characters), and an empty
     * line ends the answer. */
    char *func = NULL, *file = NULL;
    size_t func_cap = 0, file_cap = 0;
    while (getline(&func, &func_cap, from_symbolizer) > 0 && func[0] != '\n') {
      if (getline(&file, &file_cap, from_symbolizer) <= 0)
        break;
      answered = 1;
      func[strcspn(func, "\n")] = 0;
      file[strcspn(file, "\n")] = 0;
      /* The clones ws-lower makes are named after the function: show its
       * name; its task bodies and entry points, which have no line, are
       * noise. */
      static const char *const clones[] = {" [clone .ws", " (.ws", ".ws"};
      for (size_t k = 0; k < sizeof clones / sizeof *clones; k++) {
        char *clone = strstr(func, clones[k]);
        if (clone) {
          *clone = 0;
          break;
        }
      }
      size_t flen = strlen(file);
      int no_line = !strncmp(file, "??", 2) || (flen > 4 && !strcmp(file + flen - 4, ":0:0"));
      if (!no_line && strncmp(func, "__ws_", 5)) {
        fprintf(t, "%s%s %s", any ? "\n" : "", func, file);
        any = 1;
      }
    }
    __libc_free(func);
    __libc_free(file);
  }
  if (!any && !answered) {
    if (m.path)
      fprintf(t, "%s+0x%lx", m.path, (unsigned long)m.offset);
    else
      fprintf(t, "0x%lx", (unsigned long)pc);
  }
  fclose(t);
  if (nsymbols == symbols_cap) {
    symbols_cap = symbols_cap ? 2 * symbols_cap : 64;
    symbols = ws_race_realloc(symbols, symbols_cap * sizeof *symbols);
    if (!symbols)
      ws_fatal("-fws-race: out of memory for a report");
  }
  symbols[nsymbols++] = (symbol){pc, text};
  return text;
}

/* Prints the frames of pc, numbered on from *frame. */
static void print_location(FILE *f, int *frame, uintptr_t pc) {
  const char *text = symbolize(pc);
  while (*text) {
    size_t n = strcspn(text, "\n");
    fprintf(f, "    #%d %.*s\n", (*frame)++, (int)n, text);
    text += n + (text[n] == '\n');
  }
}

/* The access at pc (a return address: the call before it), then the call
 * sites pcs[0..n) (return addresses too). */
static void print_stack(FILE *f, uintptr_t pc, const uintptr_t *pcs, int n) {
  int frame = 0;
  if (pc)
    print_location(f, &frame, pc - 1);
  for (int i = 0; i < n; i++)
    print_location(f, &frame, pcs[i] - 1);
}

/* ---- the reports ---- */

/* The races reported, as pairs of source locations (the innermost frame
 * of each access): a statement's read and write, or the same two lines
 * met again, are one race. */
typedef struct pair {
  const char *a, *b;
} pair;
static pair *seen;
static size_t nseen, seen_cap;

static int reported(uintptr_t pc, uintptr_t earlier_pc) {
  const char *a = symbolize(pc - 1);
  const char *b = earlier_pc ? symbolize(earlier_pc - 1) : "?";
  if (strcmp(a, b) > 0) {
    const char *t = a;
    a = b;
    b = t;
  }
  for (size_t i = 0; i < nseen; i++)
    if (!strcmp(seen[i].a, a) && !strcmp(seen[i].b, b))
      return 1;
  if (nseen == seen_cap) {
    seen_cap = seen_cap ? 2 * seen_cap : 64;
    seen = ws_race_realloc(seen, seen_cap * sizeof *seen);
    if (!seen)
      ws_fatal("-fws-race: out of memory for reports");
  }
  seen[nseen++] = (pair){a, b};
  return 0;
}

/* The pairs of code addresses met, reported or not: most races a loop or
 * a range finds repeat one (a table, without symbolizing). */
enum { MET = 4096 };
static struct {
  uintptr_t pc, earlier_pc;
} met[MET];

static int met_before(uintptr_t pc, uintptr_t earlier_pc) {
  uint64_t h = (pc * 0x9e3779b97f4a7c15ull) ^ (earlier_pc * 0xc2b2ae3d27d4eb4full);
  unsigned i = (unsigned)(h >> 52) & (MET - 1);
  if (met[i].pc == pc && met[i].earlier_pc == earlier_pc)
    return 1;
  met[i].pc = pc;
  met[i].earlier_pc = earlier_pc;
  return 0;
}

void ws_race_found(enum ws_race_kind kind, uintptr_t addr, uintptr_t pc,
                   ws_strand earlier, uintptr_t earlier_pc) {
  if (met_before(pc, earlier_pc))
    return;
  ws_race_ignore_begin();
  if (reported(pc, earlier_pc)) {
    ws_race_ignore_end();
    return;
  }
  races++;
  fflush(stdout); /* the program's output so far, then the report */
  FILE *f = stream();
  static const char *const now[] = {"write", "read", "write"};
  static const char *const before[] = {"write", "write", "read"};
  fprintf(f, "ws-race: determinacy race on address %p\n", (void *)addr);
  uintptr_t pcs[MAX_FRAMES];
  fprintf(f, "  %s here:\n", now[kind]);
  print_stack(f, pc, pcs, ws_race_stack_now(pcs, MAX_FRAMES));
  fprintf(f, "  logically parallel %s before it (in the stack its task or its strand began in):\n",
          before[kind]);
  print_stack(f, earlier_pc, pcs,
              ws_race_stack_frames(ws_race_stack_of(earlier), pcs, MAX_FRAMES));
  uintptr_t spawn = ws_race_spawn_of(earlier);
  if (spawn) {
    int frame = 0;
    fprintf(f, "  parallel because of the ws_spawn at (one access is in its task, the "
               "other in what follows it before the ws_sync):\n");
    print_location(f, &frame, spawn - 1);
  }
  fflush(f);
  ws_race_ignore_end();
  if (halt) {
    fprintf(f, "ws-race: stopping at the first race (WS_RACE_HALT=1)\n");
    fflush(NULL);
    syscall(SYS_exit_group, RACE_EXIT_STATUS);
  }
}

/* The summary, once; the status the process exits with. */
static int summary(int status) {
  static int said;
  if (!races || said)
    return status;
  said = 1;
  FILE *f = stream();
  fprintf(f, "ws-race: %lu determinacy race%s found in this run\n", races,
          races == 1 ? "" : "s");
  fflush(f);
  return status ? status : RACE_EXIT_STATUS;
}

static void on_exit_status(int status, void *arg) {
  (void)arg;
  if (!races)
    return;
  fflush(NULL);
  int now = summary(status);
  if (now != status)
    _exit(now);
}

/* Ends without exit handlers: the summary and the status are given here
 * (the program's buffered output is not written, as _exit does). */
void _exit(int status) {
  syscall(SYS_exit_group, summary(status));
  __builtin_unreachable();
}

void _Exit(int status) { _exit(status); }

void quick_exit(int status) {
  static void (*real)(int);
  if (!real && !(real = (void (*)(int))dlsym(RTLD_NEXT, "quick_exit")))
    _exit(status);
  real(summary(status));
  __builtin_unreachable();
}
