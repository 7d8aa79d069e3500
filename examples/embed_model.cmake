# Turns a file into a C source holding its bytes: cmake -DIN=... -DOUT=... -P embed_model.cmake
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n  " bytes "${bytes}")
file(WRITE ${OUT} "#include <stddef.h>\n/* generated from ${IN} */\nconst unsigned char minnx_example_model[] = {\n  ${bytes}\n};\nconst size_t minnx_example_model_size = ${size};\n")
