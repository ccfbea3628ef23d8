# AArch64 (docs/aarch64.md): what cross-compiling for aarch64-linux-gnu and
# running the result under qemu take, found once for the runtime's second
# build and the tests of label aarch64.  Debian 12 packages:
#   libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
#   libstdc++-12-dev-arm64-cross binutils-aarch64-linux-gnu   (the cross libs)
#   qemu-user                                                  (qemu-aarch64)
# scripts/setup-debian installs them.
#
#   WS_AARCH64_TRIPLE     aarch64-linux-gnu
#   WS_AARCH64_SYSROOT    /usr/aarch64-linux-gnu (qemu-aarch64 -L)
#   WS_AARCH64_CROSS      ON when the cross libraries are there (and the
#                         host is not AArch64 itself)
#   WS_AARCH64_QEMU       the qemu-aarch64 program, or ...-NOTFOUND
#   WS_AARCH64_MISSING    the Debian packages missing, for messages

set(WS_AARCH64_TRIPLE aarch64-linux-gnu)
set(WS_AARCH64_SYSROOT /usr/${WS_AARCH64_TRIPLE} CACHE PATH
    "Where the AArch64 cross libraries are (qemu-aarch64 -L)")
set(WS_AARCH64_PACKAGES_LIBS libc6-dev-arm64-cross libgcc-12-dev-arm64-cross
                             libstdc++-12-dev-arm64-cross binutils-aarch64-linux-gnu)
set(WS_AARCH64_MISSING)
if(NOT EXISTS ${WS_AARCH64_SYSROOT}/include/stdio.h
   OR NOT EXISTS ${WS_AARCH64_SYSROOT}/lib/libc.so.6)
  list(APPEND WS_AARCH64_MISSING libc6-dev-arm64-cross)
endif()
file(GLOB ws_aarch64_libgcc /usr/lib/gcc-cross/${WS_AARCH64_TRIPLE}/*/libgcc.a)
if(NOT ws_aarch64_libgcc)
  list(APPEND WS_AARCH64_MISSING libgcc-12-dev-arm64-cross)
endif()
file(GLOB ws_aarch64_libstdcxx ${WS_AARCH64_SYSROOT}/include/c++/*/vector)
if(NOT ws_aarch64_libstdcxx)
  list(APPEND WS_AARCH64_MISSING libstdc++-12-dev-arm64-cross)
endif()
find_program(WS_AARCH64_LD NAMES ${WS_AARCH64_TRIPLE}-ld)
if(NOT WS_AARCH64_LD)
  list(APPEND WS_AARCH64_MISSING binutils-aarch64-linux-gnu)
endif()
find_program(WS_AARCH64_QEMU NAMES qemu-aarch64 qemu-aarch64-static)
if(NOT WS_AARCH64_QEMU)
  list(APPEND WS_AARCH64_MISSING qemu-user)
endif()

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  set(WS_AARCH64_CROSS OFF) # the host build is the AArch64 one
elseif(WS_AARCH64_MISSING MATCHES "arm64-cross|binutils")
  set(WS_AARCH64_CROSS OFF)
else()
  set(WS_AARCH64_CROSS ON)
endif()
