# moreau_add_node_test(NAME name LABEL label ARGS args... [ENVIRONMENT vars...])
#
# Registers a ctest that runs `node ARGS` in the calling folder (the package's
# source folder, where `npm ci` installed node_modules), with LABEL and
# ENVIRONMENT (MOREAUD_BIN, the moreaud the tests start, is always set).
# Without node the test is still registered, and fails saying node is missing.
find_program(MOREAU_NODE node DOC "Node.js (20 or later) for the JavaScript tests")

function(moreau_add_node_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;LABEL" "ARGS;ENVIRONMENT")
  if(MOREAU_NODE)
    add_test(NAME ${arg_NAME}
      COMMAND ${MOREAU_NODE} ${arg_ARGS}
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  else()
    add_test(NAME ${arg_NAME}
      COMMAND ${CMAKE_COMMAND} -E echo
              "${arg_NAME}: node not found at configure time: install nodejs (scripts/setup.sh) and re-run cmake")
    set_tests_properties(${arg_NAME} PROPERTIES FAIL_REGULAR_EXPRESSION "node not found")
  endif()
  set_tests_properties(${arg_NAME} PROPERTIES
    ENVIRONMENT "MOREAUD_BIN=$<TARGET_FILE:moreaud>;${arg_ENVIRONMENT}"
    LABELS ${arg_LABEL}
    TIMEOUT 300)
endfunction()
