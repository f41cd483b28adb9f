# SPDX-License-Identifier: MIT
# Installation: only include/ is installed; namespaced exported targets PolyDepth::core,
# PolyDepth::plugin and (optional component) PolyDepth::bullet; a config with a version file;
# pkg-config files polydepth.pc and polydepth-bullet.pc.
set(POLYDEPTH_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/PolyDepth)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/include/polydepth ${PROJECT_SOURCE_DIR}/plugin/include/polydepth
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS polydepth_core polydepth_plugin EXPORT PolyDepthTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT PolyDepthTargets NAMESPACE PolyDepth:: FILE PolyDepthTargets.cmake DESTINATION ${POLYDEPTH_CMAKE_DIR})

if(POLYDEPTH_HAVE_BULLET)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/shim/include/polydepth DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS polydepth_bullet EXPORT PolyDepthBulletTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT PolyDepthBulletTargets NAMESPACE PolyDepth:: FILE PolyDepthBulletTargets.cmake
          DESTINATION ${POLYDEPTH_CMAKE_DIR})
  if(POLYDEPTH_BULLET_DOUBLE)
    set(POLYDEPTH_BULLET_PC_MODULE bullet-float64)
  else()
    set(POLYDEPTH_BULLET_PC_MODULE bullet)
  endif()
endif()
set(POLYDEPTH_CONFIG_BULLET_DOUBLE ${POLYDEPTH_BULLET_DOUBLE})

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
if(POLYDEPTH_HAVE_BULLET)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/polydepth-bullet.pc.in ${PROJECT_BINARY_DIR}/polydepth-bullet.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/polydepth-bullet.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
