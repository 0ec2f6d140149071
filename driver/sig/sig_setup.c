/* SPDX-License-Identifier: MIT
 * sig_setup.c - the hooks a --setup file defines (docs/driver.md, "Library set-up"). The
 * generated harness declares them weak: a misspelled name, a static definition or another
 * signature would build and never be called, so the set-up would silently not happen.
 */
#include <stdio.h>

#include "sig/sig_int.h"

typedef struct hooks {
  const char *file;
  int rc;       /* DRV_EXIT_OK until a definition is refused */
  bool any;     /* a hook is defined */
} hooks;

static void where(CXCursor c, unsigned *line, unsigned *col) {
  clang_getSpellingLocation(clang_getCursorLocation(c), NULL, line, col, NULL);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  hooks *h = data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c) ||
      !clang_Location_isFromMainFile(clang_getCursorLocation(c)) || h->rc != DRV_EXIT_OK)
    return CXChildVisit_Continue;
  char *name = sig_take(clang_getCursorSpelling(c));
  unsigned line, col;
  where(c, &line, &col);
  bool hook = !strcmp(name, "mrfuzz_setup") || !strcmp(name, "mrfuzz_before_call");
  CXType t = clang_getCursorType(c);
  if (!strncmp(name, "mrfuzz_", 7) && !hook) {
    drv_error("%s:%u:%u: %s is not a set-up hook (mrfuzz_setup, mrfuzz_before_call)", h->file, line, col,
              name);
    h->rc = DRV_EXIT_USAGE;
  } else if (hook && (t.kind != CXType_FunctionProto || clang_getNumArgTypes(t) != 0 ||
                      clang_getResultType(t).kind != CXType_Void)) {
    char *ts = sig_type_str(t);
    drv_error("%s:%u:%u: %s must be void %s(void), not %s", h->file, line, col, name, name, ts);
    free(ts);
    h->rc = DRV_EXIT_USAGE;
  } else if (hook && clang_getCursorLinkage(c) != CXLinkage_External) {
    drv_error("%s:%u:%u: %s is static: the harness cannot call it (remove 'static')", h->file, line, col, name);
    h->rc = DRV_EXIT_USAGE;
  }
  h->any |= hook;
  free(name);
  return CXChildVisit_Continue;
}

/* See sig.h. */
int drv_sig_setup_hooks(const drv_sig_req *req) {
  CXIndex idx = clang_createIndex(0, 0);
  CXTranslationUnit tu = sig_parse_ok(idx, req, "its set-up hooks");
  hooks h = {req->file, tu ? DRV_EXIT_OK : DRV_EXIT_USAGE, false};
  if (tu) {
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &h);
    clang_disposeTranslationUnit(tu);
  }
  clang_disposeIndex(idx);
  if (h.rc == DRV_EXIT_OK && !h.any) {
    drv_error("--setup %s defines neither mrfuzz_setup nor mrfuzz_before_call (void NAME(void)): "
              "nothing would be set up",
              req->file);
    h.rc = DRV_EXIT_USAGE;
  }
  return h.rc;
}
