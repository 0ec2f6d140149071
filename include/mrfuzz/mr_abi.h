/* SPDX-License-Identifier: MIT
 * mr_abi.h - the contract between mrpass (C++, emits code) and the runtime (C, runs it).
 * Pure macros and plain structs, usable from C and C++. The pass builds the descriptor
 * structs below as IR constants; any layout change bumps MR_ABI_VERSION, and the runtime
 * aborts when a module was built against another version.
 */
#ifndef MR_ABI_H
#define MR_ABI_H

#include <stdint.h>

#define MR_ABI_VERSION 4u /* 2: mutant schemata (mr_mutant_desc, mr_fn_desc.mutants);
                           * 3: value sites (mr_value_desc, __mr_value, MR_STATE_VALUES);
                           * 4: record leaves (mr_param_desc.slot/offset, MR_PF_FIELD...) */

/* ---- Symbols emitted by the pass / provided by the runtime ------------------------- */
#define MR_HOOK_ENTER "__mr_enter"             /* void (mr_fn_desc *, const uint64_t *args) */
#define MR_HOOK_EXIT "__mr_exit"               /* void (mr_fn_desc *, const uint64_t *args, uint64_t ret) */
#define MR_HOOK_VALUE "__mr_value"             /* void (mr_fn_desc *, uint32_t site, uint64_t bits) */
#define MR_HOOK_MODULE_INIT "__mr_module_init" /* void (uint32_t abi, mr_fn_desc **start, mr_fn_desc **stop) */
#define MR_STATE_VAR "__mr_state"              /* volatile uint32_t: MR_STATE_* bits, 0 = all off */
#define MR_MUTANT_VAR "__mr_mutant"            /* uint32_t: global id of the active mutant, 0 = none */
#define MR_MODULE_CTOR "mr.module_ctor"
#define MR_CTOR_PRIO 2                         /* before user ctors, like sancov */
#define MR_SECTION "mr_sites"                  /* array of mr_fn_desc* ; __start_/__stop_ bounds */
#define MR_SECTION_START "__start_mr_sites"
#define MR_SECTION_STOP "__stop_mr_sites"
#define MR_INSTRUMENTED_MD "mr.instrumented"   /* named module metadata: pass already ran */
#define MR_TARGET_ANNOTATION "mr_target"       /* clang annotate string marking a target */
#define MR_CLONE_SUFFIX ".mr"                  /* instrumented clone of a target body */
#define MR_LIB_CALLS_VAR "__mr_lib_calls"       /* thread_local int32_t: calls of targets made inside
                                                * the library that are open on this thread (pass
                                                * option MR_LIBCALLS); weak hidden in each marked
                                                * module and in the runtime, which reads it */
#define MR_LIBCALLS_MD "mr.libcalls"           /* named module metadata: library calls marked */

/* __mr_state bits. The pass guards each target with one load of __mr_state at entry:
 * zero runs the original (uninstrumented) body; non-zero runs the instrumented clone,
 * which always bumps coverage counters and calls the hooks only when TRACE is set. */
#define MR_STATE_COVER 0x1u  /* instrumented clone active: coverage counters count */
#define MR_STATE_TRACE 0x2u  /* enter/exit hooks are called (runtime records or forwards) */
#define MR_STATE_MUTANT 0x4u /* a mutant is selected (__mr_mutant != 0): run the clone, which
                              * holds the mutant schemata of a mutation build (MR_MUTATE) */
#define MR_STATE_VALUES 0x8u /* the clone logs its value sites through __mr_value (dynamic
                              * constants: values that are the same in every execution) */

/* ---- Value kinds (ORDER MR_KIND: the runtime's name table mirrors this list) ------- */
#define MR_KIND_LIST(X) \
  X(OPAQUE, 0, "opaque") \
  X(VOID, 1, "void")     \
  X(BOOL, 2, "bool")     \
  X(I8, 3, "i8")         \
  X(U8, 4, "u8")         \
  X(I16, 5, "i16")       \
  X(U16, 6, "u16")       \
  X(I32, 7, "i32")       \
  X(U32, 8, "u32")       \
  X(I64, 9, "i64")       \
  X(U64, 10, "u64")      \
  X(F32, 11, "f32")      \
  X(F64, 12, "f64")      \
  X(CSTR, 13, "cstr")

#define MR_KIND_ENUM(name, val, str) MR_KIND_##name = val,
enum mr_kind { MR_KIND_LIST(MR_KIND_ENUM) MR_KIND__COUNT };

/* The C type of a scalar of each kind, of the size the engines' cells have: an initializer
 * of a `const char *const []` for code generators (the driver's harness.c, the typed entry
 * of `mrfuzz embed`). */
#define MR_KIND_CTYPES                                                                       \
  {[MR_KIND_BOOL] = "_Bool", [MR_KIND_I8] = "int8_t", [MR_KIND_U8] = "uint8_t",             \
   [MR_KIND_I16] = "int16_t", [MR_KIND_U16] = "uint16_t", [MR_KIND_I32] = "int32_t",        \
   [MR_KIND_U32] = "uint32_t", [MR_KIND_I64] = "int64_t", [MR_KIND_U64] = "uint64_t",       \
   [MR_KIND_F32] = "float", [MR_KIND_F64] = "double"}
#undef MR_KIND_ENUM

/* Parameter flags. A parameter is either a scalar of `kind`, or a pointer:
 *   ARRAY: pointer to `kind` elements, count in parameter `len_index`; logged before
 *          and after the call (in-place functions have their result there);
 *   OUT:   non-const pointer to one `kind` scalar, written by the callee (logged at exit);
 *   CSTR kind: NUL-terminated string, logged at entry (and at exit when not CONST);
 * or a leaf of a record (FIELD): one scalar of `kind` at byte `offset` of the record whose
 * address is in hook slot `slot` (MR_SLOT_RET: the `ret` of __mr_exit). A leaf is logged
 * at entry (by value, CONST pointer), at entry and exit (INOUT), or at exit only (OUT,
 * RET). A record is flattened into its leaves in field order, "r.lo.x", "r.a[2]";
 * the leaves of a returned record come last, named "ret.PATH". */
#define MR_PF_ARRAY 0x1u
#define MR_PF_OUT 0x2u
#define MR_PF_CONST 0x4u
#define MR_PF_INOUT 0x8u  /* non-const pointer to a scalar (a record leaf): read before and after the call */
#define MR_PF_FIELD 0x10u /* a leaf of a record parameter or result (docs/pass.md "Records") */
#define MR_PF_RET 0x20u   /* a leaf of a returned record */

/* mr_param_desc.slot of a leaf of the returned record: read through __mr_exit's `ret`. */
#define MR_SLOT_RET (-1)

/* How args reach the hooks: the pass stores every argument into a uint64_t slot
 * (integers sign/zero-extended per kind, bool 0/1, f32 as its 32 bits zero-extended,
 * f64 as its 64 bits, pointers as their address). `ret` is encoded the same way.
 * Slot i belongs to descriptor parameter i. A record's slot is the one of its first leaf
 * and holds the record's address (a pointer parameter, a byval copy, or a copy of the
 * registers the ABI passed it in); the slots of its other leaves are not written. For
 * a returned record `ret` is its address (sret, or a copy of the returned registers),
 * and ret_kind is MR_KIND_VOID. */

/* ---- Descriptors built by the pass (read-only except where noted) ------------------ */
typedef struct mr_param_desc {
  const char *name;  /* from MR_SPEC, else debug info, else "argN" */
  uint8_t kind;      /* enum mr_kind (element kind for arrays) */
  uint8_t flags;     /* MR_PF_* */
  int16_t len_index; /* ARRAY: index of the length parameter, else -1 */
  int16_t slot;      /* FIELD: slot holding the record's address, or MR_SLOT_RET; else 0 */
  uint16_t pad;
  uint32_t offset;   /* FIELD: byte offset of the leaf in the record; else 0 */
} mr_param_desc;

typedef struct mr_const_desc {
  uint8_t kind;      /* MR_KIND_I64/U64 (integers, bool) or MR_KIND_F64 (all floats) */
  uint8_t pad[7];
  uint64_t bits;     /* value: int64 two's complement or double bits */
} mr_const_desc;

typedef struct mr_loc_desc {
  uint32_t line;     /* 0 when compiled without -g */
  uint32_t col;
} mr_loc_desc;

typedef struct mr_edge_desc {
  uint32_t from;     /* block index */
  uint32_t to;       /* block index */
  uint32_t counter;  /* index into edge_counters */
} mr_edge_desc;

/* ---- Mutation operators (ORDER MR_MUT: the runtime's name table mirrors this list) --
 * X(name, value, "short name", "what it does"). docs/mutation.md describes each. */
#define MR_MUT_LIST(X)                                                      \
  X(AOR, 1, "AOR", "arithmetic operator replacement")                       \
  X(ROR, 2, "ROR", "relational operator replacement")                       \
  X(LCR, 3, "LCR", "logical connector replacement (&& ||)")                 \
  X(BCR, 4, "BCR", "bitwise connector replacement (& | ^)")                 \
  X(CRP, 5, "CRP", "constant replacement")                                  \
  X(UOI, 6, "UOI", "unary operator insertion (-v, v+1, v-1)")               \
  X(RVR, 7, "RVR", "return value replacement")                              \
  X(SDL, 8, "SDL", "deletion of a call whose result is unused")             \
  X(BCN, 9, "BCN", "branch condition negation")

#define MR_MUT_ENUM(name, val, str, what) MR_MUT_##name = val,
enum mr_mut_op { MR_MUT_NONE = 0, MR_MUT_LIST(MR_MUT_ENUM) MR_MUT__COUNT };
#undef MR_MUT_ENUM

/* One mutant of a target body. The mutation build (MR_MUTATE) compiles every mutant into
 * the instrumented clone as a run-time choice: site k is active when
 * __mr_mutant == mutant_base + k + 1 (and MR_STATE_MUTANT routes calls to the clone). */
typedef struct mr_mutant_desc {
  uint8_t op;           /* enum mr_mut_op */
  uint8_t pad[3];
  uint32_t block;       /* index of the block holding the site (block_counters) */
  uint32_t line;        /* source position of the site; 0 without -g */
  uint32_t col;
  const char *orig;     /* the code replaced, e.g. "+", "3.5", "&&", "call of foo" */
  const char *repl;     /* its replacement, e.g. "-", "0", "||", "" (deleted) */
  const char *desc;     /* one line, e.g. "replace '+' with '-'" */
} mr_mutant_desc;

/* ---- Value sites (MR_STATE_VALUES; docs/pass.md "Value sites") -------------------------
 * Values the clone computes that may turn out to be constants at run time (GenMorph's
 * dynamic constants): ORDER MR_VAL: the runtime's name table mirrors this list. */
#define MR_VAL_LIST(X)                                   \
  X(LOAD, 1, "load", "a variable or memory read")        \
  X(ARITH, 2, "arith", "an arithmetic or bitwise result") \
  X(CALL, 3, "call", "a call's result")                  \
  X(CMP, 4, "cmp", "an operand of a comparison")

#define MR_VAL_ENUM(name, val, str, what) MR_VAL_##name = val,
enum mr_val_origin { MR_VAL_NONE = 0, MR_VAL_LIST(MR_VAL_ENUM) MR_VAL__COUNT };
#undef MR_VAL_ENUM

/* One value site. Values are logged as MR_KIND_I64 (integers sign-extended) or
 * MR_KIND_F64 (floats widened to double), so equal values have equal bits. */
typedef struct mr_value_desc {
  uint8_t kind;     /* MR_KIND_I64 or MR_KIND_F64 */
  uint8_t origin;   /* enum mr_val_origin */
  uint8_t pad[2];
  uint32_t block;   /* index of the block computing the value (block_counters) */
  uint32_t line;    /* source position; 0 without -g */
  uint32_t col;
} mr_value_desc;

/* What the runtime observed at one value site (zero-initialised by the pass). */
typedef struct mr_value_cell {
  uint64_t first;   /* the first value logged (valid when hits > 0) */
  uint64_t hits;    /* times the site was logged */
  uint32_t varied;  /* non-zero once a value other than `first` was logged */
  uint32_t pad;
} mr_value_cell;

/* mr_fn_desc.flags */
#define MR_FN_MUTATED 0x1u /* compiled with MR_MUTATE: the clone holds mutant schemata
                            * (set even when the body has no mutable site) */
#define MR_FN_CALLEE 0x2u  /* not a target: a function of the build's sources that a target
                            * can reach, mutated with it (MR_MUTATE_FUNCS); it has a clone,
                            * counters and mutants but no hooks and no parameters */

typedef struct mr_fn_desc {
  uint32_t abi_version;               /* MR_ABI_VERSION of the pass that built it */
  uint32_t id;                        /* written by the runtime at registration */
  const char *name;                   /* C name of the function */
  const char *file;                   /* source file (module's source_filename) */
  uint32_t nparams;
  uint8_t ret_kind;                   /* enum mr_kind; MR_KIND_VOID for void */
  uint8_t pad[3];
  const mr_param_desc *params;        /* [nparams] */
  uint32_t nconsts;
  uint32_t nblocks;
  const mr_const_desc *consts;        /* [nconsts], deduplicated mined literals */
  uint64_t *block_counters;           /* [nblocks], mutable, bumped by the clone */
  const mr_loc_desc *block_locs;      /* [nblocks], first located instruction */
  uint32_t nedges;
  uint32_t pad2;
  uint64_t *edge_counters;            /* [nedges], mutable */
  const mr_edge_desc *edges;          /* [nedges] CFG edges of the original body */
  uint32_t nmutants;                  /* mutants in the clone (mutation builds), else 0 */
  uint32_t mutant_base;               /* written by the runtime: mutant k has the global id
                                       * mutant_base + k + 1 */
  const mr_mutant_desc *mutants;      /* [nmutants], in body order */
  uint32_t flags;                     /* MR_FN_* */
  uint32_t pad3;
  uint32_t nvalues;                   /* value sites of the clone (0: none, e.g. in place) */
  uint32_t pad4;
  const mr_value_desc *values;        /* [nvalues], in body order */
  mr_value_cell *value_cells;         /* [nvalues], mutable, written by __mr_value */
} mr_fn_desc;

#endif /* MR_ABI_H */
