# install/prefix: installs the build into the scratch prefix that the other
# install/ tests use (their fixture), starting from an empty directory.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
