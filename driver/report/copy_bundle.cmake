# SPDX-License-Identifier: MIT
# cmake -DSRC=... -DDST=... -P copy_bundle.cmake: DST becomes a copy of SRC, or is removed
# when SRC is missing (npm ci not run: `mrfuzz report` then says the MTE view is missing).
if(EXISTS "${SRC}")
  file(COPY_FILE "${SRC}" "${DST}" ONLY_IF_DIFFERENT)
else()
  file(REMOVE "${DST}")
endif()
