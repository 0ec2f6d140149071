/* SPDX-License-Identifier: MIT
 * trace_read.c - the lowest layer of trace reading (tools only, may allocate): loading a
 * file, bounds-checked cursors over payloads, value items, the record scanner that checks
 * lengths and checksums, and a small hash map. Invariant: every byte read is inside the
 * image, so no input, however mangled, makes a reader crash or loop.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_int.h"

/* Format a message into err (when given); never fails. */
void rt_errf(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* ================================ Cursor ============================================ */

/* n bytes at the cursor (advancing it), or NULL and the sticky bad flag when fewer
 * remain. */
const uint8_t *rt_getn(rt_cur *c, size_t n) {
  if (c->bad || (size_t)(c->end - c->p) < n) {
    c->bad = true;
    return NULL;
  }
  const uint8_t *p = c->p;
  c->p += n;
  return p;
}

/* Little-endian integers at the cursor; 0 (and bad set) past the end. */
uint8_t rt_get8(rt_cur *c) {
  const uint8_t *p = rt_getn(c, 1);
  return p ? p[0] : 0;
}

uint16_t rt_get16(rt_cur *c) {
  const uint8_t *p = rt_getn(c, 2);
  return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

uint32_t rt_get32(rt_cur *c) {
  const uint8_t *p = rt_getn(c, 4);
  return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

uint64_t rt_get64(rt_cur *c) {
  uint64_t lo = rt_get32(c);
  return lo | (uint64_t)rt_get32(c) << 32;
}

/* Decode one value item (see rt_int.h) into *v. False on a malformed item: unknown kind
 * or flag, contradictory flags, or data running past the payload. */
bool rt_get_val(rt_cur *c, rt_val *v /* OUT */) {
  rt_val r = {0, 0, 0, NULL};
  r.kind = rt_get8(c); /* two statements: initializers are not sequenced */
  r.flags = rt_get8(c);
  if (c->bad || r.kind >= MR_KIND__COUNT || (r.flags & ~RT_VF_KNOWN)) return false;
  if (r.flags & (RT_VF_NULL | RT_VF_ABSENT)) {
    if ((r.flags & RT_VF_NULL) && (r.flags & RT_VF_ABSENT)) return false;
    if (r.flags & RT_VF_TRUNC) return false;
  } else if (r.flags & RT_VF_ARRAY) {
    if (r.kind == MR_KIND_VOID || r.kind == MR_KIND_CSTR) return false; /* writer maps them */
    r.count = rt_get32(c);
    uint64_t bytes = (uint64_t)r.count * rt_kind_size(r.kind);
    if (c->bad || bytes > (uint64_t)(c->end - c->p)) return false;
    r.data = rt_getn(c, (size_t)bytes);
  } else if (r.kind == MR_KIND_CSTR) {
    r.count = rt_get32(c);
    r.data = rt_getn(c, r.count);
  } else {
    if (r.flags & RT_VF_TRUNC) return false;
    r.data = rt_getn(c, rt_kind_size(r.kind));
  }
  if (c->bad) return false;
  *v = r;
  return true;
}

/* ================================ Scanner =========================================== */

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int check_header(const rt_rec *r, char *err, size_t errlen) {
  rt_cur c = {r->p, r->p + r->n, false};
  const uint8_t *magic = rt_getn(&c, 8);
  uint32_t version = rt_get32(&c);
  if (!magic || memcmp(magic, RT_MAGIC, 8) != 0) {
    rt_errf(err, errlen, "not an mrfuzz trace (bad magic at offset %zu)", r->off);
    return MR_ECORRUPT;
  }
  if (version < RT_FORMAT_OLDEST || version > RT_FORMAT_VERSION) {
    rt_errf(err, errlen,
            "unsupported trace format version %u at offset %zu (this reader: %u to %u)",
            (unsigned)version, r->off, RT_FORMAT_OLDEST, RT_FORMAT_VERSION);
    return MR_ECORRUPT;
  }
  return MR_OK;
}

/* Walk the records of buf[0, len), calling fn for each whole record whose length and
 * checksum are right. A record running past the end is a cut (crash, kill -9), and an
 * empty buffer holds no session: the scan stops with MR_OK and says so in err. A bad
 * length, checksum, header or type, or fn
 * returning non-zero, stops with MR_ECORRUPT (the message in err): nothing after a bad
 * record is trusted. err is emptied first. */
int rt_scan(const uint8_t *buf, size_t len, rt_rec_fn fn, void *ud, char *err, size_t errlen) {
  size_t off = 0, nrec = 0;
  rt_crc32_init();
  rt_errf(err, errlen, "%s", "");
  if (len == 0) /* every session starts with a HEADER: nothing ever opened this trace */
    rt_errf(err, errlen, "empty: no process recorded into it (was it run under MR_TRACE?)");
  while (off < len) {
    size_t left = len - off;
    uint32_t rl = left >= 4 ? le32(buf + off) : 0;
    if (left >= 4 && (rl < RT_REC_MIN || rl > RT_REC_MAX)) {
      rt_errf(err, errlen, "corrupt record %zu at offset %zu: bad length %u", nrec, off,
              (unsigned)rl);
      return MR_ECORRUPT;
    }
    if (left < 4 || rl > left) {
      rt_errf(err, errlen, "trace cut after %zu records (partial record at offset %zu)", nrec,
              off);
      return MR_OK;
    }
    const uint8_t *p = buf + off;
    if (rt_crc32(0, p, rl - RT_REC_TRAILER) != le32(p + rl - RT_REC_TRAILER)) {
      rt_errf(err, errlen, "corrupt record %zu at offset %zu: checksum mismatch", nrec, off);
      return MR_ECORRUPT;
    }
    rt_rec r = {p[4], le32(p + 8), off, p + RT_REC_HDR, rl - RT_REC_HDR - RT_REC_TRAILER};
    if (p[5] || p[6] || p[7] || r.type < RT_REC_HEADER || r.type > RT_REC_LAST) {
      rt_errf(err, errlen, "corrupt record %zu at offset %zu: unknown type %d", nrec, off, r.type);
      return MR_ECORRUPT;
    }
    if (nrec == 0 && r.type != RT_REC_HEADER) {
      rt_errf(err, errlen, "not an mrfuzz trace (no header record at offset 0)");
      return MR_ECORRUPT;
    }
    int rc = r.type == RT_REC_HEADER ? check_header(&r, err, errlen) : MR_OK;
    if (rc == MR_OK) rc = fn(ud, &r, err, errlen);
    if (rc != MR_OK) return rc;
    off += rl;
    nrec++;
  }
  return MR_OK;
}

/* See rt_int.h: the shared body of the public renderers. */
int rt_render_path(const char *path, void *file, rt_render_fn render, char *err,
                   size_t errlen) {
  if (!file) {
    rt_errf(err, errlen, "no output file");
    return MR_EINVAL;
  }
  uint8_t *buf;
  size_t len;
  int rc = rt_load(path, &buf, &len, err, errlen);
  if (rc != MR_OK)
    return rc;
  rc = render(buf, len, file, err, errlen);
  free(buf);
  return rc;
}

/* Read the whole file at path into a malloc'd buffer (*buf, freed by the caller; NULL
 * for an empty file). MR_OK, MR_EIO (message in err) or MR_ENOMEM. */
int rt_load(const char *path, uint8_t **buf /* OUT */, size_t *len /* OUT */, char *err,
            size_t errlen) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f) {
    rt_errf(err, errlen, "cannot open trace %s: %s", path ? path : "(null)", strerror(errno));
    return MR_EIO;
  }
  uint8_t *b = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 65536;
      uint8_t *nb = realloc(b, ncap);
      if (!nb) {
        free(b);
        fclose(f);
        rt_errf(err, errlen, "out of memory reading %s", path);
        return MR_ENOMEM;
      }
      b = nb;
      cap = ncap;
    }
    size_t got = fread(b + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    rt_errf(err, errlen, "cannot read trace %s", path);
    return MR_EIO;
  }
  if (n == 0) {
    free(b);
    b = NULL;
  }
  *buf = b;
  *len = n;
  return MR_OK;
}

/* ================================ Containers ======================================== */

/* See rt_int.h. */
void *rt_grow(void *arr, size_t *cap, size_t want, size_t size) {
  if (want <= *cap) return arr;
  size_t n = *cap ? *cap : 16;
  while (n < want) n *= 2;
  uint8_t *p = realloc(arr, n * size);
  if (!p) return NULL;
  memset(p + *cap * size, 0, (n - *cap) * size);
  *cap = n;
  return p;
}


static size_t map_slot(uint64_t key, size_t cap) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

/* The value stored under key, or UINT32_MAX. */
uint32_t rt_map_get(const rt_map *m, uint64_t key) {
  if (!m->cap) return UINT32_MAX;
  for (size_t i = map_slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->vals[i] == UINT32_MAX) return UINT32_MAX;
    if (m->keys[i] == key) return m->vals[i];
  }
}

static int map_grow(rt_map *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  uint64_t *keys = malloc(cap * sizeof *keys);
  uint32_t *vals = malloc(cap * sizeof *vals);
  if (!keys || !vals) {
    free(keys);
    free(vals);
    return MR_ENOMEM;
  }
  memset(vals, 0xff, cap * sizeof *vals);
  for (size_t i = 0; i < m->cap; i++) {
    if (m->vals[i] == UINT32_MAX) continue;
    size_t j = map_slot(m->keys[i], cap);
    while (vals[j] != UINT32_MAX) j = (j + 1) & (cap - 1);
    keys[j] = m->keys[i];
    vals[j] = m->vals[i];
  }
  free(m->keys);
  free(m->vals);
  m->keys = keys;
  m->vals = vals;
  m->cap = cap;
  return MR_OK;
}

/* Store val (not UINT32_MAX) under key, replacing any previous value. MR_OK or
 * MR_ENOMEM. */
int rt_map_put(rt_map *m, uint64_t key, uint32_t val) {
  if ((m->n + 1) * 2 > m->cap && map_grow(m) != MR_OK) return MR_ENOMEM;
  size_t i = map_slot(key, m->cap);
  while (m->vals[i] != UINT32_MAX && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (m->vals[i] == UINT32_MAX) m->n++;
  m->keys[i] = key;
  m->vals[i] = val;
  return MR_OK;
}

/* Release the map's storage; it is empty and reusable afterwards. */
void rt_map_free(rt_map *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}
