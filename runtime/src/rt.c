/*
 * rt.c — the runtime's shared state, ws_rt (worker.h): what init.c fills
 * at start-up and every layer above reads.  Alone in its file so that a
 * program of the deques without the scheduler (the tools' deque under
 * test) links the same definition.  A reference to ws_rt does not link
 * init.c's constructor: code that needs the configuration without
 * spawning asks ws_runtime_configured() (worker.h).
 */
#include "worker.h"

ws_runtime ws_rt;
