/*
 * anneal - simulated-annealing placement (rvsim benchmark).
 *
 * Models placers such as SPEC's vpr/twolf: cells connected by nets are placed
 * on a grid to minimise total half-perimeter wirelength. Moves (swap two
 * cells, move a cell to a nearby slot, swap within a window) are generated
 * by functions reached through a table of function pointers; each move's cost
 * change is computed incrementally from the affected nets' bounding boxes.
 *
 * Phases: generate the netlist, random initial placement, annealing at high
 * temperature (most moves accepted), cooling, low temperature (most moves
 * rejected), a greedy clean-up pass, and a verification that recomputes the
 * cost from scratch and checks the placement is a permutation.
 *
 * All arithmetic that decides acceptance is deterministic: exp() is computed
 * here with basic IEEE operations only (no libm), so results do not depend on
 * the C library.
 *
 * usage: anneal CELLS NETS MOVES_PER_TEMP TEMPERATURES
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* ---------- deterministic PRNG (xoshiro-style xorshift128+) ---------- */

static uint64_t s0 = 0x123456789ABCDEFULL, s1 = 0xFEDCBA9876543210ULL;

static uint64_t rng_next(void)
{
	uint64_t a = s0, b = s1;
	s0 = b;
	a ^= a << 23;
	s1 = a ^ b ^ (a >> 17) ^ (b >> 26);
	return s1 + b;
}

static int rng_below(int n) { return (int)((rng_next() >> 32) % (uint64_t)n); }

/* uniform in [0, 1) with 53 bits */
static double rng_unit(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* exp(x) for x <= 0 from basic operations: halve until small, Taylor, square back. */
static NOINLINE double det_exp(double x)
{
	int halvings = 0, i;
	double term = 1.0, sum = 1.0;
	if (x < -700.0)
		return 0.0;
	while (x < -0.03125) {
		x *= 0.5;
		halvings++;
	}
	for (i = 1; i <= 10; i++) {
		term = term * x / (double)i;
		sum += term;
	}
	while (halvings--)
		sum *= sum;
	return sum;
}

/* ---------- netlist and placement ---------- */

typedef struct {
	int ncells, nnets, w, h;
	int *net_start, *net_pins;    /* pins of net n: net_pins[net_start[n] .. net_start[n+1]) */
	int *cell_start, *cell_nets;  /* nets of cell c */
	int *x, *y;                   /* cell positions */
	int *slot;                    /* grid slot -> cell or -1 */
	int64_t *net_cost;            /* cached half-perimeter per net */
	int64_t cost;
	int *stamp;                   /* per-net visit stamp for incremental updates */
	int stamp_now;
} Placement;

static NOINLINE void build_netlist(Placement *p, int ncells, int nnets)
{
	int n, i, k, total = 0, *deg;
	p->ncells = ncells;
	p->nnets = nnets;
	p->w = 1;
	while (p->w * p->w < ncells + ncells / 4)
		p->w++;
	p->h = p->w;
	p->net_start = xcalloc((size_t)nnets + 1, sizeof(int));
	/* mostly 2- and 3-pin nets, a few large ones; pins are local in cell index
	 * space (cells of a "module" are numbered together) */
	for (n = 0; n < nnets; n++) {
		int r = rng_below(100);
		int d = r < 55 ? 2 : r < 80 ? 3 : r < 95 ? 4 + rng_below(3) : 8 + rng_below(9);
		p->net_start[n + 1] = p->net_start[n] + d;
	}
	total = p->net_start[nnets];
	p->net_pins = xcalloc((size_t)total, sizeof(int));
	for (n = 0; n < nnets; n++) {
		int centre = rng_below(ncells), spread = rng_below(4) == 0 ? ncells : 24;
		for (i = p->net_start[n]; i < p->net_start[n + 1]; i++) {
			int c, dup;
			do {
				c = (centre + rng_below(2 * spread + 1) - spread + ncells) % ncells;
				dup = 0;
				for (k = p->net_start[n]; k < i; k++)
					dup |= p->net_pins[k] == c;
			} while (dup);
			p->net_pins[i] = c;
		}
	}
	/* invert: nets of each cell */
	deg = xcalloc((size_t)ncells, sizeof(int));
	for (i = 0; i < total; i++)
		deg[p->net_pins[i]]++;
	p->cell_start = xcalloc((size_t)ncells + 1, sizeof(int));
	for (i = 0; i < ncells; i++)
		p->cell_start[i + 1] = p->cell_start[i] + deg[i];
	p->cell_nets = xcalloc((size_t)total, sizeof(int));
	memset(deg, 0, (size_t)ncells * sizeof(int));
	for (n = 0; n < nnets; n++)
		for (i = p->net_start[n]; i < p->net_start[n + 1]; i++) {
			int c = p->net_pins[i];
			p->cell_nets[p->cell_start[c] + deg[c]++] = n;
		}
	free(deg);
	p->x = xcalloc((size_t)ncells, sizeof(int));
	p->y = xcalloc((size_t)ncells, sizeof(int));
	p->slot = xcalloc((size_t)(p->w * p->h), sizeof(int));
	p->net_cost = xcalloc((size_t)nnets, sizeof(int64_t));
	p->stamp = xcalloc((size_t)nnets, sizeof(int));
}

static NOINLINE int64_t net_hpwl(const Placement *p, int n)
{
	int i, c = p->net_pins[p->net_start[n]];
	int x0 = p->x[c], x1 = x0, y0 = p->y[c], y1 = y0;
	for (i = p->net_start[n] + 1; i < p->net_start[n + 1]; i++) {
		c = p->net_pins[i];
		if (p->x[c] < x0) x0 = p->x[c];
		if (p->x[c] > x1) x1 = p->x[c];
		if (p->y[c] < y0) y0 = p->y[c];
		if (p->y[c] > y1) y1 = p->y[c];
	}
	return (int64_t)(x1 - x0) + (y1 - y0);
}

static NOINLINE int64_t total_cost(Placement *p, int update)
{
	int64_t sum = 0;
	int n;
	for (n = 0; n < p->nnets; n++) {
		int64_t c = net_hpwl(p, n);
		if (update)
			p->net_cost[n] = c;
		sum += c;
	}
	return sum;
}

static NOINLINE void random_placement(Placement *p)
{
	int i, slots = p->w * p->h, *perm = xcalloc((size_t)slots, sizeof(int));
	for (i = 0; i < slots; i++) {
		perm[i] = i;
		p->slot[i] = -1;
	}
	for (i = slots - 1; i > 0; i--) { /* Fisher-Yates */
		int j = rng_below(i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < p->ncells; i++) {
		p->x[i] = perm[i] % p->w;
		p->y[i] = perm[i] / p->w;
		p->slot[perm[i]] = i;
	}
	free(perm);
	p->cost = total_cost(p, 1);
}

/* ---------- moves ---------- */

/* A move relocates one or two cells; it is described by old and new slots. */
typedef struct {
	int ncells;
	int cell[2], from[2], to[2];
} Move;

typedef int (*MoveGen)(Placement *, Move *, int range);

static void describe(Placement *p, Move *m, int a, int slot_b)
{
	int b = p->slot[slot_b];
	m->cell[0] = a;
	m->from[0] = p->y[a] * p->w + p->x[a];
	m->to[0] = slot_b;
	m->ncells = 1;
	if (b >= 0) {
		m->cell[1] = b;
		m->from[1] = slot_b;
		m->to[1] = m->from[0];
		m->ncells = 2;
	}
}

/* swap two random cells anywhere within range */
static int gen_swap(Placement *p, Move *m, int range)
{
	int a = rng_below(p->ncells), b;
	int bx, by;
	bx = p->x[a] + rng_below(2 * range + 1) - range;
	by = p->y[a] + rng_below(2 * range + 1) - range;
	if (bx < 0 || by < 0 || bx >= p->w || by >= p->h)
		return 0;
	b = by * p->w + bx;
	if (p->slot[b] == a)
		return 0;
	describe(p, m, a, b);
	return 1;
}

/* move a cell one step towards the centre of its first net */
static int gen_pull(Placement *p, Move *m, int range)
{
	int a = rng_below(p->ncells), n, i, sx = 0, sy = 0, k = 0, tx, ty;
	(void)range;
	if (p->cell_start[a] == p->cell_start[a + 1])
		return 0;
	n = p->cell_nets[p->cell_start[a] + rng_below(p->cell_start[a + 1] - p->cell_start[a])];
	for (i = p->net_start[n]; i < p->net_start[n + 1]; i++, k++) {
		sx += p->x[p->net_pins[i]];
		sy += p->y[p->net_pins[i]];
	}
	tx = p->x[a] + (sx / k > p->x[a]) - (sx / k < p->x[a]);
	ty = p->y[a] + (sy / k > p->y[a]) - (sy / k < p->y[a]);
	if (tx == p->x[a] && ty == p->y[a])
		return 0;
	describe(p, m, a, ty * p->w + tx);
	return 1;
}

/* swap with a neighbour in a small window */
static int gen_window(Placement *p, Move *m, int range)
{
	int a = rng_below(p->ncells);
	int bx = p->x[a] + rng_below(3) - 1, by = p->y[a] + rng_below(3) - 1;
	(void)range;
	if (bx < 0 || by < 0 || bx >= p->w || by >= p->h || (bx == p->x[a] && by == p->y[a]))
		return 0;
	describe(p, m, a, by * p->w + bx);
	return 1;
}

static void apply_positions(Placement *p, const Move *m, int forward)
{
	int i;
	for (i = 0; i < m->ncells; i++) {
		int s = forward ? m->to[i] : m->from[i];
		p->x[m->cell[i]] = s % p->w;
		p->y[m->cell[i]] = s / p->w;
	}
}

/* Cost change of a move: recompute every net touching a moved cell once. */
static NOINLINE int64_t move_delta(Placement *p, const Move *m, int *nets, int *nnets)
{
	int i, k;
	int64_t before = 0, after = 0;
	p->stamp_now++;
	*nnets = 0;
	for (i = 0; i < m->ncells; i++) {
		int c = m->cell[i];
		for (k = p->cell_start[c]; k < p->cell_start[c + 1]; k++) {
			int n = p->cell_nets[k];
			if (p->stamp[n] != p->stamp_now) {
				p->stamp[n] = p->stamp_now;
				nets[(*nnets)++] = n;
				before += p->net_cost[n];
			}
		}
	}
	apply_positions(p, m, 1);
	for (i = 0; i < *nnets; i++)
		after += net_hpwl(p, nets[i]);
	apply_positions(p, m, 0);
	return after - before;
}

static void commit(Placement *p, const Move *m, const int *nets, int nnets, int64_t delta)
{
	int i;
	for (i = 0; i < m->ncells; i++)
		p->slot[m->from[i]] = -1;
	for (i = 0; i < m->ncells; i++)
		p->slot[m->to[i]] = m->cell[i];
	apply_positions(p, m, 1);
	for (i = 0; i < nnets; i++)
		p->net_cost[nets[i]] = net_hpwl(p, nets[i]);
	p->cost += delta;
}

typedef struct {
	long tried, accepted, improved;
} Stats;

static NOINLINE void anneal_at(Placement *p, double temp, int moves, int range, Stats *st, int *nets)
{
	static const MoveGen gens[] = { gen_swap, gen_swap, gen_pull, gen_window };
	int i, nnets;
	for (i = 0; i < moves; i++) {
		Move m;
		int64_t delta;
		if (!gens[rng_below(4)](p, &m, range))
			continue;
		st->tried++;
		delta = move_delta(p, &m, nets, &nnets);
		if (delta <= 0 || (temp > 0 && rng_unit() < det_exp(-(double)delta / temp))) {
			commit(p, &m, nets, nnets, delta);
			st->accepted++;
			if (delta < 0)
				st->improved++;
		}
	}
}

static NOINLINE int check_placement(const Placement *p)
{
	int i, cells = 0;
	for (i = 0; i < p->w * p->h; i++) {
		int c = p->slot[i];
		if (c < 0)
			continue;
		cells++;
		if (c >= p->ncells || p->y[c] * p->w + p->x[c] != i)
			return 0;
	}
	return cells == p->ncells;
}

int main(int argc, char **argv)
{
	int ncells, nnets, moves, temps, t, failures = 0, max_deg = 0, i;
	double temp;
	int range;
	int64_t initial;
	Placement p;
	Stats total = { 0, 0, 0 };
	int *nets;
	uint64_t checksum;

	if (argc != 5) {
		printf("usage: anneal CELLS NETS MOVES_PER_TEMP TEMPERATURES\n");
		return 2;
	}
	ncells = atoi(argv[1]);
	nnets = atoi(argv[2]);
	moves = atoi(argv[3]);
	temps = atoi(argv[4]);
	if (ncells < 30 || ncells > 1000000 || nnets < 1 || moves < 1 || temps < 1) {
		printf("bad arguments\n");
		return 2;
	}
	memset(&p, 0, sizeof p);
	build_netlist(&p, ncells, nnets);
	for (i = 0; i < ncells; i++)
		if (p.cell_start[i + 1] - p.cell_start[i] > max_deg)
			max_deg = p.cell_start[i + 1] - p.cell_start[i];
	nets = xcalloc((size_t)(2 * max_deg + 1), sizeof(int));
	random_placement(&p);
	initial = p.cost;
	printf("grid %dx%d, %d cells, %d nets, %d pins, initial wirelength %lld\n", p.w, p.h, ncells,
	       nnets, p.net_start[nnets], (long long)initial);

	/* starting temperature: a few times the average uphill move */
	temp = 0.0;
	{
		Stats probe = { 0, 0, 0 };
		int64_t up = 0;
		long n = 0;
		for (i = 0; i < 200; i++) {
			Move m;
			int nn;
			int64_t d;
			if (!gen_swap(&p, &m, p.w))
				continue;
			d = move_delta(&p, &m, nets, &nn);
			if (d > 0) {
				up += d;
				n++;
			}
		}
		(void)probe;
		temp = n ? 2.0 * (double)up / (double)n : 1.0;
	}
	range = p.w;
	for (t = 0; t < temps; t++) {
		Stats st = { 0, 0, 0 };
		double rate;
		anneal_at(&p, temp, moves, range, &st, nets);
		rate = st.tried ? (double)st.accepted / (double)st.tried : 0.0;
		total.tried += st.tried;
		total.accepted += st.accepted;
		total.improved += st.improved;
		if (t % 4 == 0 || t == temps - 1)
			printf("step %3d: T %10.4f range %3d cost %8lld accepted %6ld of %6ld\n", t, temp, range,
			       (long long)p.cost, st.accepted, st.tried);
		/* adaptive schedule as in VPR: cool slowly while the acceptance rate is useful */
		temp *= rate > 0.96 ? 0.5 : rate > 0.8 ? 0.85 : rate > 0.15 ? 0.9 : 0.8;
		range = (int)((double)range * (1.0 - 0.44 + rate));
		if (range < 1)
			range = 1;
		if (range > p.w)
			range = p.w;
	}
	/* greedy clean-up at zero temperature */
	{
		Stats st = { 0, 0, 0 };
		anneal_at(&p, 0.0, moves, 1, &st, nets);
		printf("greedy: cost %lld, improved %ld\n", (long long)p.cost, st.improved);
	}
	if (total_cost(&p, 0) != p.cost) {
		printf("incremental cost %lld != recomputed %lld\n", (long long)p.cost,
		       (long long)total_cost(&p, 0));
		failures++;
	}
	if (!check_placement(&p)) {
		printf("placement is not a permutation\n");
		failures++;
	}
	if (p.cost >= initial) {
		printf("annealing did not improve the placement\n");
		failures++;
	}
	printf("final wirelength %lld (%.1f%% of initial), moves %ld accepted %ld improved %ld\n",
	       (long long)p.cost, 100.0 * (double)p.cost / (double)initial, total.tried, total.accepted,
	       total.improved);
	checksum = (uint64_t)p.cost;
	for (i = 0; i < ncells; i++)
		checksum = checksum * 1000003 + (uint64_t)(p.y[i] * p.w + p.x[i]);
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
