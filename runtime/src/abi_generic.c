/*
 * abi_generic.c — the generic entry points, dispatching to the variant
 * chosen at start-up (WS_DEQUE).  Hand-lowered programs and
 * -fws-fencefree=runtime use them.
 *
 * Code that calls them carries no store-count analysis of its own, so this
 * object brings its own ws_delta record with x = 1: __ws_take makes the
 * anti-coalescing store compiled code makes (the ops tables' takes do).
 * The linker pulls the object, and the record, into exactly the programs
 * that call these functions.
 */
#include "worker.h"

__attribute__((used, section(WS_RECORD_SECTION), aligned(8)))
static const ws_module_record ws_generic_abi_record = {
    WS_RECORD_MAGIC, WS_RECORD_VERSION, 1, 0, 0, WS_VARIANT_RUNTIME, 0,
    WS_ABI_VERSION, "libws generic ABI (__ws_push/__ws_take)"};

void __ws_push(ws_slot *t) { ws_rt.ops->push(&ws_my_dq, t); }

int __ws_take(ws_slot *t) { return ws_rt.ops->take(&ws_my_dq, t); }
