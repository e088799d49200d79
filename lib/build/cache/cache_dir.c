/*
 * cache_dir.c - the folder store of the build cache (--cache-dir).
 *
 * A folder cache has the remote's layout, DIR/ac/<hex> and DIR/cas/<hex>, so
 * a folder nginx serves and a --cache-dir folder are the same thing.  Each
 * file is written under a name no other writer uses (host, process, counter)
 * in the same folder and renamed into place: on a local disk and on NFS a
 * reader sees a whole entry or none, and two machines storing one entry at
 * once each rename a whole file over the other's.  Readers check every blob
 * against its digest (and the entry's own header line), so a damaged file is
 * a miss, removed so that the next store writes it again (left as it is
 * when the cache is read-only: such a build changes nothing there).  Runs
 * on the cache's thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cache_internal.h"

static const char *const kind_names[2] = { "ac", "cas" };
enum { KIND_AC, KIND_CAS };

static char *dir_path(const cache_dir *d, int kind, const char *hex)
{
	return cli_path_join(d->path, kind_names[kind], hex);
}

/* Take a damaged file out, unless the cache is read-only: whether it is
 * gone, for the warning to say. */
static bool dir_unlink(const cache_dir *d, const char *path)
{
	return !d->is_read_only && unlink(path) == 0;
}

static bool dir_remove(const cache_dir *d, int kind, const char *hex)
{
	char *path = dir_path(d, kind, hex);
	bool is_removed = path && dir_unlink(d, path);

	free(path);
	return is_removed;
}

/* 1: read, 0: not there, -1: failed (warned of).  A file longer than
 * `max_bytes` is damaged: removed (see dir_unlink), and a miss. */
static int dir_read(cache_dir *d, int kind, const char *hex, size_t max_bytes, uint8_t **data,
		    size_t *size)
{
	char *path = dir_path(d, kind, hex);
	struct stat st;
	int fd, rc = -1;
	size_t done = 0;

	*data = NULL;
	if (!path)
		return -1;
	/* Not through a symbolic link: the file at its far end lies
	 * outside the cache folder, wherever whoever can write there chose. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			rc = 0;
		else if (errno == ELOOP)
			cache_warn(d->cache, CLI_CACHE_DIR_READ, "cache folder '%s': '%s' is a symbolic link, not a "
				   "file animc stores; not read through it", d->path, path);
		else
			cache_warn(d->cache, CLI_CACHE_DIR_READ, "cache folder '%s': cannot read '%s': %s",
				   d->path, path, strerror(errno));
		free(path);
		return rc;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		cache_warn(d->cache, CLI_CACHE_DIR_READ, "cache folder '%s': '%s' is not a readable file",
			   d->path, path);
		goto out;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		bool is_removed = dir_unlink(d, path);

		cache_warn(d->cache, CLI_CACHE_CORRUPT,
			   "cache folder '%s': '%s' is longer than it can be; %scompiling instead", d->path, path,
			   is_removed ? "removed, " : "");
		goto out;
	}
	*data = malloc((size_t)st.st_size + 1);
	if (!*data)
		goto out;
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, *data + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done != (size_t)st.st_size) {
		cache_warn(d->cache, CLI_CACHE_DIR_READ, "cache folder '%s': cannot read '%s'", d->path, path);
		free(*data);
		*data = NULL;
		goto out;
	}
	(*data)[done] = 0;
	*size = done;
	rc = 1;
out:
	close(fd);
	free(path);
	return rc;
}

/* Whether the file at `path` holds exactly `size` bytes of `data`. */
static bool dir_holds(const char *path, const uint8_t *data, size_t size)
{
	uint8_t buffer[16384];
	size_t done = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	bool is_same;

	if (fd < 0)
		return false;
	is_same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size == size;
	while (is_same && done < size) {
		size_t want = size - done < sizeof buffer ? size - done : sizeof buffer;
		ssize_t n = read(fd, buffer, want);

		if (n < 0 && errno == EINTR)
			continue;
		is_same = n > 0 && memcmp(buffer, data + done, (size_t)n) == 0;
		done += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	return is_same;
}

/* Write one file: a name of this writer's own in the same folder, then a
 * rename.  A blob already there with its bytes is left as it is (a read
 * costs less than a write, on NFS above all); one whose bytes differ (a
 * damaged blob of the right size) is replaced. */
static bool dir_write(cache_dir *d, int kind, const char *hex, const uint8_t *data, size_t size)
{
	char *path = dir_path(d, kind, hex), *temp = NULL;
	cli_error err;
	const uint8_t *p = data;
	size_t left = size;
	int fd = -1;

	if (!path)
		return false;
	if (kind == KIND_CAS && dir_holds(path, data, size)) {
		free(path);
		return true;
	}
	if (!d->has_kind[kind]) {
		char *folder = cli_path_join(d->path, kind_names[kind], NULL);

		if (!folder || !cli_mkdir_p(folder, &err)) {
			cache_warn(d->cache, CLI_CACHE_DIR_WRITE, "cache folder '%s': %s; not storing there",
				   d->path, folder ? err.message : "out of memory");
			free(folder);
			goto fail;
		}
		free(folder);
		d->has_kind[kind] = true;
	}
	if (asprintf(&temp, "%s/%s/.%s.%s.%ld.%lu.tmp", d->path, kind_names[kind], hex, d->host,
		     (long)getpid(), ++d->temp_counter) < 0) {
		temp = NULL;
		goto fail;
	}
	fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		goto fail_errno;
	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail_errno;
		p += n;
		left -= (size_t)n;
	}
	if (close(fd) != 0) {
		fd = -1;
		goto fail_errno;
	}
	fd = -1;
	if (rename(temp, path) != 0)
		goto fail_errno;
	free(temp);
	free(path);
	return true;
fail_errno:
	cache_warn(d->cache, CLI_CACHE_DIR_WRITE, "cache folder '%s': cannot write '%s': %s; not storing there",
		   d->path, path, strerror(errno ? errno : EIO));
fail:
	if (fd >= 0)
		close(fd);
	if (temp)
		unlink(temp);
	free(temp);
	free(path);
	d->is_writable = false;
	return false;
}

/* Blobs first, the entry last: a reader that finds the entry finds them. */
void cache_dir_store(cache_dir *d, const char *hex, const cli_action *action, uint8_t *const *blobs,
		      const uint8_t *entry, size_t entry_size)
{
	for (size_t i = 0; i < action->output_count && d->is_writable; i++) {
		char blob_hex[CLI_SHA256_HEX_BYTES];

		if (!action->outputs[i].digest.size_bytes)
			continue;
		cli_hex(action->outputs[i].digest.sha256, CLI_SHA256_BYTES, blob_hex);
		if (!dir_write(d, KIND_CAS, blob_hex, blobs[i], action->outputs[i].digest.size_bytes))
			return;
	}
	if (d->is_writable)
		dir_write(d, KIND_AC, hex, entry, entry_size);
}

bool cache_dir_lookup(cache_dir *d, const char *hex, cli_cache_result *result)
{
	uint8_t *entry, **blobs;
	size_t size;
	cli_action action;
	cli_error err;
	bool ok = true;

	if (dir_read(d, KIND_AC, hex, CLI_ACTION_MAX_BYTES, &entry, &size) != 1)
		return false;
	if (!cli_action_decode(entry, size, &action, &err)) {
		bool is_removed = dir_remove(d, KIND_AC, hex);

		cache_warn(d->cache, CLI_CACHE_CORRUPT,
			   "cache folder '%s': entry ac/%s is damaged (%s); %scompiling instead", d->path, hex,
			   err.message, is_removed ? "removed, " : "");
		free(entry);
		return false;
	}
	free(entry);
	blobs = calloc(action.output_count ? action.output_count : 1, sizeof *blobs);
	for (size_t i = 0; blobs && ok && i < action.output_count; i++) {
		const cli_digest *digest = &action.outputs[i].digest;
		char blob_hex[CLI_SHA256_HEX_BYTES];
		int rc;

		if (!digest->size_bytes) {
			ok = (blobs[i] = calloc(1, 1)) != NULL;
			continue;
		}
		cli_hex(digest->sha256, CLI_SHA256_BYTES, blob_hex);
		rc = dir_read(d, KIND_CAS, blob_hex, digest->size_bytes, &blobs[i], &size);
		if (rc == 1 && !cli_digest_matches(blobs[i], size, digest)) {
			bool is_removed = dir_remove(d, KIND_CAS, blob_hex);

			cache_warn(d->cache, CLI_CACHE_CORRUPT,
				   "cache folder '%s': cas/%s does not match its digest; %scompiling instead",
				   d->path, blob_hex, is_removed ? "removed, " : "");
			rc = -1;
		}
		ok = rc == 1;
	}
	if (blobs && ok && cli_action_to_result(&action, blobs, result)) {
		free(blobs);
		return true;
	}
	for (size_t i = 0; blobs && i < action.output_count; i++)
		free(blobs[i]);
	free(blobs);
	cli_action_release(&action);
	return false;
}

/* -------------------------------------------------------------- lookups */

bool cache_dir_init(cache_dir *d, cli_cache *cache, const char *path, bool is_read_only)
{
	size_t len = strlen(path);

	memset(d, 0, sizeof *d);
	d->cache = cache;
	while (len > 1 && path[len - 1] == '/')
		len--;
	d->path = strndup(path, len);
	d->is_read_only = is_read_only;
	d->is_writable = !is_read_only;
	if (gethostname(d->host, sizeof d->host - 1) != 0)
		snprintf(d->host, sizeof d->host, "host");
	for (char *p = d->host; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'))
			*p = '-';
	return d->path != NULL;
}

void cache_dir_release(cache_dir *d)
{
	free(d->path);
	memset(d, 0, sizeof *d);
}
