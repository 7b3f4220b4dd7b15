/*
 * lisp - a small Scheme-like Lisp interpreter (rvsim benchmark).
 *
 * Models interpreters such as SPEC's li/xlisp: a reader, an evaluator over
 * linked environments with closures and tail calls, primitives reached
 * through function pointers, and a mark-sweep garbage collector over a fixed
 * cell pool. The Lisp program is read from a file (fopen/fread) and is run
 * with the global `scale` bound from the command line.
 *
 * usage: lisp PROGRAM.lisp SCALE
 * Output: whatever the program displays, then a checksum line. Exit status 1
 * if any (check ...) in the program failed or the interpreter hit an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum { T_INT, T_SYM, T_CONS, T_PRIM, T_CLO, T_NIL, T_TRUE, T_FREE };

typedef struct Obj Obj;
typedef struct Sym Sym;
typedef Obj *(*PrimFn)(Obj *args);

struct Obj {
	unsigned char tag, mark;
	union {
		int64_t i;
		Sym *s;
		struct { Obj *car, *cdr; } c;
		struct { const char *name; PrimFn fn; int arity; } p;
		struct { Obj *params, *body, *env; } f;
	} u;
};

/* Special forms are dispatched on a small integer kept in the symbol. */
enum { SF_NONE, SF_QUOTE, SF_IF, SF_DEFINE, SF_LAMBDA, SF_LET, SF_BEGIN,
       SF_SET, SF_COND, SF_AND, SF_OR, SF_ELSE };

struct Sym {
	char *name;
	int special;
	Obj *global; /* global value, NULL when unbound */
	Obj *obj;    /* the symbol object itself (permanent) */
	Sym *next;   /* hash chain */
};

static Obj nil_obj = { T_NIL, 1, { 0 } };
static Obj true_obj = { T_TRUE, 1, { 0 } };
#define NIL (&nil_obj)
#define TRUE (&true_obj)

/* ---------- errors and output ---------- */

static int errors;          /* interpreter errors (fatal for the run) */
static int check_failures;  /* failed (check ...) forms */
static uint64_t out_hash = 1469598103934665603ULL;

static void out_char(int c)
{
	putchar(c);
	out_hash = (out_hash ^ (unsigned char)c) * 1099511628211ULL;
}

static void out_str(const char *s)
{
	while (*s)
		out_char(*s++);
}

static NOINLINE void fatal(const char *msg, const char *what)
{
	printf("error: %s %s\n", msg, what ? what : "");
	printf("checksum: FAILED\n");
	exit(2);
}

/* ---------- cell pool and garbage collector ---------- */

#define POOL_CELLS (1 << 14)
static Obj *pool;
static Obj *free_list;
static long live_after_gc, gc_count, alloc_count;

#define MAX_ROOTS 65536
static Obj **roots[MAX_ROOTS];
static int nroots;

#define ROOT(v) do { if (nroots >= MAX_ROOTS) fatal("root stack overflow", 0); roots[nroots++] = &(v); } while (0)
#define UNROOT(n) (nroots -= (n))

#define SYM_BUCKETS 512
static Sym *sym_table[SYM_BUCKETS];

static NOINLINE void mark(Obj *o)
{
	while (o && !o->mark) {
		o->mark = 1;
		switch (o->tag) {
		case T_CONS:
			mark(o->u.c.car);
			o = o->u.c.cdr;
			break;
		case T_CLO:
			mark(o->u.f.params);
			mark(o->u.f.body);
			o = o->u.f.env;
			break;
		default:
			return;
		}
	}
}

static NOINLINE void gc(void)
{
	int i;
	long live = 0;
	Sym *s;

	gc_count++;
	for (i = 0; i < SYM_BUCKETS; i++)
		for (s = sym_table[i]; s; s = s->next)
			if (s->global)
				mark(s->global);
	for (i = 0; i < nroots; i++)
		mark(*roots[i]);
	free_list = NULL;
	for (i = POOL_CELLS - 1; i >= 0; i--) {
		Obj *o = &pool[i];
		if (o->mark) {
			o->mark = 0;
			live++;
		} else {
			o->tag = T_FREE;
			o->u.c.cdr = free_list;
			free_list = o;
		}
	}
	live_after_gc += live;
	if (live > POOL_CELLS - POOL_CELLS / 16)
		fatal("out of memory", 0);
}

static Obj *alloc(int tag)
{
	Obj *o;
	if (!free_list)
		gc();
	o = free_list;
	free_list = o->u.c.cdr;
	o->tag = tag;
	o->mark = 0;
	alloc_count++;
	return o;
}

static Obj *cons(Obj *a, Obj *d)
{
	Obj *o;
	ROOT(a);
	ROOT(d);
	o = alloc(T_CONS);
	o->u.c.car = a;
	o->u.c.cdr = d;
	UNROOT(2);
	return o;
}

/* Small integers are cached so that repeated constants share cells. */
#define SMALL_MIN (-16)
#define SMALL_MAX 256
static Obj small_ints[SMALL_MAX - SMALL_MIN + 1];

static Obj *mkint(int64_t v)
{
	Obj *o;
	if (v >= SMALL_MIN && v <= SMALL_MAX)
		return &small_ints[v - SMALL_MIN];
	o = alloc(T_INT);
	o->u.i = v;
	return o;
}

static unsigned hash_str(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static Obj *intern(const char *name)
{
	unsigned h = hash_str(name) % SYM_BUCKETS;
	Sym *s;
	for (s = sym_table[h]; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s->obj;
	s = calloc(1, sizeof(*s));
	s->obj = calloc(1, sizeof(Obj));
	if (!s || !s->obj)
		fatal("out of memory", "symbols");
	s->name = strdup(name);
	s->obj->tag = T_SYM;
	s->obj->mark = 1; /* permanent */
	s->obj->u.s = s;
	s->next = sym_table[h];
	sym_table[h] = s;
	return s->obj;
}

#define car(o) ((o)->u.c.car)
#define cdr(o) ((o)->u.c.cdr)

static Obj *safe_car(Obj *o)
{
	if (o->tag != T_CONS)
		fatal("car of non-pair", 0);
	return o->u.c.car;
}

static Obj *safe_cdr(Obj *o)
{
	if (o->tag != T_CONS)
		fatal("cdr of non-pair", 0);
	return o->u.c.cdr;
}

/* ---------- reader ---------- */

typedef struct {
	const char *p, *end;
	int line;
} Reader;

static void skip_space(Reader *r)
{
	while (r->p < r->end) {
		char c = *r->p;
		if (c == ';') {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			if (c == '\n')
				r->line++;
			r->p++;
		} else {
			break;
		}
	}
}

static int is_delim(char c)
{
	return c == '(' || c == ')' || c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ';' || c == '\'';
}

static Obj *read_expr(Reader *r);

static NOINLINE Obj *read_list(Reader *r)
{
	Obj *head = NIL, *tail = NIL, *item = NIL;
	ROOT(head);
	ROOT(item);
	for (;;) {
		skip_space(r);
		if (r->p >= r->end)
			fatal("unexpected end of input in list", 0);
		if (*r->p == ')') {
			r->p++;
			break;
		}
		item = read_expr(r);
		item = cons(item, NIL);
		if (head == NIL)
			head = item;
		else
			tail->u.c.cdr = item;
		tail = item;
	}
	UNROOT(2);
	return head;
}

static NOINLINE Obj *read_atom(Reader *r)
{
	char buf[64];
	int n = 0;
	while (r->p < r->end && !is_delim(*r->p)) {
		if (n < 63)
			buf[n++] = *r->p;
		r->p++;
	}
	buf[n] = 0;
	if ((buf[0] >= '0' && buf[0] <= '9') || (buf[0] == '-' && buf[1] >= '0' && buf[1] <= '9')) {
		int neg = buf[0] == '-';
		int64_t v = 0;
		int i;
		for (i = neg; buf[i]; i++) {
			if (buf[i] < '0' || buf[i] > '9')
				fatal("bad number", buf);
			v = v * 10 + (buf[i] - '0');
		}
		return mkint(neg ? -v : v);
	}
	if (strcmp(buf, "#t") == 0)
		return TRUE;
	if (strcmp(buf, "#f") == 0 || strcmp(buf, "nil") == 0)
		return NIL;
	return intern(buf);
}

static Obj *read_expr(Reader *r)
{
	skip_space(r);
	if (r->p >= r->end)
		return NULL;
	if (*r->p == '(') {
		r->p++;
		return read_list(r);
	}
	if (*r->p == ')')
		fatal("unexpected )", 0);
	if (*r->p == '\'') {
		Obj *q;
		r->p++;
		q = read_expr(r);
		if (!q)
			fatal("quote at end of input", 0);
		q = cons(q, NIL);
		return cons(intern("quote"), q);
	}
	return read_atom(r);
}

/* ---------- printer ---------- */

static NOINLINE void print_obj(Obj *o)
{
	char buf[32];
	switch (o->tag) {
	case T_INT:
		snprintf(buf, sizeof buf, "%lld", (long long)o->u.i);
		out_str(buf);
		break;
	case T_SYM:
		out_str(o->u.s->name);
		break;
	case T_NIL:
		out_str("()");
		break;
	case T_TRUE:
		out_str("#t");
		break;
	case T_PRIM:
		out_str("#<prim ");
		out_str(o->u.p.name);
		out_char('>');
		break;
	case T_CLO:
		out_str("#<closure>");
		break;
	case T_CONS:
		out_char('(');
		for (;;) {
			print_obj(o->u.c.car);
			o = o->u.c.cdr;
			if (o->tag != T_CONS)
				break;
			out_char(' ');
		}
		if (o != NIL) {
			out_str(" . ");
			print_obj(o);
		}
		out_char(')');
		break;
	default:
		out_str("#<?>");
	}
}

/* ---------- environments ---------- */

/* A local environment is a list of frames; a frame is a list of (sym . val)
 * pairs. Globals live in the symbol itself. */
static NOINLINE Obj **lookup_slot(Obj *sym, Obj *env)
{
	for (; env != NIL; env = cdr(env)) {
		Obj *f;
		for (f = car(env); f != NIL; f = cdr(f))
			if (car(car(f)) == sym)
				return &car(f)->u.c.cdr;
	}
	return &sym->u.s->global;
}

static Obj *lookup(Obj *sym, Obj *env)
{
	Obj **slot = lookup_slot(sym, env);
	if (!*slot)
		fatal("unbound variable", sym->u.s->name);
	return *slot;
}

static NOINLINE Obj *bind_params(Obj *params, Obj *args, Obj *env)
{
	Obj *frame = NIL, *pair = NIL;
	ROOT(params);
	ROOT(args);
	ROOT(env);
	ROOT(frame);
	ROOT(pair);
	while (params != NIL) {
		if (params->tag == T_SYM) { /* rest parameter */
			pair = cons(params, args);
			frame = cons(pair, frame);
			args = NIL;
			break;
		}
		if (args == NIL)
			fatal("too few arguments", 0);
		pair = cons(car(params), car(args));
		frame = cons(pair, frame);
		params = cdr(params);
		args = cdr(args);
	}
	if (args != NIL)
		fatal("too many arguments", 0);
	frame = cons(frame, env);
	UNROOT(5);
	return frame;
}

/* ---------- evaluator ---------- */

static Obj *eval(Obj *x, Obj *env);

static NOINLINE Obj *evlis(Obj *list, Obj *env)
{
	Obj *head = NIL, *tail = NIL, *v = NIL;
	ROOT(list);
	ROOT(env);
	ROOT(head);
	ROOT(v);
	for (; list != NIL; list = cdr(list)) {
		v = eval(car(list), env);
		v = cons(v, NIL);
		if (head == NIL)
			head = v;
		else
			tail->u.c.cdr = v;
		tail = v;
	}
	UNROOT(4);
	return head;
}

static int depth, max_depth;

static Obj *apply_fn(Obj *fn, Obj *args);

static Obj *eval(Obj *x, Obj *env)
{
	Obj *fn = NIL, *args = NIL, *result = NIL, *rest;
	int nr = nroots;

	if (++depth > max_depth)
		max_depth = depth;
	if (depth > 10000)
		fatal("recursion too deep", 0);
	ROOT(x);
	ROOT(env);
	ROOT(fn);
	ROOT(args);
	for (;;) {
		switch (x->tag) {
		case T_SYM:
			result = lookup(x, env);
			goto done;
		case T_CONS:
			break;
		default:
			result = x;
			goto done;
		}
		fn = car(x);
		if (fn->tag == T_SYM && fn->u.s->special) {
			rest = cdr(x);
			switch (fn->u.s->special) {
			case SF_QUOTE:
				result = car(rest);
				goto done;
			case SF_IF:
				if (eval(car(rest), env) != NIL) {
					x = car(cdr(rest));
				} else {
					rest = cdr(cdr(rest));
					if (rest == NIL) {
						result = NIL;
						goto done;
					}
					x = car(rest);
				}
				continue;
			case SF_DEFINE: {
				Obj *target = car(rest);
				if (target->tag == T_CONS) {
					/* (define (f . params) body...) */
					args = alloc(T_CLO);
					args->u.f.params = cdr(target);
					args->u.f.body = cdr(rest);
					args->u.f.env = env;
					target = car(target);
				} else {
					args = eval(car(cdr(rest)), env);
				}
				if (env == NIL)
					target->u.s->global = args;
				else
					car(env) = cons(cons(target, args), car(env));
				result = target;
				goto done;
			}
			case SF_LAMBDA:
				result = alloc(T_CLO);
				result->u.f.params = car(rest);
				result->u.f.body = cdr(rest);
				result->u.f.env = env;
				goto done;
			case SF_LET: {
				/* (let ((v e)...) body...) */
				Obj *b, *names = NIL, *vals = NIL;
				ROOT(names);
				ROOT(vals);
				for (b = car(rest); b != NIL; b = cdr(b)) {
					names = cons(car(car(b)), names);
					args = eval(car(cdr(car(b))), env);
					vals = cons(args, vals);
				}
				env = bind_params(names, vals, env);
				UNROOT(2);
				rest = cdr(rest);
				goto body;
			}
			case SF_BEGIN:
			body:
				if (rest == NIL) {
					result = NIL;
					goto done;
				}
				while (cdr(rest) != NIL) {
					eval(car(rest), env);
					rest = cdr(rest);
				}
				x = car(rest);
				continue;
			case SF_SET: {
				Obj **slot = lookup_slot(car(rest), env);
				if (!*slot)
					fatal("set! of unbound variable", car(rest)->u.s->name);
				args = eval(car(cdr(rest)), env);
				slot = lookup_slot(car(rest), env);
				*slot = args;
				result = args;
				goto done;
			}
			case SF_COND:
				for (; rest != NIL; rest = cdr(rest)) {
					Obj *clause = car(rest);
					Obj *test = car(clause);
					if (test->tag == T_SYM && test->u.s->special == SF_ELSE)
						break;
					if (eval(test, env) != NIL)
						break;
				}
				if (rest == NIL) {
					result = NIL;
					goto done;
				}
				rest = cdr(car(rest));
				goto body;
			case SF_AND:
				result = TRUE;
				for (; rest != NIL; rest = cdr(rest)) {
					if (cdr(rest) == NIL) {
						x = car(rest);
						break;
					}
					if (eval(car(rest), env) == NIL) {
						result = NIL;
						goto done;
					}
				}
				if (rest == NIL)
					goto done;
				continue;
			case SF_OR:
				for (; rest != NIL; rest = cdr(rest)) {
					if (cdr(rest) == NIL) {
						x = car(rest);
						break;
					}
					result = eval(car(rest), env);
					if (result != NIL)
						goto done;
				}
				if (rest == NIL) {
					result = NIL;
					goto done;
				}
				continue;
			default:
				fatal("misplaced keyword", fn->u.s->name);
			}
		}
		/* application */
		fn = eval(fn, env);
		args = evlis(cdr(x), env);
		if (fn->tag == T_PRIM) {
			result = fn->u.p.fn(args);
			goto done;
		}
		if (fn->tag != T_CLO)
			fatal("application of non-function", 0);
		env = bind_params(fn->u.f.params, args, fn->u.f.env);
		rest = fn->u.f.body;
		goto body;
	}
done:
	nroots = nr;
	depth--;
	return result;
}

static Obj *apply_fn(Obj *fn, Obj *args)
{
	Obj *env = NIL, *x = NIL, *r;
	if (fn->tag == T_PRIM)
		return fn->u.p.fn(args);
	if (fn->tag != T_CLO)
		fatal("apply of non-function", 0);
	ROOT(fn);
	ROOT(env);
	ROOT(x);
	env = bind_params(fn->u.f.params, args, fn->u.f.env);
	x = cons(intern("begin"), fn->u.f.body);
	r = eval(x, env);
	UNROOT(3);
	return r;
}

/* ---------- primitives (reached through function pointers) ---------- */

static int64_t int_arg(Obj *o, const char *who)
{
	if (o->tag != T_INT)
		fatal("expected an integer in", who);
	return o->u.i;
}

static Obj *p_add(Obj *a)
{
	uint64_t s = 0;
	for (; a != NIL; a = cdr(a))
		s += (uint64_t)int_arg(car(a), "+");
	return mkint((int64_t)s);
}

static Obj *p_sub(Obj *a)
{
	uint64_t s = (uint64_t)int_arg(car(a), "-");
	if (cdr(a) == NIL)
		return mkint(-(int64_t)s);
	for (a = cdr(a); a != NIL; a = cdr(a))
		s -= (uint64_t)int_arg(car(a), "-");
	return mkint((int64_t)s);
}

static Obj *p_mul(Obj *a)
{
	uint64_t s = 1;
	for (; a != NIL; a = cdr(a))
		s *= (uint64_t)int_arg(car(a), "*");
	return mkint((int64_t)s);
}

static Obj *p_quotient(Obj *a)
{
	int64_t x = int_arg(car(a), "quotient"), y = int_arg(car(cdr(a)), "quotient");
	if (y == 0)
		fatal("division by zero", 0);
	return mkint(x / y);
}

static Obj *p_remainder(Obj *a)
{
	int64_t x = int_arg(car(a), "remainder"), y = int_arg(car(cdr(a)), "remainder");
	if (y == 0)
		fatal("division by zero", 0);
	return mkint(x % y);
}

#define CMP_PRIM(name, op, label) \
	static Obj *name(Obj *a) \
	{ \
		int64_t x = int_arg(car(a), label), y = int_arg(car(cdr(a)), label); \
		return x op y ? TRUE : NIL; \
	}
CMP_PRIM(p_lt, <, "<")
CMP_PRIM(p_gt, >, ">")
CMP_PRIM(p_le, <=, "<=")
CMP_PRIM(p_ge, >=, ">=")
CMP_PRIM(p_numeq, ==, "=")

static Obj *p_eq(Obj *a)
{
	Obj *x = car(a), *y = car(cdr(a));
	if (x->tag == T_INT && y->tag == T_INT)
		return x->u.i == y->u.i ? TRUE : NIL;
	return x == y ? TRUE : NIL;
}

static Obj *p_cons(Obj *a) { return cons(car(a), car(cdr(a))); }
static Obj *p_car(Obj *a) { return safe_car(car(a)); }
static Obj *p_cdr(Obj *a) { return safe_cdr(car(a)); }
static Obj *p_null(Obj *a) { return car(a) == NIL ? TRUE : NIL; }
static Obj *p_pair(Obj *a) { return car(a)->tag == T_CONS ? TRUE : NIL; }
static Obj *p_not(Obj *a) { return car(a) == NIL ? TRUE : NIL; }
static Obj *p_list(Obj *a) { return a; }
static Obj *p_number(Obj *a) { return car(a)->tag == T_INT ? TRUE : NIL; }
static Obj *p_symbol(Obj *a) { return car(a)->tag == T_SYM ? TRUE : NIL; }
static Obj *p_procedure(Obj *a)
{
	return (car(a)->tag == T_PRIM || car(a)->tag == T_CLO) ? TRUE : NIL;
}

static Obj *p_setcar(Obj *a)
{
	if (car(a)->tag != T_CONS)
		fatal("set-car! of non-pair", 0);
	car(car(a)) = car(cdr(a));
	return car(cdr(a));
}

static Obj *p_setcdr(Obj *a)
{
	if (car(a)->tag != T_CONS)
		fatal("set-cdr! of non-pair", 0);
	cdr(car(a)) = car(cdr(a));
	return car(cdr(a));
}

static Obj *p_display(Obj *a)
{
	for (; a != NIL; a = cdr(a)) {
		print_obj(car(a));
		if (cdr(a) != NIL)
			out_char(' ');
	}
	return NIL;
}

static Obj *p_newline(Obj *a)
{
	(void)a;
	out_char('\n');
	return NIL;
}

static Obj *p_apply(Obj *a)
{
	return apply_fn(car(a), car(cdr(a)));
}

static Obj *p_logand(Obj *a)
{
	return mkint(int_arg(car(a), "logand") & int_arg(car(cdr(a)), "logand"));
}

static Obj *p_logxor(Obj *a)
{
	return mkint(int_arg(car(a), "logxor") ^ int_arg(car(cdr(a)), "logxor"));
}

static Obj *p_ash(Obj *a)
{
	int64_t x = int_arg(car(a), "ash"), n = int_arg(car(cdr(a)), "ash");
	if (n >= 0)
		return mkint((int64_t)((uint64_t)x << (n & 63)));
	return mkint(x >> ((-n) & 63));
}

/* (check name expected actual): compares structurally, records failures. */
static NOINLINE int equal_obj(Obj *x, Obj *y)
{
	while (x->tag == T_CONS && y->tag == T_CONS) {
		if (!equal_obj(car(x), car(y)))
			return 0;
		x = cdr(x);
		y = cdr(y);
	}
	if (x->tag == T_INT && y->tag == T_INT)
		return x->u.i == y->u.i;
	return x == y;
}

static Obj *p_equal(Obj *a) { return equal_obj(car(a), car(cdr(a))) ? TRUE : NIL; }

static Obj *p_check(Obj *a)
{
	Obj *name = car(a), *want = car(cdr(a)), *got = car(cdr(cdr(a)));
	if (!equal_obj(want, got)) {
		check_failures++;
		out_str("CHECK FAILED: ");
		print_obj(name);
		out_str(" expected ");
		print_obj(want);
		out_str(" got ");
		print_obj(got);
		out_char('\n');
		return NIL;
	}
	return TRUE;
}

static Obj *p_gc_count(Obj *a)
{
	(void)a;
	return mkint(gc_count);
}

static const struct {
	const char *name;
	PrimFn fn;
} prim_table[] = {
	{ "+", p_add }, { "-", p_sub }, { "*", p_mul }, { "quotient", p_quotient },
	{ "remainder", p_remainder }, { "<", p_lt }, { ">", p_gt }, { "<=", p_le },
	{ ">=", p_ge }, { "=", p_numeq }, { "eq?", p_eq }, { "equal?", p_equal },
	{ "cons", p_cons }, { "car", p_car }, { "cdr", p_cdr }, { "null?", p_null },
	{ "pair?", p_pair }, { "not", p_not }, { "list", p_list }, { "number?", p_number },
	{ "symbol?", p_symbol }, { "procedure?", p_procedure }, { "set-car!", p_setcar },
	{ "set-cdr!", p_setcdr }, { "display", p_display }, { "newline", p_newline },
	{ "apply", p_apply }, { "logand", p_logand }, { "logxor", p_logxor }, { "ash", p_ash },
	{ "check", p_check }, { "gc-count", p_gc_count },
};

static void init(void)
{
	static const struct { const char *name; int sf; } specials[] = {
		{ "quote", SF_QUOTE }, { "if", SF_IF }, { "define", SF_DEFINE },
		{ "lambda", SF_LAMBDA }, { "let", SF_LET }, { "begin", SF_BEGIN },
		{ "set!", SF_SET }, { "cond", SF_COND }, { "and", SF_AND }, { "or", SF_OR },
		{ "else", SF_ELSE },
	};
	size_t i;

	pool = calloc(POOL_CELLS, sizeof(Obj));
	if (!pool)
		fatal("out of memory", "pool");
	for (i = 0; i < POOL_CELLS; i++) {
		pool[i].tag = T_FREE;
		pool[i].u.c.cdr = i + 1 < POOL_CELLS ? &pool[i + 1] : NULL;
	}
	free_list = &pool[0];
	for (i = 0; i < sizeof small_ints / sizeof small_ints[0]; i++) {
		small_ints[i].tag = T_INT;
		small_ints[i].mark = 1;
		small_ints[i].u.i = (int64_t)i + SMALL_MIN;
	}
	for (i = 0; i < sizeof specials / sizeof specials[0]; i++)
		intern(specials[i].name)->u.s->special = specials[i].sf;
	for (i = 0; i < sizeof prim_table / sizeof prim_table[0]; i++) {
		Obj *p = malloc(sizeof(Obj));
		if (!p)
			fatal("out of memory", "prims");
		p->tag = T_PRIM;
		p->mark = 1;
		p->u.p.name = prim_table[i].name;
		p->u.p.fn = prim_table[i].fn;
		intern(prim_table[i].name)->u.s->global = p;
	}
}

static char *read_file(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t cap = 1 << 16, n = 0, got;
	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	fclose(f);
	*len = (long)n;
	return buf;
}

int main(int argc, char **argv)
{
	Reader r;
	char *text;
	long len, scale, forms = 0;
	Obj *expr = NIL;

	if (argc != 3) {
		printf("usage: lisp PROGRAM.lisp SCALE\n");
		return 2;
	}
	scale = strtol(argv[2], NULL, 10);
	if (scale < 1) {
		printf("bad scale\n");
		return 2;
	}
	text = read_file(argv[1], &len);
	if (!text) {
		printf("cannot read %s\n", argv[1]);
		return 2;
	}
	init();
	intern("scale")->u.s->global = mkint(scale);
	r.p = text;
	r.end = text + len;
	r.line = 1;
	ROOT(expr);
	while ((expr = read_expr(&r)) != NULL) {
		eval(expr, NIL);
		forms++;
	}
	UNROOT(1);
	free(text);
	printf("forms: %ld  gcs: %ld  allocs: %ld  max-depth: %d\n", forms, gc_count, alloc_count, max_depth);
	printf("checks failed: %d\n", check_failures + errors);
	printf("checksum: %016llx\n", (unsigned long long)out_hash);
	return check_failures + errors ? 1 : 0;
}
