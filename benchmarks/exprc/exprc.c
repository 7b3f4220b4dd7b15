/*
 * exprc - an expression compiler and optimizer (rvsim benchmark).
 *
 * Models compilers such as SPEC's gcc in miniature. For each batch it
 *   1. generates the source text of straight-line blocks of assignments
 *      ("c = (a + 3) * b - d >> 2;"), with deliberately repeated
 *      subexpressions and constants,
 *   2. tokenizes and parses them (recursive descent) into ASTs,
 *   3. folds constants and applies algebraic identities,
 *   4. value-numbers the block into three-address code (CSE) and removes
 *      dead code,
 *   5. allocates registers by linear scan (few registers, so it spills),
 *   6. runs the code on a register VM whose opcodes are dispatched through
 *      a table of function pointers, for many input vectors,
 *   7. checks every result against a tree-walking evaluator of the
 *      unoptimized AST.
 *
 * usage: exprc BATCHES BLOCKS_PER_BATCH STATEMENTS RUNS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

/* ---------- deterministic PRNG (xorshift64*) ---------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static unsigned rng_below(unsigned n) { return (unsigned)((rng_next() >> 33) % n); }

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

/* ---------- operators ---------- */

enum Op { O_CONST, O_VAR, O_NEG, O_NOT, O_ADD, O_SUB, O_MUL, O_DIV, O_MOD,
          O_AND, O_OR, O_XOR, O_SHL, O_SHR, NUM_OPS };

static const char *op_names[NUM_OPS] = { "const", "var", "neg", "not", "+", "-", "*", "/",
                                          "%", "&", "|", "^", "<<", ">>" };

typedef int64_t (*BinFn)(int64_t, int64_t);

/* Wrapping semantics with defined division by zero, shared by every stage. */
static int64_t f_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t f_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t f_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static int64_t f_div(int64_t a, int64_t b)
{
	if (b == 0)
		return -1;
	if (a == INT64_MIN && b == -1)
		return a;
	return a / b;
}
static int64_t f_mod(int64_t a, int64_t b)
{
	if (b == 0)
		return a;
	if (a == INT64_MIN && b == -1)
		return 0;
	return a % b;
}
static int64_t f_and(int64_t a, int64_t b) { return a & b; }
static int64_t f_or(int64_t a, int64_t b) { return a | b; }
static int64_t f_xor(int64_t a, int64_t b) { return a ^ b; }
static int64_t f_shl(int64_t a, int64_t b) { return (int64_t)((uint64_t)a << (b & 63)); }
static int64_t f_shr(int64_t a, int64_t b) { return a >> (b & 63); }

static const BinFn bin_fn[NUM_OPS] = {
	[O_ADD] = f_add, [O_SUB] = f_sub, [O_MUL] = f_mul, [O_DIV] = f_div, [O_MOD] = f_mod,
	[O_AND] = f_and, [O_OR] = f_or, [O_XOR] = f_xor, [O_SHL] = f_shl, [O_SHR] = f_shr,
};

static int64_t apply_unary(int op, int64_t a)
{
	return op == O_NEG ? (int64_t)(0 - (uint64_t)a) : ~a;
}

/* ---------- source generation ---------- */

#define NVARS 12

typedef struct {
	char *buf;
	size_t len, cap;
} Text;

static void text_put(Text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->buf = realloc(t->buf, t->cap);
		if (!t->buf) {
			printf("out of memory\n");
			exit(2);
		}
	}
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
}

/* A few recently generated subexpressions are reused verbatim. */
#define REUSE 8
static char reuse_pool[REUSE][96];

static const int gen_ops[] = { O_ADD, O_ADD, O_SUB, O_MUL, O_MUL, O_DIV, O_MOD, O_AND,
                               O_OR, O_XOR, O_SHL, O_SHR };
static const int64_t common_consts[] = { 0, 1, 2, 3, 4, 7, 8, 16, 255, 1000 };

static NOINLINE void gen_expr(Text *t, int depth)
{
	char tmp[32];
	unsigned r = rng_below(100);
	if (depth <= 0 || r < 15) {
		if (rng_below(3) == 0) {
			int64_t c = rng_below(4) ? common_consts[rng_below(10)] : (int64_t)rng_below(100000);
			snprintf(tmp, sizeof tmp, "%lld", (long long)c);
		} else {
			snprintf(tmp, sizeof tmp, "%c", 'a' + rng_below(NVARS));
		}
		text_put(t, tmp);
		return;
	}
	if (r < 25 && reuse_pool[r % REUSE][0]) {
		text_put(t, reuse_pool[r % REUSE]);
		return;
	}
	if (r < 30) {
		text_put(t, rng_below(2) ? "-" : "~");
		text_put(t, "(");
		gen_expr(t, depth - 1);
		text_put(t, ")");
		return;
	}
	{
		size_t start = t->len;
		int op = gen_ops[rng_below(sizeof gen_ops / sizeof gen_ops[0])];
		text_put(t, "(");
		gen_expr(t, depth - 1);
		text_put(t, " ");
		text_put(t, op_names[op]);
		text_put(t, " ");
		if (op == O_SHL || op == O_SHR) {
			snprintf(tmp, sizeof tmp, "%u", rng_below(13));
			text_put(t, tmp);
		} else {
			gen_expr(t, depth - 1);
		}
		text_put(t, ")");
		if (t->len - start < sizeof reuse_pool[0] && rng_below(4) == 0) {
			char *slot = reuse_pool[rng_below(REUSE)];
			memcpy(slot, t->buf + start, t->len - start);
			slot[t->len - start] = 0;
		}
	}
}

static NOINLINE char *gen_block(int statements)
{
	Text t = { 0, 0, 0 };
	char tmp[8];
	int i;
	memset(reuse_pool, 0, sizeof reuse_pool);
	text_put(&t, "");
	for (i = 0; i < statements; i++) {
		snprintf(tmp, sizeof tmp, "%c = ", 'a' + rng_below(NVARS));
		text_put(&t, tmp);
		gen_expr(&t, 2 + rng_below(4));
		text_put(&t, ";\n");
	}
	return t.buf;
}

/* ---------- lexer and parser ---------- */

typedef struct Node Node;
struct Node {
	int op;
	int64_t value; /* O_CONST: value; O_VAR: variable index */
	Node *l, *r;
};

enum Tok { K_EOF, K_NUM, K_VAR, K_OP, K_LP, K_RP, K_ASSIGN, K_SEMI, K_ERR };

typedef struct {
	const char *p;
	int kind;
	int op;
	int64_t num;
	int line;
} Lexer;

static NOINLINE void next_token(Lexer *lx)
{
	const char *p = lx->p;
	while (*p == ' ' || *p == '\n' || *p == '\t') {
		if (*p == '\n')
			lx->line++;
		p++;
	}
	lx->op = -1;
	if (*p == 0) {
		lx->kind = K_EOF;
	} else if (*p >= '0' && *p <= '9') {
		int64_t v = 0;
		while (*p >= '0' && *p <= '9')
			v = v * 10 + (*p++ - '0');
		lx->kind = K_NUM;
		lx->num = v;
		lx->p = p;
		return;
	} else if (*p >= 'a' && *p < 'a' + NVARS) {
		lx->kind = K_VAR;
		lx->num = *p - 'a';
	} else {
		lx->kind = K_OP;
		switch (*p) {
		case '+': lx->op = O_ADD; break;
		case '-': lx->op = O_SUB; break;
		case '*': lx->op = O_MUL; break;
		case '/': lx->op = O_DIV; break;
		case '%': lx->op = O_MOD; break;
		case '&': lx->op = O_AND; break;
		case '|': lx->op = O_OR; break;
		case '^': lx->op = O_XOR; break;
		case '~': lx->op = O_NOT; break;
		case '<':
		case '>':
			if (p[1] != p[0]) {
				lx->kind = K_ERR;
				break;
			}
			lx->op = *p == '<' ? O_SHL : O_SHR;
			p++;
			break;
		case '(': lx->kind = K_LP; break;
		case ')': lx->kind = K_RP; break;
		case '=': lx->kind = K_ASSIGN; break;
		case ';': lx->kind = K_SEMI; break;
		default: lx->kind = K_ERR;
		}
	}
	lx->p = p + (*p != 0);
}

static int parse_errors;

static Node *new_node(int op, int64_t value, Node *l, Node *r)
{
	Node *n = xmalloc(sizeof *n);
	n->op = op;
	n->value = value;
	n->l = l;
	n->r = r;
	return n;
}

static void free_tree(Node *n)
{
	if (!n)
		return;
	free_tree(n->l);
	free_tree(n->r);
	free(n);
}

static NOINLINE Node *clone_tree(const Node *n)
{
	if (!n)
		return NULL;
	return new_node(n->op, n->value, clone_tree(n->l), clone_tree(n->r));
}

static int binary_prec(int op)
{
	switch (op) {
	case O_OR: return 1;
	case O_XOR: return 2;
	case O_AND: return 3;
	case O_SHL: case O_SHR: return 4;
	case O_ADD: case O_SUB: return 5;
	case O_MUL: case O_DIV: case O_MOD: return 6;
	default: return 0;
	}
}

static Node *parse_expr(Lexer *lx, int min_prec);

static NOINLINE Node *parse_unary(Lexer *lx)
{
	Node *n;
	if (lx->kind == K_OP && (lx->op == O_SUB || lx->op == O_NOT)) {
		int op = lx->op == O_SUB ? O_NEG : O_NOT;
		next_token(lx);
		return new_node(op, 0, parse_unary(lx), NULL);
	}
	switch (lx->kind) {
	case K_NUM:
		n = new_node(O_CONST, lx->num, NULL, NULL);
		next_token(lx);
		return n;
	case K_VAR:
		n = new_node(O_VAR, lx->num, NULL, NULL);
		next_token(lx);
		return n;
	case K_LP:
		next_token(lx);
		n = parse_expr(lx, 1);
		if (lx->kind != K_RP)
			parse_errors++;
		else
			next_token(lx);
		return n;
	default:
		parse_errors++;
		next_token(lx);
		return new_node(O_CONST, 0, NULL, NULL);
	}
}

/* Precedence climbing; all binary operators are left associative. */
static NOINLINE Node *parse_expr(Lexer *lx, int min_prec)
{
	Node *lhs = parse_unary(lx);
	while (lx->kind == K_OP && binary_prec(lx->op) >= min_prec) {
		int op = lx->op, prec = binary_prec(op);
		Node *rhs;
		next_token(lx);
		rhs = parse_expr(lx, prec + 1);
		lhs = new_node(op, 0, lhs, rhs);
	}
	return lhs;
}

typedef struct {
	int nstmt;
	int target[64];
	Node *expr[64];
} Block;

static NOINLINE void parse_block(const char *src, Block *b)
{
	Lexer lx = { src, 0, 0, 0, 1 };
	b->nstmt = 0;
	next_token(&lx);
	while (lx.kind != K_EOF && b->nstmt < 64) {
		if (lx.kind != K_VAR) {
			parse_errors++;
			break;
		}
		b->target[b->nstmt] = (int)lx.num;
		next_token(&lx);
		if (lx.kind != K_ASSIGN)
			parse_errors++;
		next_token(&lx);
		b->expr[b->nstmt++] = parse_expr(&lx, 1);
		if (lx.kind != K_SEMI)
			parse_errors++;
		next_token(&lx);
	}
}

/* ---------- reference evaluator (tree walking, unoptimized AST) ---------- */

static NOINLINE int64_t eval_tree(const Node *n, const int64_t *vars)
{
	switch (n->op) {
	case O_CONST: return n->value;
	case O_VAR: return vars[n->value];
	case O_NEG: case O_NOT: return apply_unary(n->op, eval_tree(n->l, vars));
	default: return bin_fn[n->op](eval_tree(n->l, vars), eval_tree(n->r, vars));
	}
}

static void eval_block(const Block *b, int64_t *vars)
{
	int i;
	for (i = 0; i < b->nstmt; i++)
		vars[b->target[i]] = eval_tree(b->expr[i], vars);
}

/* ---------- constant folding and algebraic simplification ---------- */

static long folds, identities;

static int is_const(const Node *n, int64_t v) { return n->op == O_CONST && n->value == v; }

static Node *take(Node *keep, Node *drop, Node *self)
{
	self->l = self->r = NULL;
	free_tree(drop);
	free(self);
	return keep;
}

static NOINLINE Node *fold(Node *n)
{
	if (n->op == O_CONST || n->op == O_VAR)
		return n;
	n->l = fold(n->l);
	if (n->r)
		n->r = fold(n->r);
	if (n->op == O_NEG || n->op == O_NOT) {
		if (n->l->op == O_CONST) {
			int64_t v = apply_unary(n->op, n->l->value);
			free_tree(n->l);
			n->op = O_CONST;
			n->value = v;
			n->l = NULL;
			folds++;
		}
		return n;
	}
	if (n->l->op == O_CONST && n->r->op == O_CONST) {
		int64_t v = bin_fn[n->op](n->l->value, n->r->value);
		free_tree(n->l);
		free_tree(n->r);
		n->op = O_CONST;
		n->value = v;
		n->l = n->r = NULL;
		folds++;
		return n;
	}
	switch (n->op) {
	case O_ADD: case O_OR: case O_XOR:
		if (is_const(n->r, 0)) { identities++; return take(n->l, n->r, n); }
		if (is_const(n->l, 0)) { identities++; return take(n->r, n->l, n); }
		break;
	case O_SUB: case O_SHL: case O_SHR:
		if (is_const(n->r, 0)) { identities++; return take(n->l, n->r, n); }
		break;
	case O_MUL:
		if (is_const(n->r, 1)) { identities++; return take(n->l, n->r, n); }
		if (is_const(n->l, 1)) { identities++; return take(n->r, n->l, n); }
		if (is_const(n->r, 0)) { identities++; return take(n->r, n->l, n); }
		if (is_const(n->l, 0)) { identities++; return take(n->l, n->r, n); }
		break;
	case O_DIV:
		if (is_const(n->r, 1)) { identities++; return take(n->l, n->r, n); }
		break;
	case O_AND:
		if (is_const(n->r, 0)) { identities++; return take(n->r, n->l, n); }
		if (is_const(n->l, 0)) { identities++; return take(n->l, n->r, n); }
		break;
	}
	return n;
}

/* ---------- value numbering into three-address code ---------- */

typedef struct {
	int op;
	int a, b;      /* operand value numbers (-1 when unused) */
	int64_t imm;   /* constant or variable index */
	int live;
	int reg;       /* assigned register or -1 when spilled */
	int slot;      /* spill slot */
	int last_use;  /* index of the last instruction reading it */
} Tac;

#define MAX_TAC 4096
#define HASH_SIZE 8192

typedef struct {
	Tac code[MAX_TAC];
	int n;
	int table[HASH_SIZE]; /* value number + 1, 0 = empty */
	int var_vn[NVARS];
	long hits;
} VN;

static unsigned vn_hash(int op, int a, int b, int64_t imm)
{
	uint64_t h = (uint64_t)op * 0x9E3779B97F4A7C15ULL;
	h ^= (uint64_t)(a + 7) * 0xC2B2AE3D27D4EB4FULL;
	h ^= (uint64_t)(b + 11) * 0x165667B19E3779F9ULL;
	h ^= (uint64_t)imm * 0xD6E8FEB86659FD93ULL;
	return (unsigned)(h >> 40) & (HASH_SIZE - 1);
}

static NOINLINE int vn_lookup(VN *vn, int op, int a, int b, int64_t imm)
{
	unsigned h = vn_hash(op, a, b, imm);
	Tac *t;
	/* commutative operators are canonicalised */
	if ((op == O_ADD || op == O_MUL || op == O_AND || op == O_OR || op == O_XOR) && a > b) {
		int s = a;
		a = b;
		b = s;
		h = vn_hash(op, a, b, imm);
	}
	while (vn->table[h]) {
		t = &vn->code[vn->table[h] - 1];
		if (t->op == op && t->a == a && t->b == b && t->imm == imm) {
			vn->hits++;
			return vn->table[h] - 1;
		}
		h = (h + 1) & (HASH_SIZE - 1);
	}
	if (vn->n >= MAX_TAC) {
		printf("too much code\n");
		exit(2);
	}
	t = &vn->code[vn->n];
	t->op = op;
	t->a = a;
	t->b = b;
	t->imm = imm;
	t->live = 0;
	vn->table[h] = vn->n + 1;
	return vn->n++;
}

static NOINLINE int number_tree(VN *vn, const Node *n)
{
	switch (n->op) {
	case O_CONST: return vn_lookup(vn, O_CONST, -1, -1, n->value);
	case O_VAR: return vn->var_vn[n->value];
	case O_NEG: case O_NOT: return vn_lookup(vn, n->op, number_tree(vn, n->l), -1, 0);
	default: {
		int a = number_tree(vn, n->l);
		int b = number_tree(vn, n->r);
		return vn_lookup(vn, n->op, a, b, 0);
	}
	}
}

static NOINLINE void number_block(VN *vn, const Block *b)
{
	int i;
	vn->n = 0;
	vn->hits = 0;
	memset(vn->table, 0, sizeof vn->table);
	for (i = 0; i < NVARS; i++)
		vn->var_vn[i] = vn_lookup(vn, O_VAR, -1, -1, i);
	for (i = 0; i < b->nstmt; i++)
		vn->var_vn[b->target[i]] = number_tree(vn, b->expr[i]);
}

static NOINLINE int mark_live(VN *vn)
{
	int i, live = 0;
	for (i = 0; i < NVARS; i++)
		vn->code[vn->var_vn[i]].live = 1;
	for (i = vn->n - 1; i >= 0; i--) {
		Tac *t = &vn->code[i];
		if (!t->live)
			continue;
		live++;
		if (t->a >= 0)
			vn->code[t->a].live = 1;
		if (t->b >= 0)
			vn->code[t->b].live = 1;
	}
	return live;
}

/* ---------- register allocation (linear scan) and code emission ---------- */

#define NREGS 6       /* allocatable registers r0..r5 */
#define SCRATCH0 6    /* r6, r7 are reload scratch registers */
#define SCRATCH1 7

enum VmOp { V_LI, V_LDVAR, V_STVAR, V_LDSLOT, V_STSLOT, V_MOV, V_NEG, V_NOT, V_ADD, V_SUB,
            V_MUL, V_DIV, V_MOD, V_AND, V_OR, V_XOR, V_SHL, V_SHR, V_HALT, NUM_VMOPS };

typedef struct {
	uint8_t op, d, s1, s2;
	int32_t slot;
	int64_t imm;
} VmInsn;

typedef struct {
	VmInsn *code;
	int n, cap;
	int nslots;
	int spills;
} Program;

static void emit(Program *p, int op, int d, int s1, int s2, int slot, int64_t imm)
{
	VmInsn *in;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 64;
		p->code = realloc(p->code, (size_t)p->cap * sizeof *p->code);
		if (!p->code) {
			printf("out of memory\n");
			exit(2);
		}
	}
	in = &p->code[p->n++];
	in->op = (uint8_t)op;
	in->d = (uint8_t)d;
	in->s1 = (uint8_t)s1;
	in->s2 = (uint8_t)s2;
	in->slot = slot;
	in->imm = imm;
}

static int operand_reg(Program *p, const Tac *t, int scratch)
{
	if (t->reg >= 0)
		return t->reg;
	emit(p, V_LDSLOT, scratch, 0, 0, t->slot, 0);
	return scratch;
}

static NOINLINE void allocate(VN *vn, Program *p)
{
	int owner[NREGS];
	int i, r;

	for (i = 0; i < vn->n; i++)
		vn->code[i].last_use = -1;
	for (i = 0; i < vn->n; i++) {
		Tac *t = &vn->code[i];
		if (!t->live)
			continue;
		if (t->a >= 0)
			vn->code[t->a].last_use = i;
		if (t->b >= 0)
			vn->code[t->b].last_use = i;
	}
	for (i = 0; i < NVARS; i++)
		vn->code[vn->var_vn[i]].last_use = vn->n; /* live out */
	for (r = 0; r < NREGS; r++)
		owner[r] = -1;
	p->n = 0;
	p->nslots = 0;
	p->spills = 0;
	for (i = 0; i < vn->n; i++) {
		Tac *t = &vn->code[i];
		int a = -1, b = -1, d, victim = -1;
		if (!t->live)
			continue;
		if (t->a >= 0)
			a = operand_reg(p, &vn->code[t->a], SCRATCH0);
		if (t->b >= 0)
			b = operand_reg(p, &vn->code[t->b], SCRATCH1);
		/* free registers whose values die here */
		for (r = 0; r < NREGS; r++)
			if (owner[r] >= 0 && vn->code[owner[r]].last_use <= i)
				owner[r] = -1;
		for (r = 0; r < NREGS && owner[r] >= 0; r++)
			;
		if (r == NREGS) {
			/* spill the value whose last use is furthest away */
			int far = -1;
			for (r = 0; r < NREGS; r++)
				if (vn->code[owner[r]].last_use > far) {
					far = vn->code[owner[r]].last_use;
					victim = r;
				}
			if (far > t->last_use) {
				Tac *v = &vn->code[owner[victim]];
				v->slot = p->nslots++;
				v->reg = -1;
				emit(p, V_STSLOT, 0, victim, 0, v->slot, 0);
				p->spills++;
				r = victim;
			} else {
				r = -1; /* the new value itself goes to memory */
			}
		}
		d = r >= 0 ? r : SCRATCH0;
		switch (t->op) {
		case O_CONST: emit(p, V_LI, d, 0, 0, 0, t->imm); break;
		case O_VAR: emit(p, V_LDVAR, d, 0, 0, 0, t->imm); break;
		case O_NEG: emit(p, V_NEG, d, a, 0, 0, 0); break;
		case O_NOT: emit(p, V_NOT, d, a, 0, 0, 0); break;
		default: emit(p, V_ADD + (t->op - O_ADD), d, a, b, 0, 0); break;
		}
		if (r >= 0) {
			t->reg = r;
			owner[r] = i;
		} else {
			t->reg = -1;
			t->slot = p->nslots++;
			emit(p, V_STSLOT, 0, SCRATCH0, 0, t->slot, 0);
			p->spills++;
		}
	}
	for (i = 0; i < NVARS; i++) {
		const Tac *t = &vn->code[vn->var_vn[i]];
		int s = operand_reg(p, t, SCRATCH0);
		emit(p, V_STVAR, 0, s, 0, 0, i);
	}
	emit(p, V_HALT, 0, 0, 0, 0, 0);
}

/* ---------- the register VM: one handler per opcode, called indirectly ---------- */

typedef struct {
	int64_t r[8];
	int64_t *vars;
	int64_t slots[MAX_TAC];
} Vm;

typedef void (*Handler)(Vm *, const VmInsn *);

static void h_li(Vm *m, const VmInsn *i) { m->r[i->d] = i->imm; }
static void h_ldvar(Vm *m, const VmInsn *i) { m->r[i->d] = m->vars[i->imm]; }
static void h_stvar(Vm *m, const VmInsn *i) { m->vars[i->imm] = m->r[i->s1]; }
static void h_ldslot(Vm *m, const VmInsn *i) { m->r[i->d] = m->slots[i->slot]; }
static void h_stslot(Vm *m, const VmInsn *i) { m->slots[i->slot] = m->r[i->s1]; }
static void h_mov(Vm *m, const VmInsn *i) { m->r[i->d] = m->r[i->s1]; }
static void h_neg(Vm *m, const VmInsn *i) { m->r[i->d] = apply_unary(O_NEG, m->r[i->s1]); }
static void h_not(Vm *m, const VmInsn *i) { m->r[i->d] = ~m->r[i->s1]; }
static void h_add(Vm *m, const VmInsn *i) { m->r[i->d] = f_add(m->r[i->s1], m->r[i->s2]); }
static void h_sub(Vm *m, const VmInsn *i) { m->r[i->d] = f_sub(m->r[i->s1], m->r[i->s2]); }
static void h_mul(Vm *m, const VmInsn *i) { m->r[i->d] = f_mul(m->r[i->s1], m->r[i->s2]); }
static void h_div(Vm *m, const VmInsn *i) { m->r[i->d] = f_div(m->r[i->s1], m->r[i->s2]); }
static void h_mod(Vm *m, const VmInsn *i) { m->r[i->d] = f_mod(m->r[i->s1], m->r[i->s2]); }
static void h_and(Vm *m, const VmInsn *i) { m->r[i->d] = m->r[i->s1] & m->r[i->s2]; }
static void h_or(Vm *m, const VmInsn *i) { m->r[i->d] = m->r[i->s1] | m->r[i->s2]; }
static void h_xor(Vm *m, const VmInsn *i) { m->r[i->d] = m->r[i->s1] ^ m->r[i->s2]; }
static void h_shl(Vm *m, const VmInsn *i) { m->r[i->d] = f_shl(m->r[i->s1], m->r[i->s2]); }
static void h_shr(Vm *m, const VmInsn *i) { m->r[i->d] = f_shr(m->r[i->s1], m->r[i->s2]); }

static const Handler handlers[NUM_VMOPS] = {
	h_li, h_ldvar, h_stvar, h_ldslot, h_stslot, h_mov, h_neg, h_not, h_add, h_sub,
	h_mul, h_div, h_mod, h_and, h_or, h_xor, h_shl, h_shr, NULL,
};

static long vm_steps;

static NOINLINE void vm_run(Vm *m, const Program *p)
{
	const VmInsn *pc = p->code;
	while (pc->op != V_HALT) {
		handlers[pc->op](m, pc);
		pc++;
		vm_steps++;
	}
}

/* ---------- driver ---------- */

static uint64_t checksum = 0xcbf29ce484222325ULL;

static void mix(uint64_t v)
{
	int i;
	for (i = 0; i < 8; i++) {
		checksum ^= (v >> (i * 8)) & 0xff;
		checksum *= 0x100000001b3ULL;
	}
}

static void make_inputs(int64_t *vars)
{
	/* value locality: most inputs come from a small set */
	static const int64_t popular[] = { 0, 1, 2, -1, 10, 100, 12345, 7 };
	int i;
	for (i = 0; i < NVARS; i++)
		vars[i] = rng_below(4) ? popular[rng_below(8)] : (int64_t)(rng_next() >> rng_below(60));
}

int main(int argc, char **argv)
{
	int batches, per_batch, stmts, runs, bi, k, i, j;
	long mismatches = 0, total_tac = 0, total_live = 0, total_vm = 0, total_spills = 0, cse_hits = 0;
	long src_bytes = 0;
	char **src;
	Block *blocks;
	Program *progs;
	VN *vn;
	Vm *vm;

	if (argc != 5) {
		printf("usage: exprc BATCHES BLOCKS_PER_BATCH STATEMENTS RUNS\n");
		return 2;
	}
	batches = atoi(argv[1]);
	per_batch = atoi(argv[2]);
	stmts = atoi(argv[3]);
	runs = atoi(argv[4]);
	if (batches < 1 || per_batch < 1 || stmts < 1 || stmts > 64 || runs < 1) {
		printf("bad arguments\n");
		return 2;
	}
	src = xmalloc(sizeof *src * (size_t)per_batch);
	blocks = xmalloc(sizeof *blocks * (size_t)per_batch);
	progs = calloc((size_t)per_batch, sizeof *progs);
	vn = xmalloc(sizeof *vn);
	vm = calloc(1, sizeof *vm);
	if (!progs || !vm) {
		printf("out of memory\n");
		return 2;
	}

	for (bi = 0; bi < batches; bi++) {
		long batch_mismatch = 0;
		/* phase: generate and parse */
		for (k = 0; k < per_batch; k++) {
			src[k] = gen_block(stmts);
			src_bytes += (long)strlen(src[k]);
			parse_block(src[k], &blocks[k]);
		}
		/* phase: optimize, number, allocate */
		for (k = 0; k < per_batch; k++) {
			/* fold a copy so the reference evaluator keeps the original tree */
			Block opt = blocks[k];
			for (i = 0; i < opt.nstmt; i++)
				opt.expr[i] = fold(clone_tree(opt.expr[i]));
			number_block(vn, &opt);
			for (i = 0; i < opt.nstmt; i++)
				free_tree(opt.expr[i]);
			total_tac += vn->n;
			cse_hits += vn->hits;
			total_live += mark_live(vn);
			allocate(vn, &progs[k]);
			total_vm += progs[k].n;
			total_spills += progs[k].spills;
		}
		/* phase: run and verify */
		for (j = 0; j < runs; j++) {
			int64_t in[NVARS], ref[NVARS], out[NVARS];
			make_inputs(in);
			for (k = 0; k < per_batch; k++) {
				memcpy(ref, in, sizeof in);
				memcpy(out, in, sizeof in);
				eval_block(&blocks[k], ref);
				vm->vars = out;
				vm_run(vm, &progs[k]);
				for (i = 0; i < NVARS; i++) {
					if (out[i] != ref[i])
						batch_mismatch++;
					mix((uint64_t)out[i]);
				}
			}
		}
		mismatches += batch_mismatch;
		for (k = 0; k < per_batch; k++) {
			for (i = 0; i < blocks[k].nstmt; i++)
				free_tree(blocks[k].expr[i]);
			free(src[k]);
		}
		printf("batch %d: checksum %016llx mismatches %ld\n", bi, (unsigned long long)checksum,
		       batch_mismatch);
	}
	printf("source bytes %ld, parse errors %d\n", src_bytes, parse_errors);
	printf("folds %ld, identities %ld, tac %ld, cse hits %ld, live %ld\n", folds, identities,
	       total_tac, cse_hits, total_live);
	printf("vm insns %ld, spills %ld, vm steps %ld\n", total_vm, total_spills, vm_steps);
	printf("mismatches: %ld\n", mismatches);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return (mismatches || parse_errors) ? 1 : 0;
}
