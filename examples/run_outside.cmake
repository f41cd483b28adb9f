# SPDX-License-Identifier: MIT
# ctest driver: install the build tree into a temporary prefix, then build and run each example
# folder on its own through find_package(PolyDepth), as an outside project would.
# Inputs: BUILD_DIR SOURCE_DIR WORK_DIR WITH_BULLET C_COMPILER CXX_COMPILER
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(examples c_query)
if(WITH_BULLET)
  list(APPEND examples bullet_world)
endif()
foreach(example ${examples})
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/${example} -B ${WORK_DIR}/${example} -G Ninja
      -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/${example})
  run(${WORK_DIR}/${example}/example_${example})
endforeach()
message(STATUS "examples built and ran outside the tree: ${examples}")
