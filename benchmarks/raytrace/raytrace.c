/*
 * raytrace - a recursive ray tracer in double precision (rvsim benchmark).
 *
 * Models FP programs such as SPEC's povray: spheres, planes and discs whose
 * intersection routines and surface shaders are reached through function
 * pointers, point lights with shadow rays, mirror reflection, Phong
 * highlights (integer power, no libm), and a bounding-sphere test per
 * object group.
 *
 * Phases per frame: build the scene (camera moves between frames), a
 * geometry pass (depth and object ids only), the shading pass (shadows,
 * reflections), and integer post-processing (3x3 blur, edge count,
 * histogram). The checksum hashes 8-bit pixels; only + - * / and sqrt are
 * used, so x86-64 and RISC-V give identical bits (build with
 * -ffp-contract=off).
 *
 * usage: raytrace WIDTH HEIGHT FRAMES MAX_DEPTH
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define EPS 1e-7
#define FAR 1e30

typedef struct { double x, y, z; } Vec;

static Vec v(double x, double y, double z) { Vec r = { x, y, z }; return r; }
static Vec add(Vec a, Vec b) { return v(a.x + b.x, a.y + b.y, a.z + b.z); }
static Vec sub(Vec a, Vec b) { return v(a.x - b.x, a.y - b.y, a.z - b.z); }
static Vec scale(Vec a, double s) { return v(a.x * s, a.y * s, a.z * s); }
static Vec mul(Vec a, Vec b) { return v(a.x * b.x, a.y * b.y, a.z * b.z); }
static double dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static Vec cross(Vec a, Vec b) { return v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static Vec norm(Vec a) { return scale(a, 1.0 / sqrt(dot(a, a))); }

typedef struct { Vec o, d; } Ray;

/* ---------- objects with virtual intersect/normal, materials with virtual shade ---------- */

typedef struct Object Object;
typedef double (*IntersectFn)(const Object *, const Ray *);
typedef Vec (*NormalFn)(const Object *, Vec p);
typedef Vec (*PatternFn)(const Object *, Vec p);

struct Object {
	IntersectFn intersect;
	NormalFn normal;
	PatternFn pattern;
	Vec c, n;           /* centre (sphere, disc) or point (plane); normal (plane, disc) */
	double r, r2;       /* radius and radius squared */
	Vec color, color2;
	double diffuse, specular, reflect;
	int shininess;
	int group;
	int id;
};

static NOINLINE double sphere_intersect(const Object *o, const Ray *ray)
{
	Vec oc = sub(ray->o, o->c);
	double b = dot(oc, ray->d), c = dot(oc, oc) - o->r2, disc = b * b - c, s, t;
	if (disc < 0)
		return FAR;
	s = sqrt(disc);
	t = -b - s;
	if (t > EPS)
		return t;
	t = -b + s;
	return t > EPS ? t : FAR;
}

static Vec sphere_normal(const Object *o, Vec p) { return scale(sub(p, o->c), 1.0 / o->r); }

static NOINLINE double plane_intersect(const Object *o, const Ray *ray)
{
	double den = dot(o->n, ray->d), t;
	if (den > -EPS && den < EPS)
		return FAR;
	t = dot(sub(o->c, ray->o), o->n) / den;
	return t > EPS ? t : FAR;
}

static Vec plane_normal(const Object *o, Vec p) { (void)p; return o->n; }

static NOINLINE double disc_intersect(const Object *o, const Ray *ray)
{
	double t = plane_intersect(o, ray);
	Vec p, d;
	if (t >= FAR)
		return FAR;
	p = add(ray->o, scale(ray->d, t));
	d = sub(p, o->c);
	return dot(d, d) <= o->r2 ? t : FAR;
}

static Vec pat_solid(const Object *o, Vec p) { (void)p; return o->color; }

static Vec pat_checker(const Object *o, Vec p)
{
	long ix = (long)floor(p.x * 0.5), iz = (long)floor(p.z * 0.5);
	return ((ix + iz) & 1) ? o->color2 : o->color;
}

static Vec pat_stripes(const Object *o, Vec p)
{
	long k = (long)floor((p.y - o->c.y) * 4.0);
	return (k & 1) ? o->color2 : o->color;
}

static Vec pat_rings(const Object *o, Vec p)
{
	Vec d = sub(p, o->c);
	long k = (long)floor(sqrt(d.x * d.x + d.z * d.z) * 3.0);
	return (k % 3 == 0) ? o->color2 : o->color;
}

#define MAX_OBJECTS 64
#define MAX_GROUPS 8
#define MAX_LIGHTS 3

typedef struct {
	Object obj[MAX_OBJECTS];
	int nobj;
	/* bounding spheres of groups of spheres; group 0 = unbounded objects */
	Vec gc[MAX_GROUPS];
	double gr2[MAX_GROUPS];
	int ngroups;
	Vec light[MAX_LIGHTS], light_color[MAX_LIGHTS];
	int nlights;
	Vec eye, look, up;
	Vec ambient, sky;
} Scene;

static long rays, shadow_rays, tests, group_skips;

static NOINLINE void build_scene(Scene *s, int frame)
{
	static const PatternFn pats[] = { pat_solid, pat_stripes, pat_rings, pat_solid };
	int i, j, g;
	double a = 0.15 * frame;
	memset(s, 0, sizeof *s);
	/* floor and a back wall */
	s->obj[0] = (Object){ plane_intersect, plane_normal, pat_checker, v(0, 0, 0), v(0, 1, 0), 0, 0,
	                      v(0.9, 0.9, 0.9), v(0.15, 0.15, 0.2), 0.8, 0.1, 0.25, 8, 0, 0 };
	s->obj[1] = (Object){ plane_intersect, plane_normal, pat_solid, v(0, 0, -30), v(0, 0, 1), 0, 0,
	                      v(0.4, 0.5, 0.7), v(0, 0, 0), 0.9, 0.0, 0.0, 1, 0, 1 };
	s->obj[2] = (Object){ disc_intersect, plane_normal, pat_rings, v(0, 0.01, 0), v(0, 1, 0), 3.5, 12.25,
	                      v(0.8, 0.2, 0.2), v(0.9, 0.9, 0.2), 0.7, 0.3, 0.1, 16, 0, 2 };
	s->nobj = 3;
	/* groups of spheres in a ring, each group a small cluster */
	s->ngroups = 1;
	for (g = 0; g < 6; g++) {
		double gx = 7.0 * ((g % 3) - 1), gz = -4.0 - 6.0 * (g / 3);
		int first = s->nobj;
		Vec lo = v(FAR, FAR, FAR), hi = v(-FAR, -FAR, -FAR), c;
		double r2 = 0;
		for (j = 0; j < 5 && s->nobj < MAX_OBJECTS; j++) {
			Object *o = &s->obj[s->nobj];
			double r = 0.5 + 0.25 * ((g + j) % 3);
			double ox = gx + 1.6 * ((j % 3) - 1), oz = gz + 1.4 * (j / 3) - 0.7;
			o->intersect = sphere_intersect;
			o->normal = sphere_normal;
			o->pattern = pats[(g + j) % 4];
			o->c = v(ox, r + 0.4 * (j == 4), oz);
			o->r = r;
			o->r2 = r * r;
			o->color = v(0.2 + 0.15 * (g % 4), 0.3 + 0.1 * (j % 5), 0.9 - 0.12 * g);
			o->color2 = v(0.95, 0.95, 0.95);
			o->diffuse = 0.7;
			o->specular = 0.5;
			o->reflect = (j + g) % 3 == 0 ? 0.5 : 0.05;
			o->shininess = 8 << ((g + j) % 3);
			o->group = s->ngroups;
			o->id = s->nobj;
			s->nobj++;
		}
		for (i = first; i < s->nobj; i++) {
			Object *o = &s->obj[i];
			if (o->c.x - o->r < lo.x) lo.x = o->c.x - o->r;
			if (o->c.y - o->r < lo.y) lo.y = o->c.y - o->r;
			if (o->c.z - o->r < lo.z) lo.z = o->c.z - o->r;
			if (o->c.x + o->r > hi.x) hi.x = o->c.x + o->r;
			if (o->c.y + o->r > hi.y) hi.y = o->c.y + o->r;
			if (o->c.z + o->r > hi.z) hi.z = o->c.z + o->r;
		}
		c = scale(add(lo, hi), 0.5);
		for (i = first; i < s->nobj; i++) {
			Vec d = sub(s->obj[i].c, c);
			double rr = sqrt(dot(d, d)) + s->obj[i].r;
			if (rr * rr > r2)
				r2 = rr * rr;
		}
		s->gc[s->ngroups] = c;
		s->gr2[s->ngroups] = r2;
		s->ngroups++;
	}
	s->nlights = 2;
	s->light[0] = v(-10, 14, 8);
	s->light_color[0] = v(0.8, 0.8, 0.75);
	s->light[1] = v(12, 9, -2);
	s->light_color[1] = v(0.35, 0.35, 0.45);
	/* the camera circles a little: cos/sin of a small angle by series */
	{
		double c2 = 1 - a * a / 2 + a * a * a * a / 24, s2 = a - a * a * a / 6 + a * a * a * a * a / 120;
		s->eye = v(12.0 * s2, 5.0, 12.0 * c2);
	}
	s->look = v(0, 1.0, -6);
	s->up = v(0, 1, 0);
	s->ambient = v(0.08, 0.08, 0.1);
	s->sky = v(0.5, 0.7, 0.95);
}

/* Ray against a group's bounding sphere (used to skip whole groups). */
static int hits_group(const Scene *s, int g, const Ray *ray)
{
	Vec oc = sub(ray->o, s->gc[g]);
	double b = dot(oc, ray->d), c = dot(oc, oc) - s->gr2[g];
	if (c <= 0)
		return 1;
	return b < 0 && b * b - c >= 0;
}

static NOINLINE const Object *closest(const Scene *s, const Ray *ray, double *tmin, double limit)
{
	const Object *best = NULL;
	int i, live[MAX_GROUPS], g;
	double t0 = limit;
	live[0] = 1;
	for (g = 1; g < s->ngroups; g++) {
		live[g] = hits_group(s, g, ray);
		if (!live[g])
			group_skips++;
	}
	for (i = 0; i < s->nobj; i++) {
		const Object *o = &s->obj[i];
		double t;
		if (!live[o->group])
			continue;
		tests++;
		t = o->intersect(o, ray);
		if (t < t0) {
			t0 = t;
			best = o;
		}
	}
	*tmin = t0;
	return best;
}

static Vec reflect_dir(Vec d, Vec n) { return sub(d, scale(n, 2 * dot(d, n))); }

static double ipow(double x, int n)
{
	double r = 1.0;
	while (n) {
		if (n & 1)
			r *= x;
		x *= x;
		n >>= 1;
	}
	return r;
}

static NOINLINE Vec trace(const Scene *s, const Ray *ray, int depth)
{
	double t;
	const Object *o;
	Vec p, n, base, col;
	int l;

	rays++;
	o = closest(s, ray, &t, FAR);
	if (!o) {
		double k = ray->d.y > 0 ? ray->d.y : 0;
		return add(scale(s->sky, 1 - k * 0.5), v(0.1 * k, 0.1 * k, 0.2 * k));
	}
	p = add(ray->o, scale(ray->d, t));
	n = o->normal(o, p);
	if (dot(n, ray->d) > 0)
		n = scale(n, -1);
	base = o->pattern(o, p);
	col = mul(base, s->ambient);
	for (l = 0; l < s->nlights; l++) {
		Vec to = sub(s->light[l], p);
		double dist2 = dot(to, to), dist = sqrt(dist2), diff, tshadow;
		Ray shadow;
		to = scale(to, 1.0 / dist);
		diff = dot(n, to);
		if (diff <= 0)
			continue;
		shadow.o = add(p, scale(n, 1e-6));
		shadow.d = to;
		shadow_rays++;
		if (closest(s, &shadow, &tshadow, dist))
			continue;
		col = add(col, scale(mul(base, s->light_color[l]), diff * o->diffuse));
		if (o->specular > 0) {
			double spec = dot(reflect_dir(scale(to, -1), n), scale(ray->d, -1));
			if (spec > 0)
				col = add(col, scale(s->light_color[l], o->specular * ipow(spec, o->shininess)));
		}
	}
	if (o->reflect > 0 && depth > 0) {
		Ray r;
		r.o = add(p, scale(n, 1e-6));
		r.d = norm(reflect_dir(ray->d, n));
		col = add(scale(col, 1 - o->reflect), scale(trace(s, &r, depth - 1), o->reflect));
	}
	return col;
}

static int to_byte(double c)
{
	if (c <= 0)
		return 0;
	if (c >= 1)
		return 255;
	return (int)(c * 255.0 + 0.5);
}

typedef struct {
	Vec forward, right, upv;
	double fov;
} Camera;

static Camera make_camera(const Scene *s)
{
	Camera c;
	c.forward = norm(sub(s->look, s->eye));
	c.right = norm(cross(c.forward, s->up));
	c.upv = cross(c.right, c.forward);
	c.fov = 0.9;
	return c;
}

static Ray primary_ray(const Scene *s, const Camera *c, int x, int y, int w, int h)
{
	Ray r;
	double u = ((x + 0.5) / w * 2 - 1) * c->fov * w / h;
	double vv = (1 - (y + 0.5) / h * 2) * c->fov;
	r.o = s->eye;
	r.d = norm(add(c->forward, add(scale(c->right, u), scale(c->upv, vv))));
	return r;
}

/* geometry pass: object id and quantised depth per pixel */
static NOINLINE uint64_t geometry_pass(const Scene *s, int w, int h, unsigned char *ids)
{
	Camera c = make_camera(s);
	uint64_t hsh = 1469598103934665603ULL;
	int x, y;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			Ray r = primary_ray(s, &c, x, y, w, h);
			double t;
			const Object *o = closest(s, &r, &t, FAR);
			int id = o ? o->id : 255;
			long depth = o ? (long)(t * 16.0) : -1;
			ids[y * w + x] = (unsigned char)id;
			hsh = (hsh ^ (uint64_t)id) * 1099511628211ULL;
			hsh = (hsh ^ (uint64_t)depth) * 1099511628211ULL;
		}
	return hsh;
}

static NOINLINE void shade_pass(const Scene *s, int w, int h, int depth, unsigned char *rgb)
{
	Camera c = make_camera(s);
	int x, y;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			Ray r = primary_ray(s, &c, x, y, w, h);
			Vec col = trace(s, &r, depth);
			unsigned char *px = rgb + 3 * (y * w + x);
			px[0] = (unsigned char)to_byte(col.x);
			px[1] = (unsigned char)to_byte(col.y);
			px[2] = (unsigned char)to_byte(col.z);
		}
}

/* integer post-processing: 3x3 box blur of luminance, edge count, histogram */
static NOINLINE uint64_t post_process(const unsigned char *rgb, const unsigned char *ids, int w, int h,
                                      long *edges, int *hist)
{
	int x, y, i;
	uint64_t hsh = 0;
	int *lum = malloc(sizeof(int) * (size_t)w * (size_t)h);
	if (!lum) {
		printf("out of memory\n");
		exit(2);
	}
	for (i = 0; i < w * h; i++)
		lum[i] = (77 * rgb[3 * i] + 150 * rgb[3 * i + 1] + 29 * rgb[3 * i + 2]) >> 8;
	memset(hist, 0, 16 * sizeof(int));
	*edges = 0;
	for (y = 1; y < h - 1; y++)
		for (x = 1; x < w - 1; x++) {
			int sum = 0, dx, dy, b;
			for (dy = -1; dy <= 1; dy++)
				for (dx = -1; dx <= 1; dx++)
					sum += lum[(y + dy) * w + x + dx];
			b = sum / 9;
			hist[b >> 4]++;
			hsh = hsh * 31 + (uint64_t)b;
			if (ids[y * w + x] != ids[y * w + x + 1] || ids[y * w + x] != ids[(y + 1) * w + x])
				(*edges)++;
		}
	free(lum);
	return hsh;
}

/* Analytic checks of the intersection routines: a ray from the eye to a
 * sphere's centre meets it at distance |c - eye| - r; a ray straight down
 * meets the floor at the eye's height; the geometry pass's id at a pixel
 * is the object the shading pass sees there. */
static NOINLINE int self_test(const Scene *s)
{
	int i, bad = 0;
	for (i = 0; i < s->nobj; i++) {
		const Object *o = &s->obj[i];
		Ray r;
		double want, got;
		if (o->intersect != sphere_intersect)
			continue;
		r.o = s->eye;
		r.d = norm(sub(o->c, s->eye));
		want = sqrt(dot(sub(o->c, s->eye), sub(o->c, s->eye))) - o->r;
		got = o->intersect(o, &r);
		if (got - want > 1e-9 || want - got > 1e-9)
			bad++;
	}
	{
		Ray down;
		double t;
		down.o = s->eye;
		down.d = v(0, -1, 0);
		t = s->obj[0].intersect(&s->obj[0], &down);
		if (t - s->eye.y > 1e-12 || s->eye.y - t > 1e-12)
			bad++;
	}
	return bad;
}

int main(int argc, char **argv)
{
	int w, h, frames, depth, f, i;
	unsigned char *rgb, *ids;
	uint64_t checksum = 0;
	Scene *scene;

	if (argc != 5) {
		printf("usage: raytrace WIDTH HEIGHT FRAMES MAX_DEPTH\n");
		return 2;
	}
	w = atoi(argv[1]);
	h = atoi(argv[2]);
	frames = atoi(argv[3]);
	depth = atoi(argv[4]);
	if (w < 8 || h < 8 || w > 8192 || h > 8192 || frames < 1 || depth < 0 || depth > 16) {
		printf("bad arguments\n");
		return 2;
	}
	rgb = calloc((size_t)w * (size_t)h, 3);
	ids = calloc((size_t)w * (size_t)h, 1);
	scene = malloc(sizeof *scene);
	if (!rgb || !ids || !scene) {
		printf("out of memory\n");
		return 2;
	}
	for (f = 0; f < frames; f++) {
		uint64_t gh, ph, img = 1469598103934665603ULL;
		long edges;
		int hist[16];
		build_scene(scene, f);
		if (self_test(scene)) {
			printf("frame %d: intersection self-test failed\n", f);
			return 1;
		}
		gh = geometry_pass(scene, w, h, ids);
		shade_pass(scene, w, h, depth, rgb);
		for (i = 0; i < 3 * w * h; i++)
			img = (img ^ rgb[i]) * 1099511628211ULL;
		ph = post_process(rgb, ids, w, h, &edges, hist);
		printf("frame %d: geometry %016llx image %016llx post %016llx edges %ld\n", f,
		       (unsigned long long)gh, (unsigned long long)img, (unsigned long long)ph, edges);
		printf("  histogram:");
		for (i = 0; i < 16; i++)
			printf(" %d", hist[i]);
		printf("\n");
		checksum = checksum * 1000003 ^ gh;
		checksum = checksum * 1000003 ^ img;
		checksum = checksum * 1000003 ^ ph;
	}
	printf("rays %ld, shadow rays %ld, intersection tests %ld, group skips %ld\n", rays, shadow_rays,
	       tests, group_skips);
	printf("checksum: %016llx\n", (unsigned long long)checksum);
	/* self-check: the image must not be empty or saturated */
	{
		long sum = 0;
		for (i = 0; i < 3 * w * h; i++)
			sum += rgb[i];
		if (sum == 0 || sum == 255L * 3 * w * h) {
			printf("degenerate image\n");
			return 1;
		}
	}
	return 0;
}
