/* SPDX-License-Identifier: MIT
 * disc_par.c - discovery's forked workers: tasks (PSO runs, candidate checks) spread over
 * `jobs` child processes that return fixed-size result records through pipes. A worker
 * that dies on a signal (the target crashed) or stops making progress (a hang) is killed
 * and replaced; the input it was calling, published in a shared cell before every call,
 * is confirmed in a throwaway child and blacklisted, so the replacement skips it. The
 * coordinating process never calls the target itself.
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
  int restarts;
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
  disc_call(o->d, o->x, y);
  return 0;
}

/* Run x alone in a child: 0 fine, 1 crashed, 2 hung (killed after limit seconds). */
static int confirm(disc_subj *d, const double *x, double limit) {
  par_one o = {d, x};
  pid_t pid = eng_fork(NULL, confirm_main, &o);
  if (pid < 0)
    return 0;
  bool killed;
  int status = eng_child_wait(pid, eng_now() + limit, NULL, NULL, &killed);
  if (killed)
    return 2;
  return WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0) ? 1 : 0;
}

/* Blacklist x (owned copy grows d->bad) and note it in st. */
static void add_bad(disc_subj *d, const double *x, int kind, disc_par_stats *st) {
  double *nb = realloc((void *)d->bad, (d->nbad + 1) * (size_t)d->n * sizeof *nb);
  if (!nb)
    return;
  memcpy(nb + d->nbad * (size_t)d->n, x, (size_t)d->n * sizeof *x);
  d->bad = nb;
  d->nbad++;
  if (st->nbad < 16) {
    memcpy(st->bad + (size_t)st->nbad * DISC_MAX_N, x, (size_t)d->n * sizeof *x);
    st->badkind[st->nbad++] = kind;
  }
}

/* A worker ended (status) or was killed for a hang: record the input, maybe restart. */
static void lost(par_worker *pw, disc_subj *d, disc_shm *shm, bool hang, double call_timeout,
                 disc_par_stats *st) {
  double x[DISC_MAX_N];
  for (int i = 0; i < d->n; i++)
    x[i] = shm->x[i];
  if (hang)
    st->hangs++;
  else
    st->crashes++;
  if (shm->busy) {
    int c = confirm(d, x, call_timeout);
    add_bad(d, x, c == 2 || (c == 0 && hang) ? 1 : 0, st);
  }
  shm->busy = 0;
  pw->restarts++;
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
      lost(p, d, &shm[w], hang, call_timeout, st);
      if (p->restarts > PAR_MAX_RESTARTS) {
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
