/* SPDX-License-Identifier: MIT
 * disc_par.c - discovery's forked workers: tasks (PSO runs, candidate checks) spread over
 * `jobs` child processes that return fixed-size result records through pipes. A worker
 * that dies on a signal (the target crashed) or stops making progress (a hang) is killed
 * and replaced; the input it was calling, published in a shared cell before every call,
 * is confirmed in a throwaway child, the region where the target fails around it probed
 * in more, and the region excluded, so the replacement skips it. The coordinating process
 * never calls the target itself.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "automr/disc.h"

#define PAR_MAX_JOBS 64
#define PAR_MAX_RESTARTS 8
#define REC_HDR 16 /* task id, padded so the result that follows is aligned (malloc'd record) */

typedef struct par_worker {
  pid_t pid;         /* 0: not running */
  int fd;            /* read end */
  unsigned char *buf;/* owned: partial record */
  size_t have;
  uint64_t beat;     /* last heartbeat seen */
  double beat_t;     /* when it changed */
  int restarts;      /* restarts after a failure that was news */
  int lost;          /* restarts in all */
  bool finished;
} par_worker;

/* What one worker runs (the argument of worker_main). */
typedef struct par_job {
  disc_subj *d;
  disc_shm *shm;
  int w, jobs, ntasks;
  disc_task_fn fn;
  void *ud;
  size_t rsize;
  const bool *done;
  double deadline;
  int fd, rfd;       /* write and read end of its pipe */
} par_job;

/* The worker's loop: tasks w, w + jobs, ... not yet done, each result record written to
 * the pipe. */
static int worker_main(void *arg) {
  const par_job *j = arg;
  close(j->rfd);
  j->d->shm = j->shm;
  unsigned char *rec = malloc(REC_HDR + j->rsize);
  if (!rec)
    return 3;
  for (int i = j->w; i < j->ntasks; i += j->jobs) {
    if (j->done[i])
      continue;
    if (j->deadline > 0 && eng_now() > j->deadline)
      break;
    int32_t id = i;
    j->shm->task = i;
    memcpy(rec, &id, sizeof id);
    memset(rec + REC_HDR, 0, j->rsize);
    j->fn(j->ud, i, rec + REC_HDR); /* aligned for any result record */
    size_t n = REC_HDR + j->rsize, off = 0;
    while (off < n) {
      ssize_t k = write(j->fd, rec + off, n - off);
      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        return 3;
      off += (size_t)k;
    }
  }
  return 0;
}

static bool spawn(par_worker *pw, disc_subj *d, disc_shm *shm, int w, int jobs, int ntasks,
                  disc_task_fn fn, void *ud, size_t rsize, const bool *done, double deadline) {
  int p[2];
  if (pipe(p) != 0)
    return false;
  par_job j = {d, shm, w, jobs, ntasks, fn, ud, rsize, done, deadline, p[1], p[0]};
  pid_t pid = eng_fork(NULL, worker_main, &j);
  close(p[1]);
  if (pid < 0) {
    close(p[0]);
    return false;
  }
  pw->pid = pid;
  pw->fd = p[0];
  pw->have = 0;
  pw->beat = shm->beat;
  pw->beat_t = eng_now();
  return true;
}

/* One call of the target on x, alone (the argument of confirm_main). */
typedef struct par_one {
  disc_subj *d;
  const double *x;
} par_one;

static int confirm_main(void *arg) {
  par_one *o = arg;
  double y[DISC_MAX_M];
  o->d->shm = NULL;
  o->d->nbad = 0;
  /* whatever call failed (a stress input such as inf is outside even the wide limits) */
  disc_call_unchecked(o->d, o->x, y);
  return 0;
}

/* Run x alone in a child: 0 fine, 1 crashed (*status: its wait status), 2 hung (killed
 * after limit seconds). */
static int confirm(disc_subj *d, const double *x, double limit, int *status) {
  par_one o = {d, x};
  eng_child_opts q = {.quiet = true}; /* a sanitizer's report per probe is noise */
  pid_t pid = eng_fork(&q, confirm_main, &o);
  *status = 0;
  if (pid < 0)
    return 0;
  bool killed;
  int st = eng_child_wait(pid, eng_now() + limit, NULL, NULL, &killed);
  if (killed)
    return 2;
  *status = st;
  return WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != 0) ? 1 : 0;
}

/* ---- The region around a failing input ------------------------------------------------
 * Probing runs in throwaway children, from the coordinator, along one element at a time
 * (the others as in the failing input): a gallop outwards at 4^i times the neighbourhood's
 * step, then a bisection between the last input that failed and the first that returned.
 * Both step in the doubles' order (adjacent doubles are adjacent integers there), so a
 * region reaching from 900 to DBL_MAX costs a few dozen probes, not a thousand. */

/* Doubles as ordered integers (-0 and 0 alike), and back. */
static int64_t ord(double v) {
  int64_t i;
  memcpy(&i, &v, sizeof i);
  return i < 0 ? -(i & INT64_MAX) : i;
}
static double unord(int64_t o) {
  int64_t i = o < 0 ? (int64_t)((uint64_t)-o | (1ull << 63)) : o;
  double v;
  memcpy(&v, &i, sizeof v);
  return v;
}
/* The distance of a and b in that order (as unsigned: it may exceed INT64_MAX). */
static uint64_t odist(double a, double b) {
  int64_t x = ord(a), y = ord(b);
  return x < y ? (uint64_t)y - (uint64_t)x : (uint64_t)x - (uint64_t)y;
}

typedef struct probe {
  disc_subj *d;
  double x[DISC_MAX_N];  /* the input that failed; element e varies */
  double limit;          /* seconds a probe may take: longer is a hang */
  double deadline;       /* probing stops here, keeping what it knows */
  bool retry;            /* limit is short of --call-timeout: a hang is probed twice */
  double slowest;        /* the slowest probe that returned so far (s) */
} probe;

/* Does the target crash or hang with element e at v? Near a hang a probe first gets a
 * short limit (8 times the slowest probe that returned, 20 ms at least): most probes of a
 * hang's region hang, and each cost the full limit twice. One cut short is run once more
 * with the full limit, which decides: a machine that stalls a child for a moment must not
 * move the bound. */
static bool fails_at(probe *p, int e, double v) {
  double x[DISC_MAX_N];
  memcpy(x, p->x, sizeof x);
  x[e] = v;
  double t0 = eng_now(), first = p->retry ? fmin(p->limit, fmax(0.02, 8 * p->slowest)) : p->limit;
  int st, c = confirm(p->d, x, first, &st);
  if (c == 2 && p->retry) {
    t0 = eng_now();
    c = confirm(p->d, x, p->limit, &st);
  }
  if (c == 0)
    p->slowest = fmax(p->slowest, eng_now() - t0);
  return c != 0;
}

/* The bound o (an input that returned; c the nearest that failed, a = o +- tol away from
 * the region) as the roundest decimal that keeps the region honest: the multiple of the
 * coarsest power of ten between c and a (nearest o), where one between o and a only
 * excludes more and one between c and o must return itself (a probe each, two at most).
 * So `x > 50` is written rather than `x > 49.99`, and `y < 0` rather than `y < 0.006`. */
static double snap(probe *p, int e, double a, double o, double c) {
  double lo = fmin(a, c), hi = fmax(a, c), top = fmax(fabs(lo), fabs(hi)), tried = NAN;
  int tries = 2;
  if (!(top > 0) || !isfinite(top))
    return o;
  for (int k = (int)floor(log10(top)) + 1; k >= (int)floor(log10(hi - lo)) - 1 && k > -330; k--) {
    char buf[48];
    snprintf(buf, sizeof buf, "%.0fe%d", nearbyint(o / pow(10, k)), k); /* exact decimal */
    double v = strtod(buf, NULL);
    if (!(v > lo && v < hi) && v != a)
      continue;
    if (v >= fmin(a, o) && v <= fmax(a, o))
      return v;
    if (v != tried && tries-- > 0 && eng_now() < p->deadline) { /* between c and o */
      tried = v;
      if (!fails_at(p, e, v))
        return v;
    }
  }
  return o;
}

/* The bound on side dir (-1, +1) along element e of the failing region around p->x: an
 * input that returned (or -inf / inf: the failure reaches the inputs' limit). r: the
 * neighbourhood's step (disc_region_near); what is left unprobed at the deadline keeps
 * it. */
static double edge(probe *p, int e, int dir, double r) {
  const disc_subj *d = p->d;
  double lo, hi;
  disc_call_limits(d, e, &lo, &hi);
  double L = dir > 0 ? hi : lo, b = p->x[e], c = b, o = NAN;
  if (dir > 0 ? b >= L : b <= L)
    return dir * INFINITY;
  uint64_t s0 = odist(b, b + dir * r), span = odist(b, L);
  if (s0 == 0)
    s0 = 1;
  for (int i = 0; isnan(o); i++) { /* gallop */
    if (eng_now() > p->deadline)
      return c + dir * r;
    uint64_t k = i < 32 && (s0 << (2 * i)) >> (2 * i) == s0 ? s0 << (2 * i) : UINT64_MAX;
    double v = k >= span ? L : unord(ord(b) + (dir > 0 ? (int64_t)k : -(int64_t)k));
    if (d->in_int[e])
      v = dir > 0 ? fmin(ceil(v), L) : fmax(floor(v), L);
    if (dir > 0 ? v <= c : v >= c)
      continue; /* an integer's step rounded to the same value */
    if (!fails_at(p, e, v))
      o = v;
    else if ((c = v) == L)
      return dir * INFINITY;
  }
  double tol = fmax(r / 64, fabs(o) * 0x1p-12);
  while (fabs(o - c) > tol && eng_now() < p->deadline) { /* bisect */
    int64_t x = ord(c), y = ord(o), a = x < y ? x : y;
    double m = unord(a + (int64_t)(odist(c, o) >> 1));
    if (d->in_int[e])
      m = nearbyint(m);
    if (m == c || m == o)
      break;
    if (fails_at(p, e, m))
      c = m;
    else
      o = m;
    tol = fmax(r / 64, fabs(o) * 0x1p-12);
  }
  return d->in_int[e] ? o : snap(p, e, o + dir * tol, o, c);
}

/* The region around x, which failed alone (hang: it hung), probed along every element. */
static void probe_region(disc_subj *d, const double *x, bool hang, double call_timeout,
                         disc_region *rg) {
  disc_region_near(d, x, rg);
  /* near a hang a probe slower than an eighth of a call's budget (0.25 s at least) counts
   * as failing: the region grows a little (conservative) rather than costing
   * --call-timeout a probe */
  double limit = hang ? fmin(call_timeout, fmax(0.25, call_timeout / 8)) : call_timeout;
  probe p = {d, {0}, limit, eng_now() + fmax(30.0, 16 * call_timeout), limit < call_timeout, 0};
  memcpy(p.x, x, (size_t)d->n * sizeof *x);
  for (int e = 0; e < d->n; e++) {
    double r = x[e] - rg->lo[e];
    rg->lo[e] = edge(&p, e, -1, r);
    rg->hi[e] = edge(&p, e, +1, r);
  }
}

/* See disc.h. */
void disc_region_find(disc_subj *d, const double *x, bool hang, double call_timeout, disc_region *rg) {
  int status, c = confirm(d, x, call_timeout, &status);
  if (c != 0)
    probe_region(d, x, c == 2, call_timeout, rg);
  else
    disc_region_near(d, x, rg);
  rg->kind = c == 2 || (c == 0 && hang);
  rg->status = c == 1 ? status : 0;
  rg->confirmed = c != 0;
}

/* See disc.h. Regions rg contains are dropped. */
void disc_region_add(disc_subj *d, const disc_region *rg) {
  disc_region *b = (disc_region *)d->bad;
  size_t n = 0;
  for (size_t i = 0; i < d->nbad; i++) {
    bool inside = true;
    for (int e = 0; e < d->n && inside; e++)
      inside = b[i].lo[e] >= rg->lo[e] && b[i].hi[e] <= rg->hi[e] && b[i].confirmed <= rg->confirmed;
    if (!inside)
      b[n++] = b[i];
  }
  disc_region *nb = realloc(b, (n + 1) * sizeof *nb);
  if (!nb) {
    d->nbad = n;
    return;
  }
  nb[n] = *rg;
  d->bad = nb;
  d->nbad = n + 1;
}

/* A worker ended (status) or was killed for a hang: the input it was calling, unless a
 * region found since it started holds it, is confirmed alone and its region probed and
 * excluded. Without an input vector (d->n == 0: a subject of arrays or strings) the task
 * it was calling the target for is given up instead (done, its result zero), so the
 * replacement goes on with the next. true when that was news and no progress (the
 * restart counts against the worker). */
static bool lost(disc_subj *d, disc_shm *shm, bool hang, double call_timeout, bool *done,
                 disc_par_stats *st) {
  double x[DISC_MAX_N];
  for (int i = 0; i < d->n; i++)
    x[i] = shm->x[i];
  if (hang)
    st->hangs++;
  else
    st->crashes++;
  bool busy = shm->busy, news = !busy || !disc_excluded(d, x);
  shm->busy = 0;
  if (busy && d->n == 0) {
    done[shm->task] = true;
    st->abandoned++;
    return false;
  }
  if (!busy || !news)
    return news;
  disc_region rg;
  disc_region_find(d, x, hang, call_timeout, &rg);
  disc_region_add(d, &rg);
  return true;
}

/* See disc.h. */
int disc_par_run(disc_subj *d, int jobs, int ntasks, disc_task_fn fn, void *ud, void *res,
                 size_t rsize, bool *done, double deadline, double call_timeout,
                 disc_par_stats *st) {
  if (jobs < 1)
    jobs = 1;
  if (jobs > PAR_MAX_JOBS)
    jobs = PAR_MAX_JOBS;
  if (jobs > ntasks)
    jobs = ntasks > 0 ? ntasks : 1;
  disc_shm *shm = mmap(NULL, (size_t)jobs * sizeof *shm, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shm == MAP_FAILED)
    return -1;
  memset(shm, 0, (size_t)jobs * sizeof *shm);
  par_worker pw[PAR_MAX_JOBS];
  memset(pw, 0, sizeof pw);
  size_t rec = REC_HDR + rsize;
  int rc = 0;
  for (int w = 0; w < jobs; w++) {
    pw[w].buf = malloc(rec);
    if (!pw[w].buf || !spawn(&pw[w], d, &shm[w], w, jobs, ntasks, fn, ud, rsize, done, deadline))
      rc = -1;
  }
  for (;;) {
    struct pollfd fds[PAR_MAX_JOBS];
    int map[PAR_MAX_JOBS], nf = 0;
    for (int w = 0; w < jobs; w++)
      if (pw[w].pid > 0) {
        fds[nf] = (struct pollfd){pw[w].fd, POLLIN, 0};
        map[nf++] = w;
      }
    if (nf == 0)
      break;
    poll(fds, (nfds_t)nf, 50);
    double now = eng_now();
    for (int k = 0; k < nf; k++) {
      int w = map[k];
      par_worker *p = &pw[w];
      bool eof = false, hang = false;
      if (fds[k].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = read(p->fd, p->buf + p->have, rec - p->have);
        if (n > 0) {
          p->have += (size_t)n;
          if (p->have == rec) {
            int32_t id;
            memcpy(&id, p->buf, sizeof id);
            if (id >= 0 && id < ntasks) {
              memcpy((char *)res + (size_t)id * rsize, p->buf + REC_HDR, rsize);
              done[id] = true;
            }
            p->have = 0;
          }
        } else if (n == 0 || errno != EINTR) {
          eof = true;
        }
      }
      if (!eof) {
        if (shm[w].beat != p->beat) {
          p->beat = shm[w].beat;
          p->beat_t = now;
        } else if (shm[w].busy && now - p->beat_t > call_timeout) {
          hang = true;
        }
        if (deadline > 0 && now > deadline + 2 * call_timeout + 1)
          hang = true; /* past the budget: stop it, no blame */
      }
      if (!eof && !hang)
        continue;
      bool past = deadline > 0 && now > deadline + 2 * call_timeout + 1;
      int status = hang ? eng_child_kill(p->pid) : eng_child_wait(p->pid, 0, NULL, NULL, NULL);
      close(p->fd);
      p->pid = 0;
      bool clean = !hang && WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (clean || past)
        continue;
      /* a restart past a region found meanwhile is progress, not a failure to count;
       * a worker that keeps dying on its own is given up */
      p->restarts += lost(d, &shm[w], hang, call_timeout, done, st);
      if (p->restarts > PAR_MAX_RESTARTS || ++p->lost > 8 * PAR_MAX_RESTARTS) {
        for (int i = w; i < ntasks; i += jobs)
          st->abandoned += !done[i];
        continue;
      }
      st->restarts++;
      if (!spawn(p, d, &shm[w], w, jobs, ntasks, fn, ud, rsize, done, deadline))
        rc = -1;
    }
  }
  for (int w = 0; w < jobs; w++)
    free(pw[w].buf);
  munmap(shm, (size_t)jobs * sizeof *shm);
  return rc;
}
