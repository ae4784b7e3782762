// Each command explains itself with --help.

// RUN: tnpu-opt --help | filecheck %s --check-prefix=OPT
// OPT: usage: tnpu-opt
// OPT: Bad input gets one line, file:line:col: error: ..., and exit code 1.
// OPT: tnpu-opt kernel.ttir -p tnpu-to-tile
// OPT: tnpu passes (-p):
// OPT: strip-gpu-only {{ +}}Remove the ops and attributes that only have meaning on a GPU.
// OPT: tnpu targets (-t):
// OPT-NEXT: tnpu-riscv-asm

// RUN: tnpu --help | filecheck %s --check-prefix=MAIN
// MAIN: usage: tnpu [-h] [--version] COMMAND ...
// MAIN: ttir {{ +}}compile a Triton kernel to TTIR
// MAIN: import {{ +}}import, verify and print a TTIR file

// RUN: tnpu import --help | filecheck %s --check-prefix=IMPORT
// IMPORT: usage: tnpu import [-h] [-o OUTPUT] [--generic] [--debuginfo] file
// IMPORT: Import a TTIR file as Triton prints it, verify it, and print it back.
// IMPORT: file {{ +}}a .ttir file, or - for standard input

// RUN: tnpu ttir --help | filecheck %s --check-prefix=TTIR
// TTIR: usage: tnpu ttir [-h] [--signature SIGNATURE] [--constexpr NAME=VALUE]
// TTIR: tnpu ttir add.py:add_kernel --signature
// TTIR: --target TARGET {{ +}}Triton target as BACKEND:ARCH
