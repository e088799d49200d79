/*
 * fuzz_journal.c - libFuzzer target for the journal reader (a journal a
 * killed build left in OUTDIR/.animc is read back by clean and by the next
 * build, which remove what it names).  Beyond "no crash": every record it
 * takes names a path under OUTDIR, and reads back, written again, as the
 * same record.  Built as a plain function for `make test`, which replays
 * the seeds in testdata/fuzz/journal.
 */
#include <stdlib.h>
#include <string.h>

#include "build.h"

#ifndef ANIMC_FUZZ_ENTRY
#define ANIMC_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size);

static void quiet_diag(build_status_sink *s, const animc_diag *d)
{
	(void)s, (void)d;
}

static const build_status_ops quiet_ops = { .diag = quiet_diag };

int ANIMC_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	build_status_sink sink = { .ops = &quiet_ops };
	build_ctx ctx;
	manifest m = { 0 };

	memset(&ctx, 0, sizeof ctx);
	ctx.status = &sink;
	bool parsed = build_journal_parse(&ctx, "fuzz", (const char *)data, size, &m);
	/* What it said is kept for the reports: the run's to release. */
	build_said_release(&sink.said);
	if (!parsed)
		return 0;
	for (size_t i = 0; i < m.orphan_count; i++) {
		cli_bytes line = { 0 };
		manifest_output again;

		if (!manifest_path_is_inside(m.orphans[i].path))
			abort();
		manifest_output_put(&line, "output", &m.orphans[i]);
		if (line.is_broken)
			break;
		line.data[line.size - 1] = '\0';   /* the newline */
		if (manifest_output_parse((char *)line.data, "output", &again) != MANIFEST_RECORD_OK ||
		    strcmp(again.path, m.orphans[i].path) != 0 || strcmp(again.clip, m.orphans[i].clip) != 0 ||
		    again.size != m.orphans[i].size || !build_hash_equal(&again.hash, &m.orphans[i].hash))
			abort();
		manifest_output_release(&again);
		free(line.data);
	}
	manifest_release(&m);
	return 0;
}
