// SPDX-License-Identifier: BSD-2-Clause
/*
 * hwpmc-stat --flamegraph: an interactive SVG flame graph of the stacks
 * of -F (struct stacks), written by hwpmc-stat itself.
 *
 * The stacks become a tree, merged by frame label from the root: "all",
 * the process (comm or pid-PID), then the functions as -F names them.
 * Each node is a rect whose width is its share of the samples, coloured
 * by kind (user, kernel, no symbol), with a <title> "label (N samples,
 * P%)" that browsers show on hover; data-s (first sample), data-n
 * (samples) and data-d (depth) let the embedded script zoom into a frame
 * (click; "Reset zoom" or Escape undoes it) and search (the "Search"
 * button or Ctrl-F: frames matching a regular expression are
 * highlighted, and the share of samples under them shown); the URL's
 * fragment #z=LABEL&s=REGEX opens it zoomed and searched.  Frames
 * narrower than 0.1 pixel are left out, with what is above them.
 * Children are in the order of their labels, as flame graphs have them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmcstat.h"

#define SVG_W		1200	/* px */
#define XPAD		10
#define FRAME_H		16
#define TOP_H		56	/* title, buttons, legend */
#define BOTTOM_H	34	/* status line, match percentage */
#define FONT_PX		12
#define CHAR_W		7.2	/* of the monospace font */
#define MIN_W		0.1	/* px: narrower frames are left out */
#define NONE		UINT32_MAX

enum { K_ROOT, K_PROC, K_USER, K_KERNEL, K_UNKNOWN };

struct node {
	char		*label;
	uint64_t	count;		/* samples in and under it */
	uint64_t	start;		/* its first sample, in the layout */
	uint32_t	parent, child, next;
	uint32_t	depth;
	int		kind;
};

struct tree {
	struct node	*v;
	size_t		n, room;
	uint32_t	*hash;		/* (parent, label) -> node, open addressing */
	size_t		hroom;
};

static uint64_t label_hash(uint32_t parent, const char *s)
{
	uint64_t h = 1469598103934665603ULL ^ parent;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ^ h >> 29;
}

static void hash_grow(struct tree *t)
{
	size_t i, j, m;

	free(t->hash);
	t->hroom = t->hroom ? t->hroom * 2 : 1024;
	t->hash = xrealloc(NULL, t->hroom * sizeof(*t->hash));
	for (i = 0; i < t->hroom; i++)
		t->hash[i] = NONE;
	m = t->hroom - 1;
	for (i = 1; i < t->n; i++) {
		for (j = label_hash(t->v[i].parent, t->v[i].label) & m;
		     t->hash[j] != NONE; j = (j + 1) & m)
			;
		t->hash[j] = (uint32_t)i;
	}
}

static uint32_t node_new(struct tree *t, uint32_t parent, const char *label,
			 int kind)
{
	struct node *nd;

	if (t->n == t->room) {
		t->room = t->room ? t->room * 2 : 256;
		t->v = xrealloc(t->v, t->room * sizeof(*t->v));
	}
	nd = &t->v[t->n];
	memset(nd, 0, sizeof(*nd));
	nd->label = strdup(label);
	if (!nd->label) {
		fprintf(stderr, "hwpmc-stat: out of memory\n");
		exit(1);
	}
	nd->parent = parent;
	nd->child = nd->next = NONE;
	nd->kind = kind;
	if (parent != NONE) {
		nd->depth = t->v[parent].depth + 1;
		nd->next = t->v[parent].child;
		t->v[parent].child = (uint32_t)t->n;
	}
	return (uint32_t)t->n++;
}

/* the child of parent labelled label, made when new */
static uint32_t child(struct tree *t, uint32_t parent, const char *label,
		      int kind)
{
	size_t i, m;
	uint32_t c;

	if ((t->n + 1) * 2 > t->hroom)
		hash_grow(t);
	m = t->hroom - 1;
	for (i = label_hash(parent, label) & m; t->hash[i] != NONE; i = (i + 1) & m) {
		c = t->hash[i];
		if (t->v[c].parent == parent && !strcmp(t->v[c].label, label))
			return c;
	}
	c = node_new(t, parent, label, kind);
	t->hash[i] = c;
	return c;
}

static void tree_build(struct tree *t, const struct stacks *s)
{
	char buf[300];
	uint32_t nd;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	node_new(t, NONE, "all", K_ROOT);
	for (i = 0; i < s->n; i++) {
		const struct stack *st = &s->v[i];

		t->v[0].count += st->count;
		nd = child(t, 0, stack_comm(st, buf, sizeof(buf)), K_PROC);
		t->v[nd].count += st->count;
		for (j = st->n; j-- > 0;) {
			const struct func *f = &sym_funcs[st->fids[j]];
			enum frame_kind k = frame_kind(f);

			nd = child(t, nd, frame_label(f, buf, sizeof(buf)),
				   k == FRAME_KERNEL ? K_KERNEL :
				   k == FRAME_UNKNOWN ? K_UNKNOWN : K_USER);
			t->v[nd].count += st->count;
		}
	}
}

static void tree_free(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].label);
	free(t->v);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static const struct tree *sort_tree;

static int cmp_label(const void *a, const void *b)
{
	return strcmp(sort_tree->v[*(const uint32_t *)a].label,
		      sort_tree->v[*(const uint32_t *)b].label);
}

/*
 * Children in the order of their labels, and each node's first sample:
 * its parent's, after its elder siblings'.  Nodes are made after their
 * parents, so one pass in index order lays the tree out.
 */
static void tree_layout(struct tree *t)
{
	uint32_t *kids = xrealloc(NULL, (t->n ? t->n : 1) * sizeof(*kids));
	size_t i, k, nk;
	uint64_t at;
	uint32_t c;

	sort_tree = t;
	for (i = 0; i < t->n; i++) {
		nk = 0;
		for (c = t->v[i].child; c != NONE; c = t->v[c].next)
			kids[nk++] = c;
		qsort(kids, nk, sizeof(*kids), cmp_label);
		at = t->v[i].start;
		t->v[i].child = nk ? kids[0] : NONE;
		for (k = 0; k < nk; k++) {
			t->v[kids[k]].next = k + 1 < nk ? kids[k + 1] : NONE;
			t->v[kids[k]].start = at;
			at += t->v[kids[k]].count;
		}
	}
	free(kids);
}

/*
 * Text for XML: the five special characters as entities, and what XML
 * cannot hold (control characters, bytes that are no UTF-8) as '?'.
 */
static void xml_put(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, len, k;

	while (*p && n < max) {
		unsigned char c = *p;

		n++;
		switch (c) {
		case '&': fputs("&amp;", out); p++; continue;
		case '<': fputs("&lt;", out); p++; continue;
		case '>': fputs("&gt;", out); p++; continue;
		case '"': fputs("&quot;", out); p++; continue;
		case '\'': fputs("&apos;", out); p++; continue;
		default: break;
		}
		if (c < 0x80) {
			fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
			p++;
			continue;
		}
		/* a UTF-8 sequence: its length, and its second byte's range */
		len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
		      c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		for (k = 1; k < len; k++) {
			unsigned char lo = 0x80, hi = 0xbf;

			if (k == 1) {
				lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
				hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
			}
			if (p[k] < lo || p[k] > hi)
				break;
		}
		if (!len || k < len) {
			fputc('?', out);
			p++;
			continue;
		}
		fwrite(p, 1, len, out);
		p += len;
	}
	if (*p)
		fputs("..", out);
}

static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* a colour of the kind's range, varied by the label */
static void colour(const struct node *nd, int rgb[3])
{
	uint32_t h = fnv(nd->label);
	double a = (double)(h & 0xff) / 255.0, b = (double)(h >> 8 & 0xff) / 255.0;
	double c = (double)(h >> 16 & 0xff) / 255.0;

	switch (nd->kind) {
	case K_USER:		/* warm: reds to yellows */
		rgb[0] = 225 + (int)(30 * a);
		rgb[1] = 80 + (int)(140 * b);
		rgb[2] = 40 + (int)(30 * c);
		break;
	case K_KERNEL:		/* blues */
		rgb[0] = 60 + (int)(50 * a);
		rgb[1] = 140 + (int)(60 * b);
		rgb[2] = 215 + (int)(40 * c);
		break;
	case K_UNKNOWN:		/* greys */
		rgb[0] = rgb[1] = rgb[2] = 165 + (int)(30 * a);
		break;
	case K_PROC:		/* sand */
		rgb[0] = 215;
		rgb[1] = 200 + (int)(15 * a);
		rgb[2] = 160;
		break;
	default:
		rgb[0] = rgb[1] = rgb[2] = 215;
		break;
	}
}

/* The script: zoom, search, the status line.  Written for this file. */
static const char script[] =
"var frames = [], statusEl, matched, resetBtn, searchBtn, searchRe = null, zoomed = null;\n"
"function each(f) { for (var i = 0; i < frames.length; i++) f(frames[i]); }\n"
"function init() {\n"
"  statusEl = document.getElementById('status');\n"
"  matched = document.getElementById('matched');\n"
"  resetBtn = document.getElementById('reset');\n"
"  searchBtn = document.getElementById('search');\n"
"  var gs = document.getElementsByClassName('f');\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], t = g.getElementsByTagName('title')[0].textContent;\n"
"    g.s = +g.getAttribute('data-s'); g.n = +g.getAttribute('data-n');\n"
"    g.d = +g.getAttribute('data-d'); g.info = t;\n"
"    g.label = t.substring(0, t.lastIndexOf(' ('));\n"
"    g.rect = g.getElementsByTagName('rect')[0];\n"
"    g.text = g.getElementsByTagName('text')[0];\n"
"    g.fill0 = g.rect.getAttribute('fill');\n"
"    g.onmouseover = function () { statusEl.textContent = this.info; };\n"
"    g.onmouseout = function () { statusEl.textContent = ' '; };\n"
"    g.onclick = function () { zoom(this); };\n"
"    frames.push(g);\n"
"  }\n"
"  resetBtn.onclick = unzoom;\n"
"  searchBtn.onclick = function () { if (searchRe) clearSearch(); else ask(); };\n"
"  searchBtn.setAttribute('visibility', 'visible');\n"
"  window.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) {\n"
"      e.preventDefault(); ask();\n"
"    } else if (e.key === 'Escape') { clearSearch(); unzoom(); }\n"
"  });\n"
"  fromHash();\n"
"  /* the page's background tells that the script ran (the tests look) */\n"
"  document.getElementById('bg').setAttribute('fill', '#f4f4f4');\n"
"}\n"
"/* file.svg#z=LABEL&s=REGEX: zoomed into the first frame LABEL, searched */\n"
"function fromHash() {\n"
"  var args = window.location.hash.substring(1).split('&');\n"
"  for (var i = 0; i < args.length; i++) {\n"
"    var eq = args[i].indexOf('='), k = args[i].substring(0, eq);\n"
"    var v = decodeURIComponent(args[i].substring(eq + 1));\n"
"    if (k === 'z') each(function (g) { if (g.label === v && !zoomed) zoom(g); });\n"
"    else if (k === 's' && v) {\n"
"      try { search(new RegExp(v)); } catch (e) { statusEl.textContent = e.message; }\n"
"    }\n"
"  }\n"
"}\n"
"function place(g, x, w) {\n"
"  g.rect.setAttribute('x', x.toFixed(2));\n"
"  g.rect.setAttribute('width', w.toFixed(2));\n"
"  g.text.setAttribute('x', (x + 3).toFixed(2));\n"
"  var fit = Math.floor((w - 6) / CHAR_W);\n"
"  g.text.textContent = fit < 3 ? '' : g.label.length <= fit ? g.label :\n"
"    g.label.substring(0, fit - 2) + '..';\n"
"}\n"
"function zoom(z) {\n"
"  var scale = FRAMES_W / z.n;\n"
"  zoomed = z.d ? z : null;\n"
"  each(function (g) {\n"
"    if (g.d >= z.d && g.s >= z.s && g.s + g.n <= z.s + z.n) {\n"
"      g.style.display = ''; g.style.opacity = '';\n"
"      place(g, XPAD + (g.s - z.s) * scale, g.n * scale);\n"
"    } else if (g.d < z.d && g.s <= z.s && g.s + g.n >= z.s + z.n) {\n"
"      g.style.display = ''; g.style.opacity = '0.5';\n"
"      place(g, XPAD, FRAMES_W);\n"
"    } else g.style.display = 'none';\n"
"  });\n"
"  resetBtn.setAttribute('visibility', z.d ? 'visible' : 'hidden');\n"
"}\n"
"function unzoom() {\n"
"  var scale = FRAMES_W / TOTAL;\n"
"  zoomed = null;\n"
"  each(function (g) {\n"
"    g.style.display = ''; g.style.opacity = '';\n"
"    place(g, XPAD + g.s * scale, g.n * scale);\n"
"  });\n"
"  resetBtn.setAttribute('visibility', 'hidden');\n"
"}\n"
"function ask() {\n"
"  var p = window.prompt('Search frames (a regular expression):',\n"
"                        searchRe ? searchRe.source : '');\n"
"  if (p === null) return;\n"
"  if (p === '') { clearSearch(); return; }\n"
"  try { search(new RegExp(p)); }\n"
"  catch (e) { statusEl.textContent = 'bad expression: ' + e.message; }\n"
"}\n"
"/* matches highlighted; the share of the samples under a match */\n"
"function search(re) {\n"
"  var iv = [], cov = 0, end = -1;\n"
"  searchRe = re;\n"
"  each(function (g) {\n"
"    if (g.d > 0 && re.test(g.label)) {\n"
"      g.rect.setAttribute('fill', MATCH_FILL); iv.push([g.s, g.s + g.n]);\n"
"    } else g.rect.setAttribute('fill', g.fill0);\n"
"  });\n"
"  iv.sort(function (a, b) { return a[0] - b[0]; });\n"
"  for (var i = 0; i < iv.length; i++) {\n"
"    if (iv[i][1] <= end) continue;\n"
"    cov += iv[i][1] - Math.max(iv[i][0], end); end = iv[i][1];\n"
"  }\n"
"  matched.textContent = 'Matched: ' + (100 * cov / TOTAL).toFixed(2) + '% (' +\n"
"    iv.length + ' frames)';\n"
"  searchBtn.textContent = 'Reset search';\n"
"}\n"
"function clearSearch() {\n"
"  searchRe = null;\n"
"  each(function (g) { g.rect.setAttribute('fill', g.fill0); });\n"
"  matched.textContent = ' ';\n"
"  searchBtn.textContent = 'Search (Ctrl-F)';\n"
"}\n";

static void frame(FILE *out, const struct tree *t, uint32_t i, uint64_t total,
		  uint32_t maxdepth, int icicle)
{
	const struct node *nd = &t->v[i];
	double fw = SVG_W - 2 * XPAD;
	double x = XPAD + fw * (double)nd->start / (double)total;
	double w = fw * (double)nd->count / (double)total;
	int y = TOP_H + FRAME_H * (int)(icicle ? nd->depth : maxdepth - nd->depth);
	size_t fit = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
	int rgb[3];

	colour(nd, rgb);
	fprintf(out, "<g class=\"f\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64
		"\" data-d=\"%u\"><title>", nd->start, nd->count, nd->depth);
	xml_put(out, nd->label, SIZE_MAX);
	fprintf(out, " (%" PRIu64 " sample%s, %.2f%%)</title>", nd->count,
		nd->count == 1 ? "" : "s", 100.0 * (double)nd->count / (double)total);
	fprintf(out, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
		"fill=\"rgb(%d,%d,%d)\" rx=\"2\"/>", x, y, w, FRAME_H - 1,
		rgb[0], rgb[1], rgb[2]);
	fprintf(out, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + FRAME_H - 4);
	if (fit >= 3)
		xml_put(out, nd->label, strlen(nd->label) <= fit ? fit : fit - 2);
	fputs("</text></g>\n", out);
}

int flame_write(const struct stacks *s, FILE *out, int icicle)
{
	double fw = SVG_W - 2 * XPAD, px = fw / (double)(s->samples ? s->samples : 1);
	static const struct { const char *name; int kind; } legend[] = {
		{ "user", K_USER }, { "kernel", K_KERNEL }, { "no symbol", K_UNKNOWN },
	};
	uint32_t maxdepth = 0, i, *order, c;
	size_t n = 0, k;
	struct tree t;
	int h;

	tree_build(&t, s);
	tree_layout(&t);
	/* frames wide enough, parents first (depth-first, in label order) */
	order = xrealloc(NULL, t.n * sizeof(*order));
	if (s->samples) {
		uint32_t *stack = xrealloc(NULL, t.n * sizeof(*stack));
		size_t sp = 0;

		stack[sp++] = 0;
		while (sp) {
			i = stack[--sp];
			if ((double)t.v[i].count * px < MIN_W)
				continue;
			order[n++] = i;
			if (t.v[i].depth > maxdepth)
				maxdepth = t.v[i].depth;
			/* the first child pushed last: popped first */
			k = sp;
			for (c = t.v[i].child; c != NONE; c = t.v[c].next)
				stack[sp++] = c;
			for (size_t a = k, b = sp; a + 1 < b; a++, b--) {
				uint32_t x = stack[a];

				stack[a] = stack[b - 1];
				stack[b - 1] = x;
			}
		}
		free(stack);
	}
	h = TOP_H + FRAME_H * (int)(maxdepth + 1) + BOTTOM_H;
	if (!s->samples)
		h = TOP_H + 2 * FRAME_H + BOTTOM_H;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		SVG_W, h, SVG_W, h);
	fprintf(out, "<!-- a flame graph by hwpmc-stat(8) -->\n");
	fprintf(out, "<style>\n"
		"text { font-family: monospace; font-size: %dpx; fill: #000; }\n"
		"g.f text { pointer-events: none; }\n"
		"g.f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
		".btn { cursor: pointer; fill: #1a4f9c; }\n"
		"#title { font-size: 16px; }\n"
		"</style>\n", FONT_PX);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n"
		"var TOTAL = %" PRIu64 ", XPAD = %d, FRAMES_W = %.2f, CHAR_W = %.2f;\n"
		"var MATCH_FILL = 'rgb(230,60,230)';\n%s]]></script>\n",
		s->samples ? s->samples : 1, XPAD, fw, CHAR_W, script);
	fprintf(out, "<rect id=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n", SVG_W, h);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\">%s: ",
		SVG_W / 2, icicle ? "Icicle graph" : "Flame graph");
	xml_put(out, s->event[0] ? s->event : "no event", 256);
	fprintf(out, ", %" PRIu64 " samples</text>\n", s->samples);
	fprintf(out, "<text id=\"reset\" class=\"btn\" x=\"%d\" y=\"22\" "
		"visibility=\"hidden\">Reset zoom</text>\n", XPAD);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"22\" "
		"text-anchor=\"end\" visibility=\"hidden\">Search (Ctrl-F)</text>\n",
		SVG_W - XPAD);
	for (k = 0; k < sizeof(legend) / sizeof(legend[0]); k++) {
		struct node nd = { .label = (char *)"", .kind = legend[k].kind };
		int rgb[3], x = SVG_W / 2 - 150 + 110 * (int)k;

		colour(&nd, rgb);
		fprintf(out, "<rect x=\"%d\" y=\"32\" width=\"12\" height=\"12\" "
			"fill=\"rgb(%d,%d,%d)\"/><text x=\"%d\" y=\"42\">%s</text>\n",
			x, rgb[0], rgb[1], rgb[2], x + 16, legend[k].name);
	}
	fprintf(out, "<text id=\"status\" x=\"%d\" y=\"%d\"> </text>\n", XPAD, h - 12);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n",
		SVG_W - XPAD, h - 12);
	if (!s->samples)
		fprintf(out, "<text id=\"empty\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
			"No samples: nothing to show (none in the log, or none "
			"of the processes chosen)</text>\n", SVG_W / 2, TOP_H + FRAME_H);
	fprintf(out, "<g id=\"frames\">\n");
	for (k = 0; k < n; k++)
		frame(out, &t, order[k], s->samples, maxdepth, icicle);
	fprintf(out, "</g>\n</svg>\n");
	free(order);
	tree_free(&t);
	return ferror(out) ? -1 : 0;
}
