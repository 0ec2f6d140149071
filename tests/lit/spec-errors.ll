; Bad option values are errors naming the variable (LLVM diagnostics, never a
; crash); so is an MR_SPEC entry that does not match the definition.
; RUN: env MR_SPEC='f(x f64)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SYNTAX
; SYNTAX: error: mrpass: MR_SPEC: col 5: expected ':'
; RUN: env MR_SPEC='f(x:double)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=KIND
; KIND: error: mrpass: MR_SPEC: col 5: expected a kind (void, bool, i8..u64, f32, f64, cstr, opaque), got 'double'
; RUN: env MR_SPEC='g()void; f(a:f64[7],n:u64)void' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LEN
; LEN: error: mrpass: MR_SPEC: col 18: expected the index of another parameter of 'f' (0..1)
; RUN: env MR_SPEC='f(a:f64[1],n:f64)void' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LENKIND
; LENKIND: error: mrpass: MR_SPEC: col 9: expected length parameter 1 to have an integer kind
; RUN: env MR_SPEC='f(x:f64)f64;f(x:f64)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUP
; DUP: error: mrpass: MR_SPEC: col 13: expected each function once, 'f' is repeated
; RUN: env MR_SPEC='f(x:f64)f64 g()void' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SEMI
; SEMI: error: mrpass: MR_SPEC: col 13: expected ';'
; RUN: env MR_SPEC='f(x:f64,y:f64)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ARITY
; ARITY: error: mrpass: MR_SPEC: 'f' has 2 parameter(s), the definition has 1 IR argument(s)
; RUN: env MR_SPEC='f(x:i32)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TYPE
; TYPE: error: mrpass: MR_SPEC: 'f': parameter 'x' is i32, the definition has type double
; RUN: env MR_SPEC='f(x:f64!out)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PTR
; PTR: error: mrpass: MR_SPEC: 'f': parameter 'x' is f64 pointer, the definition has type double
; RUN: env MR_SPEC='f(x:f64)void' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RET
; RET: error: mrpass: MR_SPEC: 'f' returns void, the definition returns double
; Records (docs/pass.md "Records"): syntax, then entries the definition cannot hold.
; RUN: env MR_SPEC='f(r:{x:f64@0}!const)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RFLAG
; RFLAG: error: mrpass: MR_SPEC: col 14: expected ',' or ')': a record passed by value takes no flag
; RUN: env MR_SPEC='f(r:{x:cstr@0}*)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RKIND
; RKIND: error: mrpass: MR_SPEC: col 8: expected a field kind (bool, i8..u64, f32, f64), got 'cstr'
; RUN: env MR_SPEC='f(r:{x:f64 0}*)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RAT
; RAT: error: mrpass: MR_SPEC: col 12: expected '@'
; RUN: env MR_SPEC='f(r:{x:f64@1073741824}*)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ROFF
; ROFF: error: mrpass: MR_SPEC: col 12: expected a byte offset
; RUN: env MR_SPEC='f(r:{x:f64@0)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RCLOSE
; RCLOSE: error: mrpass: MR_SPEC: col 13: expected '}'
; RUN: env MR_SPEC='f(r:{9x:f64@0}*)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RPATH
; RPATH: error: mrpass: MR_SPEC: col 6: expected a field path
; RUN: env MR_SPEC='f(r:{x:f64@0}*!out!const)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ROUTC
; ROUTC: error: mrpass: MR_SPEC: col 20: expected one of out, const on a record pointer
; RUN: env MR_SPEC='f(r:{x:f64@0}*)f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RPTR
; RPTR: error: mrpass: MR_SPEC: 'f': parameter 'r' is a record pointer, the definition has type double
; RUN: env MR_SPEC='h(r:{x:f64@0})void' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RBYVAL
; RBYVAL: error: mrpass: MR_SPEC: 'h': parameter 'r' is a record, the definition has type {{double\*|ptr}}{{$}}
; RUN: env MR_SPEC='f(r:{x:f64@0,y:f64@8})f64' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RSIZE
; RSIZE: error: mrpass: MR_SPEC: 'f': parameter 'r' spans 16 bytes, the definition's registers hold 8
; RUN: env MR_SPEC='f(x:f64){x:f64@0,y:f64@8}' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RRET
; RRET: error: mrpass: MR_SPEC: 'f': the returned record spans 16 bytes, the definition's registers hold 8
; RUN: env MR_SPEC='g(){x:f64@0}' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RVOID
; RVOID: error: mrpass: MR_SPEC: 'g' returns a record, the definition returns void
; RUN: env MR_FUNCTIONS='f,,g' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FUNCS
; FUNCS: error: mrpass: MR_FUNCTIONS: col 3: expected a C identifier, got ''
; RUN: env MR_FUNCTIONS='f, 9lives' not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FUNCS2
; FUNCS2: error: mrpass: MR_FUNCTIONS: col 4: expected a C identifier, got '9lives'
; RUN: env MR_DEBUG=yes not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEBUG
; DEBUG: error: mrpass: MR_DEBUG='yes': expected 0 or 1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define double @f(double %x) {
  ret double %x
}

define void @g() {
  ret void
}

define void @h(double* %p) {
  ret void
}
