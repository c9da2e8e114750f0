# Runs engine/model/cmake/embed.cmake on small inputs and checks the sources
# it writes and the errors it stops with.
# Usage: cmake -DSCRIPT=…/embed.cmake -DWORK=DIR -P embed_test.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Runs the script with ARGN (-D… definitions); sets RESULT_code, RESULT_errors
# (blanks collapsed: CMake wraps its messages) and RESULT_source (the source
# written, "" when none).
function(embed result)
  file(REMOVE ${WORK}/out.cc)
  execute_process(COMMAND ${CMAKE_COMMAND} ${ARGN} -P ${SCRIPT}
                  RESULT_VARIABLE code ERROR_VARIABLE errors)
  string(REGEX REPLACE "[ \n]+" " " errors "${errors}")
  set(source "")
  if(EXISTS ${WORK}/out.cc)
    file(READ ${WORK}/out.cc source)
  endif()
  set(${result}_code ${code} PARENT_SCOPE)
  set(${result}_errors "${errors}" PARENT_SCOPE)
  set(${result}_source "${source}" PARENT_SCOPE)
endfunction()

# The run RESULT succeeded and its source holds NEEDLE.
function(expect_source result needle what)
  string(FIND "${${result}_source}" "${needle}" at)
  if(NOT ${result}_code EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "embed_test: ${result}: ${what} in\n${${result}_source}${${result}_errors}")
  endif()
endfunction()

# The run RESULT failed, wrote nothing, and its error holds NEEDLE.
function(expect_error result needle)
  string(FIND "${${result}_errors}" "${needle}" at)
  if(${result}_code EQUAL 0 OR NOT "${${result}_source}" STREQUAL "" OR at EQUAL -1)
    message(FATAL_ERROR "embed_test: ${result}: expected a failure saying '${needle}', got "
                        "${${result}_code}: ${${result}_errors}")
  endif()
endfunction()

set(out -DOUTPUT=${WORK}/out.cc -DFUNCTION=Embedded)

# Text: the file verbatim in a raw string literal (@…@ left alone), the
# licence noted.
file(WRITE ${WORK}/robot.urdf "<robot name=\"r\">\n  <link name=\"@body@\"/>\n</robot>\n")
embed(text -DKIND=text -DINPUT=${WORK}/robot.urdf ${out} -DLICENSE=LICENSE.txt)
expect_source(text "R\"moreau_embed(<robot name=\"r\">\n  <link name=\"@body@\"/>\n</robot>\n)moreau_embed\""
              "the file is not verbatim")
expect_source(text "// The embedded file's licence: LICENSE.txt." "no licence line")

# Bytes: 17 bytes are 16 on the first line and one on the second.
file(WRITE ${WORK}/mesh.bin "0123456789abcdefg")
embed(bytes -DKIND=bytes -DINPUT=${WORK}/mesh.bin ${out})
expect_source(bytes "    0x30,0x31,0x32,0x33,0x34,0x35,0x36,0x37,0x38,0x39,0x61,0x62,0x63,0x64,0x65,0x66,\n    0x67,\n  };"
              "not 16 bytes a line")
expect_source(bytes "reinterpret_cast<const char*>(kBytes), 17)" "the view is not 17 bytes long")

# An empty file: one unused byte, a view of none.
file(WRITE ${WORK}/empty.bin "")
embed(empty -DKIND=bytes -DINPUT=${WORK}/empty.bin ${out})
expect_source(empty "    0x00,\n  };\n  return std::string_view(reinterpret_cast<const char*>(kBytes), 0)"
              "not a view of none")

# Errors name the problem and write nothing.
file(WRITE ${WORK}/clash.urdf "a )moreau_embed\" b")
embed(clash -DKIND=text -DINPUT=${WORK}/clash.urdf ${out})
expect_error(clash "contains the raw-string delimiter ')moreau_embed\"'")
embed(kind -DKIND=pdf -DINPUT=${WORK}/robot.urdf ${out})
expect_error(kind "KIND is 'pdf', expected text or bytes")
embed(missing -DKIND=text -DINPUT=${WORK}/robot.urdf -DFUNCTION=Embedded)
expect_error(missing "OUTPUT is not set")

message(STATUS "embed_test: 6 cases passed")
