/*
 * abi_generic.c — the generic entry points, dispatching to the variant
 * chosen at start-up (WS_DEQUE).  Hand-lowered programs use them.
 *
 * Code that uses them carries no store-count analysis, so this object
 * brings its own ws_delta record with x = 1: the one store every take()
 * of the runtime makes.  The linker pulls the object, and the record,
 * into exactly the programs that call these functions.
 */
#include "worker.h"

__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record ws_generic_abi_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 0, 0, WS_VARIANT_RUNTIME,
    "libws generic ABI (__ws_push/__ws_take)"};

void __ws_push(ws_worker *w, ws_task *t) { ws_rt.ops->put(w, t); }

ws_task *__ws_take(ws_worker *w) { return ws_rt.ops->take(w); }
