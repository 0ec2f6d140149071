/* SPDX-License-Identifier: MIT
 * objsym.c - the symbols an object file or an ar archive defines, read from their ELF
 * symbol tables, so that the build asks llvm-objcopy to rename a source's main, or a name
 * it shares with libFuzzer's interceptors (build.c), only when there is one: starting the
 * tool costs a tenth of a second, reading the table nothing. ELF64 only (the hosts mrfuzz
 * builds for); anything else, or a file cut short, defines nothing.
 */
#include <ar.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"

/* The n-th section header of the image at b (len bytes), or NULL when out of bounds. */
static const Elf64_Shdr *section(const char *b, size_t len, const Elf64_Ehdr *eh, size_t n) {
  size_t at = (size_t)eh->e_shoff + n * eh->e_shentsize;
  if (n >= eh->e_shnum || eh->e_shentsize < sizeof(Elf64_Shdr) || at < eh->e_shoff ||
      at + sizeof(Elf64_Shdr) > len)
    return NULL;
  return (const Elf64_Shdr *)(b + at);
}

/* The names symbol table sh (its string table at index sh->sh_link) defines, globally or
 * weakly, onto out, one per line. */
static void table_names(const char *b, size_t len, const Elf64_Ehdr *eh, const Elf64_Shdr *sh, drv_buf *out) {
  const Elf64_Shdr *st = section(b, len, eh, sh->sh_link);
  if (!st || st->sh_offset > len || st->sh_size > len - st->sh_offset || sh->sh_offset > len ||
      sh->sh_size > len - sh->sh_offset || sh->sh_entsize < sizeof(Elf64_Sym))
    return;
  size_t nsym = (size_t)(sh->sh_size / sh->sh_entsize);
  const char *strs = b + st->sh_offset;
  for (size_t i = 0; i < nsym; i++) {
    const Elf64_Sym *s = (const Elf64_Sym *)(b + sh->sh_offset + i * sh->sh_entsize);
    int bind = ELF64_ST_BIND(s->st_info);
    if (s->st_shndx != SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) && s->st_name < st->sh_size &&
        memchr(strs + s->st_name, 0, st->sh_size - s->st_name))
      drv_buf_printf(out, "%s\n", strs + s->st_name);
  }
}

/* The names the ELF64 image b (len bytes, 8-aligned) defines, onto out. */
static void elf_names(const char *b, size_t len, drv_buf *out) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
  if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
    return;
  for (size_t i = 0; i < eh->e_shnum; i++) {
    const Elf64_Shdr *sh = section(b, len, eh, i);
    if (sh && sh->sh_type == SHT_SYMTAB)
      table_names(b, len, eh, sh, out);
  }
}

/* The same for every ELF member of an ar archive (the "!<arch>" format: 60-byte headers,
 * each member's size in decimal at offset 48, members padded to an even offset); each
 * member is copied, aligned, before it is read. */
static void ar_names(const char *b, size_t len, drv_buf *out) {
  for (size_t at = SARMAG; at + 60 <= len;) {
    char sz[11] = {0};
    memcpy(sz, b + at + 48, 10);
    char *end;
    unsigned long long n = strtoull(sz, &end, 10);
    if (end == sz || n > len - at - 60)
      return;
    char *m = malloc(n ? n : 1);
    if (!m)
      return;
    memcpy(m, b + at + 60, n);
    elf_names(m, n, out);
    free(m);
    at += 60 + n + (n & 1);
  }
}

/* See harness.h. */
void drv_obj_symbols(const char *path, drv_buf *out) {
  size_t len;
  char *b = drv_read_file(path, &len);
  if (!b)
    return;
  if (len >= SARMAG && !memcmp(b, ARMAG, SARMAG))
    ar_names(b, len, out);
  else
    elf_names(b, len, out);
  free(b);
}

/* See harness.h. */
bool drv_obj_listed(const drv_buf *syms, const char *name) {
  size_t n = strlen(name);
  for (const char *p = syms->s; p && *p; p = strchr(p, '\n') + 1)
    if (!strncmp(p, name, n) && p[n] == '\n')
      return true;
  return false;
}
