/*
 * mgcb.c - the reader of MonoGame content projects (mgcb.h).  A project is
 * lines of "/option:value" and "#" comments.  Globals (/outputDir:,
 * /platform:, ...) hold from where they stand; /importer:, /processor: and
 * /processorParam:K=V hold for every /build:SRC[;DEST] after them, and
 * /processor: clears the parameters, as MGCB does.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
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

typedef struct reader {
	const char *path;
	char *dir;                   /* the project's folder ("" for the current one) */
	uint32_t line;
	unsigned errors;
	char *processor;
	bool has_units;
	animc_units units;
	char *config;
	char *output_dir_raw;        /* /outputDir: before its macros are expanded */
	build_mgcb *out;
} reader;

static void error_at(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void error_at(reader *rd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: error: ", rd->path, rd->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rd->errors++;
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

/* Windows separators to '/', "./" prefixes dropped. */
static void normalise(char *p)
{
	for (char *c = p; *c; c++)
		if (*c == '\\')
			*c = '/';
	while (p[0] == '.' && p[1] == '/')
		memmove(p, p + 2, strlen(p + 2) + 1);
}

/* A relative path that stays below its folder: no "..", not absolute. */
static bool stays_below(const char *p)
{
	if (!p[0] || p[0] == '/' || (isalpha((unsigned char)p[0]) && p[1] == ':'))
		return false;
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");

		if (n == 2 && s[0] == '.' && s[1] == '.')
			return false;
		s += n;
		while (*s == '/')
			s++;
	}
	return true;
}

/* $(Platform), $(Configuration) and $(Config) replaced, as MGCB does. */
static char *expand(reader *rd, const char *value)
{
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	char platform[32] = "";

	if (!f)
		return NULL;
	for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++)
		if (platforms[i].letter == rd->out->platform) {
			snprintf(platform, sizeof platform, "%s", platforms[i].name);
			break;
		}
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
		} else {
			fputc(*p++, f);
		}
	}
	fclose(f);
	return out;
}

static bool parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*trim(end) && errno == 0 && isfinite(*out);
}

static void processor_param(reader *rd, char *value)
{
	char *eq = strchr(value, '=');
	double v;

	if (!eq) {
		error_at(rd, "/processorParam:%s is not NAME=VALUE", value);
		return;
	}
	*eq = '\0';
	char *name = trim(value), *text = trim(eq + 1);
	int axis = strcasecmp(name, "RotationX") == 0 ? 0 : strcasecmp(name, "RotationY") == 0 ? 1 :
		   strcasecmp(name, "RotationZ") == 0 ? 2 : -1;

	if (axis < 0 && strcasecmp(name, "Scale") != 0)
		return;   /* other processors' parameters: not animc's */
	if (!parse_number(text, &v) || (axis < 0 && !(v > 0))) {
		error_at(rd, "/processorParam:%s=%s is not %s", name, text,
			 axis < 0 ? "a number above 0" : "a number of degrees");
		return;
	}
	if (axis < 0)
		rd->units.scale = v;
	else
		rd->units.rotation_deg[axis] = v;
	rd->has_units = true;
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
	if (!source[0]) {
		error_at(rd, "/%s: names no file", is_copy ? "copy" : "build");
		return;
	}
	if (dest) {
		normalise(dest);
		if (!dest[0])
			dest = NULL;
	}
	const char *where = dest ? dest : source;
	if (!is_copy && !stays_below(where)) {
		error_at(rd, "the output of '%s' would leave the output folder%s", where,
			 dest ? "" : ": give the item a destination below it (/build:SOURCE;DEST)");
		return;
	}
	grown = realloc(rd->out->items, (rd->out->count + 1) * sizeof *grown);
	if (!grown) {
		error_at(rd, "out of memory");
		return;
	}
	rd->out->items = grown;
	item = &grown[rd->out->count];
	memset(item, 0, sizeof *item);
	item->source = source[0] == '/' ? strdup(source) : cli_path_join(rd->dir, source, NULL);
	item->dest = strndup(where, (size_t)(cli_basename(where) - where) + cli_stem_length(cli_basename(where)));
	item->processor = strdup(rd->processor ? rd->processor : "");
	item->line = rd->line;
	item->is_copy = is_copy;
	item->has_units = rd->has_units;
	item->units = rd->units;
	if (!item->source || !item->dest || !item->processor) {
		free(item->source), free(item->dest), free(item->processor);
		error_at(rd, "out of memory");
		return;
	}
	rd->out->count++;
}

static void option(reader *rd, const char *name, char *value)
{
	if (strcasecmp(name, "build") == 0 || strcasecmp(name, "copy") == 0) {
		build_item(rd, value, strcasecmp(name, "copy") == 0);
	} else if (strcasecmp(name, "processor") == 0) {
		free(rd->processor);
		rd->processor = strdup(value);
		rd->has_units = false;
		memset(&rd->units, 0, sizeof rd->units);
	} else if (strcasecmp(name, "processorParam") == 0) {
		processor_param(rd, value);
	} else if (strcasecmp(name, "platform") == 0) {
		char letter = build_mgcb_platform_letter(value);

		if (!letter)
			error_at(rd, "/platform:%s is not a MonoGame platform (Windows, DesktopGL, "
				 "DesktopVK, Android, iOS, ...)", value);
		rd->out->platform = letter;
	} else if (strcasecmp(name, "outputDir") == 0) {
		free(rd->output_dir_raw);
		rd->output_dir_raw = strdup(value);
	} else if (strcasecmp(name, "config") == 0) {
		free(rd->config);
		rd->config = strdup(value);
	}
	/* The rest (/importer:, /intermediateDir:, /profile:, /compress:,
	 * /reference:, ...) does not change what animc writes. */
}

bool build_mgcb_read(const char *path, build_mgcb *out)
{
	reader rd = { .path = path, .out = out };
	const char *base = cli_basename(path);
	uint8_t *data;
	size_t size;
	cli_error err = { "" };

	memset(out, 0, sizeof *out);
	out->path = strdup(path);
	rd.dir = strndup(path, (size_t)(base - path));
	if (!out->path || !rd.dir || !cli_read_file(path, &data, &size, &err)) {
		fprintf(stderr, "%s: error: %s\n", path, out->path && rd.dir ? err.message : "out of memory");
		free(rd.dir);
		return false;
	}
	char *text_all = malloc(size + 1);

	if (!text_all || memchr(data, '\0', size)) {
		fprintf(stderr, "%s: error: %s\n", path, text_all ? "holds a NUL byte: not a project" :
								    "out of memory");
		free(text_all);
		free(data);
		free(rd.dir);
		build_mgcb_release(out);
		return false;
	}
	memcpy(text_all, data, size);
	text_all[size] = '\0';
	for (char *line = text_all, *end = text_all + size; line < end;) {
		char *nl = strchr(line, '\n');
		char *text;

		if (nl)
			*nl = '\0';
		rd.line++;
		text = trim(line);
		line = nl ? nl + 1 : end;
		if (!text[0] || text[0] == '#')
			continue;
		if (text[0] != '/' || !strchr(text, ':')) {
			error_at(&rd, "'%.60s' is neither an option (/name:value) nor a comment (#...)", text);
			continue;
		}
		char *colon = strchr(text, ':');
		*colon = '\0';
		const char *name = text + 1;
		bool is_name = name[0] != '\0';

		for (const char *c = name; *c; c++)
			is_name &= isalnum((unsigned char)*c) || *c == '@';
		if (!is_name) {
			error_at(&rd, "'/%s' is no option name", name);
			continue;
		}
		option(&rd, name, trim(colon + 1));
	}
	free(text_all);
	/* Macros take the values the whole project sets, as at build time. */
	if (rd.output_dir_raw) {
		char *dir = expand(&rd, rd.output_dir_raw);

		if (dir) {
			normalise(dir);
			out->output_dir = dir[0] == '/' ? strdup(dir) : cli_path_join(rd.dir, dir, NULL);
			free(dir);
		}
		free(rd.output_dir_raw);
	}
	free(data);
	free(rd.dir);
	free(rd.processor);
	free(rd.config);
	if (rd.errors) {
		build_mgcb_release(out);
		return false;
	}
	return true;
}

void build_mgcb_release(build_mgcb *project)
{
	if (!project)
		return;
	for (size_t i = 0; i < project->count; i++) {
		free(project->items[i].source);
		free(project->items[i].dest);
		free(project->items[i].processor);
	}
	free(project->items);
	free(project->path);
	free(project->output_dir);
	memset(project, 0, sizeof *project);
}
