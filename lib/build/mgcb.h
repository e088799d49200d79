/*
 * mgcb.h - MonoGame content projects (.mgcb) as build inputs (mgcb.c):
 * `animc build --mgcb PROJECT.mgcb [-o OUT]`.  The project's items become
 * jobs whose outputs go where MGCB puts them (/outputDir:, each item's
 * path or its ;DEST, .xnb); /platform:, the processor parameters Scale
 * and RotationX/Y/Z, the preprocessor lines ($if, $endif, $set) and the
 * response files it includes (/@:FILE, in the project's folder) are
 * honoured; importer and processor names are not needed, since animc
 * chooses its importer by content.
 */
#ifndef ANIMC_BUILD_MGCB_H
#define ANIMC_BUILD_MGCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <animc/animc.h>

#include "said.h"

typedef struct build_mgcb_item {
	char *source;        /* the file, joined to the project's folder */
	char *dest;          /* under the output folder, no extension: "Models/dude" */
	char *link;          /* the ;DEST as written (separators made '/'); NULL: none */
	char *processor;     /* "" when the project names none */
	const char *file;    /* the file of that line: the project or a file it includes (one of
				build_mgcb's files) */
	uint32_t line;       /* of its /build: or /copy: line */
	bool is_copy;        /* /copy:, which MGCB copies as it is: listed, not compiled */
	bool is_dest_no_file;   /* its ;DEST names no file ("Chars/Hero/", ".", ".xnb"): the item fails
				   at its line, `dest` then the destination as written */
	bool has_units;      /* Scale or RotationX/Y/Z given */
	unsigned units_given;   /* which: BUILD_MGCB_SCALE, BUILD_MGCB_ROTATION_X << axis */
	animc_units units;   /* those given; the others 0 */
} build_mgcb_item;

enum { BUILD_MGCB_SCALE = 1, BUILD_MGCB_ROTATION_X = 2 };

typedef struct build_mgcb {
	char *path;          /* the project file, as given */
	char *output_dir;    /* /outputDir: joined to the project's folder; NULL: none */
	const char *output_dir_file;   /* the file of that /outputDir: line (one of files) */
	uint32_t output_dir_line;      /* of that /outputDir: line */
	bool is_output_dir_outside;    /* written with "..": out of the project's folder, or (absolute)
					  not to be checked by its name */
	bool is_output_dir_absolute;   /* written as an absolute path: used when it leads inside the
					  project's folder */
	char platform;       /* the letter of /platform:; 0: none */
	bool is_blank;       /* the project holds no line: empty, or white space and a byte-order mark
				alone (a file caught between its truncation and its writing) */
	build_mgcb_item *items;
	size_t count;
	/* The project's files, as read: the project, then each response file
	 * it includes (/@:FILE).  Each item depends on them all. */
	char **files;
	size_t file_count;
	unsigned warnings;   /* "PROJECT:LINE: warning: ..." printed (a misspelt switch or parameter) */
	build_said_list said;   /* those warnings, for the reports */
} build_mgcb;

/* What a project is read with besides its bytes; zeroed, none of it. */
typedef struct build_mgcb_settings {
	const char *const *defines;  /* preprocessor properties set first: "NAME=VALUE" or "NAME",
					as MGCB's /define: on its command line */
	size_t define_count;
	char platform;               /* --platform's letter, 0: none.  $(Platform) is the name of the
					platform the files are written for: this letter's, else the
					project's /platform:, else Windows (MGCB's default) */
	const bool *allowed;         /* by animc_warning_kind (--allow): warnings of those kinds are
					neither said nor counted; NULL: none */
} build_mgcb_settings;

/*
 * Read a project.  False when it cannot be read or a line is malformed, an
 * option's value is wrong (an unknown platform, a parameter that is no
 * number or has a second '=' or ':'), a response file it includes cannot be read, lies outside the
 * project's folder, includes itself or nests too deep, or an item's
 * output would leave the output folder; each such
 * problem is printed as "PROJECT:LINE: error: ..." on stderr.  A switch
 * neither animc nor MGCB knows, and a processor parameter a letter or two
 * from Scale or RotationX/Y/Z, are warnings ("PROJECT:LINE: warning: ...
 * [KIND]"), with the switch or parameter they may mean; MGCB's other
 * switches are ignored.
 */
bool build_mgcb_read(const char *path, const build_mgcb_settings *settings, build_mgcb *out);
/* (When it returns false, `out` holds only `said`: the error, for the
 * reports of a build that stops on it; build_mgcb_release frees it.) */
/* build_mgcb_read on the project's bytes, its errors printed on
 * `messages`; `path` names it in them and gives the folder its paths are
 * relative to (the response files it includes are read from there).
 * When it returns false, `out` holds nothing. */
bool build_mgcb_parse(const char *path, const uint8_t *data, size_t size, const build_mgcb_settings *settings,
		      FILE *messages, build_mgcb *out);
void build_mgcb_release(build_mgcb *project);

/* The units ITEM is built with, per parameter: those it gives, the others
 * the command line's (`given`: --scale, --rotate; their zeros are the
 * processor's defaults). */
void build_mgcb_item_units(const build_mgcb_item *item, const animc_units *given, animc_units *out);

/* True when animc may write to the project's /outputDir: (that is, when
 * -o does not choose the output folder): none is set, or it lies in the
 * project's folder, written relative to it or as an absolute path.  False
 * when it leaves that folder (through "..", an absolute path elsewhere or
 * through "..", or through a symbolic link: the deepest part of it that
 * exists is resolved), said on `messages` as "PROJECT:LINE: error: ..."
 * and kept in project->said for the reports. */
bool build_mgcb_output_dir_validate(build_mgcb *project, FILE *messages);

/* The platform letter of a MonoGame TargetPlatform name (any case), or 0. */
char build_mgcb_platform_letter(const char *name);
/* The MonoGame TargetPlatform name of a platform letter (the current name
 * where a letter has had two: 'b' is Web), or NULL. */
const char *build_mgcb_platform_name(char letter);

#endif
