/*
 * diag.c - status strings and the diagnostic sink.  The library reports
 * through the sink and never prints.
 */
#include <stdio.h>
#include <string.h>

#include <animc/animc.h>

static const char *const status_strings[ANIMC_STATUS_COUNT] = {
	[ANIMC_OK] = "ok",
	[ANIMC_ERR_NOMEM] = "out of memory",
	[ANIMC_ERR_IO] = "input/output error",
	[ANIMC_ERR_PARSE] = "malformed input",
	[ANIMC_ERR_INVALID] = "invalid animation data",
	[ANIMC_ERR_UNSUPPORTED] = "unsupported input",
	[ANIMC_ERR_LIMIT] = "size limit exceeded",
	[ANIMC_ERR_NOT_FOUND] = "not found",
	[ANIMC_ERR_ARGUMENT] = "invalid argument",
};

const char *animc_status_string(animc_status status)
{
	if ((unsigned)status >= ANIMC_STATUS_COUNT)
		return "unknown status";
	return status_strings[status];
}

/* The kinds of warning: names users give to --allow, and the one line
 * docs/warnings.md and the usage error list them by. */
static const animc_warning_kind_info warning_kinds[ANIMC_WARN_KIND_COUNT] = {
	[ANIMC_WARN_NOT_UNIT_QUATERNION] = { "not-unit-quaternion",
		"rotation keys that are not unit quaternions; normalised" },
	[ANIMC_WARN_NON_NODE_TARGET] = { "non-node-target",
		"a glTF channel animates something other than a node (an extension's pointer); left out" },
	[ANIMC_WARN_UNKNOWN_TARGET_PATH] = { "unknown-target-path",
		"a glTF channel's path is not translation, rotation, scale or weights (COLLADA: its node has no transform "
		"of the target's sid); left out" },
	[ANIMC_WARN_DUPLICATE_CHANNEL] = { "duplicate-channel",
		"one bone or node property animated by more than one channel; the later kept" },
	[ANIMC_WARN_ANIMATED_MATRIX] = { "animated-matrix-node",
		"an animated glTF node whose rest is a matrix, which glTF forbids" },
	[ANIMC_WARN_BONE_NAME_CLASH] = { "bone-name-clash",
		"animated bones (nodes, sequences) that share one name; the last kept" },
	[ANIMC_WARN_NOT_UTF8] = { "not-utf8",
		"a clip or bone name that is not UTF-8; read as Latin-1" },
	[ANIMC_WARN_UNKNOWN_NODE] = { "unknown-node",
		"a channel names no node of the file's own hierarchy" },
	[ANIMC_WARN_ASSUMED_TICK_RATE] = { "assumed-tick-rate",
		"the file declares no ticks per second; the format's default assumed" },
	[ANIMC_WARN_FILE_NOT_READ] = { "file-not-read",
		"a file the source names lies outside its folder; not read" },
	[ANIMC_WARN_KEYS_OUT_OF_ORDER] = { "keys-out-of-order",
		"keys not in time order; sorted" },
	[ANIMC_WARN_SHARED_KEY_TIME] = { "shared-key-time",
		"two keys of one track at one time, the last key's time too; the later kept" },
	[ANIMC_WARN_WRONG_SEQUENCE_COUNT] = { "wrong-sequence-count",
		"KeyFrameSequenceCount differs from the sequences that follow; corrected" },
	[ANIMC_WARN_MISSING_SEQUENCE_COUNT] = { "missing-sequence-count",
		"no <KeyFrameSequenceCount>, which the original pipeline needs" },
	[ANIMC_WARN_UNKNOWN_ELEMENT] = { "unknown-element",
		"an element the format does not have (often a misspelling); ignored" },
	[ANIMC_WARN_KEYS_PAST_DURATION] = { "keys-past-duration",
		"keys after the clip's Duration" },
	[ANIMC_WARN_EMPTY_CLIP] = { "empty-clip",
		"a clip with no keyframes; it plays the rest pose" },
	[ANIMC_WARN_SKELETON_MISMATCH] = { "skeleton-mismatch",
		"the asset's bone hierarchy differs from --skeleton's model" },
	[ANIMC_WARN_SHORT_CLIP] = { "short-clip",
		"a moving clip shorter than a frame at 60 Hz; written as lasting 1/60 s" },
	[ANIMC_WARN_ZERO_LENGTH_SPAN] = { "zero-length-span",
		"keys share a time before the last key, where the original runtime divides by 0; moved apart" },
	[ANIMC_WARN_EXACT_UNPLAYABLE] = { "exact-unplayable",
		"--exact writes bytes the original runtime cannot play, or plays otherwise than libanimrt" },
	[ANIMC_WARN_CLIP_NAME_CLASH] = { "clip-name-clash",
		"clips whose names give one output file name; renamed" },
	[ANIMC_WARN_TOLERANCE_NOT_MET] = { "tolerance-not-met",
		"the lossy pass could not meet the model-space bound" },
	[ANIMC_WARN_TOO_LONG_TO_MEASURE] = { "too-long-to-measure",
		"a clip too long for its keys to measure on the skeleton; kept lossless" },
	[ANIMC_WARN_COMPACT_DECLINED] = { "compact-declined",
		"a clip the compact layout cannot hold; written in the original layout" },
	[ANIMC_WARN_UNTURNED_ROOT] = { "unturned-root",
		"no longer said (--rotate turns every bone); kept so that --allow unturned-root still works" },
	[ANIMC_WARN_XML] = { "xml",
		"a warning of the XML parser about the document" },
	[ANIMC_WARN_IMPORTER_OUTPUT] = { "importer-output",
		"lines a third-party reader (Assimp) printed while reading the file" },
	[ANIMC_WARN_UNREADABLE] = { "unreadable",
		"a file or folder of an input tree cannot be read; skipped" },
	[ANIMC_WARN_OUTPUT_TAKEN_OVER] = { "output-taken-over",
		"this source writes an output another source's earlier build wrote" },
	[ANIMC_WARN_SIDECAR_UNUSED] = { "sidecar-unused",
		"a file named like a source's clip-split sidecar holds no AnimationDefinition" },
	[ANIMC_WARN_REFERENCE_LACKS_BONE] = { "reference-lacks-bone",
		"--additive-reference CLIP: a bone CLIP does not animate has no rest pose in the source or --skeleton; "
		"referenced at identity" },
	[ANIMC_WARN_WRONG_FRAME_COUNT] = { "wrong-frame-count",
		"a BVH or .md5anim holds more frames than its Frames: or numFrames line says (BVH: the rest "
		"not read; .md5anim: all read)" },
	[ANIMC_WARN_SHEARED_SCALE] = { "sheared-scale",
		"--rotate turns a bone's non-uniform scale off its axes; the scale along the axes kept" },
	[ANIMC_WARN_TICK_RATE_NOT_APPLIED] = { "tick-rate-not-applied",
		"--ticks-per-second given for a source whose key times are seconds (COLLADA, glTF 1.0, Ogre); not applied" },
	[ANIMC_WARN_STEPPED_KEYS] = { "stepped-keys",
		"an Assimp source's stepped keys (COLLADA STEP, FBX constant keys) not read exactly are read as linear" },
	[ANIMC_WARN_KEYS_BEFORE_ZERO] = { "keys-before-zero",
		"a glTF animation keyed wholly before time 0; moved to start at 0" },
	[ANIMC_WARN_ASSIMP_ERROR] = { "assimp-error",
		"Assimp logged an error about a part of the file that holds no animation (a mesh, a material)" },
	[ANIMC_WARN_CACHE] = { "cache",
		"the shared build cache could not be read or written (the run's own)" },
	[ANIMC_WARN_MANIFEST] = { "manifest",
		"the build manifest could not be read or saved (the run's own)" },
	[ANIMC_WARN_JOURNAL] = { "journal",
		"a journal of an interrupted build is damaged or cannot be read, or is another animc's (kept; the run's own)" },
	[ANIMC_WARN_OUTPUT_LEFT] = { "output-left",
		"an output clean or --prune left in place (changed, outside, or not removable)" },
	[ANIMC_WARN_UNKNOWN_SWITCH] = { "unknown-switch",
		"a --mgcb project's switch neither animc nor MGCB reads (often a misspelling); ignored" },
	[ANIMC_WARN_UNKNOWN_PARAMETER] = { "unknown-parameter",
		"a --mgcb project's processor parameter a letter or two from Scale or RotationX/Y/Z, or one "
		"of them in another case or with blanks (MGCB matches names exactly); ignored" },
	[ANIMC_WARN_NOTHING_TO_CLEAN] = { "nothing-to-clean",
		"animc clean was given a folder that does not exist or that no build wrote into (the run's own)" },
	[ANIMC_WARN_INPUT_GONE] = { "input-gone",
		"animc watch: an input of its command line moved away or was deleted (the run's own)" },
	[ANIMC_WARN_PROJECT_CHANGED] = { "project-changed",
		"animc watch: the project's /outputDir: or /platform: changed, which needs a restart (the run's own)" },
	[ANIMC_WARN_OUTPUT_HOLDS_SOURCES] = { "output-holds-sources",
		"the output folder lies inside an input folder and holds sources, which are left out (the run's own)" },
	[ANIMC_WARN_OUTPUT_NAME_CASE] = { "output-name-case",
		"two sources' outputs have names alike but for case: one file on Windows and macOS" },
	[ANIMC_WARN_ROOT_MOTION_FRAME] = { "root-motion-frame",
		"--root-motion cannot read the node tree that turns its bone's parent frame" },
	[ANIMC_WARN_NIL_CONTENT] = { "nil-content",
		"a list marked xsi:nil=\"true\" or Null=\"true\" holds elements or text; ignored, the list empty" },
	[ANIMC_WARN_ZERO_SCALE_KEY] = { "zero-scale-key",
		"an FBX or COLLADA scale key of 0, whose rotation Assimp cannot read back: the neighbouring key's taken" },
	[ANIMC_WARN_KEYS_OUTSIDE_TAKE] = { "keys-outside-take",
		"an FBX take starts or ends between keys Assimp left out, and the curves could not be read to mend it" },
	[ANIMC_WARN_ANIMATION_LAYERS] = { "animation-layers",
		"an FBX take keyed in several animation layers, which Assimp does not blend (the last curve wins)" },
	[ANIMC_WARN_EMPTY_TAKE] = { "empty-take",
		"an FBX take that keys no bone (a bind pose), which Assimp leaves out: no clip for it" },
	[ANIMC_WARN_INHERIT_TYPE] = { "inherit-type",
		"an FBX bone of InheritType 2 (segment scale compensate) under a scaled parent: scaled with it" },
	[ANIMC_WARN_EULER_BETWEEN_KEYS] = { "euler-between-keys",
		"an FBX bone's Euler curves (COLLADA <rotate>s) turn about several axes between keys, slerped: "
		"not read to add keys" },
	[ANIMC_WARN_SHEARED_KEY] = { "sheared-key",
		"an .X or COLLADA matrix key shears (its axes are not perpendicular), which no key holds; a key close to it kept" },
	[ANIMC_WARN_ROTATION_ACTIVE] = { "rotation-active",
		"an FBX bone of RotationActive 0 turned in its RotationOrder by Assimp, not XYZ: its curves not read" },
	[ANIMC_WARN_NUMBERED_BONES] = { "numbered-bones",
		"an XNA document numbers its bones and no --skeleton names them; named Bone<N>" },
	[ANIMC_WARN_NO_WORKER] = { "no-worker",
		"no worker process could be started (a process limit): the sources compiled in the build's "
		"own process, where --import-timeout and --memory-limit do not hold (the run's own)" },
};

const animc_warning_kind_info *animc_warning_kind_at(animc_warning_kind kind)
{
	if (kind <= ANIMC_WARN_NONE || kind >= ANIMC_WARN_KIND_COUNT)
		return NULL;
	return &warning_kinds[kind];
}

animc_warning_kind animc_warning_kind_find(const char *name)
{
	for (int k = ANIMC_WARN_NONE + 1; name && k < ANIMC_WARN_KIND_COUNT; k++)
		if (strcmp(warning_kinds[k].name, name) == 0)
			return (animc_warning_kind)k;
	return ANIMC_WARN_NONE;
}

void animc_diag_vreport_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			     uint32_t line, uint32_t column, int64_t byte_offset,
			     const char *fmt, va_list ap)
{
	const animc_warning_kind_info *info = severity == ANIMC_WARNING ? animc_warning_kind_at(kind) : NULL;
	char message[1024];
	animc_diag diag;

	if (!sink)
		return;
	if (severity == ANIMC_ERROR)
		sink->error_count++;
	else if (severity == ANIMC_WARNING)
		sink->warning_count++;
	if (!sink->fn)
		return;
	vsnprintf(message, sizeof message, fmt, ap);
	diag.severity = severity;
	diag.path = sink->path;
	diag.line = line;
	diag.column = column;
	diag.byte_offset = byte_offset;
	diag.message = message;
	diag.kind = info ? info->name : NULL;
	sink->fn(sink->user, &diag);
}

void animc_diag_vreport(animc_diag_sink *sink, animc_severity severity,
			uint32_t line, uint32_t column, int64_t byte_offset,
			const char *fmt, va_list ap)
{
	animc_diag_vreport_kind(sink, severity, ANIMC_WARN_NONE, line, column, byte_offset, fmt, ap);
}

void animc_diag_report_kind(animc_diag_sink *sink, animc_severity severity, animc_warning_kind kind,
			    uint32_t line, uint32_t column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport_kind(sink, severity, kind, line, column, -1, fmt, ap);
	va_end(ap);
}

void animc_diag_report(animc_diag_sink *sink, animc_severity severity,
		       uint32_t line, uint32_t column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(sink, severity, line, column, -1, fmt, ap);
	va_end(ap);
}

void animc_diag_report_at(animc_diag_sink *sink, animc_severity severity,
			  int64_t byte_offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	animc_diag_vreport(sink, severity, 0, 0, byte_offset, fmt, ap);
	va_end(ap);
}
