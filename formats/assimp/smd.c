/*
 * smd.c - a Valve SMD read from its own bytes, line by line, before Assimp
 * reads it: Assimp 5.2.5's reader goes on past a damaged node or skeleton
 * line without that key, and the line it logs is one of its own count
 * (each blank it skips counted as a line too), not the file's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smd.h"

/* Tokens read of a line; a line holds at most 7 that matter. */
#define SMD_TOKENS 8
/* Bone indices a nodes section may give: Assimp makes a bone of every
 * index up to the largest. */
#define SMD_MAX_NODES 65536u

/* One line of the file, split at spaces and tabs; a quoted name (a node's,
 * which may hold spaces) is one token, quotes included. */
typedef struct smd_line {
	const char *at[SMD_TOKENS];
	size_t len[SMD_TOKENS];
	unsigned count;   /* tokens read, up to SMD_TOKENS */
	uint32_t number;  /* the line in the file, from 1 */
} smd_line;

typedef struct smd_reader {
	const uint8_t *p, *end;
	uint32_t line;    /* the line `p` is on */
	animc_diag_sink *sink;
} smd_reader;

static bool is_end_of_line(uint8_t c)
{
	return c == '\n' || c == '\r';
}

/* The next line of `r` into `out`; false past the end.  A line ends at LF,
 * CR LF or a lone CR. */
static bool next_line(smd_reader *r, smd_line *out)
{
	const uint8_t *q = r->p;

	if (q >= r->end)
		return false;
	out->count = 0;
	out->number = r->line;
	while (q < r->end && !is_end_of_line(*q)) {
		const uint8_t *start;

		if (*q == ' ' || *q == '\t') {
			q++;
			continue;
		}
		start = q;
		if (*q == '"') {
			for (q++; q < r->end && *q != '"' && !is_end_of_line(*q); q++)
				;
			q += q < r->end && *q == '"';
		} else {
			while (q < r->end && *q != ' ' && *q != '\t' && !is_end_of_line(*q))
				q++;
		}
		if (out->count < SMD_TOKENS) {
			out->at[out->count] = (const char *)start;
			out->len[out->count++] = (size_t)(q - start);
		}
	}
	if (q < r->end && *q == '\r' && q + 1 < r->end && q[1] == '\n')
		q++;
	r->p = q + (q < r->end);
	r->line++;
	return true;
}

static bool token_is(const smd_line *l, unsigned i, const char *word)
{
	return i < l->count && l->len[i] == strlen(word) && memcmp(l->at[i], word, l->len[i]) == 0;
}

/* Whether token `i` is a whole number (`is_signed`: a leading '-' too),
 * its value in *value (capped past 2^32). */
static bool whole_number(const smd_line *l, unsigned i, bool is_signed, unsigned long long *value)
{
	size_t k = 0, n = i < l->count ? l->len[i] : 0;
	const char *t = i < l->count ? l->at[i] : "";

	*value = 0;
	if (is_signed && n > 1 && t[0] == '-')
		k++;
	if (k == n)
		return false;
	for (; k < n; k++) {
		if (t[k] < '0' || t[k] > '9')
			return false;
		if (*value <= UINT32_MAX)
			*value = *value * 10 + (unsigned long long)(t[k] - '0');
	}
	return true;
}

/* Whether token `i` is a finite decimal number, as Valve's and Assimp's
 * readers take one (1, -0.5, .5, 1e-3). */
static bool is_number(const smd_line *l, unsigned i)
{
	char number[64], *stop;
	size_t n = l->len[i];
	double value;

	if (n == 0 || n >= sizeof number)
		return false;
	memcpy(number, l->at[i], n);
	number[n] = '\0';
	if (strspn(number, "0123456789+-.eE") < n)
		return false;   /* strtod's hex, inf and nan are not numbers here */
	value = strtod(number, &stop);
	return *stop == '\0' && isfinite(value);
}

/* A token's length as a message quotes it. */
static int clip_len(size_t len)
{
	return (int)(len > 64 ? 64 : len);
}

static bool fail(smd_reader *r, const smd_line *l, const char *what)
{
	animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "%s", what);
	return false;
}

/* A `nodes` line, `INDEX "NAME" PARENT`: the bones the skeleton may key
 * are 0 to the largest index (*count of them). */
static bool check_node(smd_reader *r, const smd_line *l, unsigned long long *count)
{
	unsigned long long index, parent;

	if (!whole_number(l, 0, false, &index))
		return fail(r, l, "this nodes line does not start with a bone index (INDEX \"NAME\" PARENT)");
	if (index >= SMD_MAX_NODES) {
		animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "bone index %llu is past %u: Assimp's reader "
				  "would make a bone of every index below it (a damaged file; studiomdl takes at "
				  "most a few hundred)", index, SMD_MAX_NODES - 1);
		return false;
	}
	if (l->count < 2 || (l->at[1][0] == '"' && (l->len[1] < 2 || l->at[1][l->len[1] - 1] != '"')))
		return fail(r, l, "this nodes line holds no bone name, or one whose closing quote is missing "
			    "(INDEX \"NAME\" PARENT)");
	if (!whole_number(l, 2, true, &parent))
		return fail(r, l, "this nodes line holds no parent index (INDEX \"NAME\" PARENT; -1 for a root): "
			    "Assimp's reader takes the bone for a root");
	if (index + 1 > *count)
		*count = index + 1;
	return true;
}

/* A `time N` line.  Assimp's reader starts the clip at the smallest frame
 * of the file: a frame below 0 would play at 0 s and every frame after it
 * late (frame 0 of `time -2` at the third frame's time), so it is refused
 * at its line. */
static bool check_time(smd_reader *r, const smd_line *l)
{
	unsigned long long frame;

	if (!whole_number(l, 1, true, &frame))
		return fail(r, l, "this time line holds no frame number (time N, N a whole number)");
	if (l->at[1][0] != '-' || frame == 0)
		return true;
	animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "frame %.*s is before frame 0: Assimp's reader "
			  "starts the clip at the smallest frame of the file, so frame 0 would play at least %.*s "
			  "frame%s late; number the frames from 0 in the exporter",
			  clip_len(l->len[1]), l->at[1], clip_len(l->len[1] - 1), l->at[1] + 1, frame == 1 ? "" : "s");
	return false;
}

/* A `skeleton` line: `time N`, or `BONE PX PY PZ RX RY RZ`. */
static bool check_key(smd_reader *r, const smd_line *l, unsigned long long nodes)
{
	unsigned long long bone;

	if (token_is(l, 0, "time"))
		return check_time(r, l);
	if (!whole_number(l, 0, false, &bone))
		return fail(r, l, "this skeleton line does not start with a bone index (BONE PX PY PZ RX RY RZ)");
	if (bone >= nodes) {
		animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "bone %llu is not in the nodes section, "
				  "which holds %llu bone%s: Assimp's reader leaves its key out",
				  bone, nodes, nodes == 1 ? "" : "s");
		return false;
	}
	if (l->count < 7) {
		animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "this skeleton line of bone %llu holds %u of "
				  "its 7 values (BONE PX PY PZ RX RY RZ): cut short (Assimp's reader would make the "
				  "missing ones 0)", bone, l->count);
		return false;
	}
	for (unsigned i = 1; i < 7; i++) {
		static const char *const names[] = { "", "position x", "position y", "position z",
						     "rotation x", "rotation y", "rotation z" };

		if (is_number(l, i))
			continue;
		animc_diag_report(r->sink, ANIMC_ERROR, l->number, 0, "'%.*s' is not a number (bone %llu, %s)",
				  (int)(l->len[i] > 40 ? 40 : l->len[i]), l->at[i], bone, names[i]);
		return false;
	}
	return true;
}

/* One node of the nodes section, as check_parents walks the tree. */
typedef struct smd_node {
	uint32_t parent;  /* SMD_ROOT, or the parent's index (below the node count) */
	uint32_t line;    /* its nodes line; 0: no node has this index */
	const char *name, *parent_text; /* as the line gives them (a name quoted or not) */
	int name_len, parent_len;
	uint8_t state;    /* 0 not reached yet, 1 on the path walked, 2 reaches a root */
} smd_node;
#define SMD_ROOT UINT32_MAX

/* Whether `l` ends the nodes section: Assimp takes "end" in any case. */
static bool is_nodes_end(const smd_line *l)
{
	return l->count > 0 && l->len[0] == 3 && strncasecmp(l->at[0], "end", 3) == 0;
}

/* The first bone of `nodes` (count of them) whose parents loop back to a
 * bone before reaching a root; false, with its error, when there is one. */
static bool walk_to_roots(smd_node *nodes, uint32_t count, animc_diag_sink *sink)
{
	for (uint32_t i = 0; i < count; i++) {
		uint32_t at = i;

		while (at != SMD_ROOT && nodes[at].line && nodes[at].state == 0) {
			nodes[at].state = 1;
			at = nodes[at].parent;
		}
		if (at != SMD_ROOT && nodes[at].state == 1) {
			animc_diag_report(sink, ANIMC_ERROR, nodes[at].line, 0, "bone %.*s is its own ancestor "
					  "(its parents loop back to it): Assimp's reader leaves it out of the "
					  "hierarchy", nodes[at].name_len, nodes[at].name);
			return false;
		}
		for (at = i; at != SMD_ROOT && nodes[at].state == 1; at = nodes[at].parent)
			nodes[at].state = 2;
	}
	return true;
}

/* The nodes section from `start` again, its lines checked, `count` bones:
 * every bone's parent is a bone of the section or -1 (a root), and the
 * parents lead to a root: Assimp's hierarchy holds a bone only then. */
static bool check_parents(smd_reader start, unsigned long long count)
{
	smd_node *nodes = calloc(count ? count : 1, sizeof *nodes);
	smd_line l;
	bool ok = true;

	if (!nodes) {
		animc_diag_report(start.sink, ANIMC_ERROR, 0, 0, "out of memory");
		return false;
	}
	while (next_line(&start, &l) && !is_nodes_end(&l)) {
		unsigned long long index, parent;

		if (l.count == 0 || !whole_number(&l, 0, false, &index))
			continue;
		(void)whole_number(&l, 2, true, &parent);
		nodes[index] = (smd_node){ .line = l.number, .name = l.at[1], .name_len = clip_len(l.len[1]),
					   .parent_text = l.at[2], .parent_len = clip_len(l.len[2]) };
		nodes[index].parent = l.at[2][0] != '-' ? (parent < count ? (uint32_t)parent : (uint32_t)count) :
				      parent == 1 ? SMD_ROOT : (uint32_t)count;
	}
	for (uint32_t i = 0; ok && i < count; i++) {
		smd_node *n = &nodes[i];

		if (!n->line || n->parent == SMD_ROOT || (n->parent < count && nodes[n->parent].line))
			continue;
		animc_diag_report(start.sink, ANIMC_ERROR, n->line, 0, "bone %.*s names parent %.*s, which is no "
				  "bone of the nodes section (-1 for a root): Assimp's reader leaves it out of the "
				  "hierarchy", n->name_len, n->name, n->parent_len, n->parent_text);
		ok = false;
	}
	ok = ok && walk_to_roots(nodes, (uint32_t)count, start.sink);
	free(nodes);
	return ok;
}

/* Check a nodes or skeleton section's lines, to its `end` line. */
static bool read_section(smd_reader *r, bool is_nodes, unsigned long long *nodes)
{
	const smd_reader start = *r;
	smd_line l;

	while (next_line(r, &l)) {
		if (l.count == 0)
			continue;
		/* Assimp ends the nodes section at "end" in any case. */
		if (is_nodes ? is_nodes_end(&l) : token_is(&l, 0, "end"))
			return !is_nodes || check_parents(start, *nodes);
		if (is_nodes && !check_node(r, &l, nodes))
			return false;
		if (!is_nodes && !check_key(r, &l, *nodes))
			return false;
	}
	return !is_nodes || check_parents(start, *nodes);
}

bool animc_smd_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	smd_reader r = { data, data + size, 1, sink };
	unsigned long long nodes = 0;
	smd_line l;

	if (!data)
		return true;
	while (next_line(&r, &l)) {
		bool ok = true;

		if (token_is(&l, 0, "nodes"))
			ok = read_section(&r, true, &nodes);
		else if (token_is(&l, 0, "skeleton"))
			ok = read_section(&r, false, &nodes);
		else if (token_is(&l, 0, "triangles") || token_is(&l, 0, "vertexanimation"))
			while (next_line(&r, &l) && !token_is(&l, 0, "end"))
				;
		if (!ok)
			return false;
	}
	return true;
}

void animc_smd_forget_rates(const struct aiScene *scene)
{
	for (unsigned a = 0; scene->mAnimations && a < scene->mNumAnimations; a++)
		if (scene->mAnimations[a])
			scene->mAnimations[a]->mTicksPerSecond = 0;
}

bool animc_smd_is_named(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n > 4 && strcasecmp(path + n - 4, ".smd") == 0;
}
