/*
 * docs_test.c - the documentation stays true: the generated files (the
 * manual docs/cli.md, the man page docs/animc.1, the bash completion) are
 * what animc generates now, the man page renders without a warning, the
 * completion completes, and every relative link of README.md and docs/
 * reaches a file (and a heading, for #anchors).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include <animc/animc.h>
#include <animc/animrt.h>

static const struct {
	const char *flag, *path;
} generated[] = {
	{ "--markdown", "docs/cli.md" },
	{ "--man", "docs/animc.1" },
	{ "--completion", "docs/animc.bash-completion" },
};

static void generated_docs_are_current(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof generated / sizeof generated[0]; i++) {
		test_run r = test_animc("help", generated[i].flag, NULL);
		size_t size;
		uint8_t *committed = test_read_file(generated[i].path, &size);

		assert_int_equal(r.status, 0);
		if (size != strlen(r.out) || memcmp(committed, r.out, size) != 0)
			fail_msg("%s is stale: run `make docs` (it writes `animc help %s > %s`) and "
				 "commit the result", generated[i].path, generated[i].flag, generated[i].path);
		free(committed);
		test_run_release(&r);
	}
}

static void man_page_renders_without_warnings(void **state)
{
	(void)state;
	if (access("/usr/bin/man", X_OK) != 0)
		skip();   /* `make test` installs man-db */
	setenv("MANWIDTH", "80", 1);
	test_run r = test_exec("man", "--warnings", "-l", "docs/animc.1", NULL);
	assert_int_equal(r.status, 0);
	if (r.err[0])
		fail_msg("man -l docs/animc.1 warns:\n%s", r.err);
	assert_non_null(strstr(r.out, "animc build"));
	assert_non_null(strstr(r.out, "--cache-min-size"));
	assert_non_null(strstr(r.out, "animc sample"));
	test_run_release(&r);
}

/* The man page fits an 80-column terminal: the DESCRIPTION and the
 * sections of the commands that own their help (watch, dump, sample,
 * batch, plot) were that help copied as no-fill text, which man indented
 * seven more columns: lines up to 106 wide, broken mid-word by the pager.
 * Nor does it hyphenate: a word broken at a line's end was an option's
 * name (--additive-refer- / ence). */
static void man_page_fits_80_columns(void **state)
{
	(void)state;
	if (access("/usr/bin/man", X_OK) != 0)
		skip();   /* `make test` installs man-db */
	setenv("MANWIDTH", "80", 1);
	/* Piped, man-db gives plain text, tabs expanded (col -b -p -x). */
	test_run r = test_exec("man", "-l", "docs/animc.1", NULL);
	size_t number = 0, wide = 0, broken = 0;

	assert_int_equal(r.status, 0);
	for (char *line = r.out; *line;) {
		char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		size_t columns = 0;

		number++;
		for (char *c = line; c < end; c++)
			columns += ((unsigned char)*c & 0xc0) != 0x80;   /* UTF-8: one a character */
		if (columns > 80 && wide++ < 5)
			fprintf(stderr, "line %zu, %zu columns: %.*s\n", number, columns, (int)(end - line), line);
		/* U+2010, the hyphen groff puts where it breaks a word. */
		if (end - line >= 3 && memcmp(end - 3, "\xe2\x80\x90", 3) == 0 && broken++ < 5)
			fprintf(stderr, "line %zu, a word broken: %.*s\n", number, (int)(end - line), line);
		line = nl ? nl + 1 : end;
	}
	assert_true(number > 500);
	assert_int_equal(wide, 0);
	assert_int_equal(broken, 0);
	/* Each option of those commands is a tagged paragraph of its own. */
	assert_non_null(strstr(r.out, "\n       --bone NAME\n"));
	test_run_release(&r);
}

/* The lines of `text` wider than 80 columns (UTF-8: a column a
 * character), the first few printed with `what`. */
static size_t wide_lines(const char *what, const char *text)
{
	size_t number = 0, wide = 0;

	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		size_t columns = 0;

		number++;
		for (const char *c = line; c < end; c++)
			columns += ((unsigned char)*c & 0xc0) != 0x80;
		if (columns > 80 && wide++ < 5)
			fprintf(stderr, "%s: line %zu, %zu columns: %.*s\n", what, number, columns, (int)(end - line),
				line);
		line = nl ? nl + 1 : end;
	}
	return wide;
}

/* Every help a terminal shows fits 80 columns: `animc help` (the command
 * list ran to 103: plot's summary), `animc help CMD` and `animc CMD
 * --help` of every command it lists (plot's and sample's ran to 99 and
 * 84, watch's to 81), and the usage an empty command line prints. */
static void terminal_help_fits_80_columns(void **state)
{
	test_run list = test_animc("help", NULL), r;
	size_t wide = 0, commands = 0;
	const char *p = strstr(list.out, "\ncommands:\n");

	(void)state;
	assert_int_equal(list.status, 0);
	assert_non_null(p);
	wide += wide_lines("animc help", list.out);
	/* The commands: "  NAME  ..." lines, until the blank line. */
	for (p += 11; p[0] == ' ' && p[1] == ' ';) {
		char name[32];
		const char *nl = strchr(p, '\n');

		if (p[2] != ' ' && sscanf(p, " %31s", name) == 1) {
			char *what = test_format("animc help %s", name), *flag = test_format("animc %s --help", name);

			commands++;
			r = test_animc("help", name, NULL);
			assert_int_equal(r.status, 0);
			wide += wide_lines(what, r.out);
			test_run_release(&r);
			r = test_animc(name, "--help", NULL);
			assert_int_equal(r.status, 0);
			wide += wide_lines(flag, r.out);
			test_run_release(&r);
			free(flag), free(what);
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	assert_true(commands >= 9);
	r = test_animc("--help", NULL);
	wide += wide_lines("animc --help", r.out);
	test_run_release(&r);
	r = test_animc(NULL);
	assert_int_equal(r.status, 2);
	wide += wide_lines("animc", r.err);
	test_run_release(&r);
	test_run_release(&list);
	assert_int_equal(wide, 0);
}

/* The completion, sourced into bash, run on a command line. */
static char *complete(const char *words, int cword)
{
	char *script = test_format(". docs/animc.bash-completion; COMP_WORDS=(%s); COMP_CWORD=%d; "
				   "_animc; printf '%%s\\n' \"${COMPREPLY[@]}\"", words, cword);
	test_run r = test_exec("bash", "-c", script, NULL);
	char *out;

	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	out = strdup(r.out);
	test_run_release(&r);
	free(script);
	return out;
}

/* outputs takes build's every option (one list serves both commands) and
 * completion offers each of them, with its values: it offered outputs'
 * own rows only, and `animc outputs --pr<TAB>` completed nothing. */
static void completion_of_outputs_offers_what_it_accepts(void **state)
{
	char *build = complete("animc build --", 2), *outputs = complete("animc outputs --", 2);
	char *values = complete("animc outputs --progress ''", 3);

	(void)state;
	for (char *line = build, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		char *want = test_format("\n%.*s\n", (int)(nl - line), line), *within = test_format("\n%s", outputs);

		if (!strstr(within, want))
			fail_msg("animc outputs takes %.*s, completion does not offer it:\n%s", (int)(nl - line), line,
				 outputs);
		free(within), free(want);
	}
	assert_string_equal(values, "auto\nalways\nnever\n");
	test_run r = test_animc("outputs", "-o", "build/test-tmp/docs-outputs", "--prune", "--progress", "never",
				"--cache-wait", "testdata/sample/Crane/Turn.Animation", NULL);
	assert_int_equal(r.status, 0);
	test_run_release(&r);
	free(values), free(outputs), free(build);
}

static void completion_completes_commands_options_and_values(void **state)
{
	char *out;

	(void)state;
	out = complete("animc ou", 1);
	assert_string_equal(out, "outputs\n");
	free(out);
	out = complete("animc build --cache-m", 2);
	assert_string_equal(out, "--cache-min-size\n");
	free(out);
	out = complete("animc build --layout ''", 3);
	assert_string_equal(out, "original\ncompact\n");
	free(out);
	out = complete("animc build --progress a", 3);
	assert_string_equal(out, "auto\nalways\n");
	free(out);
	/* clean takes no output options. */
	out = complete("animc clean --ex", 2);
	assert_string_equal(out, "\n");
	free(out);
	/* The other commands' options come from their help. */
	out = complete("animc sample --bl", 2);
	assert_string_equal(out, "--blend\n");
	free(out);
	/* watch takes build's options; values an argument lists complete. */
	out = complete("animc watch --lay", 2);
	assert_string_equal(out, "--layout\n");
	free(out);
	out = complete("animc build --up-axis ''", 3);
	assert_string_equal(out, "x\ny\nz\n");
	free(out);
	out = complete("animc plot --track t", 3);
	assert_string_equal(out, "translation\n");
	free(out);
	/* --opt=VALUE, which every command takes: bash splits the word at
	 * '=', and the value completed nothing (or file names). */
	out = complete("animc plot --track = r", 4);
	assert_string_equal(out, "rotation\n");
	free(out);
	out = complete("animc build --layout =", 3);
	assert_string_equal(out, "original\ncompact\n");
	free(out);
	out = complete("animc build --skeleton = testdata/mgcb/Con", 4);
	assert_string_equal(out, "testdata/mgcb/Content.mgcb\n");
	free(out);
	/* help takes one topic, --version among them; --help TOPIC too. */
	out = complete("animc help --v", 2);
	assert_string_equal(out, "--version\n");
	free(out);
	out = complete("animc help build ''", 3);
	assert_string_equal(out, "\n");
	free(out);
	out = complete("animc --help sa", 2);
	assert_string_equal(out, "sample\n");
	free(out);
	/* A file-valued option completes file names: --mgcb's PROJECT too. */
	const char *const file_takers[] = { "build", "outputs", "watch" };
	for (size_t i = 0; i < 3; i++) {
		char *words = test_format("animc %s --mgcb testdata/mgcb/Con", file_takers[i]);

		out = complete(words, 3);
		assert_string_equal(out, "testdata/mgcb/Content.mgcb\n");
		free(out);
		free(words);
	}
}

/* File and folder names with spaces complete as one candidate each: the
 * completion split them at the space ("Walk copy.xnb" offered as "Walk"
 * and "copy.xnb"), for inputs and file- and folder-valued options alike. */
static void completion_keeps_names_with_spaces_whole(void **state)
{
	char *dir = test_tmpdir("docs-completion-spaces"), *sub = test_format("%s/Walk art", dir);
	char *file = test_format("%s/Walk copy.xnb", dir), *script_path = realpath("docs/animc.bash-completion", NULL);
	static const struct {
		const char *words;
		int cword;
		const char *want;
	} cases[] = {
		{ "animc dump Walk\\ c", 2, "Walk copy.xnb\n" },
		{ "animc build --skeleton Walk\\ c", 3, "Walk copy.xnb\n" },
		{ "animc build -o Walk", 3, "Walk art\n" },
		{ "animc build -o out Walk", 4, "Walk art\nWalk copy.xnb\n" },
	};

	(void)state;
	assert_non_null(script_path);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_true(test_write_file(file, "", 0));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* COMP_WORDS as bash gives it: the word as typed, so cur is
		 * the name with its backslash taken away by the assignment. */
		char *script = test_format("cd '%s' && . '%s'; COMP_WORDS=(%s); COMP_CWORD=%d; _animc; "
					   "printf '%%s\\n' \"${COMPREPLY[@]}\" | sort",
					   dir, script_path, cases[i].words, cases[i].cword);
		test_run r = test_exec("bash", "-c", script, NULL);

		assert_int_equal(r.status, 0);
		if (strcmp(r.out, cases[i].want) != 0)
			fail_msg("%s: completed as\n%s", cases[i].words, r.out);
		test_run_release(&r);
		free(script);
	}
	free(script_path), free(file), free(sub), free(dir);
}

/* ----------------------------------------------------------------- links */

/* The anchor GitHub gives a heading: lower case, spaces to '-', only
 * letters, digits, '-' and '_' kept. */
static void heading_anchor(const char *heading, size_t len, char *out, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < size; i++) {
		unsigned char ch = (unsigned char)heading[i];

		if (isalnum(ch) || ch == '-' || ch == '_')
			out[n++] = (char)tolower(ch);
		else if (ch == ' ')
			out[n++] = '-';
	}
	out[n] = '\0';
}

static bool has_anchor(const char *path, const char *anchor)
{
	uint8_t *data = test_read_file(path, NULL);
	bool fenced = false, found = false;

	for (char *line = (char *)data; line && *line && !found;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (strncmp(line, "```", 3) == 0)
			fenced = !fenced;
		else if (!fenced && line[0] == '#') {
			char slug[256];
			size_t skip = strspn(line, "#");

			skip += strspn(line + skip, " ");
			heading_anchor(line + skip, len - skip, slug, sizeof slug);
			found = strcmp(slug, anchor) == 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(data);
	return found;
}

/* The broken relative links of a markdown file, one a line ("" when none). */
static char *broken_links(const char *path)
{
	uint8_t *data = test_read_file(path, NULL);
	char *broken = strdup("");
	bool fenced = false;
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path + 1) : 0;

	for (char *line = (char *)data; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (strncmp(line, "```", 3) == 0)
			fenced = !fenced;
		for (char *p = line; !fenced && (p = strstr(p, "](")) != NULL; p += 2) {
			char *end = strchr(p + 2, ')');
			char target[512], file[600], *hash;

			if (!end || end - (p + 2) >= (long)sizeof target)
				continue;
			memcpy(target, p + 2, (size_t)(end - (p + 2)));
			target[end - (p + 2)] = '\0';
			if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
				continue;
			hash = strchr(target, '#');
			if (hash)
				*hash++ = '\0';
			if (target[0])
				snprintf(file, sizeof file, "%.*s%s", dir_len, path, target);
			else
				snprintf(file, sizeof file, "%s", path);
			if (!test_file_exists(file) ||
			    (hash && strlen(file) > 3 && strcmp(file + strlen(file) - 3, ".md") == 0 &&
			     !has_anchor(file, hash))) {
				char *more = test_format("%s%s: (%s%s%s)\n", broken, path, target,
							 hash ? "#" : "", hash ? hash : "");

				free(broken);
				broken = more;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	free(data);
	return broken;
}

static void relative_links_reach_their_targets(void **state)
{
	char **docs = test_list_dir("docs", ".md");
	char *broken;

	(void)state;
	/* The checker finds a broken link and a missing heading. */
	char *dir = test_tmpdir("docs-links");
	char *bad = test_format("%s/bad.md", dir);
	const char *text = "# A title\n[ok](bad.md#a-title) [gone](missing.md) [no heading](#nowhere)\n"
			   "```\n[in code](not-checked.md)\n```\n";

	assert_true(test_write_file(bad, text, strlen(text)));
	broken = broken_links(bad);
	assert_non_null(strstr(broken, "(missing.md)"));
	assert_non_null(strstr(broken, "(#nowhere)"));
	assert_null(strstr(broken, "a-title"));
	assert_null(strstr(broken, "not-checked"));
	free(broken);

	broken = broken_links("README.md");
	if (broken[0])
		fail_msg("broken links:\n%s", broken);
	free(broken);
	assert_non_null(docs);
	for (char **d = docs; *d; d++) {
		char *path = test_format("docs/%s", *d);

		broken = broken_links(path);
		if (broken[0])
			fail_msg("broken links:\n%s", broken);
		free(broken);
		free(path);
	}
	test_free_list(docs);
	free(bad);
	free(dir);
}

/* The documents the help names (docs/build.md for the report, the man
 * page's SEE ALSO) are installed, at those paths under share/doc/animc:
 * `make test` stages an install in $ANIMC_BUILD/cmake-stage. */
static void an_install_holds_the_documents_the_help_names(void **state)
{
	static const char *const roots[] = { "docs/", "formats/", "lib/build/" };
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *docs = test_format("%s/cmake-stage/usr/share/doc/animc", build_dir);
	char *man = (char *)test_read_file("docs/animc.1", NULL);
	size_t checked = 0;
	struct stat st;

	(void)state;
	assert_non_null(man);
	if (stat(docs, &st) != 0)
		fail_msg("%s: not installed (make test runs make install DESTDIR=...)", docs);
	for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
		for (const char *p = strstr(man, roots[i]); p; p = strstr(p + 1, roots[i])) {
			size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./");

			while (len && p[len - 1] == '.')
				len--;
			if ((p > man && (isalnum((unsigned char)p[-1]) || p[-1] == '/')) ||
			    !((len > 3 && memcmp(p + len - 3, ".md", 3) == 0) ||
			      (len > 5 && memcmp(p + len - 5, ".json", 5) == 0)))
				continue;
			char *path = test_format("%s/%.*s", docs, (int)len, p);

			if (stat(path, &st) != 0)
				fail_msg("the help names %.*s, which an install does not hold (%s)", (int)len, p, path);
			checked++;
			free(path);
		}
	}
	assert_true(checked >= 5);
	free(man), free(docs);
}

/* The manual installed under share/doc/animc keeps the source tree's
 * layout, so that its relative links hold there too: docs/runtime.md's
 * link to animrt.h and docs/README.md's to the man page and the bash
 * completion led nowhere in an install, which held the pages alone. */
static void an_installed_manual_links_within_itself(void **state)
{
	const char *build_dir = getenv("ANIMC_BUILD") ? getenv("ANIMC_BUILD") : "build";
	char *docs = test_format("%s/cmake-stage/usr/share/doc/animc", build_dir);
	char *sub = test_format("%s/docs", docs), *readme = test_format("%s/README.md", docs);
	char *format = test_format("%s/formats/xnb/FORMAT.md", docs);
	char **pages = test_list_dir(sub, ".md"), *broken;
	size_t checked = 0;

	(void)state;
	if (!pages)
		fail_msg("%s: not installed (make test runs make install DESTDIR=...)", sub);
	for (int i = 0; i < 2; i++) {
		broken = broken_links(i ? format : readme);
		if (broken[0])
			fail_msg("links of the installed manual that lead nowhere:\n%s", broken);
		free(broken);
	}
	for (char **d = pages; *d; d++, checked++) {
		char *path = test_format("%s/%s", sub, *d);

		broken = broken_links(path);
		if (broken[0])
			fail_msg("links of the installed manual that lead nowhere:\n%s", broken);
		free(broken);
		free(path);
	}
	assert_true(checked >= 8);
	test_free_list(pages);
	free(format), free(readme), free(sub), free(docs);
}

/* docs/warnings.md gives every kind of warning (animc_warning_kinds) a
 * row, its name in the first column, and names no kind that is not one. */
/* An installed animc has its man page, not docs/: the page lists every
 * kind, and bash completes --allow with them. */
static void the_man_page_and_completion_know_every_kind(void **state)
{
	char *man = (char *)test_read_file("docs/animc.1", NULL);
	char *completion = (char *)test_read_file("docs/animc.bash-completion", NULL);
	const char *section, *allow;

	(void)state;
	assert_non_null(man);
	assert_non_null(completion);
	section = strstr(man, ".SH WARNING KINDS\n");
	allow = strstr(completion, "--allow)\n\t\t\tCOMPREPLY=($(compgen -W '");
	assert_non_null(section);
	assert_non_null(allow);
	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT; k++) {
		const char *name = animc_warning_kind_at((animc_warning_kind)k)->name;
		char *entry = test_format(".TP\n.B %s\n", name), *word = test_format(" %s ", name);
		const char *end = strstr(allow, "' --");

		/* Names are written as the page escapes them: '-' as "\-". */
		char *escaped = malloc(2 * strlen(entry) + 1), *q = escaped;
		for (const char *p = entry; *p; p++) {
			if (*p == '-' && p > entry + 7)
				*q++ = '\\';
			*q++ = *p;
		}
		*q = '\0';
		if (!strstr(section, escaped))
			fail_msg("the man page's WARNING KINDS has no entry for '%s'", name);
		const char *words = allow + strlen("--allow)\n\t\t\tCOMPREPLY=($(compgen -W '");
		char *list = test_format(" %.*s ", (int)(end - words), words);

		if (!strstr(list, word))
			fail_msg("bash completion of --allow has no '%s'", name);
		free(list), free(escaped), free(word), free(entry);
	}
	free(completion);
	free(man);
}

/* runtime.md gives the size of a context sized by its clips, header
 * included: a game that allocates by the manual gets what
 * animrt_context_init_for writes (the manual left out the 128-byte
 * header). */
static void the_runtime_doc_gives_the_context_size(void **state)
{
	char *doc = (char *)test_read_file("docs/runtime.md", NULL), *flat, *q;
	const char *at;
	unsigned header, per_bone, per_track;

	(void)state;
	assert_non_null(doc);
	flat = malloc(strlen(doc) + 1);
	assert_non_null(flat);
	q = flat;
	for (const char *p = doc; *p; p++)   /* lines joined */
		if (!(isspace((unsigned char)*p) && q > flat && q[-1] == ' '))
			*q++ = isspace((unsigned char)*p) ? ' ' : *p;
	*q = '\0';
	at = strstr(flat, "`ANIMRT_CONTEXT_HEADER_BYTES`, ");
	if (!at || sscanf(at, "`ANIMRT_CONTEXT_HEADER_BYTES`, %u, then %u bytes a bone and %u an animated track",
			  &header, &per_bone, &per_track) != 3)
		fail_msg("runtime.md does not give the context size as "
			 "\"`ANIMRT_CONTEXT_HEADER_BYTES`, H, then B bytes a bone and T an animated track\"");
	assert_int_equal(header, ANIMRT_CONTEXT_HEADER_BYTES);
	for (uint32_t bones = 0; bones <= 256; bones = bones ? bones * 4 : 1)
		for (uint32_t tracks = 0; tracks <= 3 * bones + 1; tracks += bones ? bones : 1) {
			size_t doc_size = (header + per_bone * bones + per_track * tracks + 15) / 16 * 16;

			if (animrt_context_size_bytes_for(bones, tracks) != doc_size)
				fail_msg("%u bones, %u tracks: runtime.md gives %zu bytes, "
					 "animrt_context_size_bytes_for %zu", bones, tracks, doc_size,
					 animrt_context_size_bytes_for(bones, tracks));
		}
	free(flat);
	free(doc);
}

/* Every fuzz target has the seed folder HACKING.md names
 * (testdata/fuzz/NAME/, which scripts/fuzz-run reads), and make test
 * replays it. */
static void every_fuzz_target_has_its_seeds_replayed(void **state)
{
	char *replay = (char *)test_read_file("cmd/tests/fuzz_replay_test.c", NULL);
	char *hacking = (char *)test_read_file("docs/HACKING.md", NULL);
	const char *const patterns[] = { "formats/*/fuzz_*.c", "lib/*/fuzz_*.c", "lib/*/*/fuzz_*.c" };
	size_t targets = 0;

	(void)state;
	assert_non_null(replay);
	assert_non_null(hacking);
	assert_non_null(strstr(hacking, "seeds in `testdata/fuzz/NAME/`"));
	for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
		glob_t g;

		if (glob(patterns[p], 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *base = strrchr(g.gl_pathv[i], '/') + 1 + strlen("fuzz_");
			char *name = test_format("%.*s", (int)(strlen(base) - 2), base);
			char *folder = test_format("testdata/fuzz/%s", name), *call = test_format("\"%s\"", folder);

			if (test_count_files(folder) < 1)
				fail_msg("%s: no seeds in %s/", g.gl_pathv[i], folder);
			if (!strstr(replay, call))
				fail_msg("%s: cmd/tests/fuzz_replay_test.c does not replay %s/", g.gl_pathv[i], folder);
			targets++;
			free(call), free(folder), free(name);
		}
		globfree(&g);
	}
	assert_true(targets >= 9);
	free(hacking);
	free(replay);
}

/* The fuzz objects are compiled again when what they are compiled with
 * changes (FUZZ_FLAGS, FUZZ_CC, an include path), as the other builds'
 * objects are: an object of other flags was kept, and linked with the
 * others.  Here a stand-in compiler logs each call into a build folder of
 * the test's; run twice with the same flags, then with others. */
static void fuzz_objects_are_compiled_again_when_their_flags_change(void **state)
{
	char *dir = test_tmpdir("fuzz-flags"), *cc = test_format("%s/cc", dir), *log = test_format("%s/log", dir);
	char *obj = test_format("%s/b/fuzz/obj/lib/animrt/error.o", dir);
	const char *const flags[] = { "", "", "FUZZ_FLAGS=-O0" };
	const size_t calls[] = { 1, 1, 2 };
	char *text;

	(void)state;
	test_sh("printf '#!/bin/sh\\necho \"$*\" >> %s\\nwhile [ $# -gt 1 ]; do [ \"$1\" = -o ] && : > \"$2\"; "
		"shift; done\\n' > '%s' && chmod +x '%s'", log, cc, cc);
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		size_t n = 0;

		test_sh("env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u SANITIZE -u BUILD "
			"make -s BUILD='%s/b' FUZZ_CC='%s' %s '%s' > /dev/null", dir, cc, flags[i], obj);
		text = (char *)test_read_file(log, NULL);
		for (const char *at = text; at && (at = strchr(at, '\n')); at++)
			n++;
		if (n != calls[i])
			fail_msg("run %zu (%s): %zu compiles, not %zu:\n%s", i + 1, flags[i], n, calls[i], text);
		free(text);
	}
	free(obj), free(log), free(cc), free(dir);
}

/* The runtime with the plain C lanes (-DANIMRT_NO_SIMD, as scripts/check-simd
 * builds it) compiles under WERROR=1 on x86-64 too: nothing the vector
 * samplers alone use is left unused. */
static void the_runtime_builds_without_simd_under_werror(void **state)
{
	char *dir = test_tmpdir("no-simd");

	(void)state;
	test_sh("env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL -u SANITIZE -u BUILD "
		"make -s BUILD='%s/b' OPT=-O0 HOT_OPT= CFLAGS=-DANIMRT_NO_SIMD WERROR=1 '%s/b/libanimrt.a' > /dev/null",
		dir, dir);
	free(dir);
}

static void warnings_doc_lists_every_kind(void **state)
{
	char *doc = (char *)test_read_file("docs/warnings.md", NULL);

	(void)state;
	assert_non_null(doc);
	for (int k = ANIMC_WARN_NONE + 1; k < ANIMC_WARN_KIND_COUNT; k++) {
		const animc_warning_kind_info *info = animc_warning_kind_at((animc_warning_kind)k);
		char *row = test_format("\n| `%s` |", info->name);

		assert_non_null(info);
		if (!strstr(doc, row))
			fail_msg("docs/warnings.md has no row for the warning kind '%s' (%s)", info->name,
				 info->description);
		free(row);
	}
	for (const char *p = doc; (p = strstr(p, "\n| `")); p++) {
		const char *name = p + 4, *end = strchr(name, '`');
		char *word = strndup(name, (size_t)(end - name));

		/* The kind tables' first column; the notes table's is a message. */
		if (!strchr(word, ' ') && animc_warning_kind_find(word) == ANIMC_WARN_NONE)
			fail_msg("docs/warnings.md names '%s', which is no kind of warning", word);
		free(word);
	}
	free(doc);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(generated_docs_are_current),
	cmocka_unit_test(man_page_renders_without_warnings),
	cmocka_unit_test(man_page_fits_80_columns),
	cmocka_unit_test(terminal_help_fits_80_columns),
	cmocka_unit_test(completion_completes_commands_options_and_values),
	cmocka_unit_test(completion_of_outputs_offers_what_it_accepts),
	cmocka_unit_test(completion_keeps_names_with_spaces_whole),
	cmocka_unit_test(relative_links_reach_their_targets),
	cmocka_unit_test(warnings_doc_lists_every_kind),
	cmocka_unit_test(the_man_page_and_completion_know_every_kind),
	cmocka_unit_test(an_install_holds_the_documents_the_help_names),
	cmocka_unit_test(an_installed_manual_links_within_itself),
	cmocka_unit_test(the_runtime_doc_gives_the_context_size),
	cmocka_unit_test(every_fuzz_target_has_its_seeds_replayed),
	cmocka_unit_test(fuzz_objects_are_compiled_again_when_their_flags_change),
	cmocka_unit_test(the_runtime_builds_without_simd_under_werror),
};

ANIMC_TEST_GROUP(tests);
