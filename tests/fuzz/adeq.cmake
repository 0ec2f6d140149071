# SPDX-License-Identifier: MIT
# fuzz_adeq: the driver's adequacy-state and APFD-table readers and the HTML report
# (driver/report/adeq_data.c, report_html.c and report_data.c, with base/util.c for buffers
# and files) on arbitrary bytes.
set(mr_adeq_fuzz_srcs fuzz_adeq.c ${PROJECT_SOURCE_DIR}/driver/report/adeq_data.c
    ${PROJECT_SOURCE_DIR}/driver/report/report_html.c ${PROJECT_SOURCE_DIR}/driver/report/report_data.c
    ${PROJECT_SOURCE_DIR}/driver/base/util.c ${PROJECT_SOURCE_DIR}/driver/base/toolchain.c)
mr_fuzz_target(fuzz_adeq SOURCES ${mr_adeq_fuzz_srcs} LIBS mrrt) # util.c: mr_json_escape
foreach(t fuzz_adeq_replay fuzz_adeq)
  if(TARGET ${t})
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/driver ${PROJECT_BINARY_DIR}/driver)
    add_dependencies(${t} mrfuzz_report_js) # report_js.h, generated
  endif()
endforeach()
