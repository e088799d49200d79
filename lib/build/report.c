/*
 * report.c - everything the build says, made from the results: a job's
 * messages and lines (in job order, so the same for any number of
 * workers), the status line that updates in place on a terminal, the
 * summary, and the files for tools: the JSON report (schema version 1,
 * lib/build/report.schema.json), JUnit XML and make/ninja depfiles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "build.h"

bool build_reproducible(void)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");

	return epoch && epoch[0];
}

void build_totals_count(const build_plan *plan, build_totals *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < plan->count; i++) {
		const build_result *r = &plan->jobs[i].result;

		t->sources++;
		t->warnings += r->warnings;
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
				t->output_bytes += r->outputs[k].size;
			}
	}
}

/* ------------------------------------------------------------ the terminal */

static void status_erase(build_status_line *s)
{
	if (s->is_live && s->line_shown) {
		fputs("\r\033[K", stdout);
		s->line_shown = false;
	}
}

void build_status_init(build_status_line *s, build_ctx *ctx, size_t total)
{
	const build_options *o = ctx->options;
	struct winsize ws;

	memset(s, 0, sizeof *s);
	s->ctx = ctx;
	s->total = total;
	s->start_s = build_now_s();
	s->is_live = !o->quiet && total > 0 &&
		     (o->progress == PROGRESS_ALWAYS || (o->progress == PROGRESS_AUTO && isatty(STDOUT_FILENO)));
	s->columns = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20 ? ws.ws_col : 80;
}

static void status_draw(build_status_line *s, double now)
{
	const build_plan *plan = &s->ctx->plan;
	const build_job *slow = NULL;
	char line[1024], eta[48] = "";
	size_t n;

	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];

		if (j->needs_compile && !j->is_done && j->started_s > 0 && now - j->started_s >= 1.0 &&
		    (!slow || j->started_s < slow->started_s))
			slow = j;
	}
	if (s->done && s->done < s->total) {
		double left = (now - s->start_s) / (double)s->done * (double)(s->total - s->done);

		snprintf(eta, sizeof eta, ", %.0f s left", left < 1 ? 1 : left);
	}
	n = (size_t)snprintf(line, sizeof line, "[%zu/%zu%s]", s->done, s->total, eta);
	if (slow && n < sizeof line) {
		/* The name's tail is what tells files apart. */
		const char *name = slow->path;
		size_t room = (size_t)s->columns > n + 24 ? (size_t)s->columns - n - 24 : 8;

		if (strlen(name) > room)
			name += strlen(name) - room;
		n += (size_t)snprintf(line + n, sizeof line - n, " %s%s%s (%.0f s)",
				      slow->importer_at_work[0] ? slow->importer_at_work : "",
				      slow->importer_at_work[0] ? ": " : "", name, now - slow->started_s);
	}
	if (n > (size_t)s->columns - 1)
		line[s->columns - 1] = '\0';
	fputs("\r\033[K", stdout);
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		fputc(*p < 0x20 || *p == 0x7F ? '?' : *p, stdout);
	fflush(stdout);
	s->line_shown = true;
	s->last_draw_s = now;
}

void build_status_job_done(build_status_line *s)
{
	double now = build_now_s();

	s->done++;
	if (s->is_live && (now - s->last_draw_s >= 0.1 || s->done == s->total))
		status_draw(s, now);
}

void build_status_tick(build_status_line *s)
{
	double now = build_now_s();

	if (s->is_live && now - s->last_draw_s >= 0.5)
		status_draw(s, now);
}

void build_status_clear(build_status_line *s)
{
	status_erase(s);
	fflush(stdout);
}

static void print_diag(const build_ctx *ctx, const build_job *j, const build_diag *d)
{
	animc_diag diag = { d->severity, j->path, d->line, d->column, d->byte_offset, d->message };
	cli_diag_printer printer = ctx->printer;

	cli_print_diag(&printer, &diag);
}

static void report_passes(const animc_pass_stats *s)
{
	char line[512];
	size_t n = 0;

#define PART(cond, ...)                                                                   \
	do {                                                                              \
		if ((cond) && n < sizeof line)                                            \
			n += (size_t)snprintf(line + n, sizeof line - n, "%s", n ? ", " : ""); \
		if ((cond) && n < sizeof line)                                            \
			n += (size_t)snprintf(line + n, sizeof line - n, __VA_ARGS__);    \
	} while (0)
	PART(s->channels_sorted, "%u sorted", s->channels_sorted);
	PART(s->duplicate_keys_dropped, "%u duplicate keys dropped", s->duplicate_keys_dropped);
	PART(s->channels_merged, "%u merged onto one timeline", s->channels_merged);
	PART(s->rotations_flipped, "%u rotations put on one hemisphere", s->rotations_flipped);
	PART(s->tracks_made_fixed, "%u tracks made fixed", s->tracks_made_fixed);
	PART(s->channels_collapsed, "%u sequences down to one key", s->channels_collapsed);
	PART(s->channels_made_uniform, "%u sequences made uniform", s->channels_made_uniform);
	PART(s->keys_trimmed, "%u keys outside the clip dropped", s->keys_trimmed);
	PART(s->intervals_set, "%u one-key sequences given a KeyInterval", s->intervals_set);
	PART(s->channels_given_times, "%u sequences given times", s->channels_given_times);
	PART(s->shared_times_split, "%u shared key times split", s->shared_times_split);
	PART(s->durations_lengthened, "%u durations lengthened", s->durations_lengthened);
	PART(s->declared_count_corrected, "KeyFrameSequenceCount corrected");
#undef PART
	printf("    passes: %s\n", n ? line : "nothing to change");
	if (s->is_reduced) {
		cli_format_clip_error(&s->error, line, sizeof line);
		printf("    %s\n", line);
	}
}

void build_status_print_job(build_status_line *s, size_t i)
{
	const build_ctx *ctx = s->ctx;
	const build_options *o = ctx->options;
	const build_job *j = &ctx->plan.jobs[i];
	const build_result *r = &j->result;
	char progress[48] = "";
	bool lines = !o->quiet && (!s->is_live || o->verbose);

	if (ctx->plan.count > 1)
		snprintf(progress, sizeof progress, "[%zu/%zu] ", i + 1, ctx->plan.count);
	status_erase(s);
	fflush(stdout);
	for (uint32_t k = 0; k < r->diag_count; k++)
		print_diag(ctx, j, &r->diags[k]);
	fflush(stderr);
	if (!lines)
		return;
	if (r->status == BUILD_SKIPPED) {
		if (o->verbose) {
			fputs(progress, stdout);
			fputs("skipped ", stdout);
			cli_print_escaped(stdout, j->path, 0);
			printf(" (%s)\n", r->skip_reason ? r->skip_reason : "skipped");
		}
		return;
	}
	if (r->status == BUILD_UP_TO_DATE) {
		if (o->verbose) {
			fputs(progress, stdout);
			fputs("up to date ", stdout);
			cli_print_escaped(stdout, j->path, 0);
			fputc('\n', stdout);
		}
		return;
	}
	for (uint32_t k = 0; k < r->output_count; k++) {
		const build_output *out = &r->outputs[k];
		char *path;

		if (!out->is_written)
			continue;
		path = build_output_path(ctx, j, out);
		fputs(progress, stdout);
		fputs(r->status == BUILD_CACHED ? "cached " : "compiled ", stdout);
		cli_print_escaped(stdout, j->path, 0);
		if (out->clip[0]) {
			fputs(" [", stdout);
			cli_print_escaped(stdout, out->clip, 0);
			fputs("]", stdout);
		}
		fputs(" -> ", stdout);
		cli_print_escaped(stdout, path ? path : out->name, 0);
		printf(" (%u bones, %g s, %llu bytes)\n", out->bones, (double)out->duration_s,
		       (unsigned long long)out->size);
		free(path);
		if (o->verbose) {
			fputs("    clip", stdout);
			if (out->clip[0]) {
				fputs(" '", stdout);
				cli_print_escaped(stdout, out->clip, 0);
				fputs("'", stdout);
			}
			printf(": %g s, %u bones, %llu keys", (double)out->duration_s, out->bones,
			       (unsigned long long)out->keys);
			if (out->ticks_per_second > 0)
				printf(", %g ticks per second", out->ticks_per_second);
			printf("\n");
			report_passes(&out->passes);
		}
	}
}

void build_status_summary(build_status_line *s, const build_totals *t, unsigned stale)
{
	status_erase(s);
	printf("compiled %u source%s (%u clip%s), %u failed, %u skipped, %u warning%s", t->compiled,
	       t->compiled == 1 ? "" : "s", t->clips, t->clips == 1 ? "" : "s", t->failed, t->skipped,
	       t->warnings, t->warnings == 1 ? "" : "s");
	if (t->up_to_date)
		printf(", %u up to date", t->up_to_date);
	if (t->cached)
		printf(", %u cached", t->cached);
	if (s->ctx->options->shard.count)
		printf(" (shard %u/%u)", s->ctx->options->shard.index, s->ctx->options->shard.count);
	if (stale)
		printf(", %u stale output%s (--prune removes them)", stale, stale == 1 ? "" : "s");
	printf("\n");
	fflush(stdout);
}

/* ------------------------------------------------------------------- JSON */

/* A JSON string: control characters escaped, bytes that are not UTF-8
 * written as U+FFFD (JSON text is UTF-8). */
static const char *const severity_names[] = { "note", "warning", "error" };

static bool finish_file(FILE *f, const char *tmp, const char *path, char *why, size_t why_size)
{
	bool ok = !ferror(f);

	ok = fclose(f) == 0 && ok;
	if (ok && rename(tmp, path) != 0)
		ok = false;
	if (!ok) {
		snprintf(why, why_size, "cannot write '%s'", path);
		unlink(tmp);
	}
	return ok;
}

/* A report file, written beside its place and renamed there. */
static FILE *open_report(const char *path, char **tmp, char *why, size_t why_size)
{
	FILE *f;

	*tmp = malloc(strlen(path) + 16);
	if (!*tmp) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	sprintf(*tmp, "%s.tmp%ld", path, (long)getpid());
	f = fopen(*tmp, "w");
	if (!f) {
		snprintf(why, why_size, "cannot write '%s': %s", path, strerror(errno));
		free(*tmp);
		*tmp = NULL;
	}
	return f;
}

bool build_report_json(const build_ctx *ctx, const char *path, char *why, size_t why_size)
{
	const build_plan *plan = &ctx->plan;
	bool times = !build_reproducible();
	build_totals t;
	char *tmp;
	FILE *f = open_report(path, &tmp, why, why_size);
	bool ok;

	if (!f)
		return false;
	build_totals_count(plan, &t);
	fprintf(f, "{\n  \"version\": 1,\n  \"tool\": \"animc %s\",\n", ANIMC_VERSION_STRING);
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
		fprintf(f, ", \"status\": \"%s\", \"reason\": ", build_status_name(r->status));
		if (r->status == BUILD_SKIPPED && r->skip_reason)
			json_string(f, r->skip_reason);
		else
			fputs("null", f);
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
			if (o->passes.is_reduced) {
				const animc_clip_error *e = &o->passes.error;

				fprintf(f, ", \"error\": {\"translation\": %.9g, \"rotation_deg\": %.9g, "
					   "\"scale\": %.9g, \"shell\": %.9g, \"keys_before\": %llu, "
					   "\"keys_after\": %llu}",
					e->translation, e->rotation_deg, e->scale, e->shell,
					(unsigned long long)e->keys_before, (unsigned long long)e->keys_after);
			}
			fputc('}', f);
			free(out_path);
			first = false;
		}
		fputs(first ? "]" : "\n     ]", f);
		fputs(",\n     \"diagnostics\": [", f);
		for (uint32_t k = 0; k < r->diag_count; k++) {
			const build_diag *d = &r->diags[k];

			fprintf(f, "%s\n       {\"severity\": \"%s\", \"message\": ", k ? "," : "",
				severity_names[d->severity]);
			json_string(f, d->message);
			fprintf(f, ", \"line\": %u, \"column\": %u}", d->line, d->column);
		}
		fputs(r->diag_count ? "\n     ]" : "]", f);
		fprintf(f, ",\n     \"time_s\": %.6f}", times ? r->time_s : 0.0);
	}
	fprintf(f, "%s],\n  \"totals\": {\"sources\": %u, \"compiled\": %u, \"up_to_date\": %u, "
		"\"cached\": %u, \"skipped\": %u, \"failed\": %u, \"clips\": %u, \"warnings\": %u, "
		"\"errors\": %u, \"bytes\": %llu}\n}\n",
		plan->count ? "\n  " : "", t.sources, t.compiled, t.up_to_date, t.cached, t.skipped, t.failed,
		t.clips, t.warnings, t.errors, (unsigned long long)t.output_bytes);
	ok = finish_file(f, tmp, path, why, why_size);
	free(tmp);
	return ok;
}

/* ------------------------------------------------------------------ JUnit */

/* XML character data: markup escaped; what XML 1.0 cannot hold (control
 * characters, bytes that are not UTF-8) written as text (\xHH, U+FFFD). */
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

static void xml_diag(FILE *f, const build_job *j, const build_diag *d)
{
	char where[64] = "";

	if (d->line && d->column)
		snprintf(where, sizeof where, ":%u:%u", d->line, d->column);
	else if (d->line)
		snprintf(where, sizeof where, ":%u", d->line);
	xml_text(f, j->path);
	fprintf(f, "%s: %s: ", where, severity_names[d->severity]);
	xml_text(f, d->message);
	fputs("&#10;", f);
}

bool build_report_junit(const build_ctx *ctx, const char *path, char *why, size_t why_size)
{
	const build_plan *plan = &ctx->plan;
	bool times = !build_reproducible();
	build_totals t;
	double total_s = 0;
	char *tmp;
	FILE *f = open_report(path, &tmp, why, why_size);
	bool ok;

	if (!f)
		return false;
	build_totals_count(plan, &t);
	for (size_t i = 0; times && i < plan->count; i++)
		total_s += plan->jobs[i].result.time_s;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"animc build\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		"skipped=\"%u\" time=\"%.6f\">\n", t.sources, t.failed, t.skipped, total_s);
	fprintf(f, "  <testsuite name=\"animc build\" tests=\"%u\" failures=\"%u\" errors=\"0\" "
		"skipped=\"%u\" time=\"%.6f\">\n", t.sources, t.failed, t.skipped, total_s);
	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];
		const build_result *r = &j->result;
		const build_diag *first_error = NULL;
		bool has_out = false;

		fputs("    <testcase classname=\"animc.build\" name=\"", f);
		xml_text(f, j->path);
		fprintf(f, "\" time=\"%.6f\">\n", times ? r->time_s : 0.0);
		for (uint32_t k = 0; k < r->diag_count && !first_error; k++)
			if (r->diags[k].severity == ANIMC_ERROR)
				first_error = &r->diags[k];
		if (r->status == BUILD_FAILED) {
			fputs("      <failure type=\"error\" message=\"", f);
			xml_text(f, first_error ? first_error->message : "failed");
			fputs("\">", f);
			for (uint32_t k = 0; k < r->diag_count; k++)
				xml_diag(f, j, &r->diags[k]);
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
		if (r->status != BUILD_FAILED && r->diag_count) {
			fputs("      <system-err>", f);
			for (uint32_t k = 0; k < r->diag_count; k++)
				xml_diag(f, j, &r->diags[k]);
			fputs("</system-err>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	ok = finish_file(f, tmp, path, why, why_size);
	free(tmp);
	return ok;
}

/* ---------------------------------------------------------------- depfile */

/* A path in make's syntax: spaces, '#' and '\' before them escaped, '$'
 * doubled (what make and ninja both read). */
static void make_path(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == ' ' || *p == '#' || *p == '\t') {
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

bool build_report_depfile(const build_ctx *ctx, const char *path, char *why, size_t why_size)
{
	const build_plan *plan = &ctx->plan;
	char *tmp;
	FILE *f = open_report(path, &tmp, why, why_size);
	bool ok;

	if (!f)
		return false;
	for (size_t i = 0; i < plan->count; i++) {
		const build_job *j = &plan->jobs[i];
		const build_result *r = &j->result;

		for (uint32_t k = 0; k < r->output_count; k++) {
			const build_output *o = &r->outputs[k];
			char *out_path;

			if (!o->is_written)
				continue;
			out_path = build_output_path(ctx, j, o);
			if (!out_path)
				continue;
			make_path(f, out_path);
			fputs(":", f);
			fputc(' ', f);
			make_path(f, j->path);
			if (ctx->options->skeleton_path) {
				fputc(' ', f);
				make_path(f, ctx->options->skeleton_path);
			}
			for (uint32_t d = 0; d < r->dep_count; d++) {
				fputc(' ', f);
				make_path(f, r->deps[d].path);
			}
			fputc('\n', f);
			free(out_path);
		}
	}
	ok = finish_file(f, tmp, path, why, why_size);
	free(tmp);
	return ok;
}
