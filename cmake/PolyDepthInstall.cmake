# SPDX-License-Identifier: MIT
# Installation: only include/ is installed; namespaced exported targets PolyDepth::core,
# PolyDepth::plugin and (optional components) PolyDepth::bullet_float / PolyDepth::bullet_double,
# one per Bullet build found, with PolyDepth::bullet for the precision the consumer asks for
# (PolyDepthConfig.cmake.in); a config with a version file; pkg-config files polydepth.pc,
# polydepth-bullet.pc and polydepth-bullet-float64.pc.
set(POLYDEPTH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/PolyDepth)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/polydepth ${PROJECT_SOURCE_DIR}/plugin/include/polydepth
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS polydepth_core polydepth_plugin EXPORT PolyDepthTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT PolyDepthTargets NAMESPACE PolyDepth:: FILE PolyDepthTargets.cmake DESTINATION ${POLYDEPTH_CMAKE_DIR})

# The shim once per Bullet build, each in its own export file, loaded by the config when the
# consumer's pkg-config finds that Bullet: PolyDepthBulletFloatTargets.cmake,
# PolyDepthBulletDoubleTargets.cmake.
if(POLYDEPTH_HAVE_BULLET)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shim/include/polydepth DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  foreach(precision IN LISTS POLYDEPTH_BULLET_PRECISIONS)
    set(export PolyDepthBulletFloatTargets)
    if(precision STREQUAL "double")
      set(export PolyDepthBulletDoubleTargets)
    endif()
    install(TARGETS polydepth_bullet_${precision} EXPORT ${export}
            ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
            LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
            RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(EXPORT ${export} NAMESPACE PolyDepth:: FILE ${export}.cmake DESTINATION ${POLYDEPTH_CMAKE_DIR})
  endforeach()
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/PolyDepthConfig.cmake.in
  ${PROJECT_BINARY_DIR}/PolyDepthConfig.cmake INSTALL_DESTINATION ${POLYDEPTH_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/PolyDepthConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/PolyDepthConfig.cmake ${PROJECT_BINARY_DIR}/PolyDepthConfigVersion.cmake
        DESTINATION ${POLYDEPTH_CMAKE_DIR})

# pkg-config: static builds need the private dependency (libm) on the Libs line.
if(BUILD_SHARED_LIBS)
  set(POLYDEPTH_PC_LIBS_PRIVATE "-lm")
  set(POLYDEPTH_PC_LIBS "")
else()
  set(POLYDEPTH_PC_LIBS_PRIVATE "")
  set(POLYDEPTH_PC_LIBS "-lm")
endif()
# Relocatable: prefix is found from the .pc file's own location (an install with --prefix works).
set(POLYDEPTH_PC_PREFIX "\${pcfiledir}")
string(REPLACE "/" ";" _pd_libdir_parts "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
foreach(_part IN LISTS _pd_libdir_parts)
  string(APPEND POLYDEPTH_PC_PREFIX "/..")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/polydepth.pc.in ${PROJECT_BINARY_DIR}/polydepth.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/polydepth.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# One .pc per Bullet build, named like Bullet's own: polydepth-bullet (requires bullet) and
# polydepth-bullet-float64 (requires bullet-float64, whose cflags define BT_USE_DOUBLE_PRECISION).
foreach(precision IN LISTS POLYDEPTH_BULLET_PRECISIONS)
  if(precision STREQUAL "double")
    set(POLYDEPTH_BULLET_PC_SUFFIX -float64)
    set(POLYDEPTH_BULLET_PC_LIB polydepth_bullet_double)
  else()
    set(POLYDEPTH_BULLET_PC_SUFFIX "")
    set(POLYDEPTH_BULLET_PC_LIB polydepth_bullet)
  endif()
  set(pc polydepth-bullet${POLYDEPTH_BULLET_PC_SUFFIX}.pc)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/polydepth-bullet.pc.in ${PROJECT_BINARY_DIR}/${pc} @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
