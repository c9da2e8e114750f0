# Runs engine/model/cmake/embed.cmake on small inputs and checks the sources
# it writes and the errors it stops with.
# Usage: cmake -DSCRIPT=…/embed.cmake -DWORK=DIR -P embed_test.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(embed result kind input)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -DKIND=${kind} -DINPUT=${input} -DOUTPUT=${WORK}/out.cc
            -DFUNCTION=Embedded ${ARGN} -P ${SCRIPT}
    RESULT_VARIABLE code ERROR_VARIABLE errors)
  set(${result}_code ${code} PARENT_SCOPE)
  # CMake wraps its messages: one space for each run of blanks.
  string(REGEX REPLACE "[ \n]+" " " errors "${errors}")
  set(${result}_errors "${errors}" PARENT_SCOPE)
  set(${result}_source "" PARENT_SCOPE)
  if(EXISTS ${WORK}/out.cc)
    file(READ ${WORK}/out.cc source)
    set(${result}_source "${source}" PARENT_SCOPE)
    file(REMOVE ${WORK}/out.cc)
  endif()
endfunction()

# Text: the file verbatim in a raw string literal, the licence noted.
file(WRITE ${WORK}/robot.urdf "<robot name=\"r\">\n  <link name=\"@body@\"/>\n</robot>\n")
embed(text text ${WORK}/robot.urdf -DLICENSE=LICENSE.txt)
string(FIND "${text_source}" "R\"moreau_embed(<robot name=\"r\">\n  <link name=\"@body@\"/>\n</robot>\n)moreau_embed\"" at)
if(NOT (text_code EQUAL 0 AND NOT at EQUAL -1))
  message(FATAL_ERROR "embed_test: text: the file is not verbatim in\n${text_source}${text_errors}")
endif()
string(FIND "${text_source}" "// The embedded file's licence: LICENSE.txt." at)
if(at EQUAL -1)
  message(FATAL_ERROR "embed_test: text: no licence line in\n${text_source}")
endif()

# Bytes: 17 bytes are 16 on the first line and one on the second.
file(WRITE ${WORK}/mesh.bin "0123456789abcdefg")
embed(bytes bytes ${WORK}/mesh.bin)
string(FIND "${bytes_source}" "    0x30,0x31,0x32,0x33,0x34,0x35,0x36,0x37,0x38,0x39,0x61,0x62,0x63,0x64,0x65,0x66,\n    0x67,\n  };" at)
if(NOT (bytes_code EQUAL 0 AND NOT at EQUAL -1))
  message(FATAL_ERROR "embed_test: bytes: not 16 bytes a line in\n${bytes_source}${bytes_errors}")
endif()
string(FIND "${bytes_source}" "reinterpret_cast<const char*>(kBytes), 17)" at)
if(at EQUAL -1)
  message(FATAL_ERROR "embed_test: bytes: the view is not 17 bytes long in\n${bytes_source}")
endif()

# An empty file: one unused byte, a view of none.
file(WRITE ${WORK}/empty.bin "")
embed(empty bytes ${WORK}/empty.bin)
string(FIND "${empty_source}" "    0x00,\n  };\n  return std::string_view(reinterpret_cast<const char*>(kBytes), 0)" at)
if(NOT (empty_code EQUAL 0 AND NOT at EQUAL -1))
  message(FATAL_ERROR "embed_test: empty: not a view of none in\n${empty_source}${empty_errors}")
endif()

# Errors name the problem and write nothing.
file(WRITE ${WORK}/clash.urdf "a )moreau_embed\" b")
embed(clash text ${WORK}/clash.urdf)
if(NOT (NOT clash_code EQUAL 0 AND clash_source STREQUAL ""))
  message(FATAL_ERROR "embed_test: clash: the delimiter in the text was accepted")
endif()
string(FIND "${clash_errors}" "contains the raw-string delimiter" at)
if(at EQUAL -1)
  message(FATAL_ERROR "embed_test: clash: the error does not name the delimiter:\n${clash_errors}")
endif()

embed(kind pdf ${WORK}/robot.urdf)
string(FIND "${kind_errors}" "KIND is 'pdf', expected text or bytes" at)
if(NOT (NOT kind_code EQUAL 0 AND NOT at EQUAL -1))
  message(FATAL_ERROR "embed_test: kind: unknown KIND not named:\n${kind_errors}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -DKIND=text -DINPUT=${WORK}/robot.urdf -P ${SCRIPT}
                RESULT_VARIABLE code ERROR_VARIABLE errors)
string(REGEX REPLACE "[ \n]+" " " errors "${errors}")
string(FIND "${errors}" "OUTPUT is not set" at)
if(NOT (NOT code EQUAL 0 AND NOT at EQUAL -1))
  message(FATAL_ERROR "embed_test: missing OUTPUT not named:\n${errors}")
endif()

message(STATUS "embed_test: 6 cases passed")
