# Finds LLVM and Clang 19.1 (Debian's llvm-19-dev / libclang-19-dev) and the
# tools the build and the tests use.
#
# Note: find_package(LLVM 19 CONFIG) is rejected by LLVM's version file,
# which insists on major.minor; ask for 19.1.
find_package(LLVM 19.1 CONFIG REQUIRED
             HINTS /usr/lib/llvm-19/lib/cmake/llvm)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "wsff needs LLVM 19, found ${LLVM_PACKAGE_VERSION}")
endif()
find_package(Clang CONFIG REQUIRED
             HINTS ${LLVM_DIR}/../clang /usr/lib/llvm-19/lib/cmake/clang)
message(STATUS "wsff: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_TOOLS_BINARY_DIR}")

macro(ws_find_llvm_tool var name)
  find_program(${var} NAMES ${name} HINTS ${LLVM_TOOLS_BINARY_DIR}
               NO_DEFAULT_PATH)
  if(NOT ${var})
    message(FATAL_ERROR "wsff: ${name} not found in ${LLVM_TOOLS_BINARY_DIR} "
                        "(apt-get install clang-19 llvm-19-tools)")
  endif()
endmacro()

ws_find_llvm_tool(WS_CLANG clang)
ws_find_llvm_tool(WS_CLANGXX clang++)
ws_find_llvm_tool(WS_LLVM_LINK llvm-link)
ws_find_llvm_tool(WS_OPT opt)
ws_find_llvm_tool(WS_FILECHECK FileCheck)
ws_find_llvm_tool(WS_NOT not)
find_program(WS_LIT NAMES lit.py lit
             HINTS ${LLVM_TOOLS_BINARY_DIR}/../build/utils/lit
                   /usr/lib/llvm-19/build/utils/lit)
find_program(WS_LLD NAMES ld.lld HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
