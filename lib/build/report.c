/*
 * report.c - the files a build writes for tools, made from the results:
 * the JSON report (schema version 1, lib/build/report.schema.json), JUnit
 * XML and make/ninja depfiles, and the totals the summary counts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "engine.h"

bool build_reproducible(void)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");

	return epoch && epoch[0];
}

bool build_diag_is_allowed(const build_options *o, const build_diag *d)
{
	return d->severity == ANIMC_WARNING && d->kind && build_options_allows(o, d->kind);
}

unsigned build_result_warnings_said(const build_options *o, const build_result *r)
{
	unsigned allowed = 0;

	for (uint32_t i = 0; i < r->diag_count; i++)
		allowed += build_diag_is_allowed(o, &r->diags[i]);
	return r->warnings > allowed ? r->warnings - allowed : 0;
}

void build_totals_count(const build_ctx *ctx, build_totals *t)
{
	const build_plan *plan = &ctx->plan;

	memset(t, 0, sizeof *t);
	if (ctx->status) {
		t->run_warnings = t->warnings = ctx->status->run_warnings;
		for (size_t i = 0; i < ctx->status->said.count; i++)
			t->run_errors += ctx->status->said.items[i].severity == ANIMC_ERROR;
	}
	for (size_t i = 0; i < plan->count; i++) {
		const build_result *r = &plan->jobs[i].result;

		t->sources++;
		t->warnings += build_result_warnings_said(ctx->options, r);
		t->errors += r->errors;
		switch (r->status) {
		case BUILD_COMPILED: t->compiled++; break;
		case BUILD_UP_TO_DATE: t->up_to_date++; break;
		case BUILD_SKIPPED: t->skipped++; break;
		case BUILD_CACHED: t->cached++; break;
		default: t->failed++; break;
		}
		for (uint32_t k = 0; k < r->output_count; k++)
			if (r->outputs[k].is_written) {
				if (r->status != BUILD_UP_TO_DATE)
					t->clips++;
				if (r->status == BUILD_CACHED)
					t->cached_clips++;
				t->output_bytes += r->outputs[k].size;
			}
	}
}

/* ------------------------------------------------------------------- JSON */

/* A JSON string: control characters escaped, bytes that are not UTF-8
 * written as U+FFFD (JSON text is UTF-8). */
static const char *const severity_names[] = { "note", "warning", "error" };

static bool finish_file(FILE *f, int why, const char *tmp, const char *path, cli_error *err)
{
	bool ok;

	/* The reason (a full disk): `why`, a failed write's the caller kept
	 * (a write too large to buffer fails at once, and leaves nothing for
	 * fflush), else fflush's, which writes again what a failed write left
	 * buffered. */
	if (fflush(f) != 0 && !why)
		why = errno;
	ok = !ferror(f) && !why;
	if (fclose(f) != 0) {
		why = why ? why : errno;
		ok = false;
	}
	if (ok && tmp && rename(tmp, path) != 0) {
		why = errno;
		ok = false;
	}
	if (!ok) {
		if (why)
			cli_error_set(err, "cannot write '%s': %s", path, strerror(why));
		else
			cli_error_set(err, "cannot write '%s'", path);
		if (tmp)
			unlink(tmp);
	}
	return ok;
}

/* A report file, written beside its place and renamed there; "-", the
 * standard output the command set aside (options.h). */
static FILE *open_report(const build_ctx *ctx, const char *path, char **tmp, cli_error *err)
{
	FILE *f;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0) {
		*tmp = NULL;
		fd = ctx->options->report_stdout_fd;
		f = fd < 0 ? NULL : fdopen(dup(fd), "w");
		if (!f)
			cli_error_set(err, "cannot write to the standard output: %s",
				      fd < 0 ? "this command gives reports none" : strerror(errno));
		return f;
	}
	/* A path that is no regular file (/dev/stdout, a FIFO a CI step
	 * reads) is written as it is: renamed over, it would be replaced by
	 * a file (as root, /dev/full itself). */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		*tmp = NULL;
		f = S_ISDIR(st.st_mode) ? NULL : fopen(path, "w");
		if (!f)
			cli_error_set(err, "cannot write '%s': %s", path,
				      S_ISDIR(st.st_mode) ? "it is a folder" : strerror(errno));
		return f;
	}
	*tmp = malloc(strlen(path) + 16);
	if (!*tmp) {
		cli_error_set(err, "out of memory");
		return NULL;
	}
	sprintf(*tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(*tmp, "w");
	if (!f) {
		cli_error_set(err, "cannot write '%s': %s", path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

/* The run's own warnings and errors (the cache's, the manifest's, a
 * project's), which no source has: "run_diagnostics". */
/* A source's diagnostics, those of kinds --allow names left out.  One
 * that lies in another file than the source (a project's /build: line:
 * the source cannot be opened, another item writes its output) has that
 * file as "path" and its line as "line", as run_diagnostics have; the
 * message is the one JUnit and the terminal give. */
static void json_diagnostics(FILE *f, const build_ctx *ctx, const build_job *j)
{
	const build_result *r = &j->result;
	uint32_t listed = 0;

	fputs(",\n     \"diagnostics\": [", f);
	for (uint32_t k = 0; k < r->diag_count; k++) {
		const build_diag *d = &r->diags[k];

		if (build_diag_is_allowed(ctx->options, d))
			continue;
		animc_diag said = build_job_diag(j, d);

		fprintf(f, "%s\n       {\"severity\": \"%s\", ", listed++ ? "," : "", severity_names[d->severity]);
		if (said.path != j->path) {
			fputs("\"path\": ", f);
			json_string(f, said.path);
			fputs(", ", f);
		}
		fputs("\"message\": ", f);
		json_string(f, d->message);
		fprintf(f, ", \"line\": %u, \"column\": %u", said.line, said.column);
		if (d->kind)
			fprintf(f, ", \"kind\": \"%s\"", d->kind);
		fputc('}', f);
	}
	fputs(listed ? "\n     ]" : "]", f);
}

static void json_run_diagnostics(FILE *f, const build_ctx *ctx)
{
	const build_said_list *said = ctx->status ? &ctx->status->said : NULL;

	fputs(",\n  \"run_diagnostics\": [", f);
	for (size_t i = 0; said && i < said->count; i++) {
		const build_said *s = &said->items[i];

		fprintf(f, "%s\n    {\"severity\": \"%s\", \"path\": ", i ? "," : "", severity_names[s->severity]);
		if (s->subject)
			json_string(f, s->subject);
		else
			fputs("null", f);
		fputs(", \"message\": ", f);
		json_string(f, s->message);
		fprintf(f, ", \"line\": %u", s->line);
		if (s->kind)
			fprintf(f, ", \"kind\": \"%s\"", s->kind);
		fputc('}', f);
	}
	fputs(said && said->count ? "\n  ]" : "]", f);
}

/* Where a job's outputs go, OUTDIR/<mirrored folder>/<stem>: the one
 * output is it with .xnb, a source of named clips writes into it.  With
 * the source's path, it tells apart one source built to two places (a
 * project's item twice, a folder and a file in it). */
static char *destination(const build_ctx *ctx, const build_job *j)
{
	return cli_path_join(ctx->options->out_dir, j->out_base, NULL);
}

static void json_destination(FILE *f, const build_ctx *ctx, const build_job *j)
{
	char *dest = destination(ctx, j);

	json_string(f, dest ? dest : j->out_base);
	free(dest);
}

bool build_report_json(const build_ctx *ctx, const char *path, cli_error *err)
{
	const build_plan *plan = &ctx->plan;
	bool times = !build_reproducible();
	build_totals t;
	char *tmp;
	FILE *f = open_report(ctx, path, &tmp, err);
	bool ok;

	if (!f)
		return false;
	build_totals_count(ctx, &t);
	fprintf(f, "{\n  \"version\": 1,\n  \"tool\": \"%s\",\n", build_tool_name());
	if (ctx->options->shard.count)
		fprintf(f, "  \"shard\": {\"index\": %u, \"count\": %u},\n", ctx->options->shard.index,
			ctx->options->shard.count);
	fputs("  \"sources\": [", f);
	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];
		const build_result *r = &j->result;
		bool first = true;

		fprintf(f, "%s\n    {\"path\": ", i ? "," : "");
		json_string(f, j->path);
		fputs(", \"importer\": ", f);
		if (r->importer[0])
			json_string(f, r->importer);
		else
			fputs("null", f);
		fputs(", \"destination\": ", f);
		json_destination(f, ctx, j);
		fprintf(f, ", \"status\": \"%s\", \"reason\": ", build_status_name(r->status));
		if (r->status == BUILD_SKIPPED && r->skip_reason)
			json_string(f, r->skip_reason);
		else
			fputs("null", f);
		if (r->output_count) {
			char *split_by = build_author_split_by(&ctx->options->author, j->path, j->is_explicit);

			if (split_by) {
				fputs(", \"split_by\": ", f);
				json_string(f, split_by);
				free(split_by);
			}
		}
		fputs(",\n     \"outputs\": [", f);
		for (uint32_t k = 0; k < r->output_count; k++) {
			const build_output *o = &r->outputs[k];
			char *out_path, hex[33];

			if (!o->is_written)
				continue;
			out_path = build_output_path(ctx, j, o);
			build_hash_hex(&o->hash, hex);
			fprintf(f, "%s\n       {\"path\": ", first ? "" : ",");
			json_string(f, out_path ? out_path : o->name);
			fprintf(f, ", \"bytes\": %llu, \"clip\": ", (unsigned long long)o->size);
			json_string(f, o->clip);
			fprintf(f, ", \"bones\": %u, \"keys\": %llu, \"duration_s\": ", o->bones,
				(unsigned long long)o->keys);
			json_float(f, o->duration_s);
			fprintf(f, ", \"xxh3_128\": \"%s\"", hex);
			if (o->is_motion) {
				fputs(", \"root_motion\": {\"bone\": ", f);
				json_string(f, ctx->options->author.root_bone);
				fprintf(f, ", \"yaw\": %s}", ctx->options->author.root_yaw ? "true" : "false");
			} else if (build_author_additive_name(&ctx->options->author)) {
				fputs(", \"additive_reference\": ", f);
				json_string(f, build_author_additive_name(&ctx->options->author));
			}
			if (o->passes.compact_declined)
				fputs(", \"compact_declined\": true", f);
			if (o->passes.is_reduced) {
				const animc_clip_error *e = &o->passes.error;

				fprintf(f, ", \"error\": {\"translation\": %.9g, \"rotation_deg\": %.9g, "
					   "\"scale\": %.9g, \"shell\": %.9g, \"keys_before\": %llu, "
					   "\"keys_after\": %llu",
					e->translation, e->rotation_deg, e->scale, e->shell,
					(unsigned long long)e->keys_before, (unsigned long long)e->keys_after);
				if (e->sequences_lossless + e->sequences_coarser + e->sequences_resampled +
				    e->sequences_timed)
					fprintf(f, ", \"sequences\": {\"lossless\": %u, \"coarser\": %u, "
						   "\"resampled\": %u, \"timed\": %u}",
						e->sequences_lossless, e->sequences_coarser, e->sequences_resampled,
						e->sequences_timed);
				if (e->tracks_identity + e->tracks_constant + e->tracks_keyed + e->tracks_segmented)
					fprintf(f, ", \"compact\": {\"identity\": %u, \"constant\": %u, \"keyed\": %u, "
						   "\"segmented\": %u, \"grid_finer\": %u}",
						e->tracks_identity, e->tracks_constant, e->tracks_keyed, e->tracks_segmented,
						e->grid_finer);
				fputc('}', f);
			}
			fputc('}', f);
			free(out_path);
			first = false;
		}
		fputs(first ? "]" : "\n     ]", f);
		json_diagnostics(f, ctx, j);
		fprintf(f, ",\n     \"time_s\": %.6f}", times ? r->time_s : 0.0);
	}
	fputs(plan->count ? "\n  ]" : "]", f);
	json_run_diagnostics(f, ctx);
	fprintf(f, ",\n  \"totals\": {\"sources\": %u, \"compiled\": %u, \"up_to_date\": %u, "
		"\"cached\": %u, \"skipped\": %u, \"failed\": %u, \"clips\": %u, \"warnings\": %u, "
		"\"run_warnings\": %u, \"errors\": %u, \"run_errors\": %u, \"bytes\": %llu}\n}\n",
		t.sources, t.compiled, t.up_to_date, t.cached, t.skipped, t.failed,
		t.clips, t.warnings, t.run_warnings, t.errors, t.run_errors, (unsigned long long)t.output_bytes);
	ok = finish_file(f, 0, tmp, path, err);
	free(tmp);
	return ok;
}

/* ------------------------------------------------------------------ JUnit */

/* XML character data: markup escaped; what XML 1.0 cannot hold (control
 * characters, bytes that are not UTF-8, U+FFFE and U+FFFF) written as
 * text (\xHH, U+FFFD, \uFFFE). */
static void xml_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t len, bad;

		if (*p >= 0x80) {
			len = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
			if (len == 1 || strnlen((const char *)p, len) < len ||
			    !animc_utf8_check((const char *)p, len, &bad)) {
				fputs("\xEF\xBF\xBD", out);
				p++;
			} else if (len == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) {
				/* U+FFFE and U+FFFF: no XML 1.0 character. */
				fprintf(out, "\\u%04X", p[2] == 0xBE ? 0xFFFE : 0xFFFF);
				p += len;
			} else {
				fwrite(p, 1, len, out);
				p += len;
			}
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\n': fputs("&#10;", out); break;
		case '\t': fputs("&#9;", out); break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(out, "\\x%02x", *p);
			else
				fputc(*p, out);
		}
		p++;
	}
}

static void xml_diag(FILE *f, const build_ctx *ctx, const build_job *j, const build_diag *d)
{
	animc_diag said = build_job_diag(j, d);
	char where[64] = "";

	if (build_diag_is_allowed(ctx->options, d))
		return;

	if (said.line && said.column)
		snprintf(where, sizeof where, ":%u:%u", said.line, said.column);
	else if (said.line)
		snprintf(where, sizeof where, ":%u", said.line);
	xml_text(f, said.path);
	fprintf(f, "%s: %s: ", where, severity_names[d->severity]);
	xml_text(f, d->message);
	if (d->kind)
		fprintf(f, " [%s]", d->kind);
	fputs("&#10;", f);
}

/* One of the run's own diagnostics as the terminal printed it, "&#10;" after. */
static void xml_said(FILE *f, const build_said *s)
{
	xml_text(f, s->subject ? s->subject : "animc");
	if (s->line)
		fprintf(f, ":%u", s->line);
	fprintf(f, ": %s: ", severity_names[s->severity]);
	xml_text(f, s->message);
	if (s->kind)
		fprintf(f, " [%s]", s->kind);
	fputs("&#10;", f);
}

/* The run's own errors, a test case "animc build" in error: its first
 * error the message, every one the text. */
static void xml_run_case(FILE *f, const build_ctx *ctx)
{
	const build_said_list *said = &ctx->status->said;
	const build_said *first = NULL;

	for (size_t i = 0; i < said->count && !first; i++)
		if (said->items[i].severity == ANIMC_ERROR)
			first = &said->items[i];
	fputs("    <testcase classname=\"animc.run\" name=\"animc build\" time=\"0\">\n      <error message=\"", f);
	xml_text(f, first->message);
	fputs("\">", f);
	for (size_t i = 0; i < said->count; i++)
		if (said->items[i].severity == ANIMC_ERROR)
			xml_said(f, &said->items[i]);
	fputs("</error>\n    </testcase>\n", f);
}

/* The run's own warnings and errors: the suite's system-err, as the
 * terminal printed them. */
static void xml_run_diagnostics(FILE *f, const build_ctx *ctx)
{
	const build_said_list *said = ctx->status ? &ctx->status->said : NULL;

	if (!said || !said->count)
		return;
	fputs("    <system-err>", f);
	for (size_t i = 0; i < said->count; i++)
		xml_said(f, &said->items[i]);
	fputs("</system-err>\n", f);
}

static int compare_job_paths(const void *a, const void *b, void *at)
{
	const build_job *jobs = *(const build_job **)at;

	return strcmp(jobs[*(const size_t *)a].path, jobs[*(const size_t *)b].path);
}

/* For each job, whether another job has its source (built to another
 * destination); calloc()ed, NULL when memory runs out. */
static bool *shared_paths(const build_plan *plan)
{
	size_t *order = malloc((plan->count ? plan->count : 1) * sizeof *order);
	bool *shared = calloc(plan->count ? plan->count : 1, sizeof *shared);

	if (!order || !shared) {
		free(order);
		free(shared);
		return NULL;
	}
	for (size_t i = 0; i < plan->count; i++)
		order[i] = i;
	const build_job *jobs = plan->jobs;

	qsort_r(order, plan->count, sizeof *order, compare_job_paths, &jobs);
	for (size_t i = 1; i < plan->count; i++)
		if (strcmp(plan->jobs[order[i]].path, plan->jobs[order[i - 1]].path) == 0)
			shared[order[i]] = shared[order[i - 1]] = true;
	free(order);
	return shared;
}

/* A test case's name: the source's path; with " -> " and its destination
 * when the source is built to more than one (CI systems key test cases by
 * class and name, and merged the two). */
static void xml_case_name(FILE *f, const build_ctx *ctx, const build_job *j, bool is_shared)
{
	xml_text(f, j->path);
	if (is_shared) {
		char *dest = destination(ctx, j);

		fputs(" -&gt; ", f);
		xml_text(f, dest ? dest : j->out_base);
		free(dest);
	}
}

static uint32_t allowed_count(const build_ctx *ctx, const build_result *r)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < r->diag_count; k++)
		n += build_diag_is_allowed(ctx->options, &r->diags[k]);
	return n;
}

bool build_report_junit(const build_ctx *ctx, const char *path, cli_error *err)
{
	const build_plan *plan = &ctx->plan;
	bool times = !build_reproducible();
	build_totals t;
	double total_s = 0;
	char *tmp;
	bool *shared = shared_paths(plan);
	FILE *f = shared ? open_report(ctx, path, &tmp, err) : NULL;
	bool ok;

	if (!shared)
		cli_error_set(err, "out of memory");
	if (!f) {
		free(shared);
		return false;
	}
	build_totals_count(ctx, &t);
	for (size_t i = 0; times && i < plan->count; i++)
		total_s += plan->jobs[i].result.time_s;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	/* The run's own errors (a build stopped before it built) are one test
	 * case in error, after the sources': a CI shows the run red. */
	unsigned run_case = t.run_errors ? 1 : 0;
	fprintf(f, "<testsuites name=\"animc build\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		"skipped=\"%u\" time=\"%.6f\">\n", t.sources + run_case, t.failed, run_case, t.skipped, total_s);
	fprintf(f, "  <testsuite name=\"animc build\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
		"skipped=\"%u\" time=\"%.6f\">\n", t.sources + run_case, t.failed, run_case, t.skipped, total_s);
	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];
		const build_result *r = &j->result;
		const build_diag *first_error = NULL;
		bool has_out = false;

		fputs("    <testcase classname=\"animc.build\" name=\"", f);
		xml_case_name(f, ctx, j, shared[i] || j->is_shared_source);
		fprintf(f, "\" time=\"%.6f\">\n", times ? r->time_s : 0.0);
		for (uint32_t k = 0; k < r->diag_count && !first_error; k++)
			if (r->diags[k].severity == ANIMC_ERROR)
				first_error = &r->diags[k];
		if (r->status == BUILD_FAILED) {
			fputs("      <failure type=\"error\" message=\"", f);
			xml_text(f, first_error ? first_error->message : "failed");
			fputs("\">", f);
			for (uint32_t k = 0; k < r->diag_count; k++)
				xml_diag(f, ctx, j, &r->diags[k]);
			fputs("</failure>\n", f);
		} else if (r->status == BUILD_SKIPPED) {
			fputs("      <skipped message=\"", f);
			xml_text(f, r->skip_reason ? r->skip_reason : "skipped");
			fputs("\"/>\n", f);
		}
		for (uint32_t k = 0; k < r->output_count; k++) {
			const build_output *o = &r->outputs[k];
			char *out_path;

			if (!o->is_written)
				continue;
			if (!has_out)
				fputs(r->status == BUILD_CACHED ? "      <system-out>fetched from the shared cache, not "
								  "compiled&#10;"
								: "      <system-out>",
				      f);
			has_out = true;
			out_path = build_output_path(ctx, j, o);
			xml_text(f, out_path ? out_path : o->name);
			fprintf(f, " (%u bones, %llu keys, %llu bytes)&#10;", o->bones,
				(unsigned long long)o->keys, (unsigned long long)o->size);
			free(out_path);
		}
		if (has_out)
			fputs("</system-out>\n", f);
		if (r->status != BUILD_FAILED && r->diag_count > allowed_count(ctx, r)) {
			fputs("      <system-err>", f);
			for (uint32_t k = 0; k < r->diag_count; k++)
				xml_diag(f, ctx, j, &r->diags[k]);
			fputs("</system-err>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	if (run_case)
		xml_run_case(f, ctx);
	xml_run_diagnostics(f, ctx);
	fputs("  </testsuite>\n</testsuites>\n", f);
	ok = finish_file(f, 0, tmp, path, err);
	free(tmp);
	free(shared);
	return ok;
}

/* ---------------------------------------------------------------- depfile */

/*
 * Why make and ninja do not both read `name` in a depfile, written into
 * `why`; NULL when they do.  Ninja (1.11) reads a name up to any byte but
 * letters, digits, +,/_:.~(){}%=@[]!- and bytes from 0x80; it unescapes
 * '\ ', '\#', '\:' and '$$' and keeps every other backslash, so '\#' and
 * '\:' lose one backslash where make halves a run of them, and a '\:' at
 * the end of a name stays as written.  Make reads those escapes alike, but
 * takes '=' for a variable, ';' for a recipe, '*', '?' and '[' for a glob
 * (whose escape ninja keeps), NAME(MEMBER) for an archive member and a
 * leading '~' for a home folder.  Nothing escapes those in both.
 */
static const char *depfile_unreadable(const char *name, char *why, size_t size)
{
	const char *open = strchr(name, '(');
	size_t len = strlen(name);

	for (const char *p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;
		const char *after = p;

		if (c == '\n' || c == '\r')
			return "a line break in its name";
		if (c == '\t')
			return "a tab in its name";
		if (c < 0x20 || c == 0x7F) {
			snprintf(why, size, "the control character 0x%02x in its name", c);
			return why;
		}
		if (strchr("\"&'*;<>?^`|[=", c)) {
			snprintf(why, size, "'%c' in its name", c);
			return why;
		}
		if (c != '\\')
			continue;
		while (*after == '\\')
			after++;
		if (!*after)
			return "a backslash at the end of its name";
		if (strchr("#:$", *after)) {
			snprintf(why, size, "a backslash before '%c' in its name", *after);
			return why;
		}
	}
	if (len && name[len - 1] == ':')
		return "':' at the end of its name";
	if (name[0] == '~')
		return "'~' at the start of its name";
	if (open && open != name && len && name[len - 1] == ')' && name + len - 1 != open + 1)
		return "the form of an archive member to make, NAME(MEMBER)";
	return NULL;
}

/*
 * A name in make's syntax, once depfile_unreadable has passed it.  Spaces,
 * '#' and ':' get a backslash (and the backslashes before a space are
 * doubled); '$' is doubled; these make and ninja read alike.  A '%' makes
 * a rule a pattern rule, so in a target (is_target) it gets a backslash
 * too, which make removes; ninja keeps it, and so does make in a
 * prerequisite, which is why it gets none there.  Ninja with `deps = gcc`
 * does not read the target's name; without it, an output named with '%'
 * never matches the depfile and is always rebuilt.
 */
static void make_path(FILE *out, const char *s, bool is_target)
{
	for (const char *p = s; *p; p++) {
		if (*p == ' ' || *p == '#' || *p == ':' || (is_target && *p == '%')) {
			for (const char *b = p; b > s && b[-1] == '\\'; b--)
				fputc('\\', out);
			fputc('\\', out);
			fputc(*p, out);
		} else if (*p == '$') {
			fputs("$$", out);
		} else {
			fputc(*p, out);
		}
	}
}

/* The depfile's text, built in memory so that a name it cannot hold
 * leaves no file. */
typedef struct depfile_text {
	FILE *f;
	const char *cwd;
	char *unreadable;         /* the first name refused, malloc()ed; why below */
	const char *why;
	char why_buf[64];
	cli_strings others;       /* the prerequisites but the sources, for empty rules */
} depfile_text;

/* `name` as the depfile names it (a relative one as a path from the
 * folder animc ran in, a target as given), malloc()ed; NULL, keeping the
 * first refusal, when it has no form make and ninja both read. */
static char *depfile_full(depfile_text *t, const char *name, bool is_target)
{
	char *full;

	if (t->unreadable)
		return NULL;
	if (is_target || name[0] == '/' || !t->cwd) {
		full = strdup(name);
	} else {
		while (name[0] == '.' && name[1] == '/')
			for (name += 2; *name == '/'; name++)
				;
		full = cli_path_join(t->cwd, name, NULL);
	}
	if (full && (t->why = depfile_unreadable(full, t->why_buf, sizeof t->why_buf))) {
		t->unreadable = full;
		return NULL;
	}
	return full;
}

typedef enum depfile_role { DEPFILE_TARGET, DEPFILE_SOURCE, DEPFILE_OTHER } depfile_role;

/* `name` written as the target, or after a space; false when it cannot be. */
static bool depfile_name(depfile_text *t, const char *name, depfile_role role)
{
	char *full = depfile_full(t, name, role == DEPFILE_TARGET);
	bool ok = full != NULL;

	if (!full)
		return false;
	if (role != DEPFILE_TARGET)
		fputc(' ', t->f);
	make_path(t->f, full, role == DEPFILE_TARGET);
	if (role == DEPFILE_OTHER)
		ok = cli_strings_push(&t->others, full);
	free(full);
	return ok;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * An empty rule for every prerequisite but the sources, as gcc -MP writes
 * them: once a file the depfile names is renamed or removed (a glTF's
 * buffer, the --skeleton model, a sidecar), make takes it for changed and
 * runs the rule, which writes the new depfile, where it stopped with "No
 * rule to make target".  Each once, sorted.  Ninja skips them: each is an
 * input already.  A name with '%' gets none: make would read it as a
 * pattern rule, and escaped, ninja as another output of the edge.
 */
static void depfile_empty_rules(depfile_text *t)
{
	cli_strings *names = &t->others;

	if (names->count > 1)
		qsort(names->items, names->count, sizeof *names->items, compare_names);
	for (size_t i = 0; i < names->count; i++) {
		if ((i && strcmp(names->items[i], names->items[i - 1]) == 0) || strchr(names->items[i], '%'))
			continue;
		make_path(t->f, names->items[i], true);
		fputs(":\n", t->f);
	}
}

/*
 * One line per output: the output, then its source, the --skeleton model
 * and every file its import read (then depfile_empty_rules).  A prerequisite is named by its absolute
 * path: the tool reading the depfile may run elsewhere (CMake runs animc
 * in the source folder and ninja reads its depfiles from the build folder,
 * where `--skeleton art/hero.gltf` named no file, so every build ran every
 * rule again).  The output keeps its name as given: make matches it
 * against its own target.
 */
static bool depfile_lines(depfile_text *t, const build_ctx *ctx)
{
	const build_plan *plan = &ctx->plan;

	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];
		const build_result *r = &j->result;

		for (uint32_t k = 0; k < r->output_count; k++) {
			const build_output *o = &r->outputs[k];
			char *out_path;
			bool ok;

			if (!o->is_written)
				continue;
			/* A source its output's name cannot hold is the name to
			 * say (the output's comes from it). */
			free(depfile_full(t, j->path, false));
			out_path = t->unreadable ? NULL : build_output_path(ctx, j, o);
			if (!out_path)
				return false;
			ok = depfile_name(t, out_path, DEPFILE_TARGET);
			free(out_path);
			if (!ok)
				return false;
			fputs(":", t->f);
			if (!depfile_name(t, j->path, DEPFILE_SOURCE))
				return false;
			if (ctx->options->skeleton_path &&
			    !depfile_name(t, ctx->options->skeleton_path, DEPFILE_OTHER))
				return false;
			/* Not a file that is not there: make knows no rule for it. */
			for (uint32_t d = 0; d < r->dep_count; d++)
				if (!build_dep_is_absent(&r->deps[d]) &&
				    !depfile_name(t, r->deps[d].path, DEPFILE_OTHER))
					return false;
			fputc('\n', t->f);
		}
	}
	return true;
}

bool build_report_depfile(const build_ctx *ctx, const char *path, cli_error *err)
{
	depfile_text t = { .cwd = NULL };
	char *text = NULL, *tmp, *cwd = getcwd(NULL, 0);
	size_t size = 0;
	FILE *f;
	bool ok = false, lines;

	t.cwd = cwd;
	t.f = open_memstream(&text, &size);
	if (!t.f) {
		free(cwd);
		return cli_error_set(err, "out of memory");
	}
	lines = depfile_lines(&t, ctx);
	if (lines)
		depfile_empty_rules(&t);
	if (fclose(t.f) != 0)
		lines = false;
	if (t.unreadable) {
		cli_error_set(err, "not written: '%s' has %s, which make and ninja do not both read "
			      "in a depfile; rename it", t.unreadable, t.why);
	} else if (!lines) {
		cli_error_set(err, "out of memory");
	} else if ((f = open_report(ctx, path, &tmp, err))) {
		int why = fwrite(text, 1, size, f) == size ? 0 : errno;

		ok = finish_file(f, why, tmp, path, err);
		free(tmp);
	}
	free(t.unreadable);
	cli_strings_release(&t.others);
	free(text);
	free(cwd);
	return ok;
}
