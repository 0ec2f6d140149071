; MR_LIBCALLS=1: in every defined function, each direct call of a function named in
; MR_FUNCTIONS or MR_SPEC and each indirect call runs with the thread-local
; __mr_lib_calls raised by one (the hooks flag such calls as made inside the library).
; Names the module does not define are expected then: no warning.
; RUN: env MR_LIBCALLS=1 MR_FUNCTIONS=f,absent %opt -passes='mr-instrument,verify' -S %s 2>%t.err \
; RUN:   | FileCheck %s --check-prefixes=CHECK,LIB
; RUN: count 0 < %t.err
; A module that also defines a target (t): its original body and its clone each hold
; their own marked copy of the call of f, the hooks and the dispatch stay unmarked, and
; g's call of t is marked too.
; RUN: env MR_LIBCALLS=1 MR_FUNCTIONS=f,t %opt -passes='mr-instrument,verify' -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,TGT
; MR_SPEC names targets as MR_FUNCTIONS does.
; RUN: env MR_LIBCALLS=1 MR_SPEC='f(x:i32)i32' %opt -passes='mr-instrument,verify' -S %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,LIB
; Twice (or on its own output) is a no-op: !mr.libcalls marks the module.
; RUN: env MR_LIBCALLS=1 MR_FUNCTIONS=f,t %opt -passes='mr-instrument,verify' -S %s -o %t.once.ll
; RUN: env MR_LIBCALLS=1 MR_FUNCTIONS=f,t %opt -passes='mr-instrument,mr-instrument,verify' -S %s -o %t.twice.ll
; RUN: diff %t.once.ll %t.twice.ll
; RUN: %opt -passes=verify -S %t.once.ll -o %t.roundtrip.ll
; RUN: env MR_LIBCALLS=1 MR_FUNCTIONS=f,t %opt -passes='mr-instrument,verify' -S %t.once.ll -o %t.again.ll
; RUN: diff %t.roundtrip.ll %t.again.ll
; Off (unset or 0): no counter, and the names this module lacks are warnings again.
; RUN: env MR_LIBCALLS=0 MR_FUNCTIONS=f,absent %opt -passes='mr-instrument,verify' -S %s 2>%t.err0 \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: FileCheck %s --check-prefix=WARN < %t.err0
; OFF-NOT: __mr_lib_calls
; WARN: warning: mrpass: MR_FUNCTIONS names 'absent', which is not defined in this module
; A bad value is an error naming the variable.
; RUN: env MR_LIBCALLS=yes not %opt -passes=mr-instrument -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD
; BAD: error: mrpass: MR_LIBCALLS='yes': expected 0 or 1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__mr_lib_calls = weak hidden thread_local global i32 0, align 4
; f said to read no memory would let the optimiser drop the counter's increment as a
; dead store: the attribute goes (from the declaration and the call sites).
; CHECK: declare i32 @f(i32){{$}}

declare i32 @f(i32) #0
declare i32 @h(i32)
declare i32 @__gxx_personality_v0(...)

; t calls the target f: marked whether or not t is itself a target.
define i32 @t(i32 %x) {
entry:
  %r = call i32 @f(i32 %x)
  ret i32 %r
}

; TGT-LABEL: define i32 @t(i32 %x)
; TGT:       mr.clone:
; TGT-NEXT:    %{{.*}} = tail call i32 @t.mr(i32 %x)
; TGT:       mr.orig:
; TGT-NEXT:    [[N:%.*]] = load i32, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:    [[N1:%.*]] = add i32 [[N]], 1
; TGT-NEXT:    store i32 [[N1]], {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:    %r = call i32 @f(i32 %x)
; TGT-NEXT:    [[M:%.*]] = load i32, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:    [[M1:%.*]] = add i32 [[M]], -1
; TGT-NEXT:    store i32 [[M1]], {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:    ret i32 %r
; TGT-NEXT:  }
; The clone: the hooks are not bracketed, the call of f is, once; so in the copy that
; logs value sites.
; TGT-LABEL: define internal i32 @t.mr(i32 %x)
; TGT-NOT:     @__mr_lib_calls
; TGT:         call void @__mr_enter(
; TGT-NEXT:    br label %mr.body
; TGT:       mr.body:
; TGT:         add i32 %mr.libcalls, 1
; TGT-NEXT:    store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:    %r = call i32 @f(i32 %x)
; TGT-NEXT:    load i32, {{i32\*|ptr}} @__mr_lib_calls
; TGT-NEXT:    add i32 %{{.*}}, -1
; TGT-NEXT:    store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NOT:     @__mr_lib_calls
; TGT:         call void @__mr_exit(
; TGT-NOT:     @__mr_lib_calls
; TGT:       }
; TGT-LABEL: define internal i32 @t.mr.values(i32 %x)
; TGT-COUNT-1: add i32 %mr.libcalls{{[0-9]*}}, 1
; TGT-NOT:     add i32 %mr.libcalls{{[0-9]*}}, 1
; TGT:       }

; LIB-LABEL: define i32 @t(i32 %x) {
; LIB-NEXT:  entry:
; LIB-NEXT:    [[N:%.*]] = load i32, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; LIB-NEXT:    [[N1:%.*]] = add i32 [[N]], 1
; LIB-NEXT:    store i32 [[N1]], {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; LIB-NEXT:    %r = call i32 @f(i32 %x)
; LIB-NEXT:    [[M:%.*]] = load i32, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; LIB-NEXT:    [[M1:%.*]] = add i32 [[M]], -1
; LIB-NEXT:    store i32 [[M1]], {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; LIB-NEXT:    ret i32 %r
; LIB-NEXT:  }

; g: a call of a function that is no target (h) and inline asm stay as they are; an
; indirect call is marked; the call of t only when t is a target.
define i32 @g(i32 %x, i32 (i32)* %fp) {
entry:
  %a = call i32 @h(i32 %x)
  %b = call i32 asm "mov $1, $0", "=r,r"(i32 %a)
  %c = call i32 %fp(i32 %b)
  %d = call i32 @t(i32 %c)
  ret i32 %d
}

; CHECK-LABEL: define i32 @g(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %a = call i32 @h(i32 %x)
; CHECK-NEXT:    %b = call i32 asm
; CHECK-NEXT:    load i32, {{i32\*|ptr}} @__mr_lib_calls
; CHECK-NEXT:    add i32 %{{.*}}, 1
; CHECK-NEXT:    store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    %c = call i32 %fp(i32 %b)
; CHECK-NEXT:    load i32, {{i32\*|ptr}} @__mr_lib_calls
; CHECK-NEXT:    add i32 %{{.*}}, -1
; CHECK-NEXT:    store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; LIB-NEXT:      %d = call i32 @t(i32 %c)
; TGT-NEXT:      load i32, {{i32\*|ptr}} @__mr_lib_calls
; TGT-NEXT:      add i32 %{{.*}}, 1
; TGT-NEXT:      store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; TGT-NEXT:      %d = call i32 @t(i32 %c)
; TGT-NEXT:      load i32, {{i32\*|ptr}} @__mr_lib_calls
; TGT-NEXT:      add i32 %{{.*}}, -1
; TGT-NEXT:      store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    ret i32 %d

; An invoke: raised before it; both successors (which other paths reach too) set the
; counter back to its value at the function's entry.
define i32 @k(i32 %x) personality i32 (...)* @__gxx_personality_v0 {
entry:
  %r = invoke i32 @f(i32 %x) to label %ok unwind label %lp
ok:
  ret i32 %r
lp:
  %l = landingpad { i8*, i32 } cleanup
  resume { i8*, i32 } %l
}

; CHECK-LABEL: define i32 @k(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %mr.libcalls.entry = load i32, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    load i32, {{i32\*|ptr}} @__mr_lib_calls
; CHECK-NEXT:    add i32 %{{.*}}, 1
; CHECK-NEXT:    store i32 %{{.*}}, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    %r = invoke i32 @f(i32 %x)
; CHECK:       ok:
; CHECK-NEXT:    store i32 %mr.libcalls.entry, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    ret i32 %r
; CHECK:       lp:
; CHECK-NEXT:    %l = landingpad
; CHECK-NEXT:    cleanup
; CHECK-NEXT:    store i32 %mr.libcalls.entry, {{i32\*|ptr}} @__mr_lib_calls, align 4, !nosanitize
; CHECK-NEXT:    resume

; A musttail call cannot be followed by the decrement: left unmarked.
define i32 @m(i32 %x) {
  %r = musttail call i32 @f(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: define i32 @m(
; CHECK-NEXT:    %r = musttail call i32 @f(i32 %x)
; CHECK-NEXT:    ret i32 %r

; CHECK: !mr.libcalls = !{}

attributes #0 = { readnone }
