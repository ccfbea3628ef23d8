# Part of the installed wsff package: refuses a consumer project whose C or
# C++ compiler cannot load the wsff plugin.  The plugin is built against
# clang 19's own C++ API, so with gcc (the default on Debian) or another
# clang the project configures and then fails at its first compile ("cc1:
# error: cannot load plugin ... WsffPlugin.so: undefined symbol").  This
# says it at find_package time instead.
#
# wsff_check_compilers(<out-var> <bindir>)
#   Sets <out-var> to a one-line reason when a compiler of an enabled
#   language (C, CXX) is not clang 19 (ws-clang and ws-clang++ are clang 19
#   underneath, and identify as such), or when neither language is enabled
#   yet; otherwise to "".  <bindir> holds the installed ws-clang drivers,
#   which the reason offers as the fix.
function(wsff_check_compilers out bindir)
  set(clang_C clang-19)
  set(clang_CXX clang++-19)
  set(driver_C ws-clang)
  set(driver_CXX ws-clang++)
  get_property(enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(checked)
  set(wrong)
  set(options)
  set(drivers)
  foreach(lang IN ITEMS C CXX)
    if(NOT lang IN_LIST enabled)
      continue()
    endif()
    list(APPEND checked ${lang})
    set(version "${CMAKE_${lang}_COMPILER_VERSION}")
    if(CMAKE_${lang}_COMPILER_ID STREQUAL "Clang"
       AND version VERSION_GREATER_EQUAL 19 AND version VERSION_LESS 20)
      continue()
    endif()
    list(APPEND wrong "the ${lang} compiler ${CMAKE_${lang}_COMPILER} is ${CMAKE_${lang}_COMPILER_ID} ${version}")
    list(APPEND options "-DCMAKE_${lang}_COMPILER=${clang_${lang}}")
    list(APPEND drivers "${bindir}/${driver_${lang}}")
  endforeach()

  if(NOT checked)
    # FindThreads, which wsff's targets need, fails without C or CXX too;
    # this says how to order the calls.
    set(reason "wsff needs C or CXX enabled (with clang 19) before find_package(wsff): call it after project() or enable_language(C)")
  elseif(wrong)
    list(JOIN wrong " and " wrong)
    list(JOIN options " " options)
    list(JOIN drivers " and " drivers)
    set(reason "wsff needs clang 19, but ${wrong}: configure with ${options}, or with the installed ${drivers}")
  else()
    set(reason "")
  endif()
  set(${out} "${reason}" PARENT_SCOPE)
endfunction()
