# SPDX-License-Identifier: MIT
# ctest driver: install the build tree into a temporary prefix, then build and run three outside
# consumers: find_package (with the bullet component when built), add_subdirectory, pkg-config.
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

# 1. find_package
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/find_package -B ${WORK_DIR}/fp -G Ninja
    -DCMAKE_PREFIX_PATH=${prefix} -DWITH_BULLET=${WITH_BULLET} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/fp)
run(${WORK_DIR}/fp/consumer)
if(WITH_BULLET)
  run(${WORK_DIR}/fp/consumer_bullet)
endif()

# 2. add_subdirectory (the library only: no tests, samples or benchmarks when not top level)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/add_subdirectory -B ${WORK_DIR}/as -G Ninja
    -DPOLYDEPTH_SOURCE_DIR=${SOURCE_DIR} -DPOLYDEPTH_SHIM=OFF -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/as)
run(${WORK_DIR}/as/consumer)

# 3. pkg-config
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig:${prefix}/lib/x86_64-linux-gnu/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs polydepth OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config polydepth failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(${C_COMPILER} -std=c11 ${SOURCE_DIR}/tests/consumer/src/consumer.c -o ${WORK_DIR}/consumer_pc ${flags})
run(${WORK_DIR}/consumer_pc)
if(WITH_BULLET)
  execute_process(COMMAND pkg-config --cflags --libs polydepth-bullet OUTPUT_VARIABLE bflags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config polydepth-bullet failed")
  endif()
  separate_arguments(bflags UNIX_COMMAND "${bflags}")
  run(${CXX_COMPILER} -std=c++17 ${SOURCE_DIR}/tests/consumer/src/consumer_bullet.cpp -o ${WORK_DIR}/consumer_bullet_pc ${bflags})
  run(${WORK_DIR}/consumer_bullet_pc)
endif()
message(STATUS "all consumers built and ran")
