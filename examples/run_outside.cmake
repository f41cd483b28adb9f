# SPDX-License-Identifier: MIT
# ctest driver: install the build tree into a temporary prefix, then build and run each example
# folder on its own through find_package(PolyDepth), as an outside project would.
# Inputs: BUILD_DIR SOURCE_DIR WORK_DIR WITH_BULLET C_COMPILER CXX_COMPILER
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
set(examples c_query)
if(WITH_BULLET)
  list(APPEND examples bullet_world)
endif()
foreach(example IN LISTS examples)
  set(bin ${WORK_DIR}/${example})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/${example} -B ${bin} -G Ninja
                          -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                          -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                  COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${bin} COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND ${bin}/example_${example} COMMAND_ERROR_IS_FATAL ANY)
endforeach()
message(STATUS "examples built and ran outside the tree: ${examples}")
