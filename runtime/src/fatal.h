/*
 * fatal.h — how the runtime stops a program it cannot go on with: one line
 * "ws: <message>" on stderr, exit status 2, once per process (fatal.c).
 * The bottom layer of the runtime: it uses nothing else of it.
 */
#ifndef WS_FATAL_H
#define WS_FATAL_H

#include <stdarg.h>
#include <stddef.h>

/* From ordinary code, on any thread: stdout is flushed first, so the
 * program's output comes before the line. */
__attribute__((noreturn, format(printf, 1, 2))) void ws_fatal(const char *fmt, ...);
/* The same line, "<who>: <message>", for a library of the runtime's that
 * speaks under its own name (libws_scale: "ws-scale"). */
__attribute__((noreturn, format(printf, 2, 0))) void
ws_vfatal_as(const char *who, const char *fmt, va_list ap);
__attribute__((noreturn, format(printf, 2, 3))) void ws_fatal_as(const char *who,
                                                                 const char *fmt, ...);

/* From a signal handler, whose thread may hold stdio's or malloc's locks:
 * only async-signal-safe calls (ws_format_safe, write, nanosleep, _exit).
 * stdout's buffer is not flushed (that is not safe there). */
__attribute__((noreturn, format(printf, 1, 2))) void ws_fatal_in_handler(const char *fmt,
                                                                          ...);

/* vsnprintf for a signal handler: the conversions %s %c %d %i %u %x %p and
 * %%, with the l, ll and z lengths; no widths, no precision (an unknown
 * conversion is copied as it stands).  Writes at most n - 1 characters and
 * a NUL; returns how many it wrote. */
size_t ws_format_safe(char *buf, size_t n, const char *fmt, va_list ap);

#endif
