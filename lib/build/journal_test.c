/*
 * journal_test.c - the journal of outputs: records read back as written,
 * a last line cut short at any byte ignored without a word, paths outside
 * OUTDIR refused with a warning, and leftovers folded into the manifest
 * once each.  The kill itself is cmd/tests/build_test.c's.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "build.h"

/* A status sink that keeps the diagnostics said, one line each. */
typedef struct said {
	build_status_sink base;   /* first */
	char lines[4096];
	unsigned count;
} said;

static void said_diag(build_status_sink *s, const animc_diag *d)
{
	said *w = (said *)s;
	size_t n = strlen(w->lines);

	snprintf(w->lines + n, sizeof w->lines - n, "%s:%u: %s: %s\n", d->path, d->line,
		 d->severity == ANIMC_ERROR ? "error" : "warning", d->message);
	w->count++;
}

static const build_status_ops said_ops = { .diag = said_diag };

typedef struct fixture {
	build_ctx ctx;
	said said;
	char *out, *manifest;
} fixture;

static void fixture_init(fixture *f, const char *name)
{
	char *state;

	memset(f, 0, sizeof *f);
	f->said.base.ops = &said_ops;
	f->ctx.status = &f->said.base;
	f->out = test_tmpdir(name);
	f->manifest = test_format("%s/.animc/manifest", f->out);
	state = test_format("%s/.animc", f->out);
	assert_int_equal(mkdir(state, 0777), 0);
	free(state);
}

static void fixture_release(fixture *f)
{
	free(f->out);
	free(f->manifest);
}

/* The record of an output at `path` holding `bytes` (release it). */
static manifest_output output_named(const char *path, const char *bytes)
{
	manifest_output o = { 0 };

	o.path = strdup(path);
	o.clip = strdup("");
	assert_true(o.path && o.clip);
	o.size = strlen(bytes);
	build_hash_bytes(bytes, strlen(bytes), &o.hash);
	o.bones = 3;
	o.keys = 7;
	o.duration_s = 1.5f;
	return o;
}

static void add(build_journal *j, const char *path, const char *bytes)
{
	manifest_output o = output_named(path, bytes);
	cli_error err;

	assert_true(build_journal_add(j, &o, &err));
	manifest_output_release(&o);
}

/* The one journal file under OUTDIR/.animc (NULL: none). */
static char *journal_file(const char *out)
{
	char *state = test_format("%s/.animc", out);
	DIR *d = opendir(state);
	struct dirent *e;
	char *found = NULL;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, JOURNAL_PREFIX, strlen(JOURNAL_PREFIX)) == 0) {
			assert_null(found);
			found = test_format("%s/%s", state, e->d_name);
		}
	closedir(d);
	free(state);
	return found;
}

static void records_read_back_and_a_cut_last_line_is_no_record(void **state)
{
	fixture f;
	build_journal j;
	const char *paths[] = { "Crane/Idle.xnb", "Crane/Turn.xnb", "Wave\tTab.xnb" };
	size_t size, lines = 0, newlines_before = 0;
	manifest m = { 0 };
	char *path;
	uint8_t *data;

	(void)state;
	fixture_init(&f, "journal-cut");
	assert_true(build_journal_init(&j, f.out));
	assert_null(journal_file(f.out));   /* none until the first record */
	for (size_t i = 0; i < 3; i++)
		add(&j, paths[i], paths[i]);
	path = strdup(j.path);
	data = test_read_file(path, &size);
	/* Killed here: the file stays, naming all three. */
	build_journal_close(&j);
	assert_true(test_file_exists(path));
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	assert_int_equal(lines, 4);   /* the header and three records */
	/* Cut at every byte, as a kill mid-write would: the complete lines
	 * are records, the rest is nothing, and nothing is said. */
	for (size_t cut = 0; cut <= size; cut++) {
		size_t complete = newlines_before ? newlines_before - 1 : 0;

		assert_true(build_journal_parse(&f.ctx, path, (const char *)data, cut, &m));
		assert_int_equal(m.orphan_count, complete);
		for (size_t i = 0; i < m.orphan_count; i++) {
			manifest_output want = output_named(paths[i], paths[i]);

			assert_string_equal(m.orphans[i].path, paths[i]);
			assert_true(build_hash_equal(&m.orphans[i].hash, &want.hash));
			assert_int_equal(m.orphans[i].size, want.size);
			assert_int_equal(m.orphans[i].keys, 7);
			manifest_output_release(&want);
		}
		manifest_release(&m);
		if (cut < size)
			newlines_before += data[cut] == '\n';
	}
	assert_int_equal(f.said.count, 0);
	/* A record damaged whole (not cut short) is said, with its line. */
	data[size - 3] ^= 1;
	assert_true(build_journal_parse(&f.ctx, "J", (const char *)data, size, &m));
	assert_int_equal(m.orphan_count, 2);
	assert_string_equal(f.said.lines, "J:4: warning: damaged; ignored\n");
	manifest_release(&m);
	free(data);
	unlink(path);
	free(path);
	/* Emptied once a manifest holds its records, it goes at the end. */
	assert_true(build_journal_init(&j, f.out));
	add(&j, "a.xnb", "a");
	path = strdup(j.path);
	build_journal_clear(&j);
	build_journal_close(&j);
	assert_false(test_file_exists(path));
	free(path);
	fixture_release(&f);
}

static void a_path_outside_the_folder_is_refused_and_said(void **state)
{
	fixture f;
	build_journal j;
	const char *outside[] = { "../up.xnb", "/abs.xnb", "a/../../up.xnb", "a/..", ".." };
	const char *inside[] = { "a..b/c.xnb", "..x.xnb", "a/b../c.xnb" };
	cli_strings files = { 0 };
	manifest m = { 0 };
	char *want;

	(void)state;
	fixture_init(&f, "journal-outside");
	assert_true(build_journal_init(&j, f.out));
	for (size_t i = 0; i < 5; i++) {
		add(&j, outside[i], "x");
		if (i < 3)
			add(&j, inside[i], "y");
	}
	build_journal_close(&j);
	assert_true(build_journal_read_all(&f.ctx, f.out, &m, &files, NULL, NULL));
	assert_int_equal(files.count, 1);
	assert_int_equal(m.orphan_count, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(m.orphans[i].path, inside[i]);
	assert_int_equal(f.said.count, 5);
	want = test_format("%s:2: warning: names '../up.xnb', which is not under the output folder; "
			   "ignored\n", files.items[0]);
	assert_non_null(strstr(f.said.lines, want));
	assert_non_null(strstr(f.said.lines, ":4: warning: names '/abs.xnb'"));
	assert_non_null(strstr(f.said.lines, ":8: warning: names 'a/..'"));
	free(want);
	manifest_release(&m);
	cli_strings_release(&files);
	fixture_release(&f);
}

/* A damaged record is refused, each field at its edge: a number past
 * 64 bits, an mtime past int64_t, a twelfth field that is not the
 * root-motion mark, a \x00 escape (no name holds a NUL).  The edges
 * themselves are read. */
static void damaged_records_are_refused_at_each_edge(void **state)
{
	static const struct {
		const char *clip, *size, *mtime, *extra;
		manifest_record_status want;
	} cases[] = {
		{ "walk", "8", "5", "", MANIFEST_RECORD_OK },
		{ "walk", "8", "5", "\troot-motion", MANIFEST_RECORD_OK },
		{ "walk", "18446744073709551615", "5", "", MANIFEST_RECORD_OK },
		{ "walk", "18446744073709551616", "5", "", MANIFEST_RECORD_BAD },
		{ "walk", "99999999999999999999", "5", "", MANIFEST_RECORD_BAD },
		{ "walk", "8", "9223372036854775807", "", MANIFEST_RECORD_OK },
		{ "walk", "8", "9223372036854775808", "", MANIFEST_RECORD_BAD },
		{ "walk", "8", "5", "\troot-motions", MANIFEST_RECORD_BAD },
		{ "walk", "8", "5", "\tclip", MANIFEST_RECORD_BAD },
		{ "w\\x41lk", "8", "5", "", MANIFEST_RECORD_OK },
		{ "w\\x00lk", "8", "5", "", MANIFEST_RECORD_BAD },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *line = test_format("output\tWalk.xnb\t%s\t%s\t00112233445566778899aabbccddeeff\t%s\t1\t2\t3\t7\t1.5%s",
					 cases[i].clip, cases[i].size, cases[i].mtime, cases[i].extra);
		manifest_output o;
		manifest_record_status got = manifest_output_parse(line, "output", &o);

		if (got != cases[i].want)
			fail_msg("case %zu: status %d, not %d", i, (int)got, (int)cases[i].want);
		if (got == MANIFEST_RECORD_OK) {
			assert_string_equal(o.path, "Walk.xnb");
			assert_string_equal(o.clip, i == 9 ? "wAlk" : "walk");
			assert_int_equal(o.is_motion, i == 1);
			manifest_output_release(&o);
		}
		free(line);
	}
}

/* Leftover journals become orphans of the manifest, once each, and go. */
static void leftovers_are_folded_into_the_manifest_once(void **state)
{
	fixture f;
	build_journal j;
	manifest m = { 0 }, back;
	manifest_entry e = { 0 };
	manifest_output walk = output_named("Walk.xnb", "new walk");
	cli_error err;
	char *left;

	(void)state;
	fixture_init(&f, "journal-fold");
	/* Killed before any manifest: the records alone make one. */
	assert_true(build_journal_init(&j, f.out));
	add(&j, "Run.xnb", "run");
	build_journal_close(&j);
	build_journal_fold(&f.ctx, f.out);
	assert_int_equal(manifest_load(&back, f.manifest, &err), MANIFEST_LOADED);
	assert_int_equal(back.orphan_count, 1);
	assert_string_equal(back.orphans[0].path, "Run.xnb");
	assert_null(journal_file(f.out));
	manifest_release(&back);
	/* A manifest recording Walk.xnb; two killed runs wrote it anew, and
	 * Jump.xnb, and each the Walk.xnb the manifest has. */
	e.source = strdup("Walk.Animation");
	e.out_base = strdup("Walk");
	e.status = BUILD_COMPILED;
	e.outputs = calloc(1, sizeof *e.outputs);
	assert_true(e.source && e.out_base && e.outputs);
	e.outputs[0] = output_named("Walk.xnb", "old walk");
	e.output_count = 1;
	assert_non_null(manifest_add(&m, &e));
	assert_true(manifest_save(&m, f.manifest, NULL, &err));
	manifest_release(&m);
	for (int run = 0; run < 2; run++) {
		assert_true(build_journal_init(&j, f.out));
		add(&j, "Walk.xnb", "new walk");
		add(&j, "Jump.xnb", "jump");
		add(&j, "Walk.xnb", "old walk");
		build_journal_close(&j);
	}
	build_journal_fold(&f.ctx, f.out);
	assert_int_equal(manifest_load(&back, f.manifest, &err), MANIFEST_LOADED);
	assert_int_equal(back.count, 1);
	assert_int_equal(back.entries[0].output_count, 1);
	assert_int_equal(back.orphan_count, 2);
	assert_string_equal(back.orphans[0].path, "Jump.xnb");
	assert_string_equal(back.orphans[1].path, "Walk.xnb");
	assert_true(build_hash_equal(&back.orphans[1].hash, &walk.hash));
	assert_null(journal_file(f.out));
	assert_int_equal(f.said.count, 0);
	manifest_release(&back);
	/* A manifest that cannot be read: the journal stays for later. */
	assert_true(test_write_file(f.manifest, "animc-manifest 1\nx", 18));
	assert_true(build_journal_init(&j, f.out));
	add(&j, "Walk.xnb", "new walk");
	build_journal_close(&j);
	build_journal_fold(&f.ctx, f.out);
	left = journal_file(f.out);
	assert_non_null(left);
	free(left);
	manifest_output_release(&walk);
	fixture_release(&f);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(records_read_back_and_a_cut_last_line_is_no_record),
	cmocka_unit_test(a_path_outside_the_folder_is_refused_and_said),
	cmocka_unit_test(damaged_records_are_refused_at_each_edge),
	cmocka_unit_test(leftovers_are_folded_into_the_manifest_once),
};

ANIMC_TEST_GROUP(tests);
