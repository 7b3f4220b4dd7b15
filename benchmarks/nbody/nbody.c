/*
 * nbody - gravitational n-body simulation in double precision (rvsim benchmark).
 *
 * Models FP simulation codes. Bodies start in a cold rotating sphere and are
 * integrated with kick-drift-kick leapfrog. Two force methods are used in
 * separate phases: direct O(N^2) summation with a softening kernel chosen
 * through a function pointer, and a Barnes-Hut octree (recursive build,
 * recursive centre-of-mass pass, recursive walk with an opening angle).
 * Diagnostics compute total energy and momentum.
 *
 * Self-checks: energy drift stays small, total momentum stays ~0, and the
 * Barnes-Hut accelerations agree with direct summation to within 2% rms.
 * Only + - * / and sqrt are used, so results are bit-identical on x86-64 and
 * RISC-V (build with -ffp-contract=off).
 *
 * usage: nbody BODIES DIRECT_STEPS TREE_STEPS
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

typedef struct {
	double x, y, z;
} Vec;

typedef struct {
	Vec *pos, *vel, *acc;
	double *mass;
	int n;
} System;

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- deterministic PRNG (xorshift64*) ---------- */

static uint64_t rng_state = 0x853C49E6748FEA9BULL;

static double rng_unit(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static NOINLINE void init_system(System *s, int n)
{
	int i;
	Vec p = { 0, 0, 0 }, m = { 0, 0, 0 };
	double total = 0;
	s->n = n;
	s->pos = xcalloc((size_t)n, sizeof(Vec));
	s->vel = xcalloc((size_t)n, sizeof(Vec));
	s->acc = xcalloc((size_t)n, sizeof(Vec));
	s->mass = xcalloc((size_t)n, sizeof(double));
	for (i = 0; i < n; i++) {
		double x, y, z, r2;
		do { /* uniform in the unit ball by rejection */
			x = 2 * rng_unit() - 1;
			y = 2 * rng_unit() - 1;
			z = 2 * rng_unit() - 1;
			r2 = x * x + y * y + z * z;
		} while (r2 > 1.0 || r2 < 1e-4);
		s->pos[i] = (Vec){ x, y, z * 0.6 };
		/* slow rotation about z plus a little random motion */
		s->vel[i] = (Vec){ -0.3 * y + 0.05 * (rng_unit() - 0.5), 0.3 * x + 0.05 * (rng_unit() - 0.5),
		                   0.05 * (rng_unit() - 0.5) };
		/* a few heavy bodies among light ones: repeated mass values */
		s->mass[i] = (i % 16 == 0 ? 4.0 : 1.0) / n;
		total += s->mass[i];
	}
	/* move to the centre-of-mass frame */
	for (i = 0; i < n; i++) {
		p.x += s->mass[i] * s->pos[i].x;
		p.y += s->mass[i] * s->pos[i].y;
		p.z += s->mass[i] * s->pos[i].z;
		m.x += s->mass[i] * s->vel[i].x;
		m.y += s->mass[i] * s->vel[i].y;
		m.z += s->mass[i] * s->vel[i].z;
	}
	for (i = 0; i < n; i++) {
		s->pos[i].x -= p.x / total;
		s->pos[i].y -= p.y / total;
		s->pos[i].z -= p.z / total;
		s->vel[i].x -= m.x / total;
		s->vel[i].y -= m.y / total;
		s->vel[i].z -= m.z / total;
	}
}

/* ---------- softening kernels: return the factor f with a = f * m * d ---------- */

#define EPS2 0.0025

typedef double (*Kernel)(double r2);

static double kernel_plummer(double r2)
{
	double q = r2 + EPS2;
	return 1.0 / (q * sqrt(q));
}

/* a kernel with compact softening: Newtonian beyond h, smooth inside */
static double kernel_spline(double r2)
{
	const double h2 = 4 * EPS2;
	if (r2 >= h2)
		return 1.0 / (r2 * sqrt(r2));
	return (2.5 - 1.5 * r2 / h2) / (h2 * sqrt(h2));
}

static double potential_plummer(double r2) { return -1.0 / sqrt(r2 + EPS2); }

/* ---------- direct summation ---------- */

static long interactions;

static NOINLINE void direct_forces(System *s, Kernel k)
{
	int i, j;
	for (i = 0; i < s->n; i++)
		s->acc[i] = (Vec){ 0, 0, 0 };
	for (i = 0; i < s->n; i++) {
		Vec pi = s->pos[i], ai = s->acc[i];
		for (j = i + 1; j < s->n; j++) {
			double dx = s->pos[j].x - pi.x, dy = s->pos[j].y - pi.y, dz = s->pos[j].z - pi.z;
			double f = k(dx * dx + dy * dy + dz * dz);
			double fi = f * s->mass[j], fj = f * s->mass[i];
			ai.x += fi * dx;
			ai.y += fi * dy;
			ai.z += fi * dz;
			s->acc[j].x -= fj * dx;
			s->acc[j].y -= fj * dy;
			s->acc[j].z -= fj * dz;
		}
		s->acc[i] = ai;
		interactions += s->n - i - 1;
	}
}

/* ---------- Barnes-Hut octree ---------- */

typedef struct Node {
	Vec centre;        /* geometric centre of the cube */
	double half;       /* half the side length */
	Vec com;           /* centre of mass */
	double mass;
	int body;          /* body index for a leaf with one body, -1 otherwise */
	int count;
	struct Node *child[8];
} Node;

typedef struct {
	Node *nodes;
	int used, cap;
} Arena;

static Node *new_node(Arena *a, Vec centre, double half)
{
	Node *n;
	if (a->used == a->cap) {
		printf("tree arena full\n");
		exit(2);
	}
	n = &a->nodes[a->used++];
	memset(n, 0, sizeof *n);
	n->centre = centre;
	n->half = half;
	n->body = -1;
	return n;
}

static int octant(const Node *n, Vec p)
{
	return (p.x >= n->centre.x) | ((p.y >= n->centre.y) << 1) | ((p.z >= n->centre.z) << 2);
}

static Vec child_centre(const Node *n, int o)
{
	double q = n->half * 0.5;
	Vec c = n->centre;
	c.x += (o & 1) ? q : -q;
	c.y += (o & 2) ? q : -q;
	c.z += (o & 4) ? q : -q;
	return c;
}

static NOINLINE void tree_insert(Arena *a, Node *n, const System *s, int b, int depth)
{
	if (n->count == 0) {
		n->body = b;
		n->count = 1;
		return;
	}
	if (n->body >= 0) {
		int old = n->body;
		n->body = -1;
		if (depth > 40) { /* coincident points: keep as an aggregate */
			n->count++;
			return;
		}
		{
			int o = octant(n, s->pos[old]);
			if (!n->child[o])
				n->child[o] = new_node(a, child_centre(n, o), n->half * 0.5);
			tree_insert(a, n->child[o], s, old, depth + 1);
		}
	}
	n->count++;
	{
		int o = octant(n, s->pos[b]);
		if (!n->child[o])
			n->child[o] = new_node(a, child_centre(n, o), n->half * 0.5);
		tree_insert(a, n->child[o], s, b, depth + 1);
	}
}

static NOINLINE void tree_mass(Node *n, const System *s)
{
	int k;
	if (n->body >= 0) {
		n->mass = s->mass[n->body];
		n->com = s->pos[n->body];
		return;
	}
	n->mass = 0;
	n->com = (Vec){ 0, 0, 0 };
	for (k = 0; k < 8; k++) {
		Node *c = n->child[k];
		if (!c)
			continue;
		tree_mass(c, s);
		n->mass += c->mass;
		n->com.x += c->mass * c->com.x;
		n->com.y += c->mass * c->com.y;
		n->com.z += c->mass * c->com.z;
	}
	if (n->mass > 0) {
		n->com.x /= n->mass;
		n->com.y /= n->mass;
		n->com.z /= n->mass;
	}
}

static NOINLINE void tree_walk(const Node *n, const System *s, int b, double theta2, Kernel k, Vec *acc)
{
	double dx = n->com.x - s->pos[b].x, dy = n->com.y - s->pos[b].y, dz = n->com.z - s->pos[b].z;
	double r2 = dx * dx + dy * dy + dz * dz;
	int c;
	if (n->body == b || n->mass == 0)
		return;
	if (n->body >= 0 || 4 * n->half * n->half < theta2 * r2) {
		double f = k(r2) * n->mass;
		acc->x += f * dx;
		acc->y += f * dy;
		acc->z += f * dz;
		interactions++;
		return;
	}
	for (c = 0; c < 8; c++)
		if (n->child[c])
			tree_walk(n->child[c], s, b, theta2, k, acc);
}

static NOINLINE int tree_forces(System *s, Arena *a, double theta, Kernel k)
{
	double lo = 1e300, hi = -1e300;
	int i;
	Node *root;
	for (i = 0; i < s->n; i++) {
		const Vec *p = &s->pos[i];
		if (p->x < lo) lo = p->x;
		if (p->y < lo) lo = p->y;
		if (p->z < lo) lo = p->z;
		if (p->x > hi) hi = p->x;
		if (p->y > hi) hi = p->y;
		if (p->z > hi) hi = p->z;
	}
	a->used = 0;
	root = new_node(a, (Vec){ (lo + hi) * 0.5, (lo + hi) * 0.5, (lo + hi) * 0.5 }, (hi - lo) * 0.5 + 1e-9);
	for (i = 0; i < s->n; i++)
		tree_insert(a, root, s, i, 0);
	tree_mass(root, s);
	for (i = 0; i < s->n; i++) {
		Vec acc = { 0, 0, 0 };
		tree_walk(root, s, i, theta * theta, k, &acc);
		s->acc[i] = acc;
	}
	return a->used;
}

/* ---------- integration and diagnostics ---------- */

static NOINLINE void kick(System *s, double dt)
{
	int i;
	for (i = 0; i < s->n; i++) {
		s->vel[i].x += s->acc[i].x * dt;
		s->vel[i].y += s->acc[i].y * dt;
		s->vel[i].z += s->acc[i].z * dt;
	}
}

static NOINLINE void drift(System *s, double dt)
{
	int i;
	for (i = 0; i < s->n; i++) {
		s->pos[i].x += s->vel[i].x * dt;
		s->pos[i].y += s->vel[i].y * dt;
		s->pos[i].z += s->vel[i].z * dt;
	}
}

static NOINLINE double energy(const System *s, Vec *momentum)
{
	double ke = 0, pe = 0;
	int i, j;
	*momentum = (Vec){ 0, 0, 0 };
	for (i = 0; i < s->n; i++) {
		const Vec *v = &s->vel[i];
		ke += 0.5 * s->mass[i] * (v->x * v->x + v->y * v->y + v->z * v->z);
		momentum->x += s->mass[i] * v->x;
		momentum->y += s->mass[i] * v->y;
		momentum->z += s->mass[i] * v->z;
		for (j = i + 1; j < s->n; j++) {
			double dx = s->pos[j].x - s->pos[i].x, dy = s->pos[j].y - s->pos[i].y,
			       dz = s->pos[j].z - s->pos[i].z;
			pe += s->mass[i] * s->mass[j] * potential_plummer(dx * dx + dy * dy + dz * dz);
		}
	}
	return ke + pe;
}

static uint64_t state_hash(const System *s)
{
	uint64_t h = 1469598103934665603ULL;
	int i;
	for (i = 0; i < s->n; i++) {
		/* quantise to 2^-30: robust to nothing but records the trajectory */
		int64_t q[3] = { (int64_t)(s->pos[i].x * 1073741824.0), (int64_t)(s->pos[i].y * 1073741824.0),
		                 (int64_t)(s->pos[i].z * 1073741824.0) };
		int k;
		for (k = 0; k < 3; k++)
			h = (h ^ (uint64_t)q[k]) * 1099511628211ULL;
	}
	return h;
}

int main(int argc, char **argv)
{
	int n, direct_steps, tree_steps, step, i, failures = 0, nodes = 0;
	double dt = 0.002, e0, e, drift_max = 0;
	Vec mom;
	System s;
	Arena arena;

	if (argc != 4) {
		printf("usage: nbody BODIES DIRECT_STEPS TREE_STEPS\n");
		return 2;
	}
	n = atoi(argv[1]);
	direct_steps = atoi(argv[2]);
	tree_steps = atoi(argv[3]);
	if (n < 8 || n > 1000000 || direct_steps < 0 || tree_steps < 0) {
		printf("bad arguments\n");
		return 2;
	}
	init_system(&s, n);
	arena.cap = 8 * n + 64;
	arena.nodes = xcalloc((size_t)arena.cap, sizeof(Node));
	e0 = energy(&s, &mom);
	printf("bodies %d, initial energy %.9f\n", n, e0);

	/* phase 1: direct summation with the Plummer kernel */
	direct_forces(&s, kernel_plummer);
	for (step = 1; step <= direct_steps; step++) {
		kick(&s, dt / 2);
		drift(&s, dt);
		direct_forces(&s, kernel_plummer);
		kick(&s, dt / 2);
		if (step % 10 == 0 || step == direct_steps) {
			double rel;
			e = energy(&s, &mom);
			rel = (e - e0) / (e0 < 0 ? -e0 : e0);
			if (rel < 0)
				rel = -rel;
			if (rel > drift_max)
				drift_max = rel;
			printf("direct step %4d: energy %.9f momentum %.3e %.3e %.3e\n", step, e, mom.x, mom.y, mom.z);
		}
	}

	/* check: Barnes-Hut against direct summation on the current state */
	{
		Vec *ref = xcalloc((size_t)n, sizeof(Vec));
		double num = 0, den = 0, rms;
		direct_forces(&s, kernel_spline);
		memcpy(ref, s.acc, (size_t)n * sizeof(Vec));
		nodes = tree_forces(&s, &arena, 0.5, kernel_spline);
		for (i = 0; i < n; i++) {
			double dx = s.acc[i].x - ref[i].x, dy = s.acc[i].y - ref[i].y, dz = s.acc[i].z - ref[i].z;
			num += dx * dx + dy * dy + dz * dz;
			den += ref[i].x * ref[i].x + ref[i].y * ref[i].y + ref[i].z * ref[i].z;
		}
		rms = sqrt(num / den);
		printf("tree vs direct: %d nodes, relative rms error %.6f\n", nodes, rms);
		if (!(rms < 0.02)) {
			printf("tree forces disagree with direct summation\n");
			failures++;
		}
		free(ref);
	}

	/* phase 2: Barnes-Hut with the spline kernel */
	e0 = energy(&s, &mom);
	tree_forces(&s, &arena, 0.6, kernel_spline);
	for (step = 1; step <= tree_steps; step++) {
		kick(&s, dt / 2);
		drift(&s, dt);
		nodes = tree_forces(&s, &arena, 0.6, kernel_spline);
		kick(&s, dt / 2);
		if (step % 10 == 0 || step == tree_steps) {
			double rel;
			e = energy(&s, &mom);
			rel = (e - e0) / (e0 < 0 ? -e0 : e0);
			if (rel < 0)
				rel = -rel;
			if (rel > drift_max)
				drift_max = rel;
			printf("tree step %4d: energy %.9f, %d nodes\n", step, e, nodes);
		}
	}
	printf("max relative energy drift %.3e, interactions %ld\n", drift_max, interactions);
	if (!(drift_max < 0.01)) {
		printf("energy not conserved\n");
		failures++;
	}
	e = energy(&s, &mom);
	if (mom.x * mom.x + mom.y * mom.y + mom.z * mom.z > 1e-6) {
		printf("momentum not conserved\n");
		failures++;
	}
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)state_hash(&s));
	return failures ? 1 : 0;
}
