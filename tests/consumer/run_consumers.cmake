# SPDX-License-Identifier: MIT
# ctest driver: install the build tree into a temporary prefix, then build and run three outside
# consumers: find_package (with the bullet components when built), add_subdirectory, pkg-config.
# Every installed Bullet precision gets its consumers from the one install: PolyDepth::bullet
# for the precision the consumer asks for, PolyDepth::bullet_float / _double, and the .pc files
# polydepth-bullet / polydepth-bullet-float64; a double consumer linked to the float shim must
# fail to link.
# Inputs: BUILD_DIR SOURCE_DIR WORK_DIR WITH_BULLET BULLET_PRECISIONS (comma-separated)
#         C_COMPILER CXX_COMPILER
cmake_minimum_required(VERSION 3.22) # policies of a script run with -P (IN_LIST, quoted if arguments)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()

string(REPLACE "," ";" precisions "${BULLET_PRECISIONS}")
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# 1. find_package; with Bullet, once per precision PolyDepth::bullet is asked for. The first
# tree also builds the C consumer and the explicit per-precision consumers.
set(fp_precisions float)
if(WITH_BULLET)
  set(fp_precisions ${precisions})
endif()
set(first TRUE)
foreach(precision IN LISTS fp_precisions)
  set(bin ${WORK_DIR}/fp-${precision})
  set(ask_double OFF)
  if(precision STREQUAL "double")
    set(ask_double ON)
  endif()
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/find_package -B ${bin} -G Ninja
      -DCMAKE_PREFIX_PATH=${prefix} -DWITH_BULLET=${WITH_BULLET} -DCMAKE_BUILD_TYPE=Release
      -DPOLYDEPTH_BULLET_DOUBLE=${ask_double} -DBULLET_PRECISIONS=${BULLET_PRECISIONS}
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
  if(first)
    run(${CMAKE_COMMAND} --build ${bin})
    run(${bin}/consumer)
  else()
    run(${CMAKE_COMMAND} --build ${bin} --target consumer_bullet)
  endif()
  if(NOT WITH_BULLET)
    break()
  endif()
  run(${bin}/consumer_bullet ${precision})
  if(first)
    foreach(p IN LISTS precisions)
      run(${bin}/consumer_bullet_${p} ${p})
    endforeach()
  endif()
  # Mixing: the double consumer linked to the float shim fails at link time, on the shim's
  # renamed entry point.
  if(first AND "float" IN_LIST precisions AND "double" IN_LIST precisions)
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${bin} --target consumer_mixed
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc EQUAL 0)
      message(FATAL_ERROR "a double consumer linked to the float shim built")
    endif()
    if(NOT "${out}${err}" MATCHES "undefined reference to `polydepth::bullet::bt_double::registerAlgorithm")
      message(FATAL_ERROR "the mixed-precision consumer failed for another reason:\n${out}\n${err}")
    endif()
    message(STATUS "a double consumer linked to the float shim fails to link, as it must")
  endif()
  set(first FALSE)
endforeach()

# 2. add_subdirectory (the library only: no tests, samples or benchmarks when not top level)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/add_subdirectory -B ${WORK_DIR}/as -G Ninja
    -DPOLYDEPTH_SOURCE_DIR=${SOURCE_DIR} -DPOLYDEPTH_SHIM=OFF -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/as)
run(${WORK_DIR}/as/consumer)

# 3. pkg-config: polydepth, and polydepth-bullet / polydepth-bullet-float64 per precision.
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig:${prefix}/lib/x86_64-linux-gnu/pkgconfig)
function(pkg_flags module out)
  execute_process(COMMAND pkg-config --cflags --libs ${module} OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${module} failed")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()
pkg_flags(polydepth flags)
run(${C_COMPILER} -std=c11 ${SOURCE_DIR}/tests/consumer/src/consumer.c -o ${WORK_DIR}/consumer_pc ${flags})
run(${WORK_DIR}/consumer_pc)
if(WITH_BULLET)
  foreach(precision IN LISTS precisions)
    set(module polydepth-bullet)
    if(precision STREQUAL "double")
      set(module polydepth-bullet-float64)
    endif()
    pkg_flags(${module} bflags)
    run(${CXX_COMPILER} -std=c++17 ${SOURCE_DIR}/tests/consumer/src/consumer_bullet.cpp
        -o ${WORK_DIR}/consumer_bullet_pc_${precision} ${bflags})
    run(${WORK_DIR}/consumer_bullet_pc_${precision} ${precision})
  endforeach()
endif()
message(STATUS "all consumers built and ran (Bullet: ${precisions})")
