; Mutation mode, descriptor: mr_fn_desc gains nmutants, mutant_base (written by the
; runtime), the mutant table {op, pad, block, line, col, orig, repl, desc} and the
; MR_FN_MUTATED flag; without MR_MUTATE the fields are zero and nothing is mutated.
; The TYPED and OPAQUE lines: typed (LLVM 14) and opaque pointers (LLVM 15 on).
; RUN: env MR_MUTATE=1 MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefixes=CHECK,%ptrs
; RUN: env MR_FUNCTIONS=f %opt -passes='mr-instrument,verify' -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %a) !dbg !5 {
  %s = add nsw i32 %a, 7, !dbg !9
  ret i32 %s, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{!8, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 2, column: 12, scope: !5)

; CHECK: %mr.mutant_desc = type { i8, [3 x i8], i32, i32, i32, {{i8\*|ptr}}, {{i8\*|ptr}}, {{i8\*|ptr}} }
; TYPED:  @__mr_desc.f = internal global %mr.fn_desc { i32 4, {{.*}}, i32 [[N:[0-9]+]], i32 0, %mr.mutant_desc* getelementptr inbounds ([[[N]] x %mr.mutant_desc], [[[N]] x %mr.mutant_desc]* @__mr_mutants.f, i64 0, i64 0), i32 1, i32 0, i32 {{[0-9]+}}, i32 0, %mr.value_desc* {{.*}} }
; OPAQUE: @__mr_desc.f = internal global %mr.fn_desc { i32 4, {{.*}}, i32 [[N:[0-9]+]], i32 0, ptr @__mr_mutants.f, i32 1, i32 0, i32 {{[0-9]+}}, i32 0, ptr {{.*}} }
; Texts are shared between mutants (one global each).
; CHECK-DAG: c"replace '+' with '-'\00"
; CHECK-DAG: c"replace the constant 7 with 8\00"
; CHECK-DAG: c"negate the return value\00"
; The first mutant: AOR (1) in block 0 at 2:12, "+" -> "-".
; CHECK: @__mr_mutants.f = private constant [[[N]] x %mr.mutant_desc] [%mr.mutant_desc { i8 1, [3 x i8] zeroinitializer, i32 0, i32 2, i32 12,

; OFF: @__mr_desc.f = internal global %mr.fn_desc { i32 4, {{.*}}, i32 0, i32 0, {{%mr.mutant_desc\*|ptr}} null, i32 0, i32 0, i32 {{[0-9]+}}, i32 0, {{%mr.value_desc\*|ptr}} {{.*}} }
; OFF-NOT: __mr_mutant
