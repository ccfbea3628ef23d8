/* exceptions.cpp — C++ exceptions across tasks (ws/abi.h).
 *
 * Compiled code catches a task's exception with a catch-all landing pad:
 * in the thunk, on the thief, and around the direct call of a task's body
 * at a sync.  What it caught travels as a heap copy of the exception's
 * std::exception_ptr, until the spawning function throws it again after
 * the sync has taken back every task, or drops it when another exception
 * won (the serially first one; docs/language.md).  This file is the only
 * C++ of the runtime: compiled code refers to it only where a task or a
 * spawning function may throw, so C programs never link it.
 */
#include <cxxabi.h>
#include <exception>
#include <new>

#include "ws/abi.h"

namespace {
/* Takes over an exception that a catch-all landing pad received: catch it
 * (__cxa_begin_catch, as `catch (...)` does), keep it, end the catch. */
std::exception_ptr *capture(void *exception) noexcept {
  __cxxabiv1::__cxa_begin_catch(exception);
  std::exception_ptr caught = std::current_exception();
  __cxxabiv1::__cxa_end_catch();
  /* Not a C++ exception (a foreign one has no exception_ptr): nothing
   * can carry it to the spawning function. */
  if (!caught)
    std::terminate();
  return new std::exception_ptr(std::move(caught));
}
} // namespace

extern "C" {

void *__ws_exception_capture(void *exception) { return capture(exception); }

void __ws_task_threw(ws_slot *slot, void *exception) {
  *reinterpret_cast<void **>(slot->payload) = capture(exception);
  /* The thief owns the state while it runs the task; the DONE store that
   * follows (ws_run_stolen) publishes the payload with it. */
  __atomic_fetch_or(&slot->state, WS_TASK_THREW, __ATOMIC_RELAXED);
}

void __ws_exception_drop(void *captured) {
  delete static_cast<std::exception_ptr *>(captured);
}

void __ws_exception_rethrow(void *captured) {
  std::exception_ptr *box = static_cast<std::exception_ptr *>(captured);
  std::exception_ptr exception = std::move(*box);
  delete box;
  std::rethrow_exception(exception);
}
}
