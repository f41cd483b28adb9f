# SPDX-License-Identifier: MIT
# Warnings for the project's own targets: polydepth_set_warnings(target)
function(polydepth_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wno-unused-parameter -Werror=implicit-function-declaration -Werror=return-type>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter -Werror=return-type>)
endfunction()
