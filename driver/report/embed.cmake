# SPDX-License-Identifier: MIT
# embed.cmake - cmake -DIN=FILE -DOUT=HEADER -DNAME=SYMBOL -P embed.cmake: FILE's bytes as a
# NUL-terminated C array, so the driver carries its own page script (report.js).
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN} by embed.cmake */\nstatic const char ${NAME}[] = {\n${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
