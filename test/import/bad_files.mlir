// Input that is not TTIR at all gets one line too, and exit code 1: an empty
// file, binary junk, text that is not UTF-8, a kernel cut short, a file that
// is not there.  `tnpu import` reports the same lines.

// RUN: printf '' > %t.empty.ttir
// RUN: not tnpu-opt %t.empty.ttir 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY: empty.ttir:1:1: error: expected a module, but the input has no operation

// RUN: printf '\x7fELF\x02\x01\x01\x00\x00\x00' > %t.binary.ttir
// RUN: not tnpu-opt %t.binary.ttir 2>&1 | filecheck %s --check-prefix=BINARY
// BINARY: binary.ttir:1:1: error: Unexpected character: \x7f

// RUN: printf 'tt.func @f() {\n  tt.return \xff\n}\n' > %t.latin1.ttir
// RUN: not tnpu-opt %t.latin1.ttir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: not tnpu import %t.latin1.ttir 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8: latin1.ttir:2:13: error: invalid UTF-8: byte 0xff (is this a binary file?)

// A corpus kernel cut in the middle of its first location alias: the string
// is left open (this used to take minutes in xDSL's lexer).
// RUN: head -c 40 %corpus/inductor/adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0/kernel.ttir > %t.truncated.ttir
// RUN: not tnpu-opt %t.truncated.ttir 2>&1 | filecheck %s --check-prefix=TRUNCATED
// TRUNCATED: truncated.ttir:1:12: error: End of file reached before closing string literal.

// Cut after the module, before the #loc aliases it uses.
// RUN: head -n 78 %corpus/inductor/adam_step__triton_poi_fused_add_copy__div_fma_mul_sqrt_0/kernel.ttir > %t.noaliases.ttir
// RUN: not tnpu-opt %t.noaliases.ttir 2>&1 | filecheck %s --check-prefix=NOALIASES
// NOALIASES: noaliases.ttir:12:{{[0-9]+}}: error: undefined symbol alias '#loc39'

// RUN: not tnpu-opt %t.does-not-exist.ttir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: tnpu-opt: error: {{.*}}does-not-exist.ttir: No such file or directory
