/*
 * gametree - game-tree search on Connect-4 (rvsim benchmark).
 *
 * Models game players such as SPEC's crafty/sjeng/gobmk: bitboards,
 * negamax alpha-beta with a transposition table, iterative deepening,
 * move ordering, and evaluation functions reached through function
 * pointers (each side plays with a different evaluator).
 *
 * Phases: (1) perft: counting leaf positions of the move tree, (2) engine
 * self-play games with iterative deepening and a transposition table,
 * (3) verification: alpha-beta without tables against plain minimax on
 * random positions (the values must agree).
 *
 * usage: gametree PERFT_DEPTH GAMES SEARCH_DEPTH VERIFY_POSITIONS VERIFY_DEPTH
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

#define WIDTH 7
#define HEIGHT 6
#define H1 (HEIGHT + 1)
#define WIN_SCORE 100000
#define INF 1000000

typedef uint64_t Bits;

/* ---------- deterministic PRNG (splitmix64) ---------- */

static uint64_t rng_state = 42;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n) { return (unsigned)(rng_next() % n); }

/* ---------- board ---------- */

/* Column c occupies bits c*H1 .. c*H1+5; bit c*H1+6 is a guard. `cur` holds
 * the stones of the side to move, `mask` all stones. */
typedef struct {
	Bits cur, mask;
	int moves;
} Board;

static Bits bottom_mask(int c) { return (Bits)1 << (c * H1); }
static Bits top_mask(int c) { return (Bits)1 << (c * H1 + HEIGHT - 1); }
static Bits column_mask(int c) { return (((Bits)1 << HEIGHT) - 1) << (c * H1); }

static int can_play(const Board *b, int c) { return (b->mask & top_mask(c)) == 0; }

static void play(Board *b, int c)
{
	b->cur ^= b->mask;
	b->mask |= b->mask + bottom_mask(c);
	b->moves++;
}

static int is_win(Bits p)
{
	Bits m = p & (p >> H1); /* horizontal */
	if (m & (m >> (2 * H1)))
		return 1;
	m = p & (p >> (H1 - 1)); /* diagonal \ */
	if (m & (m >> (2 * (H1 - 1))))
		return 1;
	m = p & (p >> (H1 + 1)); /* diagonal / */
	if (m & (m >> (2 * (H1 + 1))))
		return 1;
	m = p & (p >> 1); /* vertical */
	if (m & (m >> 2))
		return 1;
	return 0;
}

/* Does playing column c win for the side to move? */
static int winning_move(const Board *b, int c)
{
	Bits p = b->cur | ((b->mask + bottom_mask(c)) & column_mask(c));
	return is_win(p);
}

static uint64_t board_key(const Board *b) { return b->cur + b->mask; }

/* ---------- evaluation (called through function pointers) ---------- */

#define NLINES 69
static Bits lines[NLINES];
static int nlines;

static void init_lines(void)
{
	static const int dirs[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
	int c, r, d, k;
	for (c = 0; c < WIDTH; c++)
		for (r = 0; r < HEIGHT; r++)
			for (d = 0; d < 4; d++) {
				int ec = c + 3 * dirs[d][0], er = r + 3 * dirs[d][1];
				Bits line = 0;
				if (ec < 0 || ec >= WIDTH || er < 0 || er >= HEIGHT)
					continue;
				for (k = 0; k < 4; k++)
					line |= (Bits)1 << ((c + k * dirs[d][0]) * H1 + r + k * dirs[d][1]);
				lines[nlines++] = line;
			}
}

static int popcount(Bits x) { return __builtin_popcountll(x); }

typedef int (*EvalFn)(const Board *);

static long eval_calls;

/* Open lines: a line with only one side's stones is worth more the fuller it is. */
static NOINLINE int eval_lines(const Board *b)
{
	static const int weight[5] = { 0, 1, 8, 64, 0 };
	Bits me = b->cur, opp = b->cur ^ b->mask;
	int s = 0, i;
	eval_calls++;
	for (i = 0; i < nlines; i++) {
		Bits l = lines[i];
		if (!(l & opp))
			s += weight[popcount(l & me)];
		else if (!(l & me))
			s -= weight[popcount(l & opp)];
	}
	return s;
}

/* Positional: stones near the centre and low count for more. */
static NOINLINE int eval_center(const Board *b)
{
	static const int colw[WIDTH] = { 1, 2, 4, 6, 4, 2, 1 };
	Bits me = b->cur, opp = b->cur ^ b->mask;
	int s = 0, c;
	eval_calls++;
	for (c = 0; c < WIDTH; c++) {
		Bits cm = column_mask(c);
		s += colw[c] * (popcount(me & cm) - popcount(opp & cm));
	}
	return s * 3 + (eval_lines(b) >> 1);
}

/* ---------- transposition table ---------- */

enum { TT_EXACT, TT_LOWER, TT_UPPER };

typedef struct {
	uint64_t key;
	int32_t value;
	int8_t depth, flag, move, used;
} TTEntry;

#define TT_BITS 16
static TTEntry tt[1 << TT_BITS];
static long tt_probes, tt_hits, tt_stores;

static TTEntry *tt_slot(uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ULL;
	return &tt[h >> (64 - TT_BITS)];
}

/* ---------- search ---------- */

static const int order[WIDTH] = { 3, 2, 4, 1, 5, 0, 6 };
static long nodes;
static int history[2][WIDTH];

static NOINLINE int negamax(const Board *b, int depth, int alpha, int beta, EvalFn eval, int ply)
{
	int moves[WIDTH], nm = 0, i, best = -INF, best_move = -1, alpha0 = alpha;
	TTEntry *e;
	uint64_t key;

	nodes++;
	if (b->moves == WIDTH * HEIGHT)
		return 0;
	for (i = 0; i < WIDTH; i++)
		if (can_play(b, i) && winning_move(b, i))
			return WIN_SCORE - ply;
	if (depth == 0)
		return eval(b);

	key = board_key(b);
	e = tt_slot(key);
	tt_probes++;
	if (e->used && e->key == key) {
		tt_hits++;
		if (e->depth >= depth) {
			if (e->flag == TT_EXACT)
				return e->value;
			if (e->flag == TT_LOWER && e->value > alpha)
				alpha = e->value;
			else if (e->flag == TT_UPPER && e->value < beta)
				beta = e->value;
			if (alpha >= beta)
				return e->value;
		}
		if (e->move >= 0 && can_play(b, e->move))
			moves[nm++] = e->move;
	}
	/* remaining moves: centre first, then by history score (insertion sort) */
	{
		int start = nm, side = b->moves & 1;
		for (i = 0; i < WIDTH; i++) {
			int c = order[i], j;
			if (!can_play(b, c) || (start && c == moves[0]))
				continue;
			j = nm++;
			while (j > start && history[side][moves[j - 1]] < history[side][c]) {
				moves[j] = moves[j - 1];
				j--;
			}
			moves[j] = c;
		}
	}
	for (i = 0; i < nm; i++) {
		Board child = *b;
		int v;
		play(&child, moves[i]);
		v = -negamax(&child, depth - 1, -beta, -alpha, eval, ply + 1);
		if (v > best) {
			best = v;
			best_move = moves[i];
		}
		if (v > alpha)
			alpha = v;
		if (alpha >= beta) {
			history[b->moves & 1][moves[i]] += depth * depth;
			break;
		}
	}
	tt_stores++;
	e->key = key;
	e->value = best;
	e->depth = (int8_t)depth;
	e->move = (int8_t)best_move;
	e->used = 1;
	e->flag = best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT;
	return best;
}

/* Plain alpha-beta, no tables and fixed move order: used to verify. */
static NOINLINE int alphabeta_plain(const Board *b, int depth, int alpha, int beta, EvalFn eval, int ply)
{
	int c, best = -INF;
	nodes++;
	if (b->moves == WIDTH * HEIGHT)
		return 0;
	for (c = 0; c < WIDTH; c++)
		if (can_play(b, c) && winning_move(b, c))
			return WIN_SCORE - ply;
	if (depth == 0)
		return eval(b);
	for (c = 0; c < WIDTH; c++) {
		Board child;
		int v;
		if (!can_play(b, c))
			continue;
		child = *b;
		play(&child, c);
		v = -alphabeta_plain(&child, depth - 1, -beta, -alpha, eval, ply + 1);
		if (v > best)
			best = v;
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			break;
	}
	return best;
}

/* Plain minimax (negamax without pruning): the reference. */
static NOINLINE int minimax(const Board *b, int depth, EvalFn eval, int ply)
{
	int c, best = -INF;
	nodes++;
	if (b->moves == WIDTH * HEIGHT)
		return 0;
	for (c = 0; c < WIDTH; c++)
		if (can_play(b, c) && winning_move(b, c))
			return WIN_SCORE - ply;
	if (depth == 0)
		return eval(b);
	for (c = 0; c < WIDTH; c++) {
		Board child;
		int v;
		if (!can_play(b, c))
			continue;
		child = *b;
		play(&child, c);
		v = -minimax(&child, depth - 1, eval, ply + 1);
		if (v > best)
			best = v;
	}
	return best;
}

static NOINLINE int search_root(const Board *b, int max_depth, EvalFn eval, int *score)
{
	int depth, best_move = -1;
	for (depth = 1; depth <= max_depth; depth++) {
		int c, alpha = -INF, beta = INF, best = -INF, i;
		for (i = 0; i < WIDTH; i++) {
			Board child;
			int v;
			c = order[i];
			if (!can_play(b, c))
				continue;
			if (winning_move(b, c)) {
				*score = WIN_SCORE;
				return c;
			}
			child = *b;
			play(&child, c);
			v = -negamax(&child, depth - 1, -beta, -alpha, eval, 1);
			if (v > best) {
				best = v;
				best_move = c;
			}
			if (v > alpha)
				alpha = v;
		}
		*score = best;
		if (best >= WIN_SCORE - 64 || best <= -WIN_SCORE + 64)
			break;
	}
	return best_move;
}

/* ---------- perft ---------- */

static NOINLINE uint64_t perft(const Board *b, int depth)
{
	uint64_t n = 0;
	int c;
	if (depth == 0)
		return 1;
	for (c = 0; c < WIDTH; c++) {
		Board child;
		if (!can_play(b, c))
			continue;
		if (winning_move(b, c)) { /* game ends here */
			n++;
			continue;
		}
		child = *b;
		play(&child, c);
		n += perft(&child, depth - 1);
	}
	return n;
}

/* ---------- driver ---------- */

static uint64_t checksum = 0xcbf29ce484222325ULL;

static void mix(int64_t v)
{
	checksum ^= (uint64_t)v;
	checksum *= 0x100000001b3ULL;
	checksum ^= checksum >> 29;
}

static void random_position(Board *b, int plies)
{
	int i;
	memset(b, 0, sizeof *b);
	for (i = 0; i < plies; i++) {
		int c, tries = 0;
		do {
			c = rng_below(WIDTH);
		} while ((!can_play(b, c) || winning_move(b, c)) && ++tries < 50);
		if (tries >= 50)
			break;
		play(b, c);
	}
}

int main(int argc, char **argv)
{
	int perft_depth, games, depth, verify_n, verify_depth, g, i, failures = 0;
	const EvalFn evals[2] = { eval_lines, eval_center };
	int wins[3] = { 0, 0, 0 };
	uint64_t pn;
	Board b;

	if (argc != 6) {
		printf("usage: gametree PERFT_DEPTH GAMES SEARCH_DEPTH VERIFY_POSITIONS VERIFY_DEPTH\n");
		return 2;
	}
	perft_depth = atoi(argv[1]);
	games = atoi(argv[2]);
	depth = atoi(argv[3]);
	verify_n = atoi(argv[4]);
	verify_depth = atoi(argv[5]);
	if (perft_depth < 0 || perft_depth > 12 || games < 0 || depth < 1 || depth > 20 ||
	    verify_n < 0 || verify_depth < 1 || verify_depth > 10) {
		printf("bad arguments\n");
		return 2;
	}
	init_lines();
	if (nlines != NLINES) {
		printf("line table has %d entries, want %d\n", nlines, NLINES);
		return 1;
	}

	/* phase 1: perft */
	memset(&b, 0, sizeof b);
	pn = perft(&b, perft_depth);
	printf("perft(%d) = %llu\n", perft_depth, (unsigned long long)pn);
	mix((int64_t)pn);
	{
		/* known leaf counts of the empty board (no game ends before ply 7) */
		static const uint64_t known[] = { 1, 7, 49, 343, 2401, 16807, 117649 };
		if (perft_depth < 7 && pn != known[perft_depth]) {
			printf("perft mismatch\n");
			failures++;
		}
	}

	/* phase 2: self-play */
	for (g = 0; g < games; g++) {
		int score = 0, result = 2;
		long start_nodes = nodes;
		random_position(&b, 2 + (g % 3));
		while (b.moves < WIDTH * HEIGHT) {
			int side = b.moves & 1;
			int c = search_root(&b, depth - (side ? 1 : 0), evals[side], &score);
			if (c < 0 || !can_play(&b, c)) {
				printf("illegal move\n");
				failures++;
				break;
			}
			mix(c);
			mix(score);
			if (winning_move(&b, c)) {
				result = side;
				play(&b, c);
				break;
			}
			play(&b, c);
		}
		wins[result]++;
		printf("game %d: %s after %d moves, %ld nodes\n", g,
		       result == 2 ? "draw" : result == 0 ? "first player wins" : "second player wins",
		       b.moves, nodes - start_nodes);
	}

	/* phase 3: verification against minimax */
	for (i = 0; i < verify_n; i++) {
		int plies = 4 + (int)rng_below(16);
		int vm, va, vt;
		EvalFn ev = evals[i & 1];
		random_position(&b, plies);
		vm = minimax(&b, verify_depth, ev, 0);
		va = alphabeta_plain(&b, verify_depth, -INF, INF, ev, 0);
		memset(tt, 0, sizeof tt);
		vt = negamax(&b, verify_depth, -INF, INF, ev, 0);
		if (vm != va || vm != vt) {
			printf("verify %d: minimax %d alphabeta %d tt %d\n", i, vm, va, vt);
			failures++;
		}
		mix(vm);
	}
	printf("wins: first %d second %d draws %d\n", wins[0], wins[1], wins[2]);
	printf("nodes %ld, evals %ld, tt probes %ld hits %ld stores %ld\n", nodes, eval_calls,
	       tt_probes, tt_hits, tt_stores);
	printf("verify failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
