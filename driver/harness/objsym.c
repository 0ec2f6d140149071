/* SPDX-License-Identifier: MIT
 * objsym.c - does an object file define a symbol? Read from its ELF symbol table, so that
 * the build asks llvm-objcopy to rename a source's main (build.c) only when there is one:
 * starting the tool costs a tenth of a second, reading the table nothing. ELF64 only (the
 * hosts mrfuzz builds for); anything else, or a file cut short, says no.
 */
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

/* Does symbol table sh (its string table at index sh->sh_link) define name? */
static bool table_defines(const char *b, size_t len, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
                          const char *name) {
  const Elf64_Shdr *st = section(b, len, eh, sh->sh_link);
  if (!st || st->sh_offset > len || st->sh_size > len - st->sh_offset || sh->sh_offset > len ||
      sh->sh_size > len - sh->sh_offset || sh->sh_entsize < sizeof(Elf64_Sym))
    return false;
  size_t nsym = (size_t)(sh->sh_size / sh->sh_entsize), nl = strlen(name);
  for (size_t i = 0; i < nsym; i++) {
    const Elf64_Sym *s = (const Elf64_Sym *)(b + sh->sh_offset + i * sh->sh_entsize);
    int bind = ELF64_ST_BIND(s->st_info);
    if (s->st_shndx == SHN_UNDEF || (bind != STB_GLOBAL && bind != STB_WEAK) ||
        s->st_name + nl >= st->sh_size)
      continue;
    const char *sn = b + st->sh_offset + s->st_name;
    if (!memcmp(sn, name, nl + 1))
      return true;
  }
  return false;
}

/* See harness.h. */
bool drv_obj_defines(const char *path, const char *name) {
  size_t len;
  char *b = drv_read_file(path, &len);
  bool found = false;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
  if (b && len >= sizeof *eh && !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64)
    for (size_t i = 0; i < eh->e_shnum && !found; i++) {
      const Elf64_Shdr *sh = section(b, len, eh, i);
      found = sh && sh->sh_type == SHT_SYMTAB && table_defines(b, len, eh, sh, name);
    }
  free(b);
  return found;
}
