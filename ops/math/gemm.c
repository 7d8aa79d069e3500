/* The float32 product driver (packing, tiles, tasks, the GEMV path), the
 * portable microkernels, and the row kernels of double and the integers.
 * The order every kernel keeps is gemm.h's.
 *
 * float32, the Goto scheme: a task takes tiles of y (mc rows x nc columns of
 * one batch item; tiles are cut by the shape alone) and for each stretch of
 * kc steps of k packs A's rows into slivers of mr rows (kc x mr, k-major) and
 * B's columns into slivers of nr (kc x nr), zero-padded at the edges, then
 * runs the microkernel over every mr x nr block: its accumulators are y's
 * elements, one per lane, and k is its inner loop; a later stretch starts
 * from the values the previous one stored (so the sum is still one sequential
 * chain per element). Blocks at the edges run into a tile in the scratch and
 * copy out their part. Gemm's epilogue runs over a tile after its last
 * stretch. With m == 1 (batch-1 inference) packing A would multiply the work
 * by mr: the GEMV path instead keeps a block of y's columns in registers
 * while B's rows stream past once, y[j] = fma(a[k], b[k][j], y[j]) for each
 * k; with B transposed each lane is one of B's rows, its steps transposed
 * into lanes (gemm_x86.c) or gathered. */
#include <math.h>
#include <string.h>

#include "ops/core/kernel.h"
#include "ops/math/gemm.h"

/* Blocking: an A sliver (KC x mr) stays in L1 while the B panel's slivers
 * (KC x nr each, the panel KC x NC in L2) stream past it (the other way
 * round measured a third slower); MC is a multiple of every level's mr (4,
 * 6, 12). */
#define MC 96
#define KC 256
#define NC 512
/* GEMV: the most columns of a task (cut in equal parts on 16 columns) */
#define GEMV_NC 1024
/* Work (multiply-adds) below which a product runs whole on the calling
 * thread (the fuzz build's small MX_TASK_BYTES splits small products too),
 * and the most tasks (each takes a scratch of its own). */
#define TASK_FMAS ((double)MX_TASK_BYTES * 4)
#define MAX_TASKS 8

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

/* ---- the portable microkernels ---- */

#define PMR 4
#define PNR 16
static void tile_portable(int64_t kc, const float *ap, const float *bp, int64_t ldb, float *y, int64_t ldy, int load,
                          const float *bias, const mx_act *act) {
  float acc[PMR][PNR];
  for (int i = 0; i < PMR; i++)
    for (int j = 0; j < PNR; j++) acc[i][j] = load ? y[i * ldy + j] : 0.0f;
  for (int64_t k = 0; k < kc; k++, ap += PMR, bp += ldb)
    for (int i = 0; i < PMR; i++)
      for (int j = 0; j < PNR; j++) acc[i][j] = fmaf(ap[i], bp[j], acc[i][j]);
  for (int i = 0; i < PMR; i++)
    for (int j = 0; j < PNR; j++) {
      float v = bias ? acc[i][j] + bias[i] : acc[i][j];
      y[i * ldy + j] = act ? mx_act_one(act, v) : v;
    }
}

#define PGEMV 16 /* columns at a time */
static void gemv_portable(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y, int64_t n) {
  for (int64_t j0 = 0; j0 < n; j0 += PGEMV) {
    int64_t nj = n - j0 < PGEMV ? n - j0 : PGEMV;
    float acc[PGEMV] = {0};
    for (int64_t s = 0; s < k; s++)
      for (int64_t j = 0; j < nj; j++) acc[j] = fmaf(a[s * inca], b[s * ldb + j0 + j], acc[j]);
    memcpy(y + j0, acc, (size_t)nj * sizeof(float));
  }
}

/* rows at a time: that many chains in flight */
#define PDOTS 8
static void dots_portable(int64_t k, const float *a, int64_t inca, const float *b, int64_t ldb, float *y, int64_t rows) {
  for (int64_t r0 = 0; r0 < rows; r0 += PDOTS) {
    int64_t nr = rows - r0 < PDOTS ? rows - r0 : PDOTS;
    float acc[PDOTS] = {0};
    const float *br = b + r0 * ldb;
    for (int64_t s = 0; s < k; s++)
      for (int64_t r = 0; r < nr; r++) acc[r] = fmaf(a[s * inca], br[r * ldb + s], acc[r]);
    for (int64_t r = 0; r < nr; r++) y[r0 + r] = acc[r];
  }
}

const mx_sgemm_kernels mx_sgemm_portable = {PMR, PNR, 0, tile_portable, gemv_portable, dots_portable, NULL, NULL, NULL, NULL};

int mx_gemm_isa_available(void) {
  return mx_cpu_avx512() ? MX_GEMM_AVX512 : mx_cpu_fma() ? MX_GEMM_FMA : MX_GEMM_PORTABLE;
}

static const mx_sgemm_kernels *kernels_of(int isa) {
#if MX_X86_AVX2
  if (isa == MX_GEMM_AVX512) return &mx_sgemm_avx512;
  if (isa == MX_GEMM_FMA) return &mx_sgemm_fma;
#else
  (void)isa;
#endif
  return &mx_sgemm_portable;
}

/* ---- planning ---- */

/* B made by a packer costs more than a copy: tiles of all of M (up to
 * MC_PANEL rows) make each panel once. */
#define MC_PANEL 384
/* Its stretches of k: the longest (a tile's B sliver made once per stretch,
 * y's blocks loaded and stored again at each: ResNet-18's 3x3 layer at 56 x
 * 56, K = 576, went from 2.23 to 2.18 ms in one stretch, 1 thread) */
#define KC_PANEL 576
/* B from memory: tiles enough for this many tasks where N alone leaves fewer */
#define MIN_TILES 4
static void plan_init(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa, int64_t mc_most);
static size_t task_bytes(const mx_sgemm_plan *p);

void mx_sgemm_plan_init(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa) { plan_init(p, d, isa, MC); }

void mx_sgemm_plan_init_packed_b(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa) { plan_init(p, d, isa, MC_PANEL); }

void mx_sgemm_plan_init_taps(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa, int window) {
  plan_init(p, d, isa, MC_PANEL);
  if (!kernels_of(p->isa)->tile_taps || p->gemv || window < 1 || window > MX_SGEMM_TAPS_MAX_WINDOW || p->d.k % window)
    return;
  p->window = window;
  /* stretches of whole channels (kc rounded up to a multiple of window: its room for A and B grows by less than a
   * channel's taps) */
  p->kc = (p->kc + window - 1) / window * window;
  p->task_scratch = task_bytes(p);
}

/* Floats of a task's room for B: its panel, or one sliver (made by a packer,
 * or B's partial sliver where its full ones are read in place);
 * for A: a block of at most MC rows (B from memory), or the tile's rows. */
static size_t b_room(const mx_sgemm_plan *p) { return (size_t)(p->kc * (p->panel_b || p->b_in_place ? p->nr : p->nc)); }
static size_t a_room(const mx_sgemm_plan *p) {
  return p->a_packed ? 0 : (size_t)(p->kc * (p->panel_b || p->mc < MC ? p->mc : MC)); /* (A packed at prepare: none) */
}

/* A task's scratch: the packed A block, the packed B panel (a packer's plan:
 * one sliver), an edge block. */
static size_t task_bytes(const mx_sgemm_plan *p) {
  return round64(a_room(p) * sizeof(float)) + round64(b_room(p) * sizeof(float)) +
         round64((size_t)(p->mr * p->nr) * sizeof(float));
}

/* Tiles cut so that threads share the work evenly, by the shape alone: for
 * a plan whose B a packer makes (Conv), and for one of at most MC rows
 * (pointwise convolutions, small products). Rows: tiles of at most mc_most,
 * of equal size in whole slivers of mr (384 + 128 rows had given one thread
 * three quarters of ResNet-18's 512-channel layers). Columns: whole slivers
 * of nr, each tile the same count of them, the partial sliver at N's end a
 * tile of its own where the full ones divide evenly (its kernel costs
 * less), but in a packer's plan the last tile's (panel_b: that tile runs
 * to N's end; each tile of columns reads all its rows' A again); at least
 * ceil(N / NC) tiles, an even number, and at least two
 * where the work makes tasks (one tile of 196 positions had run ResNet-18's
 * 256-channel layers on one thread; 416 + 368 had split its 784 unevenly).
 * A tile's width costs a packer's plan nothing (its slivers are made one at
 * a time), and B from memory is packed once per tile either way. With one
 * sliver of columns, two tiles of rows. */
static void even_tiles(mx_sgemm_plan *p, const mx_gemm_dims *d, int64_t mc_most) {
  int64_t mr = p->mr, nr = p->nr;
  double fmas = (double)d->m * (double)d->n * (double)(d->k ? d->k : 1);
  int split = fmas >= 2 * TASK_FMAS;
  int64_t tm = (d->m + mc_most - 1) / mc_most, rs = (d->m + mr - 1) / mr; /* row tiles, row slivers */
  int64_t full = d->n / nr, t = (d->n + NC - 1) / NC;                    /* full column slivers, column tiles */
  if (mc_most == MC_PANEL && full < 2) {
    /* a packer's plane of one sliver or less: one tile of columns (each
     * tile of columns reads all of its rows' A, weights that a network's
     * deep layers stream from memory: ResNet-18's 7 x 7 layers had read
     * their 9.4 MB twice, as tiles of 32 and 17 columns); the rows in two
     * tiles or more where the work makes tasks */
    p->nc = nr;
    if (split && tm < 2 && rs >= 2) tm = 2;
    if (split && rs >= 4 && d->batch == 1 && d->k < ((int64_t)1 << 40)) {
      /* and B made once for all the tiles, before them (b_once): tiles of
       * rows then cost no second packing, and four of them let two threads
       * share the work where one core runs slower than the other (ResNet-18's
       * 512-channel 7 x 7 layers, tiles of 264 and 248 rows, each packing
       * its B: 0.93 ms at 2 threads against 1.40 at 1; four tiles each
       * packing theirs, 0.79 and 1.52) */
      if (tm < 4) tm = 4;
      p->b_once = 1;
    }
    p->mc = (rs + tm - 1) / tm * mr;
    return;
  }
  if (split && t < 2) t = 2;
  if (t > 1) t += t % 2;
  if (t > 1 && full >= 2) {
    if (t > full) t = full - full % 2;
    int64_t q = (full + t - 1) / t;
    for (int64_t u = t; u <= 2 * t && u <= full; u += 2) /* a count that divides the full slivers evenly */
      if (full % u == 0) {
        q = full / u;
        break;
      }
    p->nc = q * nr; /* (a packer's partial sliver in the last tile: a tile of its own read all of A again for a
                     * few columns; ResNet-18's 14 x 14 layers had been tiles of 96, 96 and 4 columns, now 96 and 100) */
  } else if (split && full == 1 && d->n > nr) {
    p->nc = nr; /* one full sliver and a partial one: a tile each */
  } else if (split && full == 0 && tm < 2 && rs >= 2) {
    tm = 2; /* one sliver of columns: the rows in two */
  }
  if (tm < 1) tm = 1;
  p->mc = (rs + tm - 1) / tm * mr;
  if (p->mc < mr) p->mc = mr;
}

/* B read where it lies. A tile of at most MC rows (one block of A: a
 * pointwise convolution's output channels, a small product) runs its few
 * slivers of A over B's panel, and packing that panel had cost as much as
 * a third of the product: SqueezeNet 1.1's 128 -> 16 channel squeeze at 55
 * x 55 spent 48 of its 158 us copying its input's rows, 128 rows 12 KB
 * apart, into slivers, 1 thread. Such a tile's kernels read B's full
 * slivers from B itself, step k at row k (the same values, so the same
 * products); only the partial sliver at N's end is packed (zeros past N).
 * Not where B's rows start in few of L1's 64 sets of lines (a row pitch of
 * a multiple of 4 KiB puts every row in one set): a sliver's kc rows must
 * fit the sets they fall in, L1_WAYS lines each (Zen 4 and 5: 48 KiB of 12
 * ways; a core of 8 ways keeps fewer, and then reads the rest from L2). */
#define L1_WAYS 12
static int64_t row_sets(int64_t rsb) {
  int64_t bytes = rsb * (int64_t)sizeof(float), g = 64, lines;
  if (bytes % 64) return 64; /* the rows' starts move through the lines */
  lines = bytes / 64 % 64;
  while (lines) { /* g = gcd(lines, 64) */
    int64_t t = g % lines;
    g = lines;
    lines = t;
  }
  return 64 / g;
}

static void plan_init(mx_sgemm_plan *p, const mx_gemm_dims *d, int isa, int64_t mc_most) {
  memset(p, 0, sizeof *p);
  p->d = *d;
  /* A dim not known yet (-1: a plan at load, before the inputs are bound,
   * which plans again) plans as empty. */
  if (p->d.m < 0) p->d.m = 0;
  if (p->d.n < 0) p->d.n = 0;
  if (p->d.k < 0) p->d.k = 0;
  d = &p->d;
#if MX_X86_AVX2
  p->isa = isa < MX_GEMM_PORTABLE ? MX_GEMM_PORTABLE : isa > MX_GEMM_AVX512 ? MX_GEMM_AVX512 : isa;
#else
  (void)isa;
  p->isa = MX_GEMM_PORTABLE;
#endif
  const mx_sgemm_kernels *k = kernels_of(p->isa);
  p->mr = k->mr;
  p->nr = k->nr;
  p->gemv = d->m == 1 && mc_most != MC_PANEL; /* (a packer's B has no rows to stream) */
  if (p->gemv) {
    /* stretches of y of at most GEMV_NC, in equal parts on 16 columns */
    int64_t parts = (d->n + GEMV_NC - 1) / GEMV_NC;
    if (d->n >= 512 && parts < 2) parts = 2;
    p->nc = parts ? ((d->n + parts - 1) / parts + 15) / 16 * 16 : 16;
    p->mc = 1;
    p->kc = d->k;
    p->tiles_m = 1;
    p->tiles_n = (d->n + p->nc - 1) / p->nc;
    /* the AVX2 dots kernel gathers with 32-bit offsets (the AVX-512 one
     * needs no such bound; one rule keeps the levels' choice simple) */
    p->dots_wide = d->csb < (INT64_C(1) << 31) / 16;
  } else {
    /* (an empty M or N still gets one block: the tile counts below divide by them) */
    p->mc = d->m < mc_most ? (d->m ? (d->m + p->mr - 1) / p->mr * p->mr : p->mr) : mc_most;
    p->nc = d->n < NC ? (d->n ? (d->n + p->nr - 1) / p->nr * p->nr : p->nr) : NC;
    if (mc_most == MC && d->m > MC) {
      /* B from memory: tiles of many rows, each packing its B panel once
       * for all of them (tiles of MC rows packed the same panel M / MC
       * times: 11 copies of B at M = 1024, about a tenth of the time), in
       * blocks of MC; MIN_TILES of them or more where N leaves fewer,
       * rows shared equally (threads balance) */
      int64_t tn = (d->n + p->nc - 1) / p->nc, rs = (d->m + p->mr - 1) / p->mr;
      if (tn < 1) tn = 1; /* an empty N (a ConvTranspose with no output columns) */
      int64_t tm = (MIN_TILES + tn - 1) / tn;
      if (rs % tm) /* tiles of whole slivers, an even count of them that divides the slivers where one does (MobileNet
                    * v2's 160 rows had been tiles of 48, 48, 48 and 16: two threads 1.73x) */
        for (int64_t u = tm - tm % 2; u >= 2; u -= 2)
          if (rs % u == 0) {
            tm = u;
            break;
          }
      p->mc = (rs + tm - 1) / tm * p->mr;
    }
    p->panel_b = mc_most == MC_PANEL;
    if (mc_most == MC_PANEL || d->m <= MC) even_tiles(p, d, mc_most);
    p->kc = d->k < KC ? (d->k ? d->k : 1) : KC;
    if (mc_most == MC_PANEL && d->k > KC) {
      /* a packer's B: longer stretches, of equal length (K = 576 had run as
       * 256 + 256 + 64), up to KC_PANEL steps and no more A than a tile of
       * MC_PANEL rows x KC holds (the task's room for A is kc x mc) */
      int64_t most = KC * MC_PANEL / p->mc, stretches;
      if (most > KC_PANEL) most = KC_PANEL;
      if (most < KC) most = KC;
      stretches = (d->k + most - 1) / most;
      p->kc = (d->k + stretches - 1) / stretches;
    }
    p->b_in_place = k->b_in_place && !p->panel_b && d->csb == 1 && p->mc <= MC && row_sets(d->rsb) * L1_WAYS >= p->kc;
    p->tiles_m = (d->m + p->mc - 1) / p->mc;
    p->tiles_n = (d->n + p->nc - 1) / p->nc;
    if (p->panel_b) { /* tiles of nc / nr full slivers, the last to N's end */
      int64_t full = d->n / p->nr, q = p->nc / p->nr;
      p->tiles_n = full > q ? (full + q - 1) / q : 1;
    }
    p->task_scratch = task_bytes(p);
  }
  p->tiles = p->tiles_m * p->tiles_n;
  int64_t all = d->batch * p->tiles;
  double fmas = (double)d->batch * (double)d->m * (double)d->n * (double)(d->k ? d->k : 1);
  p->tasks = fmas < TASK_FMAS || all < 2 ? 1 : all < MAX_TASKS ? all : MAX_TASKS;
}

/* A plan whose B is made once (b_once): its slivers one after the other,
 * each all K steps of nr columns (the tiles' layout, so that a tile reads a
 * stretch of a sliver where it would have made it), after the tasks' scratch. */
static int64_t once_slivers(const mx_sgemm_plan *p) { return (p->d.n + p->nr - 1) / p->nr; }
static size_t once_bytes(const mx_sgemm_plan *p) {
  return p->b_once && !p->window ? round64((size_t)(once_slivers(p) * p->d.k * p->nr) * sizeof(float)) : 0;
}

size_t mx_sgemm_scratch(const mx_sgemm_plan *p) { return p->task_scratch * (size_t)p->tasks + once_bytes(p); }

void mx_sgemm_use_packed_a(mx_sgemm_plan *p, const float *packed) {
  p->packed_a = packed;
  p->a_packed = 1;
  if (!p->gemv) p->task_scratch = task_bytes(p);
}

/* ---- packing ---- */

/* rows [i0, i0+mc) x steps [k0, k0+kc) of A into slivers of mr rows, k-major */
static void pack_a(const mx_sgemm_plan *p, const float *a, int64_t i0, int64_t mc, int64_t k0, int64_t kc, float *ap) {
  const mx_gemm_dims *d = &p->d;
  int mr = p->mr;
  const mx_sgemm_kernels *kern = kernels_of(p->isa);
  for (int64_t s = 0; s < mc; s += mr, ap += kc * mr) {
    int64_t rows = mc - s < mr ? mc - s : mr;
    const float *base = a + (i0 + s) * d->rsa + k0 * d->csa;
    if (d->csa == 1 && kern->pack_a) {
      kern->pack_a(base, d->rsa, kc, rows, ap);
      continue;
    }
    for (int64_t k = 0; k < kc; k++) {
      float *dst = ap + k * mr;
      int64_t i = 0;
      for (; i < rows; i++) dst[i] = base[i * d->rsa + k * d->csa];
      for (; i < mr; i++) dst[i] = 0.0f;
    }
  }
}

/* steps [k0, k0+kc) x columns [j0, j0+nc) of B into slivers of nr columns */
static void pack_b(const mx_sgemm_plan *p, const float *b, int64_t k0, int64_t kc, int64_t j0, int64_t nc, float *bp) {
  const mx_gemm_dims *d = &p->d;
  int nr = p->nr;
  for (int64_t s = 0; s < nc; s += nr, bp += kc * nr) {
    int64_t cols = nc - s < nr ? nc - s : nr;
    const float *base = b + k0 * d->rsb + (j0 + s) * d->csb;
    if (d->csb != 1) { /* B transposed: each column's steps lie together; read them so */
      const mx_sgemm_kernels *kern = kernels_of(p->isa);
      if (d->rsb == 1 && kern->pack_bt) {
        kern->pack_bt(base, d->csb, kc, cols, bp);
        continue;
      }
      for (int64_t j = 0; j < nr; j++) {
        const float *src = base + j * d->csb;
        for (int64_t k = 0; k < kc; k++) bp[k * nr + j] = j < cols ? src[k * d->rsb] : 0.0f;
      }
      continue;
    }
    if (cols == nr && (nr == 16 || nr == 32)) { /* copies of a constant size, inlined: a call per row of 64 or
                                                 * 128 bytes took about 15% of ResNet-18's run */
      for (int64_t k = 0; k < kc; k++)
        if (nr == 32) memcpy(bp + k * 32, base + k * d->rsb, 32 * sizeof(float));
        else memcpy(bp + k * 16, base + k * d->rsb, 16 * sizeof(float));
      continue;
    }
    for (int64_t k = 0; k < kc; k++) {
      float *dst = bp + k * nr;
      memcpy(dst, base + k * d->rsb, (size_t)cols * sizeof(float));
      for (int64_t j = cols; j < nr; j++) dst[j] = 0.0f;
    }
  }
}

/* ---- A packed once ---- */

/* Rows of tile tm as packed: mr-row slivers, the last padded with zeros. */
static int64_t packed_rows(const mx_sgemm_plan *p, int64_t tm) {
  int64_t i0 = tm * p->mc, mc = p->d.m - i0 < p->mc ? p->d.m - i0 : p->mc;
  return (mc + p->mr - 1) / p->mr * p->mr;
}

/* Floats of one batch item's packed A: its tiles of rows one after the other
 * (every tile but the last has mc rows, a multiple of mr), each tile's blocks
 * of steps one after the other (block k0 at k0 x the tile's rows). */
static int64_t packed_item(const mx_sgemm_plan *p) {
  return p->tiles_m ? ((p->tiles_m - 1) * p->mc + packed_rows(p, p->tiles_m - 1)) * p->d.k : 0;
}

size_t mx_sgemm_packed_a_floats(const mx_sgemm_plan *p) {
  if (p->gemv || p->d.k == 0 || p->d.m == 0) return 0;
  return (size_t)(p->d.batch * packed_item(p));
}

void mx_sgemm_pack_a(const mx_sgemm_plan *p, const float *a, float *packed) {
  const mx_gemm_dims *d = &p->d;
  int64_t item = packed_item(p);
  for (int64_t bi = 0; bi < d->batch; bi++) {
    int64_t oa, ob;
    mx_gemm_offsets(d, bi, &oa, &ob);
    for (int64_t tm = 0; tm < p->tiles_m; tm++) {
      int64_t i0 = tm * p->mc, mc = d->m - i0 < p->mc ? d->m - i0 : p->mc, rows = packed_rows(p, tm);
      float *tile = packed + bi * item + tm * p->mc * d->k;
      for (int64_t k0 = 0; k0 < d->k; k0 += p->kc)
        pack_a(p, a + oa, i0, mc, k0, d->k - k0 < p->kc ? d->k - k0 : p->kc, tile + k0 * rows);
    }
  }
}

/* ---- Gemm's epilogue ---- */

/* y = alpha * acc, then y = y + beta * c, over rows [i0, i1) x columns [j0, j1). */
static void epilogue(const mx_gemm_dims *d, const float *c, float *y, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  float alpha = (float)d->alpha, beta = (float)d->beta;
  if (alpha == 1.0f && !d->has_c) return; /* 1 * acc is acc (acc is never a signalling NaN) */
  for (int64_t i = i0; i < i1; i++) {
    float *row = y + i * d->n;
    if (!d->has_c) {
      for (int64_t j = j0; j < j1; j++) row[j] = alpha * row[j];
      continue;
    }
    const float *crow = c + i * d->rsc;
    if (d->csc == 1) {
      for (int64_t j = j0; j < j1; j++) {
        float t = alpha * row[j], u = beta * crow[j];
        row[j] = t + u;
      }
    } else {
      for (int64_t j = j0; j < j1; j++) {
        float t = alpha * row[j], u = beta * crow[j * d->csc];
        row[j] = t + u;
      }
    }
  }
}

/* ---- the tiles ---- */

typedef struct {
  const mx_sgemm_plan *p;
  const float *a, *b, *c;
  float *y;
  unsigned char *scratch;
  mx_sgemm_pack_b_fn pack_b; /* or NULL: B read from b */
  mx_sgemm_taps_fn taps;     /* or NULL: B's slivers read through their taps where it builds them (p->window) */
  const void *pack_ctx;
  const float *bias; /* or NULL: y's rows' bias, added last (batch item bi's rows at bias + bi m) */
  const mx_act *act; /* or NULL: the activation fused into the last store (act.h) */
  float *once;       /* or NULL: B made once by pack_b (once_bytes), which the tiles read */
} sgemm_run;

/* y = y + b[i] over rows [0, rows) x columns [0, cols) (row stride ldy): the
 * bias's one rounding (GEMV, an empty sum, an edge block through scratch;
 * the kernels add it to the blocks they store) */
static void add_bias(float *y, int64_t ldy, int64_t rows, int64_t cols, const float *b) {
  for (int64_t i = 0; i < rows; i++) {
    float bi = b[i], *yr = y + i * ldy;
    for (int64_t j = 0; j < cols; j++) yr[j] = yr[j] + bi;
  }
}

static void gemm_tile(const sgemm_run *r, const mx_sgemm_kernels *kern, int64_t bi, int64_t tm, int64_t tn,
                      unsigned char *scratch) {
  const mx_sgemm_plan *p = r->p;
  const mx_gemm_dims *d = &p->d;
  float *y = r->y + bi * d->m * d->n;
  int64_t i0 = tm * p->mc, j0 = tn * p->nc;
  int64_t mc = d->m - i0 < p->mc ? d->m - i0 : p->mc, nc = d->n - j0 < p->nc ? d->n - j0 : p->nc;
  if (p->panel_b && tn == p->tiles_n - 1) nc = d->n - j0; /* (a packer's partial sliver in the last tile) */
  if (d->k == 0) { /* an empty sum: zeros (A and B have no bytes) */
    for (int64_t i = i0; i < i0 + mc; i++) memset(y + i * d->n + j0, 0, (size_t)nc * sizeof(float));
    if (r->bias) add_bias(y + i0 * d->n + j0, d->n, mc, nc, r->bias + bi * d->m + i0);
    if (d->gemm) epilogue(d, r->c, y, i0, i0 + mc, j0, j0 + nc);
    for (int64_t i = i0; r->act && i < i0 + mc; i++) mx_act_run(r->act, y + i * d->n + j0, nc);
    return;
  }
  int64_t oa, ob;
  mx_gemm_offsets(d, bi, &oa, &ob);
  const float *a = r->a + oa, *b = r->b ? r->b + ob : NULL; /* (no B with a packer) */
  float *ap = (float *)scratch;
  float *bp = (float *)(scratch + round64(a_room(p) * sizeof(float)));
  float *edge = (float *)((unsigned char *)bp + round64(b_room(p) * sizeof(float)));
  int mr = p->mr, nr = p->nr;
  /* B from memory: its panel packed once per stretch, then the tile's rows
   * in blocks of MC (A's block packed now, or at prepare), A's slivers
   * outer (each in L1 while B's slivers stream from L2); B from a packer:
   * all the tile's rows one block, each B sliver made just before its
   * blocks run, so that it is still in L1 (a whole panel made first had
   * left L2 by the time it was made again: its stores missed) */
  int64_t mblk = r->pack_b ? mc : MC;
  for (int64_t k0 = 0; k0 < d->k; k0 += p->kc) {
    int64_t kc = d->k - k0 < p->kc ? d->k - k0 : p->kc;
    int load = k0 > 0;
    const float *bias = r->bias && k0 + kc == d->k ? r->bias + bi * d->m + i0 : NULL; /* (after the last stretch) */
    const mx_act *act = k0 + kc == d->k ? r->act : NULL;
    int64_t whole = p->b_in_place ? nc / nr * nr : 0; /* columns read where they lie (else all packed) */
    if (!r->pack_b && whole < nc) pack_b(p, b, k0, kc, j0 + whole, nc - whole, bp);
    for (int64_t ib = 0; ib < mc; ib += mblk) {
      int64_t mb = mc - ib < mblk ? mc - ib : mblk;
      const float *ablk = ap; /* A's block: packed at prepare, or now */
      if (p->packed_a) ablk = p->packed_a + bi * packed_item(p) + tm * p->mc * d->k + k0 * packed_rows(p, tm) + ib * kc;
      else pack_a(p, a, i0 + ib, mb, k0, kc, ap);
      int64_t mouter = r->pack_b ? 1 : mb, msteps = r->pack_b ? mb : mr;
      int64_t nouter = r->pack_b ? nc : nr, nsteps = r->pack_b ? nr : nc;
      for (int64_t io = 0; io < mouter; io += mr)
      for (int64_t jo = 0; jo < nouter; jo += nr) {
#if MX_X86_AVX2
        mx_sgemm_taps tp; /* the sliver read through its taps, or packed into bp (no other build has a taps kernel) */
        int taps = r->taps && p->window && r->taps(r->pack_ctx, bi, j0 + jo, nc - jo < nr ? nc - jo : nr, &tp);
#else
        const int taps = 0;
#endif
        const float *sliver = bp; /* B's sliver for these columns and steps: made now, or once before the tiles */
        if (r->once) sliver = r->once + ((j0 + jo) / nr * d->k + k0) * nr;
        else if (r->pack_b && !taps) r->pack_b(r->pack_ctx, bi, k0, kc, j0 + jo, nc - jo < nr ? nc - jo : nr, nr, bp); /* (one sliver's room, reused) */
        for (int64_t is = io; is < io + msteps && is < mb; is += mr)
        for (int64_t js = jo; js < jo + nsteps && js < nc; js += nr) {
          int64_t rows = mb - is < mr ? mb - is : mr;
          const float *as = ablk + (is / mr) * kc * mr;
          int64_t cols = nc - js < nr ? nc - js : nr;
          const float *bs = r->pack_b ? sliver : bp + ((js - whole) / nr) * kc * nr;
          int64_t ldb = nr;
          if (js < whole) {
            bs = b + k0 * d->rsb + j0 + js;
            ldb = d->rsb;
          }
          float *yb = y + (i0 + ib + is) * d->n + j0 + js;
          const float *bs_i = bias ? bias + ib + is : NULL; /* (the kernels add it as they store) */
#if MX_X86_AVX2
          if (taps && is == io) { /* the first block, which packs the sliver for the others as it reads it */
            kern->tile_taps(kc, as, &tp, p->window, k0 / p->window, yb, d->n, load, (int)rows, (int)cols, bs_i, act,
                            mb > mr ? bp : NULL);
          } else
#endif
          if (rows == mr && cols == nr) {
            kern->tile(kc, as, bs, ldb, yb, d->n, load, bs_i, act);
          } else if (!kern->tile_part || !kern->tile_part(kc, as, bs, ldb, yb, d->n, load, (int)rows, (int)cols, bs_i, act)) {
            for (int64_t i = 0; i < mr; i++) /* the edge block: through its tile in the scratch */
              for (int64_t j = 0; j < nr; j++) edge[i * nr + j] = load && i < rows && j < cols ? yb[i * d->n + j] : 0.0f;
            kern->tile(kc, as, bs, ldb, edge, nr, 1, NULL, NULL);
            for (int64_t i = 0; i < rows; i++) memcpy(yb + i * d->n, edge + i * nr, (size_t)cols * sizeof(float));
            if (bs_i) add_bias(yb, d->n, rows, cols, bs_i);
            for (int64_t i = 0; act && i < rows; i++) mx_act_run(act, yb + i * d->n, cols);
          }
        }
      }
    }
  }
  if (d->gemm) epilogue(d, r->c, y, i0, i0 + mc, j0, j0 + nc);
}

/* y's columns [j0, j0+nc) of batch item bi, m == 1 */
static void gemv_tile(const sgemm_run *r, const mx_sgemm_kernels *kern, int64_t bi, int64_t tn) {
  const mx_sgemm_plan *p = r->p;
  const mx_gemm_dims *d = &p->d;
  int64_t j0 = tn * p->nc, nc = d->n - j0 < p->nc ? d->n - j0 : p->nc;
  float *y = r->y + bi * d->n;
  if (d->k == 0) {
    memset(y + j0, 0, (size_t)nc * sizeof(float));
  } else {
    int64_t oa, ob;
    mx_gemm_offsets(d, bi, &oa, &ob);
    const float *a = r->a + oa, *b = r->b + ob + j0 * d->csb;
    if (d->csb != 1) /* B transposed: y[j] is row j of B times a */
      (p->dots_wide ? kern->dots : mx_sgemm_portable.dots)(d->k, a, d->csa, b, d->csb, y + j0, nc);
    else
      kern->gemv(d->k, a, d->csa, b, d->rsb, y + j0, nc);
  }
  if (r->bias) add_bias(y + j0, d->n, 1, nc, r->bias + bi);
  if (d->gemm) epilogue(d, r->c, y, 0, 1, j0, j0 + nc);
}

static void sgemm_task(void *ctx, size_t t) {
  const sgemm_run *r = ctx;
  const mx_sgemm_plan *p = r->p;
  const mx_sgemm_kernels *kern = kernels_of(p->isa);
  unsigned char *scratch = p->task_scratch ? r->scratch + (size_t)t * p->task_scratch : NULL; /* GEMV has none */
  /* task t: tiles [t * all / tasks, (t + 1) * all / tasks), contiguous, so
   * that the pool's halves of the tasks hold halves of the tiles (dealt t,
   * t + tasks, ..., 14 tiles in 8 tasks had been tasks of 2, 2, 2, 2, 2, 2, 1
   * and 1: one thread ran 8 of ResNet-18's 56 x 56 tiles, the other 6) */
  int64_t all = p->d.batch * p->tiles, w0 = (int64_t)t * all / p->tasks, w1 = ((int64_t)t + 1) * all / p->tasks;
  for (int64_t w = w0; w < w1; w++) {
    int64_t bi = w / p->tiles, tile = w % p->tiles;
    if (p->gemv) gemv_tile(r, kern, bi, tile);
    else gemm_tile(r, kern, bi, tile / p->tiles_n, tile % p->tiles_n, scratch);
  }
}

/* Task t of B made once: sliver t / stretches, its stretch t % stretches (of kc steps). */
static int64_t once_stretches(const mx_sgemm_plan *p) { return (p->d.k + p->kc - 1) / p->kc; }
static void once_task(void *ctx, size_t t) {
  const sgemm_run *r = ctx;
  const mx_sgemm_plan *p = r->p;
  int64_t st = once_stretches(p), s = (int64_t)t / st, k0 = (int64_t)t % st * p->kc, j0 = s * p->nr;
  int64_t kc = p->d.k - k0 < p->kc ? p->d.k - k0 : p->kc, cols = p->d.n - j0 < p->nr ? p->d.n - j0 : p->nr;
  r->pack_b(r->pack_ctx, 0, k0, kc, j0, cols, p->nr, r->once + (s * p->d.k + k0) * p->nr);
}

static void run_tasks(const mx_exec *x, sgemm_run *r) {
  if (once_bytes(r->p) && r->pack_b && r->p->d.k > 0 && r->p->d.batch == 1) {
    /* B once, before the tiles (the tasks' scratch first, then its room) */
    size_t n = (size_t)(once_slivers(r->p) * once_stretches(r->p));
    r->once = (float *)(void *)(r->scratch + r->p->task_scratch * (size_t)r->p->tasks);
    if (!x || !x->parallel || n < 2)
      for (size_t t = 0; t < n; t++) once_task(r, t);
    else
      mx_parallel_for(x, once_task, r, n);
  }
  if (!x || !x->parallel || r->p->tasks < 2) {
    for (int64_t t = 0; t < r->p->tasks; t++) sgemm_task(r, (size_t)t);
    return;
  }
  mx_parallel_for(x, sgemm_task, r, (size_t)r->p->tasks);
}

void mx_sgemm_run(const mx_sgemm_plan *p, const mx_exec *x, const float *a, const float *b, const float *c, float *y,
                  void *scratch) {
  sgemm_run r = {p, a, b, c, y, scratch, NULL, NULL, NULL, NULL, NULL, NULL};
  run_tasks(x, &r);
}

void mx_sgemm_run_bias(const mx_sgemm_plan *p, const mx_exec *x, const float *a, const float *b, const float *bias,
                       const mx_act *act, float *y, void *scratch) {
  sgemm_run r = {p, a, b, NULL, y, scratch, NULL, NULL, NULL, bias, mx_act_or_null(act), NULL};
  run_tasks(x, &r);
}

void mx_sgemm_run_packed_b(const mx_sgemm_plan *p, const mx_exec *x, const float *a, mx_sgemm_pack_b_fn packer,
                           const void *ctx, const float *bias, const mx_act *act, float *y, void *scratch) {
  sgemm_run r = {p, a, NULL, NULL, y, scratch, packer, NULL, ctx, bias, mx_act_or_null(act), NULL};
  run_tasks(x, &r);
}

void mx_sgemm_run_taps(const mx_sgemm_plan *p, const mx_exec *x, const float *a, mx_sgemm_taps_fn taps,
                       mx_sgemm_pack_b_fn packer, const void *ctx, const float *bias, const mx_act *act, float *y,
                       void *scratch) {
  sgemm_run r = {p, a, NULL, NULL, y, scratch, packer, taps, ctx, bias, mx_act_or_null(act), NULL};
  run_tasks(x, &r);
}

/* ---- double and the integers ---- */

/* Row i of batch item bi: y's row zeroed, then for each k the row of B
 * multiplied by a[i][k] and added (each element's chain sequential in k),
 * then Gemm's epilogue. STEP(acc, a, b) is one step of the chain. */
#define FMA_STEP(acc, x, w) ((acc) = MX_FMA64((x), (w), (acc)))
#define FMA_STEP_X86(acc, x, w) ((acc) = __builtin_fma((x), (w), (acc))) /* inline in an FMA function */
#define WRAP_STEP(acc, x, w) ((acc) = (acc) + (x) * (w))
#define DEFINE_ROWS(name, T, STEP, ALPHA, BETA, ATTR)                                                     \
  ATTR static void name(const mx_gemm_dims *d, const void *a_, const void *b_, const void *c_, void *y_, \
                        int64_t row0, int64_t row1) {                                                     \
    const T *a = a_, *b = b_, *c = c_;                                                                    \
    T *y = y_;                                                                                            \
    if (d->n == 0) return; /* no output row has an element; y may be NULL */                              \
    for (int64_t row = row0; row < row1; row++) {                                                         \
      int64_t bi = row / d->m, i = row % d->m, oa, ob;                                                    \
      mx_gemm_offsets(d, bi, &oa, &ob);                                                                   \
      T *yr = y + row * d->n;                                                                             \
      for (int64_t j = 0; j < d->n; j++) yr[j] = 0;                                                       \
      for (int64_t k = 0; k < d->k; k++) {                                                                \
        T x = a[oa + i * d->rsa + k * d->csa];                                                            \
        const T *br = b + ob + k * d->rsb;                                                                \
        for (int64_t j = 0; j < d->n; j++) STEP(yr[j], x, br[j * d->csb]);                                \
      }                                                                                                   \
      if (!d->gemm) continue;                                                                             \
      for (int64_t j = 0; j < d->n; j++) {                                                                \
        T t = (T)(ALPHA) * yr[j];                                                                         \
        if (d->has_c) {                                                                                   \
          T u = (T)(BETA) * c[i * d->rsc + j * d->csc];                                                   \
          t = t + u;                                                                                      \
        }                                                                                                 \
        yr[j] = t;                                                                                        \
      }                                                                                                   \
    }                                                                                                     \
  }
DEFINE_ROWS(rows_f64, double, FMA_STEP, d->alpha, d->beta, )
#if MX_X86_AVX2
DEFINE_ROWS(rows_f64_fma, double, FMA_STEP_X86, d->alpha, d->beta, MX_FMA_TARGET)
#endif
DEFINE_ROWS(rows_u32, uint32_t, WRAP_STEP, (uint64_t)d->ialpha, (uint64_t)d->ibeta, )
DEFINE_ROWS(rows_u64, uint64_t, WRAP_STEP, (uint64_t)d->ialpha, (uint64_t)d->ibeta, )


mx_gemm_rows_fn mx_gemm_rows_kernel_isa(mx_dtype t, int fma) {
#if MX_X86_AVX2
  if (t == MINNX_DOUBLE && fma) return MX_IF_DTYPE(MINNX_DOUBLE, rows_f64_fma);
#else
  (void)fma;
#endif
  switch (t) {
    case MINNX_DOUBLE: return MX_IF_DTYPE(MINNX_DOUBLE, rows_f64);
    case MINNX_INT32: return MX_IF_DTYPE(MINNX_INT32, rows_u32);
    case MINNX_UINT32: return MX_IF_DTYPE(MINNX_UINT32, rows_u32);
    case MINNX_INT64: return MX_IF_DTYPE(MINNX_INT64, rows_u64);
    case MINNX_UINT64: return MX_IF_DTYPE(MINNX_UINT64, rows_u64);
    default: return NULL;
  }
}
