/*
 * mgcb.c - the reader of MonoGame content projects (mgcb.h).  A project is
 * lines of "/option:value" (or "/option=value", as MGCB splits a switch at
 * the first ':' or '=') and "#" comments.  Globals (/outputDir:,
 * /platform:, ...) hold from where they stand; /importer:, /processor: and
 * /processorParam:K=V (or K:V) hold for every /build:SRC[;DEST] after
 * them, and /processor: clears the parameters, as MGCB does.  MGCB's preprocessor
 * lines choose which lines count: "$set NAME=VALUE" and /define:NAME=VALUE
 * set a property, "$if NAME=VALUE" (or "$if NAME": set at all) up to its
 * "$endif" keeps the lines between only while the property holds.
 * "/@:FILE" reads another response file in place (include), as MGCB does.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "compile.h"
#include "manifest.h"
#include "mgcb.h"

/* MonoGame's TargetPlatform names, current and legacy, and their letters. */
static const struct {
	const char *name;
	char letter;
} platforms[] = {
	{ "Windows", 'w' }, { "Xbox360", 'x' }, { "WindowsPhone", 'm' }, { "iOS", 'i' },
	{ "Android", 'a' }, { "DesktopGL", 'd' }, { "MacOSX", 'X' }, { "WindowsStoreApp", 'W' },
	{ "NativeClient", 'n' }, { "PlayStationMobile", 'p' }, { "WindowsPhone8", 'M' },
	{ "RaspberryPi", 'r' }, { "PlayStation4", 'P' }, { "WindowsGL", 'g' }, { "Linux", 'l' },
	{ "PlayStation5", '5' }, { "XboxOne", 'O' }, { "Switch", 'S' }, { "Web", 'b' },
	{ "BlazorGL", 'b' }, { "DesktopVK", 'V' }, { "WindowsGDK", 'G' }, { "XboxSeries", 's' },
	{ "PSVita", 'v' },
};

char build_mgcb_platform_letter(const char *name)
{
	for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
		if (strcasecmp(name, platforms[i].name) == 0)
			return platforms[i].letter;
	return 0;
}

const char *build_mgcb_platform_name(char letter)
{
	for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
		if (platforms[i].letter == letter)
			return platforms[i].name;
	return NULL;
}

/* A property of MGCB's preprocessor, and a condition on one. */
typedef struct property {
	char *name, *value;
} property;

/* How deep response files (/@:) may nest below the project. */
#define MGCB_INCLUDE_DEPTH 16

/* A queue of the items (indices + 1, 0: none) that share a key: a kind
 * ('c' a /copy:, 'b' a /build:, 'l' a /build: with a ;DEST), the source
 * and, for 'l', the ;DEST, letters folded as strcasecmp folds them. */
typedef struct item_key {
	char *key;          /* NULL: an empty slot */
	size_t head, tail;
} item_key;

/* The items by source, so that a /build: given again finds the one it
 * replaces without a scan of the earlier ones.  A replaced item is
 * released and marked dropped in place; the list closes up at the end. */
typedef struct item_index {
	item_key *slots;     /* open addressing */
	size_t size, used;
	size_t (*next)[2];   /* per item, the next in each of its two queues (+1) */
	bool *dropped;
	size_t capacity;
} item_index;

typedef struct reader {
	const char *path;            /* the file being read: the project or a file it includes */
	FILE *messages;              /* where errors go */
	const bool *allowed;         /* by animc_warning_kind: --allow; NULL: none */
	char platform;               /* --platform's letter; 0: none */
	char *dir;                   /* the folder of the file being read, as its path spells it ("" for
					the current one): its paths are relative to it */
	char *rel;                   /* that folder relative to the project's ("": the project's own) */
	char *root_real;             /* the project's folder, its real path (NULL: not resolved yet) */
	char *reading[MGCB_INCLUDE_DEPTH + 1];   /* the real paths of the files being read, the project
						    first (NULL: not resolved) */
	unsigned depth;              /* of the file being read: 0 for the project */
	uint32_t line;
	unsigned errors;
	char *processor;
	const char *platform_name;   /* /platform:'s, as the table spells it (Web and BlazorGL share a letter) */
	unsigned units_given;        /* BUILD_MGCB_* of the parameters given since /processor: */
	animc_units units;
	char *config;
	const char *profile;         /* /profile:, as MGCB spells it */
	char *output_dir_raw;        /* /outputDir: before its macros are expanded */
	uint32_t output_dir_line;    /* its line */
	const char *output_dir_file; /* the file of that line */
	char *output_dir_rel;        /* that file's rel: the folder /outputDir: is relative to */
	property *props;             /* $set, /define: and the command line's */
	size_t prop_count;
	property *conds;             /* the open $if lines, outermost first */
	size_t cond_count;
	item_index index;            /* the items by source, for drop_earlier */
	build_mgcb *out;
} reader;

/* An error of the project at file:line (line 0: none), said on `messages`
 * and kept for the reports: a build the project stops has them alone. */
static void project_error_v(build_mgcb *project, FILE *messages, const char *file, uint32_t line,
			    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void project_error_v(build_mgcb *project, FILE *messages, const char *file, uint32_t line,
			    const char *fmt, va_list ap)
{
	char *message;

	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	if (line)
		fprintf(messages, "%s:%u: error: %s\n", file, line, message ? message : "out of memory");
	else
		fprintf(messages, "%s: error: %s\n", file, message ? message : "out of memory");
	if (message)
		build_said_add(&project->said, ANIMC_ERROR, NULL, file, line, message);
	free(message);
}

static void error_at(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void error_at(reader *rd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	project_error_v(rd->out, rd->messages, rd->path, rd->line, fmt, ap);
	va_end(ap);
	rd->errors++;
}

static void warning_at(reader *rd, animc_warning_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A warning of `kind` at the current line, unless the build allows the kind. */
static void warning_at(reader *rd, animc_warning_kind kind, const char *fmt, ...)
{
	const char *name = animc_warning_kind_at(kind)->name;
	va_list ap;
	char *message;

	if (rd->allowed && rd->allowed[kind])
		return;
	va_start(ap, fmt);
	if (vasprintf(&message, fmt, ap) < 0)
		message = NULL;
	va_end(ap);
	fprintf(rd->messages, "%s:%u: warning: %s [%s]\n", rd->path, rd->line, message ? message : "out of memory",
		name);
	if (message)
		build_said_add(&rd->out->said, ANIMC_WARNING, name, rd->path, rd->line, message);
	free(message);
	rd->out->warnings++;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Windows separators to '/', "./" prefixes dropped (".//x" is "x", not
 * "/x"). */
static void normalise(char *p)
{
	for (char *c = p; *c; c++)
		if (*c == '\\')
			*c = '/';
	while (p[0] == '.' && p[1] == '/') {
		size_t n = 2 + strspn(p + 2, "/");

		memmove(p, p + n, strlen(p + n) + 1);
	}
}

/* Empty and "." parts taken out ("Anims//Turn.Animation" and
 * "Anims/./Turn.Animation" are "Anims/Turn.Animation"), as the file system
 * reads them; a leading '/' and ".." parts kept. */
static void collapse(char *p)
{
	char *out = p + (p[0] == '/');

	for (const char *s = out; *s;) {
		size_t n = strcspn(s, "/");

		if (n && !(n == 1 && s[0] == '.')) {
			if (out > p + (p[0] == '/'))
				*out++ = '/';
			memmove(out, s, n);
			out += n;
		}
		s += n;
		while (*s == '/')
			s++;
	}
	*out = '\0';
}

/* Does the path have a ".." part? */
static bool climbs(const char *p)
{
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return true;
		s += n;
		while (*s == '/')
			s++;
	}
	return false;
}

/* A relative path that stays below its folder: no "..", not absolute. */
static bool stays_below(const char *p)
{
	return p[0] && p[0] != '/' && !(isalpha((unsigned char)p[0]) && p[1] == ':') && !climbs(p);
}

/* Does a path below the output folder, its "." and ".." parts taken out,
 * lie in OUTDIR/.animc, the state folder (manifest, locks, journals)?
 * An output there would be read as one of them. */
static bool is_in_state_folder(const char *p)
{
	size_t n = strlen(MANIFEST_DIR);

	return strncmp(p, MANIFEST_DIR, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* `rel` and `p` joined, ".." and "." taken out as spelled ("Sub" and
 * "../x" make "x"): what MGCB makes of a path of an included file, relative
 * to the project's folder.  NULL when a ".." climbs out of it (the join is
 * then left to stays_below to refuse), or out of memory. */
static char *join_below(const char *rel, const char *p)
{
	char *joined = rel[0] ? cli_path_join(rel, p, NULL) : strdup(p), *out;
	size_t used = 0;

	if (!joined || !(out = malloc(strlen(joined) + 1))) {
		free(joined);
		return NULL;
	}
	for (const char *s = joined; *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.') {
			if (!used) {
				free(out);
				out = NULL;
				break;
			}
			while (used && out[used - 1] != '/')
				used--;
			used -= used > 0;
		} else if (n && !(n == 1 && s[0] == '.')) {
			if (used)
				out[used++] = '/';
			memcpy(out + used, s, n);
			used += n;
		}
		s += n;
		while (*s == '/')
			s++;
	}
	if (out)
		out[used] = '\0';
	free(joined);
	return out;
}

/* The project's folder, its real path (resolved once); NULL when it
 * cannot be resolved. */
static const char *root_real(reader *rd)
{
	if (!rd->root_real) {
		char *dir = strndup(rd->out->path, (size_t)(cli_basename(rd->out->path) - rd->out->path));

		rd->root_real = dir ? realpath(dir[0] ? dir : ".", NULL) : NULL;
		free(dir);
	}
	return rd->root_real;
}

/* `value`, a path the file being read names (relative to its folder, or
 * absolute), resolved within the project's folder (cli_path_resolve_within:
 * nothing past the point where it leaves it is looked at): a new string,
 * or NULL, *outside then the path from where it leaves (a new string), or
 * NULL with errno saying why it cannot be resolved. */
static char *resolve_in_project(reader *rd, const char *value, char **outside)
{
	char *from = value[0] == '/' ? NULL : realpath(rd->dir[0] ? rd->dir : ".", NULL), *real = NULL;
	int error = errno;

	*outside = NULL;
	if (root_real(rd) && (from || value[0] == '/')) {
		real = cli_path_resolve_within(from ? from : "/", value, rd->root_real, outside);
		error = errno;
	}
	free(from);
	errno = error;
	return real;
}

/* A source spelt absolute, or with ".." parts that climb above the
 * folder of the file naming it, whose folder resolves inside the
 * project's: its path below the project's folder, where MGCB puts its
 * output (the source's folder made relative to the project's).  NULL
 * when its folder lies elsewhere (nothing there looked at) or cannot be
 * resolved. */
static char *below_project(reader *rd, const char *source)
{
	char *folder = strndup(source, (size_t)(cli_basename(source) - source)), *outside = NULL;
	char *real = folder ? resolve_in_project(rd, folder[0] ? folder : ".", &outside) : NULL, *out = NULL;

	if (real) {
		const char *rel = real + strlen(rd->root_real);

		rel += *rel == '/';
		out = rel[0] ? cli_path_join(rel, cli_basename(source), NULL) : strdup(cli_basename(source));
	}
	free(outside);
	free(real);
	free(folder);
	return out;
}

/*
 * $(Platform), $(Configuration), $(Config) and $(Profile) replaced, as
 * MGCB does.  $(Platform) names the platform the files are written for,
 * so that two platforms built in turn land apart: --platform's (the
 * project's spelling when it names that platform too: BlazorGL, not Web),
 * else the project's /platform:, else Windows, MGCB's default.
 */
static char *expand(reader *rd, const char *value)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	const char *platform = rd->platform_name ? rd->platform_name : "Windows";

	if (!f)
		return NULL;
	if (rd->platform && rd->platform != rd->out->platform)
		platform = build_mgcb_platform_name(rd->platform);
	if (!platform)
		platform = "";
	for (const char *p = value; *p;) {
		if (strncasecmp(p, "$(Platform)", 11) == 0) {
			fputs(platform, f);
			p += 11;
		} else if (strncasecmp(p, "$(Configuration)", 16) == 0) {
			fputs(rd->config ? rd->config : "", f);
			p += 16;
		} else if (strncasecmp(p, "$(Config)", 9) == 0) {
			fputs(rd->config ? rd->config : "", f);
			p += 9;
		} else if (strncasecmp(p, "$(Profile)", 10) == 0) {
			fputs(rd->profile, f);
			p += 10;
		} else {
			fputc(*p++, f);
		}
	}
	fclose(f);
	return out;
}

/* A number as MGCB's float parser takes it: decimal only (strtod reads
 * "0x10" as 16, which MGCB refuses, failing the item). */
static bool parse_number(const char *s, double *out)
{
	const char *digits = s + strspn(s, " \t");
	char *end;

	digits += *digits == '+' || *digits == '-';
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
		return false;
	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*trim(end) && errno == 0 && isfinite(*out);
}

/* The parameters animc applies, as MGCB's ModelProcessor names them. */
static const char *const known_params[] = { "Scale", "RotationX", "RotationY", "RotationZ", NULL };

/* Which of known_params `name` is (-1: none): 0 for Scale, 1 + the axis
 * for RotationX/Y/Z; compared exactly or ignoring case. */
static int known_param(const char *name, bool is_exact)
{
	for (int i = 0; known_params[i]; i++)
		if (is_exact ? strcmp(name, known_params[i]) == 0 : strcasecmp(name, known_params[i]) == 0)
			return i;
	return -1;
}

/* A parameter that is none of animc's: other processors' are not animc's;
 * one a letter or two from animc's, or spelt in another case or with
 * blanks around its name (which MGCB, matching names exactly, ignores), is
 * likely misspelt. */
static void unknown_param(reader *rd, char *name, const char *written)
{
	char *bare = trim(name);
	int near = known_param(bare, false);

	if (near >= 0) {
		warning_at(rd, ANIMC_WARN_UNKNOWN_PARAMETER,
			   "/processorParam:%s: no such parameter: MGCB matches names exactly, case and blanks "
			   "too (did you mean %s?); ignored", written, known_params[near]);
		return;
	}
	const char *nearest = cli_nearest(bare, known_params);
	if (nearest)
		warning_at(rd, ANIMC_WARN_UNKNOWN_PARAMETER,
			   "/processorParam:%s: no such parameter (did you mean %s?); ignored", bare, nearest);
}

/*
 * /processorParam:NAME=VALUE, or NAME:VALUE: MGCB splits the pair at every
 * '=' and ':' and takes it only when that gives two parts, so the first of
 * the two separates, and a pair with a second one is dropped by MGCB
 * without a word: an error for a parameter of animc's, which would
 * otherwise build with a value MGCB never applies.  The name is matched as
 * MGCB sets a processor's property, exactly ("scale" and "Scale " are no
 * parameter).
 */
static void processor_param_as(reader *rd, char *value, const char *written)
{
	char *eq = value + strcspn(value, "=:");
	double v;

	if (!*eq) {
		error_at(rd, "/processorParam:%s is not NAME=VALUE (or NAME:VALUE)", value);
		return;
	}
	*eq = '\0';
	char *text = trim(eq + 1);
	int which = known_param(value, true), axis = which - 1;

	if (which >= 0 && text[strcspn(text, "=:")]) {
		error_at(rd, "/processorParam:%s has a second '=' or ':', and MGCB ignores such a parameter; "
			 "give one value (NAME=VALUE)", written);
		return;
	}
	if (which < 0) {
		unknown_param(rd, value, written);
		return;
	}
	if (!parse_number(text, &v) || (axis < 0 && !(v > 0))) {
		error_at(rd, "/processorParam:%s is not %s", written, axis < 0 ? "a number above 0" : "a number of degrees");
		return;
	}
	if (axis < 0) {
		rd->units.scale = v;
		rd->units_given |= BUILD_MGCB_SCALE;
	} else {
		rd->units.rotation_deg[axis] = v;
		rd->units_given |= BUILD_MGCB_ROTATION_X << axis;
	}
}

/* Its errors quote the parameter as the project writes it ("Scale = abc"),
 * so that a search of the project finds it. */
static void processor_param(reader *rd, char *value)
{
	char *written = strdup(value);

	if (!written) {
		error_at(rd, "out of memory");
		return;
	}
	processor_param_as(rd, value, written);
	free(written);
}

/* Does `s` end with `tail`, compared ignoring case? */
static bool ends_with_nocase(const char *s, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && strncasecmp(s + n - t, tail, t) == 0;
}

/* How much of a ;DEST's last part names the output, as MGCB reads it
 * (PipelineManager.ResolveOutputFilepath): without the source's extension
 * when it ends with it (compared ignoring case), then without ".xnb";
 * any other ending stays ("Turn.v2" is Turn.v2.xnb). */
static size_t dest_stem_length(const char *leaf, const char *source)
{
	const char *src_leaf = cli_basename(source), *ext = src_leaf + cli_stem_length(src_leaf);
	size_t n = strlen(leaf);

	if (*ext && ends_with_nocase(leaf, n, ext))
		n -= strlen(ext);
	if (ends_with_nocase(leaf, n, ".xnb"))
		n -= 4;
	return n;
}

/* An item's path under the output folder without its extension (a
 * ;DEST's as dest_stem_length reads it, when `source` is given), its name
 * made safe as a source's in a folder is: "...fbx" would otherwise name
 * "..", the folder above, for a source of several clips. */
static char *dest_of(const char *where, const char *source)
{
	const char *leaf = cli_basename(where);
	size_t n = source ? dest_stem_length(leaf, source) : cli_stem_length(leaf);
	char *stem = strndup(leaf, n), *safe = stem ? build_safe_name(stem, 0) : NULL, *out = NULL;

	if (safe && asprintf(&out, "%.*s%s", (int)(leaf - where), where, safe) < 0)
		out = NULL;
	free(stem);
	free(safe);
	return out;
}

/* Does a ;DEST name no file: a folder ("Chars/Hero/"), or a name whose
 * stem, the part before its extension as MGCB replaces it, is empty or
 * dots ("." or ".xnb")?  MGCB would write ".xnb" there, a name no game
 * asks for, and making one up is no better. */
static bool names_no_file(const char *dest)
{
	const char *leaf = cli_basename(dest), *dot = strrchr(leaf, '.');
	size_t stem = dot ? (size_t)(dot - leaf) : strlen(leaf);

	return strspn(leaf, ".") >= stem;
}

static void item_release(build_mgcb_item *item)
{
	free(item->source);
	free(item->dest);
	free(item->link);
	free(item->processor);
}

static size_t key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return (size_t)(h ^ h >> 29);
}

/* The key of kind `kind` for `source` (and `link`), folded; NULL when out
 * of memory. */
static char *item_key_text(char kind, const char *source, const char *link)
{
	size_t n = strlen(source), m = link ? strlen(link) : 0;
	char *key = malloc(n + m + 3);

	if (!key)
		return NULL;
	key[0] = kind;
	for (size_t i = 0; i < n; i++)
		key[1 + i] = (char)tolower((unsigned char)source[i]);
	key[1 + n] = '\n';
	for (size_t i = 0; i < m; i++)
		key[2 + n + i] = (char)tolower((unsigned char)link[i]);
	key[2 + n + m] = '\0';
	return key;
}

static bool index_grow(item_index *ix)
{
	size_t size = ix->size ? ix->size * 2 : 256;
	item_key *slots = calloc(size, sizeof *slots);

	if (!slots)
		return false;
	for (size_t i = 0; i < ix->size; i++) {
		if (!ix->slots[i].key)
			continue;
		size_t j = key_hash(ix->slots[i].key) & (size - 1);

		while (slots[j].key)
			j = (j + 1) & (size - 1);
		slots[j] = ix->slots[i];
	}
	free(ix->slots);
	ix->slots = slots;
	ix->size = size;
	return true;
}

/* The slot of `key` (taking it over, or freeing it when one has it);
 * NULL when out of memory (`key` freed). */
static item_key *index_slot(item_index *ix, char *key, bool add)
{
	if (!key || ((ix->used + 1) * 2 > ix->size && !index_grow(ix))) {
		free(key);
		return NULL;
	}
	size_t j = key_hash(key) & (ix->size - 1);

	while (ix->slots[j].key && strcmp(ix->slots[j].key, key) != 0)
		j = (j + 1) & (ix->size - 1);
	if (ix->slots[j].key || !add) {
		free(key);
		return ix->slots[j].key ? &ix->slots[j] : NULL;
	}
	ix->slots[j].key = key;
	ix->used++;
	return &ix->slots[j];
}

/* The first item of the queue not dropped (+1), 0: none; the dropped ones
 * before it leave the queue. */
static size_t queue_front(item_index *ix, item_key *k, int q)
{
	while (k->head && ix->dropped[k->head - 1])
		k->head = ix->next[k->head - 1][q];
	if (!k->head)
		k->tail = 0;
	return k->head;
}

static void queue_push(item_index *ix, item_key *k, int q, size_t item)
{
	ix->next[item][q] = 0;
	if (k->tail)
		ix->next[k->tail - 1][q] = item + 1;
	else
		k->head = item + 1;
	k->tail = item + 1;
}

/* Item `item`, the last, joins the index.  False when out of memory. */
static bool index_add(item_index *ix, const build_mgcb_item *item, size_t at)
{
	if (at >= ix->capacity) {
		size_t capacity = ix->capacity ? ix->capacity * 2 : 256;
		size_t (*next)[2] = realloc(ix->next, capacity * sizeof *next);
		bool *dropped = next ? realloc(ix->dropped, capacity * sizeof *dropped) : NULL;

		if (next)
			ix->next = next;
		if (!dropped)
			return false;
		ix->dropped = dropped;
		ix->capacity = capacity;
	}
	ix->dropped[at] = true;   /* until it is in its queues */
	item_key *any = index_slot(ix, item_key_text(item->is_copy ? 'c' : 'b', item->source, NULL), true);

	if (!any)
		return false;
	item_key *with_link = item->is_copy || !item->link ? NULL :
			      index_slot(ix, item_key_text('l', item->source, item->link), true);

	if (!item->is_copy && item->link && !with_link)
		return false;
	queue_push(ix, any, 0, at);
	if (with_link)
		queue_push(ix, with_link, 1, at);
	ix->dropped[at] = false;
	return true;
}

static void index_release(item_index *ix)
{
	for (size_t i = 0; i < ix->size; i++)
		free(ix->slots[i].key);
	free(ix->slots);
	free(ix->next);
	free(ix->dropped);
}

/*
 * A /build: of a source given before goes in place of the earlier item, as
 * MGCB takes it: the first earlier /build: of the same source (compared
 * ignoring case) with the same ;DEST, or with any when this one gives none,
 * leaves the list, and the new one, with its own parameters, comes last.
 * A /copy: replaces an earlier /copy: of the same source.  The item left
 * is released and marked dropped (close_up takes it out).
 */
static void drop_earlier(item_index *ix, build_mgcb *out, const char *source, const char *link, bool is_copy)
{
	bool by_link = !is_copy && link;
	item_key *k = index_slot(ix, item_key_text(is_copy ? 'c' : by_link ? 'l' : 'b', source, by_link ? link : NULL),
				 false);
	size_t front = k ? queue_front(ix, k, by_link) : 0;

	if (!front)
		return;
	item_release(&out->items[front - 1]);
	memset(&out->items[front - 1], 0, sizeof out->items[front - 1]);
	ix->dropped[front - 1] = true;
}

/* The items dropped taken out of the list, the others in their order. */
static void close_up(const item_index *ix, build_mgcb *out)
{
	size_t kept = 0;

	for (size_t i = 0; i < out->count; i++)
		if (i >= ix->capacity || !ix->dropped[i])
			out->items[kept++] = out->items[i];
	out->count = kept;
}

static void build_item(reader *rd, char *value, bool is_copy)
{
	char *semi = strchr(value, ';');
	char *source = trim(value), *dest = NULL;
	build_mgcb_item *item, *grown;

	if (semi) {
		*semi = '\0';
		source = trim(value);
		dest = trim(semi + 1);
	}
	normalise(source);
	collapse(source);
	if (!source[0]) {
		error_at(rd, "/%s: names no file", is_copy ? "copy" : "build");
		return;
	}
	if (dest) {
		normalise(dest);
		if (!dest[0])
			dest = NULL;
	}
	/* Without a ;DEST, the output is at the source's path relative to
	 * the project's folder, as MGCB puts it: an item of a response file in
	 * Sub/ lands under Sub/.  Either path with its "." and ".." parts
	 * taken out, so that two spellings of one output are one. */
	if (dest && dest[0] == '/' && !is_copy) {
		error_at(rd, "the output of '%s' would leave the output folder", dest);
		return;
	}
	char *below = dest ? join_below("", dest) : source[0] != '/' ? join_below(rd->rel, source) : NULL;
	if (!dest && !below)
		below = below_project(rd, source);
	const char *where = below && below[0] ? below : dest ? dest : source;
	if (!is_copy && !stays_below(where)) {
		error_at(rd, "the output of '%s' would leave the output folder%s", where,
			 dest ? "" : ": give the item a destination below it (/build:SOURCE;DEST)");
		free(below);
		return;
	}
	if (!is_copy && is_in_state_folder(where)) {
		error_at(rd, "the output of '%s' would land in the output folder's " MANIFEST_DIR "/, where animc keeps "
			 "its own state: give the item a destination outside it (/build:SOURCE;DEST)", where);
		free(below);
		return;
	}
	char *path = source[0] == '/' ? strdup(source) : cli_path_join(rd->dir, source, NULL);

	if (path)
		drop_earlier(&rd->index, rd->out, path, dest, is_copy);
	grown = realloc(rd->out->items, (rd->out->count + 1) * sizeof *grown);
	if (!grown) {
		free(path);
		free(below);
		error_at(rd, "out of memory");
		return;
	}
	rd->out->items = grown;
	item = &grown[rd->out->count];
	memset(item, 0, sizeof *item);
	item->source = path;
	item->link = dest ? strdup(dest) : NULL;
	item->is_dest_no_file = !is_copy && dest && names_no_file(dest);
	/* One that names no file fails (plan.c, naming the ;DEST as given,
	 * item->link); its dest is still the path below the output folder. */
	item->dest = item->is_dest_no_file ? strdup(below ? below : "") : dest_of(where, dest ? source : NULL);
	free(below);
	item->processor = strdup(rd->processor ? rd->processor : "");
	item->file = rd->path;
	item->line = rd->line;
	item->is_copy = is_copy;
	item->has_units = rd->units_given != 0;
	item->units_given = rd->units_given;
	item->units = rd->units;
	if (!item->source || !item->dest || !item->processor || (dest && !item->link)) {
		free(item->source), free(item->dest), free(item->processor), free(item->link);
		error_at(rd, "out of memory");
		return;
	}
	if (!index_add(&rd->index, item, rd->out->count)) {
		item_release(item);
		memset(item, 0, sizeof *item);
		error_at(rd, "out of memory");
	}
	rd->out->count++;
}

/* NAME=VALUE (or NAME: empty) split as MGCB splits it: at '=', trimmed,
 * the value up to a second '='. */
static bool split_property(char *text, property *out)
{
	char *eq = strchr(text, '=');

	if (eq) {
		char *second = strchr(eq + 1, '=');

		*eq = '\0';
		if (second)
			*second = '\0';
	}
	out->name = trim(text);
	out->value = eq ? trim(eq + 1) : "";
	return out->name[0] != '\0';
}

static property *find_property(reader *rd, const char *name)
{
	for (size_t i = 0; i < rd->prop_count; i++)
		if (strcmp(rd->props[i].name, name) == 0)
			return &rd->props[i];
	return NULL;
}

/* Set a property from NAME=VALUE: $set, /define:, the command line. */
static void define(reader *rd, char *text)
{
	property p, *at;

	if (!split_property(text, &p)) {
		error_at(rd, "no property name before '=' (NAME=VALUE)");
		return;
	}
	at = find_property(rd, p.name);
	if (!at) {
		property *grown = realloc(rd->props, (rd->prop_count + 1) * sizeof *grown);
		char *name = grown ? strdup(p.name) : NULL;

		if (grown)
			rd->props = grown;
		if (!name) {
			error_at(rd, "out of memory");
			return;
		}
		at = &rd->props[rd->prop_count++];
		at->name = name;
		at->value = NULL;
	}
	free(at->value);
	at->value = strdup(p.value);
	if (!at->value)
		error_at(rd, "out of memory");
}

/* Do the open $if lines all hold?  A property must be set, and equal
 * (case and all) where the $if gives a value. */
static bool conditions_hold(reader *rd)
{
	for (size_t i = 0; i < rd->cond_count; i++) {
		const property *p = find_property(rd, rd->conds[i].name);

		if (!p || (rd->conds[i].value[0] && strcmp(rd->conds[i].value, p->value ? p->value : "") != 0))
			return false;
	}
	return true;
}

/*
 * A preprocessor line ($if, $endif, $set) or one the open $if lines leave
 * out: true when `text` is done with.  As in MGCB, a line inside a $if
 * that does not hold is skipped, a $if among them too, and every $endif
 * closes the innermost $if that was opened.
 */
static bool preprocess(reader *rd, char *text)
{
	property c;

	if (strncmp(text, "$endif", 6) == 0) {
		if (!rd->cond_count) {
			error_at(rd, "$endif without a $if");
			return true;
		}
		rd->cond_count--;
		free(rd->conds[rd->cond_count].name);
		free(rd->conds[rd->cond_count].value);
		return true;
	}
	if (!conditions_hold(rd))
		return true;
	if (strncmp(text, "$set ", 5) == 0) {
		define(rd, text + 5);
		return true;
	}
	if (strncmp(text, "$if ", 4) != 0)
		return false;
	if (!split_property(text + 4, &c)) {
		error_at(rd, "$if names no property ($if NAME=VALUE)");
		return true;
	}
	property *grown = realloc(rd->conds, (rd->cond_count + 1) * sizeof *grown);
	property open = { strdup(c.name), strdup(c.value) };

	if (grown)
		rd->conds = grown;
	if (!grown || !open.name || !open.value) {
		free(open.name), free(open.value);
		error_at(rd, "out of memory");
		return true;
	}
	rd->conds[rd->cond_count++] = open;
	return true;
}

/*
 * A switch animc does not read: MGCB's own (/importer:, /intermediateDir:,
 * /compress:, /reference:, ...) do not change what animc writes and are
 * ignored; any other is likely misspelt, and said so.
 */
static void unknown_switch(reader *rd, const char *name)
{
	/* MGCB's switches (MonoGame's MGCB documentation), those animc reads
	 * first, for the did-you-mean. */
	static const char *const known[] = {
		"build", "copy", "processor", "processorParam", "platform", "outputDir", "config", "profile",
		"define", "importer", "intermediateDir", "rebuild", "clean", "incremental", "reference",
		"compress", "launchDebugger", "quiet", "workingDir", "@", NULL,
	};
	const char *near = cli_nearest(name, known);

	for (size_t i = 0; known[i]; i++)
		if (strcasecmp(name, known[i]) == 0)
			return;
	if (near)
		warning_at(rd, ANIMC_WARN_UNKNOWN_SWITCH, "unknown switch /%s: (did you mean /%s:?); ignored", name, near);
	else
		warning_at(rd, ANIMC_WARN_UNKNOWN_SWITCH, "unknown switch /%s: (neither animc nor MGCB reads it); ignored",
			   name);
}

static void include(reader *rd, char *value);

static void option(reader *rd, const char *name, char *value)
{
	if (strcasecmp(name, "build") == 0 || strcasecmp(name, "copy") == 0) {
		build_item(rd, value, strcasecmp(name, "copy") == 0);
	} else if (strcasecmp(name, "processor") == 0) {
		free(rd->processor);
		rd->processor = strdup(value);
		rd->units_given = 0;
		memset(&rd->units, 0, sizeof rd->units);
	} else if (strcasecmp(name, "processorParam") == 0) {
		processor_param(rd, value);
	} else if (strcasecmp(name, "platform") == 0) {
		char letter = build_mgcb_platform_letter(value);

		if (!letter)
			error_at(rd, "/platform:%s is not a MonoGame platform (Windows, DesktopGL, "
				 "DesktopVK, Android, iOS, ...)", value);
		rd->out->platform = letter;
		rd->platform_name = NULL;
		for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
			if (strcasecmp(value, platforms[i].name) == 0)
				rd->platform_name = platforms[i].name;
	} else if (strcasecmp(name, "outputDir") == 0) {
		free(rd->output_dir_raw);
		free(rd->output_dir_rel);
		rd->output_dir_raw = strdup(value);
		rd->output_dir_rel = strdup(rd->rel);
		rd->output_dir_line = rd->line;
		rd->output_dir_file = rd->path;
	} else if (strcmp(name, "@") == 0) {
		include(rd, value);
	} else if (strcasecmp(name, "config") == 0) {
		free(rd->config);
		rd->config = strdup(value);
	} else if (strcasecmp(name, "profile") == 0) {
		if (strcasecmp(value, "Reach") == 0 || strcasecmp(value, "HiDef") == 0)
			rd->profile = tolower((unsigned char)value[0]) == 'r' ? "Reach" : "HiDef";
		else
			error_at(rd, "/profile:%s is not a graphics profile (Reach or HiDef)", value);
	} else if (strcasecmp(name, "define") == 0) {
		define(rd, value);
	} else {
		unknown_switch(rd, name);
	}
}

/*
 * The text of a project or response file, NUL-terminated, in UTF-8: as read
 * unless it starts with a UTF-16 or UTF-32 byte-order mark (a file Visual
 * Studio saved as "Unicode"), which MGCB's reader follows, as animc does.  A
 * UTF-8 mark stays, for read_lines.  NULL with *why when it holds a NUL byte
 * (then it is no text) or memory runs out.
 */
static char *project_text(const uint8_t *data, size_t size, size_t *text_size, const char **why)
{
	bool is_utf32 = size >= 4 && (memcmp(data, "\xFF\xFE\0\0", 4) == 0 || memcmp(data, "\0\0\xFE\xFF", 4) == 0);
	bool is_utf16 = !is_utf32 && size >= 2 && (memcmp(data, "\xFF\xFE", 2) == 0 || memcmp(data, "\xFE\xFF", 2) == 0);
	uint8_t *text = malloc(is_utf32 ? size + 1 : is_utf16 ? size / 2 * 3 + 1 : size + 1);
	size_t n = 0;

	*why = "out of memory";
	if (!text)
		return NULL;
	if (is_utf16) {
		n = animc_utf16_to_utf8(data + 2, size - 2, data[0] == 0xFE, text);
	} else if (is_utf32) {
		/* At most 4 bytes for each 4: the text fits in the file's size. */
		for (size_t i = 4; i + 4 <= size; i += 4) {
			const uint8_t *u = data + i;
			uint32_t c = data[0] == 0xFF ? (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
							       (uint32_t)u[3] << 24
						     : (uint32_t)u[3] | (uint32_t)u[2] << 8 | (uint32_t)u[1] << 16 |
							       (uint32_t)u[0] << 24;

			n += animc_utf8_put(text + n, c > 0x10FFFF || (c >= 0xD800 && c < 0xE000) ? 0xFFFD : c);
		}
	} else {
		memcpy(text, data, size);
		n = size;
	}
	text[n] = '\0';
	if (memchr(text, '\0', n)) {
		*why = "holds a NUL byte";
		free(text);
		return NULL;
	}
	*text_size = n;
	return (char *)text;
}

/* Text with no line in it: white space, and a UTF-8 byte-order mark
 * before it, alone. */
static bool is_blank_text(const char *text)
{
	if (strncmp(text, "\xEF\xBB\xBF", 3) == 0)
		text += 3;
	while (isspace((unsigned char)*text))
		text++;
	return !*text;
}

/* The lines of one file (the project's or an included one's), NUL-
 * terminated at text[size], in place. */
static void read_lines(reader *rd, char *text_all, size_t size)
{
	/* A UTF-8 byte order mark (Visual Studio writes one): MGCB skips it. */
	size_t bom = size >= 3 && memcmp(text_all, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

	for (char *line = text_all + bom, *end = text_all + size; line < end;) {
		char *nl = strchr(line, '\n');
		char *text;

		if (nl)
			*nl = '\0';
		rd->line++;
		text = trim(line);
		line = nl ? nl + 1 : end;
		if (!text[0] || text[0] == '#' || preprocess(rd, text))
			continue;
		/* MGCB splits a switch from its value at the first ':' or
		 * '=': /outputDir=bin is /outputDir:bin. */
		char *colon = text + strcspn(text, ":=");
		if (text[0] != '/' || !*colon) {
			error_at(rd, "'%.60s' is neither an option (/name:value or /name=value) nor a comment (#...)",
				 text);
			continue;
		}
		*colon = '\0';
		const char *name = text + 1;
		bool is_name = name[0] != '\0';

		for (const char *c = name; *c; c++)
			is_name &= isalnum((unsigned char)*c) || *c == '@';
		if (!is_name) {
			error_at(rd, "'/%s' is no option name", name);
			continue;
		}
		option(rd, name, trim(colon + 1));
	}
}

/* `path` among the project's files (once), for items and messages to
 * point at; NULL when out of memory. */
static const char *add_file(build_mgcb *out, const char *path)
{
	char **grown;

	for (size_t i = 0; i < out->file_count; i++)
		if (strcmp(out->files[i], path) == 0)
			return out->files[i];
	grown = realloc(out->files, (out->file_count + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	out->files = grown;
	if (!(grown[out->file_count] = strdup(path)))
		return NULL;
	return grown[out->file_count++];
}

/* Why the response file `path` (real path `real`) may not be read, or
 * NULL: it must lie in the project's folder (a path read from an input
 * reads nowhere the user did not give), be none of the files being read
 * (a cycle) and nest no deeper than MGCB_INCLUDE_DEPTH. */
static const char *include_refusal(reader *rd, const char *real, char *why, size_t size)
{
	if (!root_real(rd) || !cli_path_is_within(real, rd->root_real)) {
		snprintf(why, size, "it is outside the project's folder (it is '%s'), and animc reads only below the "
			 "folders it is given: move it into the project's folder", real);
		return why;
	}
	for (unsigned i = 0; i <= rd->depth; i++)
		if (rd->reading[i] && strcmp(rd->reading[i], real) == 0) {
			snprintf(why, size, "it is being read already (it includes itself, %s): not read again",
				 i == rd->depth ? "directly" : "through the files that include it");
			return why;
		}
	if (rd->depth >= MGCB_INCLUDE_DEPTH) {
		snprintf(why, size, "response files nest deeper than %d here: not read", MGCB_INCLUDE_DEPTH);
		return why;
	}
	return NULL;
}

/*
 * The response file of /@:`value` opened in *src, when it lies in the
 * project's folder (resolve_in_project: one outside is refused whether it
 * is there or not; realpath() looked it up first, and one not there was
 * "cannot open: No such file or directory") and may be read
 * (include_refusal): its resolved path, or NULL (said).  The file opened is the one checked: its resolved
 * path is opened following no symbolic link, and a folder on its way
 * replaced by a link since is checked again, where it leads now.
 */
static char *include_open(reader *rd, const char *value, cli_source *src)
{
	char why[PATH_MAX + 200];
	const char *refused;
	cli_error err = { "" };

	for (int tries = 0;; tries++) {
		char *outside, *real = resolve_in_project(rd, value, &outside);

		if (!real && outside)
			error_at(rd, "/@:%s: it is outside the project's folder (it is '%s'), and animc reads only below "
				 "the folders it is given: move it into the project's folder", value, outside);
		else if (!real)
			error_at(rd, "/@:%s: cannot open: %s", value, strerror(errno));
		free(outside);
		if (!real)
			return NULL;
		if ((refused = include_refusal(rd, real, why, sizeof why))) {
			error_at(rd, "/@:%s: %s", value, refused);
		} else if (cli_source_open_resolved(src, real, &err)) {
			return real;
		} else if ((src->open_error != ELOOP && src->open_error != ENOTDIR) || tries == 3) {
			error_at(rd, "/@:%s: %s", value, err.message);
		} else {
			free(real);
			continue;
		}
		free(real);
		return NULL;
	}
}

/*
 * /@:FILE: another response file read in place, as MGCB reads it: with its
 * own name and line numbers in messages, its paths relative to its own
 * folder, its $set, $if and /define: lines shared with the project.  Every
 * item depends on it, as on the project (out->files).
 */
static void include(reader *rd, char *value)
{
	char *path, *real = NULL;
	const char *stored, *why_not;
	uint8_t *data = NULL;
	char *text = NULL;
	size_t size = 0, text_size = 0;
	cli_error err = { "" };
	cli_source src;

	normalise(value);
	if (!value[0]) {
		error_at(rd, "/@: names no file");
		return;
	}
	path = value[0] == '/' ? strdup(value) : cli_path_join(rd->dir, value, NULL);
	if (!path) {
		error_at(rd, "/@:%s: cannot open: out of memory", value);
	} else if (!(real = include_open(rd, value, &src))) {
		/* said */
	} else if (!cli_source_read_rest(&src, &data, &size, &err)) {
		error_at(rd, "/@:%s: %s", value, err.message);
	} else if (!(text = project_text(data, size, &text_size, &why_not))) {
		error_at(rd, "/@:%s: %s", value, strcmp(why_not, "holds a NUL byte") == 0 ?
			 "holds a NUL byte: not a response file" : why_not);
	} else if (!(stored = add_file(rd->out, path))) {
		error_at(rd, "out of memory");
	} else {
		reader saved = *rd;
		const char *base = cli_basename(real) - 1;
		size_t root = strlen(rd->root_real);

		rd->path = stored;
		rd->line = 0;
		rd->dir = strndup(path, (size_t)(cli_basename(path) - path));
		/* Its folder below the project's (the real paths: both resolved). */
		rd->rel = base > real + root ? strndup(real + root + 1, (size_t)(base - real - root - 1)) : strdup("");
		rd->reading[++rd->depth] = real;
		if (rd->dir && rd->rel)
			read_lines(rd, text, text_size);
		else
			error_at(rd, "out of memory");
		free(rd->dir);
		free(rd->rel);
		rd->path = saved.path;
		rd->line = saved.line;
		rd->dir = saved.dir;
		rd->rel = saved.rel;
		rd->depth--;
	}
	free(text);
	free(data);
	free(real);
	free(path);
}

/* A project that failed: released, but for what it said (its warnings
 * and errors, with their lines) and its count of warnings, which the
 * reports give. */
static void release_keeping_said(build_mgcb *project)
{
	build_said_list said = project->said;
	unsigned warnings = project->warnings;

	memset(&project->said, 0, sizeof project->said);
	build_mgcb_release(project);
	project->said = said;
	project->warnings = warnings;
}

/* /outputDir: once the whole project is read, its macros taking the values
 * the project sets, as at build time; relative to the folder of the file
 * that sets it. */
static void output_dir_settle(reader *rd)
{
	char *dir = rd->output_dir_raw ? expand(rd, rd->output_dir_raw) : NULL, *below = NULL;
	build_mgcb *out = rd->out;

	if (!dir)
		return;
	normalise(dir);
	const char *rel = rd->output_dir_rel ? rd->output_dir_rel : "";
	bool is_included = dir[0] != '/' && rel[0];

	if (is_included && (below = join_below(rel, dir))) {
		free(dir);
		dir = below;
		is_included = false;
	}
	/* One climbing out of the project's folder from an included file's
	 * stays as written, below that file's folder, to be refused. */
	out->output_dir = dir[0] == '/' ? strdup(dir) : cli_path_join(rd->dir, is_included ? rel : dir,
								       is_included ? dir : NULL);
	/* An empty one is the project's folder, as MGCB takes it: "." when
	 * that is the working folder (it was "", which no folder is). */
	if (out->output_dir && !out->output_dir[0]) {
		free(out->output_dir);
		out->output_dir = strdup(".");
	}
	out->output_dir_line = rd->output_dir_line;
	out->output_dir_file = rd->output_dir_file;
	/* An absolute one is judged by where it leads, as a relative one
	 * through a symbolic link is (build_mgcb_output_dir_validate), unless
	 * it climbs with "..", past which its name tells nothing. */
	out->is_output_dir_absolute = dir[0] == '/';
	out->is_output_dir_outside = is_included || (dir[0] == '/' ? climbs(dir) : dir[0] && !stays_below(dir));
	free(dir);
}

static void reader_release(reader *rd)
{
	index_release(&rd->index);
	free(rd->output_dir_raw);
	free(rd->output_dir_rel);
	free(rd->dir);
	free(rd->rel);
	free(rd->root_real);
	free(rd->reading[0]);
	free(rd->processor);
	free(rd->config);
	for (size_t i = 0; i < rd->prop_count; i++)
		free(rd->props[i].name), free(rd->props[i].value);
	free(rd->props);
	for (size_t i = 0; i < rd->cond_count; i++)
		free(rd->conds[i].name), free(rd->conds[i].value);
	free(rd->conds);
}

/* build_mgcb_parse; on failure `out` keeps what the project said when
 * keep_said (build_mgcb_read's reports), else nothing. */
static bool parse_project(const char *path, const uint8_t *data, size_t size, const build_mgcb_settings *settings,
			  FILE *messages, build_mgcb *out, bool keep_said)
{
	reader rd = { .messages = messages, .allowed = settings->allowed, .platform = settings->platform,
		      .profile = "HiDef", .out = out };
	const char *base = cli_basename(path);

	memset(out, 0, sizeof *out);
	out->path = strdup(path);
	rd.path = out->path ? add_file(out, path) : NULL;
	rd.dir = strndup(path, (size_t)(base - path));
	rd.rel = strdup("");
	const char *why_not = "out of memory";
	size_t text_size = 0;
	char *text_all = rd.path && rd.dir && rd.rel ? project_text(data, size, &text_size, &why_not) : NULL;

	if (!text_all) {
		const char *why = strcmp(why_not, "holds a NUL byte") == 0 ? "holds a NUL byte: not a project" : why_not;

		fprintf(messages, "%s: error: %s\n", path, why);
		build_said_add(&out->said, ANIMC_ERROR, NULL, path, 0, why);
		reader_release(&rd);
		keep_said ? release_keeping_said(out) : build_mgcb_release(out);
		return false;
	}
	for (size_t i = 0; i < settings->define_count; i++) {
		char *copy = strdup(settings->defines[i]);

		if (copy)
			define(&rd, copy);
		else
			error_at(&rd, "out of memory");
		free(copy);
	}
	rd.reading[0] = realpath(path, NULL);
	out->is_blank = is_blank_text(text_all);
	read_lines(&rd, text_all, text_size);
	free(text_all);
	close_up(&rd.index, out);
	output_dir_settle(&rd);
	reader_release(&rd);
	if (rd.errors) {
		keep_said ? release_keeping_said(out) : build_mgcb_release(out);
		return false;
	}
	return true;
}

bool build_mgcb_parse(const char *path, const uint8_t *data, size_t size, const build_mgcb_settings *settings,
		      FILE *messages, build_mgcb *out)
{
	return parse_project(path, data, size, settings, messages, out, false);
}

bool build_mgcb_read(const char *path, const build_mgcb_settings *settings, build_mgcb *out)
{
	uint8_t *data;
	size_t size;
	cli_error err = { "" };
	bool ok;

	memset(out, 0, sizeof *out);
	if (!cli_read_file(path, &data, &size, &err)) {
		fprintf(stderr, "%s: error: %s\n", path, err.message);
		build_said_add(&out->said, ANIMC_ERROR, NULL, path, 0, err.message);
		return false;
	}
	ok = parse_project(path, data, size, settings, stderr, out, true);
	free(data);
	/* Released, the project keeps only what it said, and this, for the
	 * reports. */
	if (!ok)
		build_said_add(&out->said, ANIMC_ERROR, NULL, path, 0, "the project has errors; nothing built");
	return ok;
}

/* The real path of `path`: its deepest part that exists (a dangling
 * symbolic link counts), symbolic links resolved, then the rest as written.
 * NULL when that part does not resolve (a dangling or looping link) or out
 * of memory. */
static char *real_path_of_deepest(const char *path)
{
	char *head = strdup(path), *real, *out;
	size_t len;
	struct stat st;

	if (!head)
		return NULL;
	for (len = strlen(head); len && lstat(head, &st) != 0; head[len] = '\0') {
		while (len && head[len - 1] != '/')
			len--;
		while (len > 1 && head[len - 1] == '/')
			len--;
	}
	real = realpath(len ? head : ".", NULL);
	while (path[len] == '/')
		len++;
	out = real && path[len] ? cli_path_join(real, path + len, NULL) : real;
	if (out != real)
		free(real);
	free(head);
	return out;
}

/* Where /outputDir leads out of the project's folder `dir` (as given;
 * `dir_real`, resolved), through a symbolic link in it or spelt absolute:
 * the path from the point it leaves (a new string), whether a folder is
 * there or not, or NULL when it does not leave it (cli_path_resolve_within:
 * nothing past that point is looked at). */
static char *output_dir_outside(const build_mgcb *project, const char *dir, const char *dir_real)
{
	const char *p = project->output_dir, *from = dir_real;
	size_t n = strlen(dir);
	char *outside = NULL;

	if (p[0] == '/')
		from = "/";
	else if (n && strncmp(p, dir, n) == 0)
		p += n;
	else if (n)
		return NULL;   /* not spelt from the project's folder: judged by where it leads */
	free(cli_path_resolve_within(from, p, dir_real, &outside));
	return outside;
}

/* An error of the project's /outputDir: said, and kept for the reports. */
static void output_dir_error(build_mgcb *project, FILE *messages, const char *file, uint32_t line,
			     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void output_dir_error(build_mgcb *project, FILE *messages, const char *file, uint32_t line,
			     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	project_error_v(project, messages, file, line, fmt, ap);
	va_end(ap);
}

bool build_mgcb_output_dir_validate(build_mgcb *project, FILE *messages)
{
	/* A path read from an input writes nowhere the user did not give:
	 * the project's folder is given, a folder beside or above it is not,
	 * whether written so (relative or absolute) or reached through a
	 * symbolic link in it. */
	if (!project->output_dir)
		return true;
	const char *file = project->output_dir_file ? project->output_dir_file : project->path;

	if (project->is_output_dir_outside && project->is_output_dir_absolute) {
		output_dir_error(project, messages, file, project->output_dir_line,
				 "/outputDir: '%s' is an absolute path through '..', which animc does not follow; "
				 "write it without '..', or pass -o OUTDIR to choose the output folder",
				 project->output_dir);
		return false;
	}
	if (project->is_output_dir_outside) {
		output_dir_error(project, messages, file, project->output_dir_line,
				 "/outputDir: '%s' leaves the project's folder; pass -o OUTDIR to choose the output "
				 "folder", project->output_dir);
		return false;
	}
	char *dir = strndup(project->path, (size_t)(cli_basename(project->path) - project->path));
	char *dir_real = dir ? realpath(dir[0] ? dir : ".", NULL) : NULL;
	int why = errno;
	/* One that leaves the folder is said from where it leaves, nothing
	 * past that looked at: its deepest part that exists was looked up
	 * first, and a link to a folder outside that is not there was said
	 * as one "that does not resolve", one to a folder there as leading
	 * out. */
	char *outside = dir_real ? output_dir_outside(project, dir, dir_real) : NULL;
	char *out_real = outside ? outside : real_path_of_deepest(project->output_dir);
	bool ok = dir_real && out_real && !outside && cli_path_is_within(out_real, dir_real);

	if (!ok && !dir_real)
		output_dir_error(project, messages, project->path, 0, "cannot resolve the project's folder: %s",
				 strerror(why));
	else if (!ok && !out_real)
		output_dir_error(project, messages, file, project->output_dir_line,
				 "/outputDir: '%s' goes through a symbolic link that does not resolve; pass -o "
				 "OUTDIR to choose the output folder", project->output_dir);
	else if (!ok && project->is_output_dir_absolute && !cli_path_is_within(project->output_dir, dir_real))
		output_dir_error(project, messages, file, project->output_dir_line,
				 "/outputDir: '%s' is outside the project's folder ('%s'); pass -o OUTDIR to "
				 "choose the output folder", project->output_dir, dir_real);
	else if (!ok)
		output_dir_error(project, messages, file, project->output_dir_line,
				 "/outputDir: '%s' leaves the project's folder through a symbolic link (it is "
				 "'%s'); pass -o OUTDIR to choose the output folder", project->output_dir, out_real);
	free(dir), free(dir_real), free(out_real);
	return ok;
}

void build_mgcb_item_units(const build_mgcb_item *item, const animc_units *given, animc_units *out)
{
	*out = *given;
	if (item->units_given & BUILD_MGCB_SCALE)
		out->scale = item->units.scale;
	for (int axis = 0; axis < 3; axis++)
		if (item->units_given & (BUILD_MGCB_ROTATION_X << axis))
			out->rotation_deg[axis] = item->units.rotation_deg[axis];
}

void build_mgcb_release(build_mgcb *project)
{
	if (!project)
		return;
	for (size_t i = 0; i < project->count; i++)
		item_release(&project->items[i]);
	free(project->items);
	for (size_t i = 0; i < project->file_count; i++)
		free(project->files[i]);
	free(project->files);
	free(project->path);
	free(project->output_dir);
	build_said_release(&project->said);
	memset(project, 0, sizeof *project);
}
