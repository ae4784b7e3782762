// A bad -p gets one line and exit code 1: an unknown pass, an unknown
// option, a spec that does not parse.

// RUN: not tnpu-opt %s -p nope 2>&1 | filecheck %s --check-prefix=PASS
// PASS: {{^}}tnpu-opt: error: Unrecognized passes: ['nope']{{$}}

// RUN: not tnpu-opt %s -p 'expand-math{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: {{^}}tnpu-opt: error: Provided arguments ["bogus"] not found in expected arguments ["native"]{{$}}

// RUN: not tnpu-opt %s -p 'expand-math{native=a/b}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not tnpu-opt %s -p 'expand-math{native=a/b}' 2>&1 | wc -l | filecheck %s --check-prefix=ONE-LINE
// SYNTAX: {{^}}tnpu-opt: error: Error parsing pass pipeline specification: pass-pipeline:1:21 expand-math{native=a/b} ^ Unknown token{{$}}
// ONE-LINE: {{^ *1$}}

func.func @f() {
  func.return
}
