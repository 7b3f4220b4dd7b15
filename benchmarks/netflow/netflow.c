/*
 * netflow - network-flow solvers on generated transport networks (rvsim benchmark).
 *
 * Models SPEC's mcf: pointer-chasing over arc lists of a large sparse graph.
 * For each generated network it
 *   1. builds the graph (random layered network, arcs sorted with qsort),
 *   2. computes a maximum flow with Dinic's algorithm (BFS levels + DFS
 *      blocking flow),
 *   3. computes a minimum-cost maximum flow by successive shortest paths
 *      (Dijkstra with node potentials on a binary heap),
 *   4. verifies both: capacity and conservation constraints, equal flow
 *      values, and optimality (no negative-cost cycle in the residual graph,
 *      by Bellman-Ford).
 *
 * usage: netflow NETWORKS NODES ARCS_PER_NODE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define INF64 INT64_MAX

/* ---------- deterministic PRNG (splitmix64) ---------- */

static uint64_t rng_state = 7;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static int rng_below(int n) { return (int)(rng_next() % (uint64_t)n); }

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- graph ---------- */

typedef struct {
	int from, to;
	int64_t cap, cost;
} ArcSpec;

/* Arc i and arc i^1 are a forward arc and its residual reverse. */
typedef struct {
	int to, next;
	int64_t cap, flow, cost;
} Arc;

typedef struct {
	int n, m;
	int *head;
	Arc *arcs;
	int source, sink;
} Graph;

static int cmp_spec(const void *a, const void *b)
{
	const ArcSpec *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->cap < y->cap ? -1 : x->cap > y->cap;
}

static void add_arc(Graph *g, int u, int v, int64_t cap, int64_t cost)
{
	Arc *a = &g->arcs[g->m], *r = &g->arcs[g->m + 1];
	a->to = v;
	a->cap = cap;
	a->flow = 0;
	a->cost = cost;
	a->next = g->head[u];
	g->head[u] = g->m;
	r->to = u;
	r->cap = 0;
	r->flow = 0;
	r->cost = -cost;
	r->next = g->head[v];
	g->head[v] = g->m + 1;
	g->m += 2;
}

/* A layered network: source -> layer 0 ... layer L-1 -> sink, plus some
 * arcs that skip a layer or go back one. Capacities and costs come from
 * small sets, so the same values recur. */
static NOINLINE void build_graph(Graph *g, int nodes, int per_node)
{
	static const int64_t caps[] = { 4, 8, 8, 16, 16, 16, 32, 64 };
	int layers = 8, width = (nodes - 2) / layers, i, k, nspec = 0;
	int max_spec = nodes * per_node + 2 * width;
	ArcSpec *spec = xcalloc((size_t)max_spec, sizeof *spec);

	g->n = 2 + layers * width;
	g->source = 0;
	g->sink = 1;
	for (i = 0; i < width; i++) {
		spec[nspec++] = (ArcSpec){ 0, 2 + i, caps[rng_below(8)] * 2, 0 };
		spec[nspec++] = (ArcSpec){ 2 + (layers - 1) * width + i, 1, caps[rng_below(8)] * 2, 0 };
	}
	for (k = 0; k < layers; k++)
		for (i = 0; i < width; i++) {
			int u = 2 + k * width + i, j;
			for (j = 0; j < per_node && nspec < max_spec; j++) {
				int dl = rng_below(10) == 0 ? (rng_below(3) == 0 ? -1 : 2) : 1;
				int tl = k + dl, v;
				if (tl < 0 || tl >= layers)
					tl = k + 1 < layers ? k + 1 : k - 1;
				v = 2 + tl * width + (i + rng_below(9) - 4 + width) % width;
				if (v == u)
					continue;
				spec[nspec++] = (ArcSpec){ u, v, caps[rng_below(8)], 1 + rng_below(20) * rng_below(5) };
			}
		}
	qsort(spec, (size_t)nspec, sizeof *spec, cmp_spec);
	g->head = xcalloc((size_t)g->n, sizeof(int));
	g->arcs = xcalloc((size_t)nspec * 2, sizeof(Arc));
	g->m = 0;
	for (i = 0; i < g->n; i++)
		g->head[i] = -1;
	/* insert in reverse so each list is in sorted order */
	for (i = nspec - 1; i >= 0; i--)
		add_arc(g, spec[i].from, spec[i].to, spec[i].cap, spec[i].cost);
	free(spec);
}

static void reset_flow(Graph *g)
{
	int i;
	for (i = 0; i < g->m; i++)
		g->arcs[i].flow = 0;
}

static int64_t residual(const Arc *a) { return a->cap - a->flow; }

/* ---------- Dinic maximum flow ---------- */

typedef struct {
	int *level, *iter, *queue;
	long augments, bfs_rounds;
} Dinic;

static NOINLINE int dinic_bfs(Graph *g, Dinic *d)
{
	int qh = 0, qt = 0, i;
	for (i = 0; i < g->n; i++)
		d->level[i] = -1;
	d->level[g->source] = 0;
	d->queue[qt++] = g->source;
	while (qh < qt) {
		int u = d->queue[qh++], e;
		for (e = g->head[u]; e >= 0; e = g->arcs[e].next) {
			const Arc *a = &g->arcs[e];
			if (residual(a) > 0 && d->level[a->to] < 0) {
				d->level[a->to] = d->level[u] + 1;
				d->queue[qt++] = a->to;
			}
		}
	}
	return d->level[g->sink] >= 0;
}

static NOINLINE int64_t dinic_dfs(Graph *g, Dinic *d, int u, int64_t limit)
{
	if (u == g->sink)
		return limit;
	for (; d->iter[u] >= 0; d->iter[u] = g->arcs[d->iter[u]].next) {
		int e = d->iter[u];
		Arc *a = &g->arcs[e];
		if (residual(a) > 0 && d->level[a->to] == d->level[u] + 1) {
			int64_t f = dinic_dfs(g, d, a->to, limit < residual(a) ? limit : residual(a));
			if (f > 0) {
				a->flow += f;
				g->arcs[e ^ 1].flow -= f;
				return f;
			}
		}
	}
	return 0;
}

static NOINLINE int64_t max_flow(Graph *g, Dinic *d)
{
	int64_t total = 0, f;
	int i;
	while (dinic_bfs(g, d)) {
		d->bfs_rounds++;
		for (i = 0; i < g->n; i++)
			d->iter[i] = g->head[i];
		while ((f = dinic_dfs(g, d, g->source, INF64)) > 0) {
			total += f;
			d->augments++;
		}
	}
	return total;
}

/* ---------- min-cost flow: successive shortest paths ---------- */

typedef struct {
	int64_t key;
	int node;
} HeapItem;

typedef struct {
	HeapItem *items;
	int n;
} Heap;

static NOINLINE void heap_push(Heap *h, int64_t key, int node)
{
	int i = h->n++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (h->items[p].key < key || (h->items[p].key == key && h->items[p].node <= node))
			break;
		h->items[i] = h->items[p];
		i = p;
	}
	h->items[i].key = key;
	h->items[i].node = node;
}

static NOINLINE HeapItem heap_pop(Heap *h)
{
	HeapItem top = h->items[0], last = h->items[--h->n];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && (h->items[c + 1].key < h->items[c].key ||
		                     (h->items[c + 1].key == h->items[c].key && h->items[c + 1].node < h->items[c].node)))
			c++;
		if (last.key < h->items[c].key || (last.key == h->items[c].key && last.node <= h->items[c].node))
			break;
		h->items[i] = h->items[c];
		i = c;
	}
	h->items[i] = last;
	return top;
}

typedef struct {
	int64_t *dist, *pot;
	int *prev_arc;
	Heap heap;
	long dijkstras, pops;
} SSP;

static NOINLINE int dijkstra(Graph *g, SSP *s)
{
	int i;
	for (i = 0; i < g->n; i++) {
		s->dist[i] = INF64;
		s->prev_arc[i] = -1;
	}
	s->dist[g->source] = 0;
	s->heap.n = 0;
	heap_push(&s->heap, 0, g->source);
	while (s->heap.n) {
		HeapItem it = heap_pop(&s->heap);
		int u = it.node, e;
		s->pops++;
		if (it.key > s->dist[u])
			continue;
		if (u == g->sink)
			break; /* the rest cannot shorten the path to the sink */
		for (e = g->head[u]; e >= 0; e = g->arcs[e].next) {
			const Arc *a = &g->arcs[e];
			int64_t nd;
			if (residual(a) <= 0)
				continue;
			nd = s->dist[u] + a->cost + s->pot[u] - s->pot[a->to];
			if (nd < s->dist[a->to]) {
				s->dist[a->to] = nd;
				s->prev_arc[a->to] = e;
				heap_push(&s->heap, nd, a->to);
			}
		}
	}
	return s->dist[g->sink] < INF64;
}

static NOINLINE int64_t min_cost_flow(Graph *g, SSP *s, int64_t *cost_out)
{
	int64_t flow = 0, cost = 0;
	int i;
	for (i = 0; i < g->n; i++)
		s->pot[i] = 0; /* all original costs are non-negative */
	while (dijkstra(g, s)) {
		int64_t push = INF64;
		int v;
		s->dijkstras++;
		/* nodes not settled get the sink's distance, which keeps every
		 * residual reduced cost non-negative */
		for (i = 0; i < g->n; i++)
			s->pot[i] += s->dist[i] < s->dist[g->sink] ? s->dist[i] : s->dist[g->sink];
		for (v = g->sink; v != g->source; v = g->arcs[s->prev_arc[v] ^ 1].to) {
			const Arc *a = &g->arcs[s->prev_arc[v]];
			if (residual(a) < push)
				push = residual(a);
		}
		for (v = g->sink; v != g->source; v = g->arcs[s->prev_arc[v] ^ 1].to) {
			int e = s->prev_arc[v];
			g->arcs[e].flow += push;
			g->arcs[e ^ 1].flow -= push;
			cost += push * g->arcs[e].cost;
		}
		flow += push;
	}
	*cost_out = cost;
	return flow;
}

/* ---------- verification ---------- */

/* Capacity and conservation; returns the net outflow of the source or -1. */
static NOINLINE int64_t check_flow(const Graph *g, int64_t *balance)
{
	int u, e;
	for (u = 0; u < g->n; u++)
		balance[u] = 0;
	for (u = 0; u < g->n; u++)
		for (e = g->head[u]; e >= 0; e = g->arcs[e].next) {
			const Arc *a = &g->arcs[e];
			if (a->flow > a->cap || a->flow != -g->arcs[e ^ 1].flow)
				return -1;
			balance[u] += a->flow;
		}
	for (u = 0; u < g->n; u++)
		if (u != g->source && u != g->sink && balance[u] != 0)
			return -1;
	if (balance[g->source] != -balance[g->sink])
		return -1;
	return balance[g->source];
}

static NOINLINE int64_t flow_cost(const Graph *g)
{
	int64_t c = 0;
	int e;
	for (e = 0; e < g->m; e += 2)
		c += g->arcs[e].flow * g->arcs[e].cost;
	return c;
}

/* Optimal iff the residual graph has no negative cycle (Bellman-Ford from a
 * virtual root connected to every node). */
static NOINLINE int has_negative_cycle(const Graph *g, int64_t *dist)
{
	int round, u, e, changed = 1;
	for (u = 0; u < g->n; u++)
		dist[u] = 0;
	for (round = 0; round < g->n && changed; round++) {
		changed = 0;
		for (u = 0; u < g->n; u++)
			for (e = g->head[u]; e >= 0; e = g->arcs[e].next) {
				const Arc *a = &g->arcs[e];
				if (residual(a) > 0 && dist[u] + a->cost < dist[a->to]) {
					dist[a->to] = dist[u] + a->cost;
					changed = 1;
				}
			}
	}
	return changed;
}

/* ---------- driver ---------- */

int main(int argc, char **argv)
{
	int networks, nodes, per_node, k, failures = 0;
	uint64_t checksum = 0;

	if (argc != 4) {
		printf("usage: netflow NETWORKS NODES ARCS_PER_NODE\n");
		return 2;
	}
	networks = atoi(argv[1]);
	nodes = atoi(argv[2]);
	per_node = atoi(argv[3]);
	if (networks < 1 || nodes < 20 || nodes > 10000000 || per_node < 1 || per_node > 64) {
		printf("bad arguments\n");
		return 2;
	}
	for (k = 0; k < networks; k++) {
		Graph g;
		Dinic d = { 0 };
		SSP s = { 0 };
		int64_t mf, mcf, cost, *scratch;
		int n = nodes + (k % 4) * (nodes / 8);

		build_graph(&g, n, per_node);
		d.level = xcalloc((size_t)g.n, sizeof(int));
		d.iter = xcalloc((size_t)g.n, sizeof(int));
		d.queue = xcalloc((size_t)g.n, sizeof(int));
		s.dist = xcalloc((size_t)g.n, sizeof(int64_t));
		s.pot = xcalloc((size_t)g.n, sizeof(int64_t));
		s.prev_arc = xcalloc((size_t)g.n, sizeof(int));
		s.heap.items = xcalloc((size_t)g.m + 1, sizeof(HeapItem));
		scratch = xcalloc((size_t)g.n, sizeof(int64_t));

		mf = max_flow(&g, &d);
		if (check_flow(&g, scratch) != mf) {
			printf("network %d: max flow violates constraints\n", k);
			failures++;
		}
		reset_flow(&g);
		mcf = min_cost_flow(&g, &s, &cost);
		if (check_flow(&g, scratch) != mcf || flow_cost(&g) != cost) {
			printf("network %d: min-cost flow violates constraints\n", k);
			failures++;
		}
		if (mcf != mf) {
			printf("network %d: flow values differ: dinic %lld ssp %lld\n", k, (long long)mf,
			       (long long)mcf);
			failures++;
		}
		if (has_negative_cycle(&g, scratch)) {
			printf("network %d: min-cost flow is not optimal\n", k);
			failures++;
		}
		printf("network %d: %d nodes %d arcs, max flow %lld, cost %lld, %ld bfs, %ld augments, %ld paths, %ld pops\n",
		       k, g.n, g.m / 2, (long long)mf, (long long)cost, d.bfs_rounds, d.augments,
		       s.dijkstras, s.pops);
		checksum = checksum * 1000003 + (uint64_t)mf;
		checksum = checksum * 1000003 + (uint64_t)cost;
		checksum = checksum * 1000003 + (uint64_t)s.dijkstras;
		free(g.head);
		free(g.arcs);
		free(d.level);
		free(d.iter);
		free(d.queue);
		free(s.dist);
		free(s.pot);
		free(s.prev_arc);
		free(s.heap.items);
		free(scratch);
	}
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
