/*
 * parser - tokenizer, recursive-descent parser and tree walkers for MiniC
 * (rvsim benchmark).
 *
 * Models front ends such as SPEC's parser/gcc/perl. It reads a MiniC source
 * file (a C subset: 64-bit int variables and arrays, functions, if/while/for,
 * the usual operators) and, for each repetition,
 *   1. tokenizes and parses it into an abstract syntax tree,
 *   2. resolves names with a scoped hash-table symbol table,
 *   3. pretty-prints the tree, parses the printed text again and checks the
 *      two trees are identical (structural hash),
 * then runs the program's bench(N) with a tree-walking interpreter whose
 * node evaluators are reached through a table of function pointers, and
 * compares the result with the value the host C compiler computed for the
 * same source (expected.txt, "N value" lines).
 *
 * usage: parser SOURCE.mc EXPECTED.txt PARSE_REPS N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

static int errors;

static NOINLINE void error_at(int line, const char *msg, const char *detail)
{
	if (errors < 10)
		printf("line %d: %s %s\n", line, msg, detail ? detail : "");
	errors++;
}

/* ---------- tokens ---------- */

enum {
	T_EOF, T_NUM, T_IDENT, T_INT, T_IF, T_ELSE, T_WHILE, T_FOR, T_RETURN, T_BREAK, T_CONTINUE,
	T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_SEMI, T_COMMA, T_ASSIGN,
	T_OROR, T_ANDAND, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_PLUS, T_MINUS, T_STAR, T_SLASH,
	T_PERCENT, T_NOT, T_AMP, T_PIPE, T_CARET, T_SHL, T_SHR, T_TILDE, T_BAD
};

typedef struct {
	int kind, line;
	int64_t num;
	const char *start;
	int len;
} Token;

typedef struct {
	const char *src, *p;
	int line;
	Token tok;
} Lexer;

static const struct {
	const char *word;
	int kind;
} keywords[] = { { "int", T_INT }, { "if", T_IF }, { "else", T_ELSE }, { "while", T_WHILE },
                 { "for", T_FOR }, { "return", T_RETURN }, { "break", T_BREAK },
                 { "continue", T_CONTINUE } };

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static NOINLINE void skip_blank(Lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == '\n') {
			lx->line++;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			lx->p++;
		} else if (c == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p[1] == '*') {
			lx->p += 2;
			while (*lx->p && !(lx->p[0] == '*' && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					lx->line++;
				lx->p++;
			}
			if (*lx->p)
				lx->p += 2;
		} else {
			return;
		}
	}
}

static NOINLINE void next(Lexer *lx)
{
	Token *t = &lx->tok;
	const char *p;
	skip_blank(lx);
	p = lx->p;
	t->start = p;
	t->line = lx->line;
	if (!*p) {
		t->kind = T_EOF;
		t->len = 0;
		return;
	}
	if (is_alpha(*p)) {
		size_t k;
		while (is_alpha(*p) || is_digit(*p))
			p++;
		t->len = (int)(p - t->start);
		t->kind = T_IDENT;
		for (k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
			if ((int)strlen(keywords[k].word) == t->len && memcmp(keywords[k].word, t->start, (size_t)t->len) == 0)
				t->kind = keywords[k].kind;
		lx->p = p;
		return;
	}
	if (is_digit(*p)) {
		uint64_t v = 0;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			p += 2;
			for (;;) {
				int c = *p, d;
				if (is_digit(c))
					d = c - '0';
				else if (c >= 'a' && c <= 'f')
					d = c - 'a' + 10;
				else if (c >= 'A' && c <= 'F')
					d = c - 'A' + 10;
				else
					break;
				v = v * 16 + (uint64_t)d;
				p++;
			}
		} else {
			while (is_digit(*p))
				v = v * 10 + (uint64_t)(*p++ - '0');
		}
		while (*p == 'L' || *p == 'l' || *p == 'U' || *p == 'u')
			p++;
		t->kind = T_NUM;
		t->num = (int64_t)v;
		t->len = (int)(p - t->start);
		lx->p = p;
		return;
	}
	t->len = 1;
	switch (*p) {
	case '(': t->kind = T_LPAREN; break;
	case ')': t->kind = T_RPAREN; break;
	case '{': t->kind = T_LBRACE; break;
	case '}': t->kind = T_RBRACE; break;
	case '[': t->kind = T_LBRACK; break;
	case ']': t->kind = T_RBRACK; break;
	case ';': t->kind = T_SEMI; break;
	case ',': t->kind = T_COMMA; break;
	case '+': t->kind = T_PLUS; break;
	case '-': t->kind = T_MINUS; break;
	case '*': t->kind = T_STAR; break;
	case '/': t->kind = T_SLASH; break;
	case '%': t->kind = T_PERCENT; break;
	case '^': t->kind = T_CARET; break;
	case '~': t->kind = T_TILDE; break;
	case '=': if (p[1] == '=') { t->kind = T_EQ; t->len = 2; } else t->kind = T_ASSIGN; break;
	case '!': if (p[1] == '=') { t->kind = T_NE; t->len = 2; } else t->kind = T_NOT; break;
	case '<':
		if (p[1] == '=') { t->kind = T_LE; t->len = 2; }
		else if (p[1] == '<') { t->kind = T_SHL; t->len = 2; }
		else t->kind = T_LT;
		break;
	case '>':
		if (p[1] == '=') { t->kind = T_GE; t->len = 2; }
		else if (p[1] == '>') { t->kind = T_SHR; t->len = 2; }
		else t->kind = T_GT;
		break;
	case '&': if (p[1] == '&') { t->kind = T_ANDAND; t->len = 2; } else t->kind = T_AMP; break;
	case '|': if (p[1] == '|') { t->kind = T_OROR; t->len = 2; } else t->kind = T_PIPE; break;
	default: t->kind = T_BAD;
	}
	lx->p = p + t->len;
}

/* ---------- AST ---------- */

enum {
	N_NUM, N_VAR, N_INDEX, N_CALL, N_NEG, N_LNOT, N_BNOT, N_BIN, N_AND, N_OR, N_ASSIGN,
	N_EXPR_STMT, N_DECL, N_IF, N_WHILE, N_FOR, N_RETURN, N_BREAK, N_CONTINUE, N_BLOCK,
	N_FUNC, N_GLOBAL, N_EMPTY, NUM_KINDS
};

typedef struct Node Node;
struct Node {
	int kind, op, line;
	int64_t num;   /* N_NUM value, N_DECL array size (0 = scalar) */
	char *name;    /* identifiers */
	Node **kids;   /* children */
	int nkids, cap;
	/* resolution results */
	int scope;     /* 0 = global, 1 = local, 2 = function */
	int slot;
	Node *target;  /* called function */
	int nlocals;   /* N_FUNC: frame size in slots */
};

static long node_count;

static Node *new_node(int kind, int line)
{
	Node *n = xmalloc(sizeof *n);
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->line = line;
	node_count++;
	return n;
}

static void add_kid(Node *n, Node *k)
{
	if (n->nkids == n->cap) {
		n->cap = n->cap ? n->cap * 2 : 2;
		n->kids = realloc(n->kids, (size_t)n->cap * sizeof *n->kids);
		if (!n->kids) {
			printf("out of memory\n");
			exit(2);
		}
	}
	n->kids[n->nkids++] = k;
}

static void free_tree(Node *n)
{
	int i;
	if (!n)
		return;
	for (i = 0; i < n->nkids; i++)
		free_tree(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

/* ---------- parser ---------- */

static int accept(Lexer *lx, int kind)
{
	if (lx->tok.kind == kind) {
		next(lx);
		return 1;
	}
	return 0;
}

static void expect(Lexer *lx, int kind, const char *what)
{
	if (!accept(lx, kind)) {
		error_at(lx->tok.line, "expected", what);
		if (lx->tok.kind != T_EOF)
			next(lx); /* always make progress */
	}
}

static char *take_ident(Lexer *lx)
{
	char *s;
	if (lx->tok.kind != T_IDENT) {
		error_at(lx->tok.line, "expected", "identifier");
		return strdup("?");
	}
	s = xmalloc((size_t)lx->tok.len + 1);
	memcpy(s, lx->tok.start, (size_t)lx->tok.len);
	s[lx->tok.len] = 0;
	next(lx);
	return s;
}

static Node *parse_expr(Lexer *lx);
static Node *parse_stmt(Lexer *lx);

static NOINLINE Node *parse_primary(Lexer *lx)
{
	Node *n;
	int line = lx->tok.line;
	switch (lx->tok.kind) {
	case T_NUM:
		n = new_node(N_NUM, line);
		n->num = lx->tok.num;
		next(lx);
		return n;
	case T_IDENT:
		n = new_node(N_VAR, line);
		n->name = take_ident(lx);
		if (accept(lx, T_LPAREN)) {
			n->kind = N_CALL;
			if (!accept(lx, T_RPAREN)) {
				do
					add_kid(n, parse_expr(lx));
				while (accept(lx, T_COMMA));
				expect(lx, T_RPAREN, ")");
			}
		} else if (accept(lx, T_LBRACK)) {
			n->kind = N_INDEX;
			add_kid(n, parse_expr(lx));
			expect(lx, T_RBRACK, "]");
		}
		return n;
	case T_LPAREN:
		next(lx);
		n = parse_expr(lx);
		expect(lx, T_RPAREN, ")");
		return n;
	default:
		error_at(line, "expected", "expression");
		if (lx->tok.kind != T_EOF)
			next(lx);
		return new_node(N_NUM, line);
	}
}

static NOINLINE Node *parse_unary(Lexer *lx)
{
	int kind, line = lx->tok.line;
	Node *n;
	switch (lx->tok.kind) {
	case T_MINUS: kind = N_NEG; break;
	case T_NOT: kind = N_LNOT; break;
	case T_TILDE: kind = N_BNOT; break;
	case T_PLUS: next(lx); return parse_unary(lx);
	default: return parse_primary(lx);
	}
	next(lx);
	n = new_node(kind, line);
	add_kid(n, parse_unary(lx));
	return n;
}

static int binary_prec(int tok)
{
	switch (tok) {
	case T_OROR: return 1;
	case T_ANDAND: return 2;
	case T_PIPE: return 3;
	case T_CARET: return 4;
	case T_AMP: return 5;
	case T_EQ: case T_NE: return 6;
	case T_LT: case T_LE: case T_GT: case T_GE: return 7;
	case T_SHL: case T_SHR: return 8;
	case T_PLUS: case T_MINUS: return 9;
	case T_STAR: case T_SLASH: case T_PERCENT: return 10;
	default: return 0;
	}
}

static NOINLINE Node *parse_binary(Lexer *lx, int min_prec)
{
	Node *lhs = parse_unary(lx);
	for (;;) {
		int op = lx->tok.kind, prec = binary_prec(op), line = lx->tok.line;
		Node *n;
		if (prec < min_prec || prec == 0)
			return lhs;
		next(lx);
		n = new_node(op == T_ANDAND ? N_AND : op == T_OROR ? N_OR : N_BIN, line);
		n->op = op;
		add_kid(n, lhs);
		add_kid(n, parse_binary(lx, prec + 1));
		lhs = n;
	}
}

static NOINLINE Node *parse_expr(Lexer *lx)
{
	Node *lhs = parse_binary(lx, 1);
	if (lx->tok.kind == T_ASSIGN) {
		Node *n = new_node(N_ASSIGN, lx->tok.line);
		if (lhs->kind != N_VAR && lhs->kind != N_INDEX)
			error_at(lx->tok.line, "cannot assign to", "expression");
		next(lx);
		add_kid(n, lhs);
		add_kid(n, parse_expr(lx));
		return n;
	}
	return lhs;
}

static NOINLINE Node *parse_decl(Lexer *lx, int kind)
{
	Node *n = new_node(kind, lx->tok.line);
	n->name = take_ident(lx);
	if (accept(lx, T_LBRACK)) {
		if (lx->tok.kind != T_NUM || lx->tok.num <= 0)
			error_at(lx->tok.line, "expected", "array size");
		n->num = lx->tok.num;
		next(lx);
		expect(lx, T_RBRACK, "]");
	}
	if (accept(lx, T_ASSIGN))
		add_kid(n, parse_expr(lx));
	expect(lx, T_SEMI, ";");
	return n;
}

static NOINLINE Node *parse_block(Lexer *lx)
{
	Node *n = new_node(N_BLOCK, lx->tok.line);
	expect(lx, T_LBRACE, "{");
	while (lx->tok.kind != T_RBRACE && lx->tok.kind != T_EOF)
		add_kid(n, parse_stmt(lx));
	expect(lx, T_RBRACE, "}");
	return n;
}

static Node *opt_expr(Lexer *lx, int end)
{
	if (lx->tok.kind == end)
		return new_node(N_EMPTY, lx->tok.line);
	return parse_expr(lx);
}

static NOINLINE Node *parse_stmt(Lexer *lx)
{
	Node *n;
	int line = lx->tok.line;
	switch (lx->tok.kind) {
	case T_INT:
		next(lx);
		return parse_decl(lx, N_DECL);
	case T_LBRACE:
		return parse_block(lx);
	case T_IF:
		next(lx);
		n = new_node(N_IF, line);
		expect(lx, T_LPAREN, "(");
		add_kid(n, parse_expr(lx));
		expect(lx, T_RPAREN, ")");
		add_kid(n, parse_stmt(lx));
		if (accept(lx, T_ELSE))
			add_kid(n, parse_stmt(lx));
		return n;
	case T_WHILE:
		next(lx);
		n = new_node(N_WHILE, line);
		expect(lx, T_LPAREN, "(");
		add_kid(n, parse_expr(lx));
		expect(lx, T_RPAREN, ")");
		add_kid(n, parse_stmt(lx));
		return n;
	case T_FOR:
		next(lx);
		n = new_node(N_FOR, line);
		expect(lx, T_LPAREN, "(");
		add_kid(n, opt_expr(lx, T_SEMI));
		expect(lx, T_SEMI, ";");
		add_kid(n, opt_expr(lx, T_SEMI));
		expect(lx, T_SEMI, ";");
		add_kid(n, opt_expr(lx, T_RPAREN));
		expect(lx, T_RPAREN, ")");
		add_kid(n, parse_stmt(lx));
		return n;
	case T_RETURN:
		next(lx);
		n = new_node(N_RETURN, line);
		if (lx->tok.kind != T_SEMI)
			add_kid(n, parse_expr(lx));
		expect(lx, T_SEMI, ";");
		return n;
	case T_BREAK:
	case T_CONTINUE:
		n = new_node(lx->tok.kind == T_BREAK ? N_BREAK : N_CONTINUE, line);
		next(lx);
		expect(lx, T_SEMI, ";");
		return n;
	case T_SEMI:
		next(lx);
		return new_node(N_EMPTY, line);
	default:
		n = new_node(N_EXPR_STMT, line);
		add_kid(n, parse_expr(lx));
		expect(lx, T_SEMI, ";");
		return n;
	}
}

/* program: a list of N_FUNC and N_GLOBAL nodes */
static NOINLINE Node *parse_program(const char *src)
{
	Lexer lx = { src, src, 1, { 0 } };
	Node *prog = new_node(N_BLOCK, 1);
	next(&lx);
	while (lx.tok.kind != T_EOF) {
		Node *n;
		const char *q;
		if (!accept(&lx, T_INT)) {
			error_at(lx.tok.line, "expected", "int");
			next(&lx);
			continue;
		}
		q = lx.p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (lx.tok.kind == T_IDENT && *q == '(') {
			n = new_node(N_FUNC, lx.tok.line);
			n->name = take_ident(&lx);
			expect(&lx, T_LPAREN, "(");
			if (!accept(&lx, T_RPAREN)) {
				do {
					Node *p;
					expect(&lx, T_INT, "int");
					p = new_node(N_DECL, lx.tok.line);
					p->name = take_ident(&lx);
					add_kid(n, p);
				} while (accept(&lx, T_COMMA));
				expect(&lx, T_RPAREN, ")");
			}
			n->num = n->nkids; /* parameter count; body is the last kid */
			add_kid(n, parse_block(&lx));
		} else {
			n = parse_decl(&lx, N_GLOBAL);
		}
		add_kid(prog, n);
	}
	return prog;
}

/* ---------- name resolution (scoped hash table) ---------- */

#define SYM_BUCKETS 1024

typedef struct Sym Sym;
struct Sym {
	const char *name;
	int depth, scope, slot;
	Node *decl;
	Sym *next;      /* hash chain */
	Sym *shadowed;  /* scope stack link */
};

typedef struct {
	Sym *buckets[SYM_BUCKETS];
	Sym *stack[4096];
	int sp, depth;
	int next_slot, max_slot, nglobals;
	long lookups, probes;
} Scope;

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static NOINLINE Sym *lookup(Scope *sc, const char *name)
{
	Sym *s;
	sc->lookups++;
	for (s = sc->buckets[name_hash(name) % SYM_BUCKETS]; s; s = s->next) {
		sc->probes++;
		if (strcmp(s->name, name) == 0)
			return s;
	}
	return NULL;
}

static NOINLINE void declare(Scope *sc, Node *decl, int scope, int slot)
{
	unsigned h = name_hash(decl->name) % SYM_BUCKETS;
	Sym *s, *old = lookup(sc, decl->name);
	if (old && old->depth == sc->depth)
		error_at(decl->line, "redeclared", decl->name);
	if (sc->sp >= 4096) {
		error_at(decl->line, "too many declarations", 0);
		return;
	}
	s = xmalloc(sizeof *s);
	s->name = decl->name;
	s->depth = sc->depth;
	s->scope = scope;
	s->slot = slot;
	s->decl = decl;
	s->next = sc->buckets[h];
	sc->buckets[h] = s;
	sc->stack[sc->sp++] = s;
	decl->scope = scope;
	decl->slot = slot;
}

static void open_scope(Scope *sc) { sc->depth++; }

static void close_scope(Scope *sc)
{
	while (sc->sp > 0 && sc->stack[sc->sp - 1]->depth == sc->depth) {
		Sym *s = sc->stack[--sc->sp];
		unsigned h = name_hash(s->name) % SYM_BUCKETS;
		Sym **pp = &sc->buckets[h];
		while (*pp != s)
			pp = &(*pp)->next;
		*pp = s->next;
		free(s);
	}
	sc->depth--;
}

static NOINLINE void resolve(Scope *sc, Node *n)
{
	int i;
	switch (n->kind) {
	case N_VAR:
	case N_INDEX:
	case N_CALL: {
		Sym *s = lookup(sc, n->name);
		if (!s) {
			error_at(n->line, "undefined", n->name);
			break;
		}
		if ((n->kind == N_CALL) != (s->scope == 2)) {
			error_at(n->line, "wrong use of", n->name);
			break;
		}
		if (n->kind == N_INDEX && s->decl->num == 0)
			error_at(n->line, "not an array:", n->name);
		n->scope = s->scope;
		n->slot = s->slot;
		n->target = s->decl;
		if (n->kind == N_CALL && n->nkids != s->decl->num)
			error_at(n->line, "wrong argument count for", n->name);
		break;
	}
	case N_DECL:
		for (i = 0; i < n->nkids; i++)
			resolve(sc, n->kids[i]);
		declare(sc, n, 1, sc->next_slot);
		sc->next_slot += n->num ? (int)n->num : 1;
		if (sc->next_slot > sc->max_slot)
			sc->max_slot = sc->next_slot;
		return;
	case N_BLOCK:
	case N_FOR: {
		int saved = sc->next_slot;
		open_scope(sc);
		for (i = 0; i < n->nkids; i++)
			resolve(sc, n->kids[i]);
		close_scope(sc);
		sc->next_slot = saved;
		return;
	}
	}
	for (i = 0; i < n->nkids; i++)
		resolve(sc, n->kids[i]);
}

static NOINLINE void resolve_program(Scope *sc, Node *prog)
{
	int i, k;
	memset(sc, 0, sizeof *sc);
	/* globals and functions are visible everywhere (C would need prototypes) */
	for (i = 0; i < prog->nkids; i++) {
		Node *d = prog->kids[i];
		if (d->kind == N_FUNC) {
			declare(sc, d, 2, i);
		} else {
			declare(sc, d, 0, sc->nglobals);
			sc->nglobals += d->num ? (int)d->num : 1;
		}
	}
	for (i = 0; i < prog->nkids; i++) {
		Node *f = prog->kids[i];
		if (f->kind != N_FUNC) {
			if (f->nkids)
				resolve(sc, f->kids[0]);
			continue;
		}
		open_scope(sc);
		sc->next_slot = sc->max_slot = 0;
		for (k = 0; k < f->num; k++) {
			declare(sc, f->kids[k], 1, sc->next_slot);
			sc->next_slot++;
		}
		sc->max_slot = sc->next_slot;
		resolve(sc, f->kids[f->nkids - 1]);
		f->nlocals = sc->max_slot;
		close_scope(sc);
	}
}

/* ---------- pretty printer and structural hash ---------- */

typedef struct {
	char *buf;
	size_t len, cap;
} Out;

static NOINLINE void out_put(Out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf) {
			printf("out of memory\n");
			exit(2);
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
}

static void out_str(Out *o, const char *s) { out_put(o, s, strlen(s)); }

static void out_indent(Out *o, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	out_put(o, tabs, (size_t)(depth < 16 ? depth : 16));
}

static const char *op_text(int op)
{
	switch (op) {
	case T_OROR: return "||";
	case T_ANDAND: return "&&";
	case T_PIPE: return "|";
	case T_CARET: return "^";
	case T_AMP: return "&";
	case T_EQ: return "==";
	case T_NE: return "!=";
	case T_LT: return "<";
	case T_LE: return "<=";
	case T_GT: return ">";
	case T_GE: return ">=";
	case T_SHL: return "<<";
	case T_SHR: return ">>";
	case T_PLUS: return "+";
	case T_MINUS: return "-";
	case T_STAR: return "*";
	case T_SLASH: return "/";
	case T_PERCENT: return "%";
	default: return "?";
	}
}

static void print_node(Out *o, const Node *n, int depth);

/* Expressions are printed fully parenthesised. */
static NOINLINE void print_expr(Out *o, const Node *n)
{
	char tmp[32];
	int i;
	switch (n->kind) {
	case N_NUM:
		snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)n->num);
		out_str(o, tmp);
		break;
	case N_VAR:
		out_str(o, n->name);
		break;
	case N_INDEX:
		out_str(o, n->name);
		out_str(o, "[");
		print_expr(o, n->kids[0]);
		out_str(o, "]");
		break;
	case N_CALL:
		out_str(o, n->name);
		out_str(o, "(");
		for (i = 0; i < n->nkids; i++) {
			if (i)
				out_str(o, ", ");
			print_expr(o, n->kids[i]);
		}
		out_str(o, ")");
		break;
	case N_NEG: case N_LNOT: case N_BNOT:
		out_str(o, n->kind == N_NEG ? "-(" : n->kind == N_LNOT ? "!(" : "~(");
		print_expr(o, n->kids[0]);
		out_str(o, ")");
		break;
	case N_BIN: case N_AND: case N_OR:
		out_str(o, "(");
		print_expr(o, n->kids[0]);
		out_str(o, " ");
		out_str(o, op_text(n->op));
		out_str(o, " ");
		print_expr(o, n->kids[1]);
		out_str(o, ")");
		break;
	case N_ASSIGN:
		print_expr(o, n->kids[0]);
		out_str(o, " = ");
		print_expr(o, n->kids[1]);
		break;
	case N_EMPTY:
		break;
	default:
		out_str(o, "?");
	}
}

static void print_decl(Out *o, const Node *n)
{
	char tmp[32];
	out_str(o, "int ");
	out_str(o, n->name);
	if (n->num) {
		snprintf(tmp, sizeof tmp, "[%lld]", (long long)n->num);
		out_str(o, tmp);
	}
	if (n->nkids) {
		out_str(o, " = ");
		print_expr(o, n->kids[0]);
	}
	out_str(o, ";\n");
}

static NOINLINE void print_node(Out *o, const Node *n, int depth)
{
	int i;
	out_indent(o, depth);
	switch (n->kind) {
	case N_DECL:
	case N_GLOBAL:
		print_decl(o, n);
		break;
	case N_BLOCK:
		out_str(o, "{\n");
		for (i = 0; i < n->nkids; i++)
			print_node(o, n->kids[i], depth + 1);
		out_indent(o, depth);
		out_str(o, "}\n");
		break;
	case N_IF:
		out_str(o, "if (");
		print_expr(o, n->kids[0]);
		out_str(o, ")\n");
		print_node(o, n->kids[1], depth + 1);
		if (n->nkids > 2) {
			out_indent(o, depth);
			out_str(o, "else\n");
			print_node(o, n->kids[2], depth + 1);
		}
		break;
	case N_WHILE:
		out_str(o, "while (");
		print_expr(o, n->kids[0]);
		out_str(o, ")\n");
		print_node(o, n->kids[1], depth + 1);
		break;
	case N_FOR:
		out_str(o, "for (");
		print_expr(o, n->kids[0]);
		out_str(o, "; ");
		print_expr(o, n->kids[1]);
		out_str(o, "; ");
		print_expr(o, n->kids[2]);
		out_str(o, ")\n");
		print_node(o, n->kids[3], depth + 1);
		break;
	case N_RETURN:
		out_str(o, "return");
		if (n->nkids) {
			out_str(o, " ");
			print_expr(o, n->kids[0]);
		}
		out_str(o, ";\n");
		break;
	case N_BREAK:
		out_str(o, "break;\n");
		break;
	case N_CONTINUE:
		out_str(o, "continue;\n");
		break;
	case N_EMPTY:
		out_str(o, ";\n");
		break;
	case N_EXPR_STMT:
		print_expr(o, n->kids[0]);
		out_str(o, ";\n");
		break;
	case N_FUNC:
		out_str(o, "int ");
		out_str(o, n->name);
		out_str(o, "(");
		for (i = 0; i < n->num; i++) {
			if (i)
				out_str(o, ", ");
			out_str(o, "int ");
			out_str(o, n->kids[i]->name);
		}
		out_str(o, ")\n");
		print_node(o, n->kids[n->nkids - 1], depth);
		break;
	default:
		out_str(o, "?\n");
	}
}

static NOINLINE uint64_t tree_hash(const Node *n)
{
	uint64_t h = (uint64_t)n->kind * 0x100000001b3ULL + (uint64_t)n->op;
	int i;
	h = (h ^ (uint64_t)n->num) * 0x9E3779B97F4A7C15ULL;
	if (n->name)
		h ^= name_hash(n->name);
	for (i = 0; i < n->nkids; i++)
		h = (h * 31) ^ tree_hash(n->kids[i]);
	return h;
}

/* ---------- interpreter: node evaluators in a function-pointer table ---------- */

enum { FLOW_NORMAL, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN };

typedef struct {
	int64_t *globals;
	Node **funcs;
	int64_t *stack;
	size_t sp, cap;
	int flow;
	int64_t ret;
	long calls, steps;
	int depth;
	int runtime_errors;
} Interp;

typedef int64_t (*EvalFn)(Interp *, Node *, int64_t *frame);
static EvalFn evaluators[NUM_KINDS];

static int64_t eval(Interp *in, Node *n, int64_t *frame)
{
	in->steps++;
	return evaluators[n->kind](in, n, frame);
}

static int64_t *var_addr(Interp *in, Node *n, int64_t *frame, int64_t index)
{
	Node *d = n->target;
	if (d->num && (index < 0 || index >= d->num)) {
		if (in->runtime_errors++ < 5)
			printf("line %d: index %lld out of range for %s\n", n->line, (long long)index, n->name);
		index = 0;
	}
	return (n->scope == 0 ? in->globals : frame) + n->slot + index;
}

static int64_t ev_num(Interp *in, Node *n, int64_t *f) { (void)in; (void)f; return n->num; }
static int64_t ev_var(Interp *in, Node *n, int64_t *f) { return *var_addr(in, n, f, 0); }
static int64_t ev_index(Interp *in, Node *n, int64_t *f)
{
	return *var_addr(in, n, f, eval(in, n->kids[0], f));
}

static NOINLINE int64_t ev_call(Interp *in, Node *n, int64_t *f)
{
	Node *fn = n->target;
	int64_t *frame;
	int i;
	size_t need = (size_t)fn->nlocals;
	if (in->sp + need > in->cap || in->depth > 5000) {
		if (in->runtime_errors++ < 5)
			printf("line %d: stack overflow\n", n->line);
		return 0;
	}
	/* reserve the frame first: calls inside the arguments go above it */
	frame = in->stack + in->sp;
	in->sp += need;
	for (i = 0; i < n->nkids; i++) {
		int64_t v = eval(in, n->kids[i], f);
		frame[i] = v;
	}
	for (i = n->nkids; i < (int)need; i++)
		frame[i] = 0;
	in->depth++;
	in->calls++;
	eval(in, fn->kids[fn->nkids - 1], frame);
	in->depth--;
	in->sp -= need;
	if (in->flow == FLOW_RETURN) {
		in->flow = FLOW_NORMAL;
		return in->ret;
	}
	return 0;
}

static int64_t ev_neg(Interp *in, Node *n, int64_t *f) { return (int64_t)(0 - (uint64_t)eval(in, n->kids[0], f)); }
static int64_t ev_lnot(Interp *in, Node *n, int64_t *f) { return !eval(in, n->kids[0], f); }
static int64_t ev_bnot(Interp *in, Node *n, int64_t *f) { return ~eval(in, n->kids[0], f); }

static NOINLINE int64_t ev_bin(Interp *in, Node *n, int64_t *f)
{
	int64_t a = eval(in, n->kids[0], f), b = eval(in, n->kids[1], f);
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (n->op) {
	case T_PIPE: return a | b;
	case T_CARET: return a ^ b;
	case T_AMP: return a & b;
	case T_EQ: return a == b;
	case T_NE: return a != b;
	case T_LT: return a < b;
	case T_LE: return a <= b;
	case T_GT: return a > b;
	case T_GE: return a >= b;
	case T_SHL: return (int64_t)(ua << (b & 63));
	case T_SHR: return a >> (b & 63);
	case T_PLUS: return (int64_t)(ua + ub);
	case T_MINUS: return (int64_t)(ua - ub);
	case T_STAR: return (int64_t)(ua * ub);
	case T_SLASH:
	case T_PERCENT:
		if (b == 0 || (a == INT64_MIN && b == -1)) {
			if (in->runtime_errors++ < 5)
				printf("line %d: bad division\n", n->line);
			return 0;
		}
		return n->op == T_SLASH ? a / b : a % b;
	}
	return 0;
}

static int64_t ev_and(Interp *in, Node *n, int64_t *f)
{
	return eval(in, n->kids[0], f) && eval(in, n->kids[1], f);
}

static int64_t ev_or(Interp *in, Node *n, int64_t *f)
{
	return eval(in, n->kids[0], f) || eval(in, n->kids[1], f);
}

static int64_t ev_assign(Interp *in, Node *n, int64_t *f)
{
	Node *lhs = n->kids[0];
	int64_t v = eval(in, n->kids[1], f);
	int64_t idx = lhs->kind == N_INDEX ? eval(in, lhs->kids[0], f) : 0;
	*var_addr(in, lhs, f, idx) = v;
	return v;
}

static int64_t ev_expr_stmt(Interp *in, Node *n, int64_t *f)
{
	eval(in, n->kids[0], f);
	return 0;
}

static int64_t ev_decl(Interp *in, Node *n, int64_t *f)
{
	int64_t i, size = n->num ? n->num : 1;
	for (i = 0; i < size; i++)
		f[n->slot + i] = 0;
	if (n->nkids)
		f[n->slot] = eval(in, n->kids[0], f);
	return 0;
}

static NOINLINE int64_t ev_block(Interp *in, Node *n, int64_t *f)
{
	int i;
	for (i = 0; i < n->nkids && in->flow == FLOW_NORMAL; i++)
		eval(in, n->kids[i], f);
	return 0;
}

static int64_t ev_if(Interp *in, Node *n, int64_t *f)
{
	if (eval(in, n->kids[0], f))
		eval(in, n->kids[1], f);
	else if (n->nkids > 2)
		eval(in, n->kids[2], f);
	return 0;
}

static int loop_flow(Interp *in)
{
	if (in->flow == FLOW_BREAK) {
		in->flow = FLOW_NORMAL;
		return 1;
	}
	if (in->flow == FLOW_CONTINUE)
		in->flow = FLOW_NORMAL;
	return in->flow == FLOW_RETURN;
}

static NOINLINE int64_t ev_while(Interp *in, Node *n, int64_t *f)
{
	while (eval(in, n->kids[0], f)) {
		eval(in, n->kids[1], f);
		if (loop_flow(in))
			break;
	}
	return 0;
}

static NOINLINE int64_t ev_for(Interp *in, Node *n, int64_t *f)
{
	eval(in, n->kids[0], f);
	while (n->kids[1]->kind == N_EMPTY || eval(in, n->kids[1], f)) {
		eval(in, n->kids[3], f);
		if (loop_flow(in))
			break;
		eval(in, n->kids[2], f);
	}
	return 0;
}

static int64_t ev_return(Interp *in, Node *n, int64_t *f)
{
	in->ret = n->nkids ? eval(in, n->kids[0], f) : 0;
	in->flow = FLOW_RETURN;
	return 0;
}

static int64_t ev_break(Interp *in, Node *n, int64_t *f) { (void)n; (void)f; in->flow = FLOW_BREAK; return 0; }
static int64_t ev_continue(Interp *in, Node *n, int64_t *f) { (void)n; (void)f; in->flow = FLOW_CONTINUE; return 0; }
static int64_t ev_empty(Interp *in, Node *n, int64_t *f) { (void)in; (void)n; (void)f; return 1; }

static void init_evaluators(void)
{
	evaluators[N_NUM] = ev_num;
	evaluators[N_VAR] = ev_var;
	evaluators[N_INDEX] = ev_index;
	evaluators[N_CALL] = ev_call;
	evaluators[N_NEG] = ev_neg;
	evaluators[N_LNOT] = ev_lnot;
	evaluators[N_BNOT] = ev_bnot;
	evaluators[N_BIN] = ev_bin;
	evaluators[N_AND] = ev_and;
	evaluators[N_OR] = ev_or;
	evaluators[N_ASSIGN] = ev_assign;
	evaluators[N_EXPR_STMT] = ev_expr_stmt;
	evaluators[N_DECL] = ev_decl;
	evaluators[N_IF] = ev_if;
	evaluators[N_WHILE] = ev_while;
	evaluators[N_FOR] = ev_for;
	evaluators[N_RETURN] = ev_return;
	evaluators[N_BREAK] = ev_break;
	evaluators[N_CONTINUE] = ev_continue;
	evaluators[N_BLOCK] = ev_block;
	evaluators[N_EMPTY] = ev_empty;
}

/* Runs bench(n) of the program; globals are initialised in order first. */
static NOINLINE int run_program(Node *prog, Scope *sc, int64_t n, int64_t *result, Interp *in)
{
	int i;
	Node *bench = NULL;
	memset(in, 0, sizeof *in);
	in->globals = calloc((size_t)sc->nglobals + 1, sizeof(int64_t));
	in->cap = 1 << 20;
	in->stack = calloc(in->cap, sizeof(int64_t));
	if (!in->globals || !in->stack) {
		printf("out of memory\n");
		exit(2);
	}
	for (i = 0; i < prog->nkids; i++) {
		Node *d = prog->kids[i];
		if (d->kind == N_GLOBAL && d->nkids)
			in->globals[d->slot] = eval(in, d->kids[0], in->stack);
		if (d->kind == N_FUNC && strcmp(d->name, "bench") == 0)
			bench = d;
	}
	if (!bench || bench->num != 1) {
		printf("no function bench(int n)\n");
		return -1;
	}
	{
		Node call = { 0 };
		Node arg = { 0 };
		Node *kids[1] = { &arg };
		arg.kind = N_NUM;
		arg.num = n;
		call.kind = N_CALL;
		call.target = bench;
		call.kids = kids;
		call.nkids = 1;
		*result = eval(in, &call, in->stack);
	}
	free(in->globals);
	free(in->stack);
	return in->runtime_errors ? -1 : 0;
}

/* ---------- driver ---------- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)size + 1);
	*len = fread(buf, 1, (size_t)size, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	char *src, *exp_text, *line;
	size_t len, exp_len;
	int reps, r, failures = 0, have_expected = 0;
	int64_t n, expected = 0, result = 0;
	uint64_t checksum = 0;
	Node *prog = NULL;
	static Scope sc;
	static Interp in;

	if (argc != 5) {
		printf("usage: parser SOURCE.mc EXPECTED.txt PARSE_REPS N\n");
		return 2;
	}
	reps = atoi(argv[3]);
	n = atol(argv[4]);
	if (reps < 1 || n < 0) {
		printf("bad arguments\n");
		return 2;
	}
	src = read_file(argv[1], &len);
	exp_text = read_file(argv[2], &exp_len);
	if (!src || !exp_text) {
		printf("cannot read input files\n");
		return 2;
	}
	for (line = strtok(exp_text, "\n"); line; line = strtok(NULL, "\n")) {
		long long a, b;
		if (sscanf(line, "%lld %lld", &a, &b) == 2 && a == n) {
			expected = b;
			have_expected = 1;
		}
	}
	if (!have_expected) {
		printf("no expected value for N=%lld\n", (long long)n);
		failures++;
	}
	init_evaluators();

	for (r = 0; r < reps; r++) {
		Out o = { 0, 0, 0 };
		Node *again;
		uint64_t h1, h2;
		long nodes_before = node_count;
		if (prog)
			free_tree(prog);
		prog = parse_program(src);
		resolve_program(&sc, prog);
		h1 = tree_hash(prog);
		for (int i = 0; i < prog->nkids; i++)
			print_node(&o, prog->kids[i], 0);
		again = parse_program(o.buf);
		h2 = tree_hash(again);
		if (h1 != h2) {
			printf("rep %d: round trip changed the tree\n", r);
			failures++;
		}
		if (r == 0 || r == reps - 1)
			printf("rep %d: %ld nodes, %zu bytes printed, tree hash %016llx, %ld lookups %ld probes\n",
			       r, (node_count - nodes_before) / 2, o.len, (unsigned long long)h1, sc.lookups,
			       sc.probes);
		checksum = checksum * 31 + h1;
		free_tree(again);
		free(o.buf);
	}
	if (errors) {
		printf("%d syntax/name errors\n", errors);
		failures++;
	}
	if (!errors) {
		if (run_program(prog, &sc, n, &result, &in) != 0) {
			printf("runtime error\n");
			failures++;
		}
		printf("bench(%lld) = %lld (%ld calls, %ld steps)\n", (long long)n, (long long)result,
		       in.calls, in.steps);
		if (have_expected && result != expected) {
			printf("expected %lld\n", (long long)expected);
			failures++;
		}
		checksum = checksum * 31 + (uint64_t)result;
	}
	free_tree(prog);
	free(src);
	free(exp_text);
	printf("failures: %d\n", failures);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	return failures ? 1 : 0;
}
