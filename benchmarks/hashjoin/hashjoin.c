/*
 * hashjoin - an in-memory hash-join query engine (rvsim benchmark).
 *
 * Models database kernels (TPC-H style joins and aggregations). It generates
 * three tables with skewed foreign keys (orders -> customers, orders ->
 * products) and runs a few queries:
 *   Q1  orders JOIN customers, GROUP BY region          (hash join + hash aggregation)
 *   Q2  orders JOIN products WHERE category filter, GROUP BY brand
 *   Q3  orders JOIN customers JOIN products, GROUP BY (segment, category), top 10
 *   Q4  COUNT(DISTINCT customer) per category          (hash sets)
 * Q1 is verified by a sort-merge join (qsort both sides, merge) and Q4 by
 * sorting (category, customer) pairs. Hash functions and row predicates are
 * reached through function pointers.
 *
 * usage: hashjoin ORDERS CUSTOMERS PRODUCTS ROUNDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- deterministic PRNG (splitmix64) ---------- */

static uint64_t rng_state = 0xDB5EEDULL;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }

/* skewed: small ids are much more frequent */
static uint32_t rng_skewed(uint32_t n)
{
	uint64_t u = rng_next() >> 44; /* 20 bits */
	return (uint32_t)((u * u / (1ULL << 20) * n) >> 20);
}

/* ---------- tables ---------- */

typedef struct {
	uint32_t id, region, segment, pad;
} Customer;

typedef struct {
	uint32_t id, category, brand, price;
} Product;

typedef struct {
	uint32_t id, customer, product, qty;
	uint32_t day, discount;
} Order;

typedef struct {
	Customer *c;
	Product *p;
	Order *o;
	uint32_t nc, np, no;
} Db;

#define REGIONS 5
#define SEGMENTS 6
#define CATEGORIES 24
#define BRANDS 40

static NOINLINE void generate(Db *db, uint32_t no, uint32_t nc, uint32_t np)
{
	uint32_t i, *perm;
	db->nc = nc;
	db->np = np;
	db->no = no;
	db->c = xcalloc(nc, sizeof(Customer));
	db->p = xcalloc(np, sizeof(Product));
	db->o = xcalloc(no, sizeof(Order));
	/* customer ids are a shuffled sparse range so keys are not dense indices */
	perm = xcalloc(nc, sizeof(uint32_t));
	for (i = 0; i < nc; i++)
		perm[i] = i;
	for (i = nc - 1; i > 0; i--) {
		uint32_t j = rng_below(i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < nc; i++) {
		db->c[i].id = perm[i] * 7 + 3;
		db->c[i].region = rng_below(REGIONS);
		db->c[i].segment = rng_skewed(SEGMENTS);
	}
	for (i = 0; i < np; i++) {
		db->p[i].id = 100000 + i * 13;
		db->p[i].category = rng_skewed(CATEGORIES);
		db->p[i].brand = rng_below(BRANDS);
		db->p[i].price = 100 + rng_below(50) * 10;
	}
	for (i = 0; i < no; i++) {
		Order *o = &db->o[i];
		o->id = i;
		/* a few orders reference customers that do not exist (inner join drops them) */
		o->customer = rng_below(100) == 0 ? 1 + 7 * rng_below(nc) : db->c[rng_skewed(nc)].id;
		o->product = db->p[rng_skewed(np)].id;
		o->qty = 1 + rng_skewed(10);
		o->day = rng_below(365);
		o->discount = rng_below(4) == 0 ? 5 * rng_below(4) : 0;
	}
	free(perm);
}

/* ---------- hash functions (function pointers) ---------- */

typedef uint32_t (*HashFn)(uint32_t);

static uint32_t hash_mult(uint32_t k) { return k * 2654435761u; }

static uint32_t hash_murmur(uint32_t k)
{
	k ^= k >> 16;
	k *= 0x85ebca6bu;
	k ^= k >> 13;
	k *= 0xc2b2ae35u;
	k ^= k >> 16;
	return k;
}

static uint32_t hash_crc_like(uint32_t k)
{
	uint32_t h = 0xFFFFFFFFu;
	int i;
	for (i = 0; i < 4; i++) {
		h ^= (k >> (8 * i)) & 0xff;
		h = (h >> 4) ^ (0xEDB88320u & -(h & 1)) ^ (h << 27);
		h = (h >> 4) ^ (0x82F63B78u & -(h & 1)) ^ (h << 27);
	}
	return h;
}

/* ---------- open-addressing hash index: key -> row ---------- */

typedef struct {
	uint32_t *keys, *rows;
	uint32_t mask;
	HashFn hash;
	long probes, lookups;
} Index;

#define EMPTY 0xFFFFFFFFu

static NOINLINE void index_build(Index *ix, const uint32_t *keys, size_t stride, uint32_t n, HashFn hash)
{
	uint32_t cap = 16, i;
	while (cap < 2 * n)
		cap <<= 1;
	ix->keys = xcalloc(cap, sizeof(uint32_t));
	ix->rows = xcalloc(cap, sizeof(uint32_t));
	ix->mask = cap - 1;
	ix->hash = hash;
	ix->probes = ix->lookups = 0;
	memset(ix->keys, 0xff, cap * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		uint32_t k = *(const uint32_t *)((const char *)keys + (size_t)i * stride);
		uint32_t h = hash(k) & ix->mask;
		while (ix->keys[h] != EMPTY)
			h = (h + 1) & ix->mask;
		ix->keys[h] = k;
		ix->rows[h] = i;
	}
}

static NOINLINE uint32_t index_find(Index *ix, uint32_t key)
{
	uint32_t h = ix->hash(key) & ix->mask;
	ix->lookups++;
	for (;;) {
		ix->probes++;
		if (ix->keys[h] == key)
			return ix->rows[h];
		if (ix->keys[h] == EMPTY)
			return EMPTY;
		h = (h + 1) & ix->mask;
	}
}

static void index_free(Index *ix)
{
	free(ix->keys);
	free(ix->rows);
}

/* ---------- chained hash aggregation: group key -> accumulators ---------- */

typedef struct Group {
	uint64_t key;
	int64_t sum, count, qty;
	struct Group *next;
} Group;

typedef struct {
	Group **buckets;
	uint32_t nbuckets, ngroups;
	Group *pool;
	uint32_t pool_used, pool_cap;
} Agg;

static void agg_init(Agg *a, uint32_t nbuckets, uint32_t max_groups)
{
	a->buckets = xcalloc(nbuckets, sizeof(Group *));
	a->nbuckets = nbuckets;
	a->ngroups = 0;
	a->pool = xcalloc(max_groups, sizeof(Group));
	a->pool_used = 0;
	a->pool_cap = max_groups;
}

static NOINLINE Group *agg_group(Agg *a, uint64_t key)
{
	uint32_t b = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 40) % a->nbuckets;
	Group *g;
	for (g = a->buckets[b]; g; g = g->next)
		if (g->key == key)
			return g;
	if (a->pool_used == a->pool_cap) {
		printf("too many groups\n");
		exit(2);
	}
	g = &a->pool[a->pool_used++];
	g->key = key;
	g->next = a->buckets[b];
	a->buckets[b] = g;
	a->ngroups++;
	return g;
}

static void agg_free(Agg *a)
{
	free(a->buckets);
	free(a->pool);
}

static int cmp_group_key(const void *x, const void *y)
{
	const Group *a = x, *b = y;
	return a->key < b->key ? -1 : a->key > b->key;
}

static int cmp_group_sum_desc(const void *x, const void *y)
{
	const Group *a = x, *b = y;
	if (a->sum != b->sum)
		return a->sum > b->sum ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
	return h;
}

static int64_t revenue(const Order *o, const Product *p)
{
	return (int64_t)o->qty * p->price * (100 - o->discount);
}

/* ---------- predicates (function pointers) ---------- */

typedef int (*OrderPred)(const Order *);

static int pred_all(const Order *o) { (void)o; return 1; }
static int pred_first_half(const Order *o) { return o->day < 183; }
static int pred_discounted(const Order *o) { return o->discount > 0; }
static int pred_bulk(const Order *o) { return o->qty >= 3; }

/* ---------- queries ---------- */

/* Q1: orders JOIN customers GROUP BY region */
static NOINLINE uint64_t q1(const Db *db, HashFn hash, OrderPred pred, int64_t sums[REGIONS], int64_t counts[REGIONS])
{
	Index ix;
	uint32_t i;
	uint64_t h = 0;
	int r;
	index_build(&ix, &db->c[0].id, sizeof(Customer), db->nc, hash);
	for (r = 0; r < REGIONS; r++)
		sums[r] = counts[r] = 0;
	for (i = 0; i < db->no; i++) {
		const Order *o = &db->o[i];
		uint32_t row;
		if (!pred(o))
			continue;
		row = index_find(&ix, o->customer);
		if (row == EMPTY)
			continue;
		sums[db->c[row].region] += o->qty;
		counts[db->c[row].region]++;
	}
	for (r = 0; r < REGIONS; r++)
		h = mix(mix(h, (uint64_t)sums[r]), (uint64_t)counts[r]);
	index_free(&ix);
	return h;
}

/* Q1 again by sort-merge join */
typedef struct {
	uint32_t key, val;
} KV;

static int cmp_kv(const void *x, const void *y)
{
	const KV *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->val < b->val ? -1 : a->val > b->val;
}

static NOINLINE void q1_merge(const Db *db, OrderPred pred, int64_t sums[REGIONS], int64_t counts[REGIONS])
{
	KV *l = xcalloc(db->no, sizeof(KV)), *r = xcalloc(db->nc, sizeof(KV));
	uint32_t nl = 0, i, j = 0;
	int k;
	for (i = 0; i < db->no; i++)
		if (pred(&db->o[i])) {
			l[nl].key = db->o[i].customer;
			l[nl].val = db->o[i].qty;
			nl++;
		}
	for (i = 0; i < db->nc; i++) {
		r[i].key = db->c[i].id;
		r[i].val = db->c[i].region;
	}
	qsort(l, nl, sizeof(KV), cmp_kv);
	qsort(r, db->nc, sizeof(KV), cmp_kv);
	for (k = 0; k < REGIONS; k++)
		sums[k] = counts[k] = 0;
	for (i = 0; i < nl; i++) {
		while (j < db->nc && r[j].key < l[i].key)
			j++;
		if (j < db->nc && r[j].key == l[i].key) {
			sums[r[j].val] += l[i].val;
			counts[r[j].val]++;
		}
	}
	free(l);
	free(r);
}

/* Q2: orders JOIN products WHERE category % m == k GROUP BY brand */
static NOINLINE uint64_t q2(const Db *db, HashFn hash, uint32_t m, uint32_t k, long *groups)
{
	Index ix;
	Agg a;
	uint32_t i;
	uint64_t h = 0;
	index_build(&ix, &db->p[0].id, sizeof(Product), db->np, hash);
	agg_init(&a, 64, BRANDS);
	for (i = 0; i < db->no; i++) {
		const Order *o = &db->o[i];
		uint32_t row = index_find(&ix, o->product);
		const Product *p;
		Group *g;
		if (row == EMPTY)
			continue;
		p = &db->p[row];
		if (p->category % m != k)
			continue;
		g = agg_group(&a, p->brand);
		g->sum += revenue(o, p);
		g->qty += o->qty;
		g->count++;
	}
	qsort(a.pool, a.pool_used, sizeof(Group), cmp_group_key);
	for (i = 0; i < a.pool_used; i++)
		h = mix(mix(mix(h, a.pool[i].key), (uint64_t)a.pool[i].sum), (uint64_t)a.pool[i].qty);
	*groups = a.ngroups;
	agg_free(&a);
	index_free(&ix);
	return h;
}

/* Q3: three-way join, GROUP BY (segment, category), top 10 by revenue */
static NOINLINE uint64_t q3(const Db *db, HashFn hc, HashFn hp, OrderPred pred, int print)
{
	Index ic, ip;
	Agg a;
	uint32_t i;
	uint64_t h = 0;
	index_build(&ic, &db->c[0].id, sizeof(Customer), db->nc, hc);
	index_build(&ip, &db->p[0].id, sizeof(Product), db->np, hp);
	agg_init(&a, 97, SEGMENTS * CATEGORIES);
	for (i = 0; i < db->no; i++) {
		const Order *o = &db->o[i];
		uint32_t rc, rp;
		Group *g;
		if (!pred(o))
			continue;
		rc = index_find(&ic, o->customer);
		if (rc == EMPTY)
			continue;
		rp = index_find(&ip, o->product);
		if (rp == EMPTY)
			continue;
		g = agg_group(&a, (uint64_t)db->c[rc].segment * 1000 + db->p[rp].category);
		g->sum += revenue(o, &db->p[rp]);
		g->qty += o->qty;
		g->count++;
	}
	qsort(a.pool, a.pool_used, sizeof(Group), cmp_group_sum_desc);
	for (i = 0; i < a.pool_used && i < 10; i++) {
		if (print)
			printf("    segment %llu category %2llu: revenue %lld, %lld orders\n",
			       (unsigned long long)(a.pool[i].key / 1000), (unsigned long long)(a.pool[i].key % 1000),
			       (long long)a.pool[i].sum, (long long)a.pool[i].count);
		h = mix(mix(h, a.pool[i].key), (uint64_t)a.pool[i].sum);
	}
	agg_free(&a);
	index_free(&ic);
	index_free(&ip);
	return h;
}

/* Q4: COUNT(DISTINCT customer) per category, with one hash set per category */
static NOINLINE void q4(const Db *db, HashFn hash, uint32_t distinct[CATEGORIES])
{
	Index ip;
	uint32_t cap = 16, *sets, i, c;
	while (cap < 2 * db->nc)
		cap <<= 1;
	index_build(&ip, &db->p[0].id, sizeof(Product), db->np, hash);
	sets = xcalloc((size_t)cap * CATEGORIES, sizeof(uint32_t));
	memset(sets, 0xff, (size_t)cap * CATEGORIES * sizeof(uint32_t));
	for (c = 0; c < CATEGORIES; c++)
		distinct[c] = 0;
	for (i = 0; i < db->no; i++) {
		const Order *o = &db->o[i];
		uint32_t rp = index_find(&ip, o->product), *set, h;
		if (rp == EMPTY)
			continue;
		c = db->p[rp].category;
		set = sets + (size_t)c * cap;
		h = hash(o->customer) & (cap - 1);
		while (set[h] != EMPTY && set[h] != o->customer)
			h = (h + 1) & (cap - 1);
		if (set[h] == EMPTY) {
			set[h] = o->customer;
			distinct[c]++;
		}
	}
	free(sets);
	index_free(&ip);
}

static NOINLINE void q4_sort(const Db *db, uint32_t distinct[CATEGORIES])
{
	KV *pairs = xcalloc(db->no, sizeof(KV)), *prod = xcalloc(db->np, sizeof(KV));
	uint32_t i, n = 0, c;
	for (i = 0; i < db->np; i++) {
		prod[i].key = db->p[i].id;
		prod[i].val = db->p[i].category;
	}
	qsort(prod, db->np, sizeof(KV), cmp_kv);
	for (i = 0; i < db->no; i++) {
		/* binary search the product's category */
		uint32_t lo = 0, hi = db->np;
		while (lo < hi) {
			uint32_t mid = (lo + hi) / 2;
			if (prod[mid].key < db->o[i].product)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < db->np && prod[lo].key == db->o[i].product) {
			pairs[n].key = prod[lo].val;
			pairs[n].val = db->o[i].customer;
			n++;
		}
	}
	qsort(pairs, n, sizeof(KV), cmp_kv);
	for (c = 0; c < CATEGORIES; c++)
		distinct[c] = 0;
	for (i = 0; i < n; i++)
		if (i == 0 || pairs[i].key != pairs[i - 1].key || pairs[i].val != pairs[i - 1].val)
			distinct[pairs[i].key]++;
	free(pairs);
	free(prod);
}

int main(int argc, char **argv)
{
	static const HashFn hashes[] = { hash_mult, hash_murmur, hash_crc_like };
	static const OrderPred preds[] = { pred_all, pred_first_half, pred_discounted, pred_bulk };
	static const char *pred_names[] = { "all", "first-half", "discounted", "bulk" };
	uint32_t no, nc, np;
	int rounds, r, k, failures = 0;
	uint64_t checksum = 0;
	Db db;

	if (argc != 5) {
		printf("usage: hashjoin ORDERS CUSTOMERS PRODUCTS ROUNDS\n");
		return 2;
	}
	no = (uint32_t)atol(argv[1]);
	nc = (uint32_t)atol(argv[2]);
	np = (uint32_t)atol(argv[3]);
	rounds = atoi(argv[4]);
	if (no < 10 || nc < 10 || np < 10 || no > 50000000 || nc > 10000000 || np > 10000000 || rounds < 1) {
		printf("bad arguments\n");
		return 2;
	}
	generate(&db, no, nc, np);
	printf("tables: %u orders, %u customers, %u products\n", no, nc, np);
	for (r = 0; r < rounds; r++) {
		HashFn hash = hashes[r % 3];
		OrderPred pred = preds[r % 4];
		int64_t s1[REGIONS], c1[REGIONS], s2[REGIONS], c2[REGIONS];
		uint32_t d1[CATEGORIES], d2[CATEGORIES];
		uint64_t h1, h2, h3;
		long groups;
		printf("round %d (filter %s):\n", r, pred_names[r % 4]);
		h1 = q1(&db, hash, pred, s1, c1);
		q1_merge(&db, pred, s2, c2);
		if (memcmp(s1, s2, sizeof s1) != 0 || memcmp(c1, c2, sizeof c1) != 0) {
			printf("  Q1: hash join and merge join disagree\n");
			failures++;
		}
		printf("  Q1 qty by region:");
		for (k = 0; k < REGIONS; k++)
			printf(" %lld/%lld", (long long)s1[k], (long long)c1[k]);
		printf("\n");
		h2 = q2(&db, hashes[(r + 1) % 3], 3, (uint32_t)r % 3, &groups);
		printf("  Q2 hash %016llx, %ld brands\n", (unsigned long long)h2, groups);
		printf("  Q3 top groups:\n");
		h3 = q3(&db, hash, hashes[(r + 2) % 3], pred, 1);
		q4(&db, hash, d1);
		q4_sort(&db, d2);
		if (memcmp(d1, d2, sizeof d1) != 0) {
			printf("  Q4: hash sets and sorting disagree\n");
			failures++;
		}
		printf("  Q4 distinct customers per category:");
		for (k = 0; k < CATEGORIES; k++)
			printf(" %u", d1[k]);
		printf("\n");
		checksum = mix(checksum, h1);
		checksum = mix(checksum, h2);
		checksum = mix(checksum, h3);
		for (k = 0; k < CATEGORIES; k++)
			checksum = mix(checksum, d1[k]);
	}
	free(db.c);
	free(db.p);
	free(db.o);
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
