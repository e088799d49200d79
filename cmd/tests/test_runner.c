/*
 * test_runner.c - runs every registered test group and ends with one
 * summary line.  Groups run in file order, the unit tests first and the
 * process-level suites of cmd/tests/ last.
 *
 *     animc_test [-v] [-jN] [PATTERN]
 *
 * PATTERN (a glob) picks tests by name.  With more than one job (the
 * default: one per online CPU), each test runs in a child process of its
 * own, N at a time, the longest first (by the times of the last run); the
 * output of a test that fails or skips is printed whole, in test order, as
 * cmocka prints it (with -v, every test's).  -j1 runs everything in this
 * process, one cmocka run, printing every test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

static animc_test_group *registered;
static bool verbose;   /* -v: print the tests that pass too */

void test_group_register(animc_test_group *group)
{
	group->next = registered;
	registered = group;
}

/* Process-level suites (cmd/tests/) after everything else, then by path. */
static int compare_groups(const void *a, const void *b)
{
	const animc_test_group *x = *(const animc_test_group *const *)a;
	const animc_test_group *y = *(const animc_test_group *const *)b;
	int sx = strncmp(x->file, "cmd/tests/", 10) == 0, sy = strncmp(y->file, "cmd/tests/", 10) == 0;

	return sx != sy ? sx - sy : strcmp(x->file, y->file);
}

/* ------------------------------------------------------------- parallel */

typedef enum outcome { PENDING = 0, PASSED, SKIPPED, FAILED } outcome;

typedef struct child {
	pid_t pid;
	int fd;             /* its stdout and stderr; -1 once read to the end */
	char *text;
	size_t used, capacity;
	outcome result;
	bool exited;
	bool timed_out;     /* killed past the time limit */
} child;

static void append(child *c, const char *data, size_t n)
{
	if (c->used + n + 1 > c->capacity) {
		size_t capacity = c->capacity ? c->capacity * 2 : 4096;

		while (capacity < c->used + n + 1)
			capacity *= 2;
		c->text = realloc(c->text, capacity);
		if (!c->text) {
			perror("animc_test");
			exit(2);
		}
		c->capacity = capacity;
	}
	memcpy(c->text + c->used, data, n);
	c->used += n;
	c->text[c->used] = '\0';
}

/* Run one test in a child whose output goes to a pipe. */
static void start(child *c, const struct CMUnitTest *test)
{
	int fds[2];

	fflush(stdout);
	fflush(stderr);
	if (pipe2(fds, O_CLOEXEC) != 0 || (c->pid = fork()) < 0) {
		perror("animc_test");
		exit(2);
	}
	if (c->pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		/* One pipe for both streams: line buffering keeps their order. */
		setvbuf(stdout, NULL, _IOLBF, 0);
		test_current_name = test->name;
		int failed = _cmocka_run_group_tests("animc", test, 1, NULL, NULL);

		fflush(stdout);
		fflush(stderr);
		_exit(failed ? 1 : 0);
	}
	setpgid(c->pid, c->pid);   /* as the child does: whichever runs first */
	close(fds[1]);
	c->fd = fds[0];
}

/* What a child's cmocka run says about its one test, from its exit status
 * and the line that closed the test. */
static outcome judge(const child *c, int status)
{
	if (c->timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return FAILED;
	return strstr(c->text ? c->text : "", "\n[  SKIPPED ] ") ? SKIPPED : PASSED;
}

/* The child's lines about its test: between cmocka's "Running" header and
 * its own summary, which the runner replaces with one for the whole run. */
static void print_test_output(const child *c, const char *name, int status)
{
	const char *text = c->text ? c->text : "";
	const char *start = strstr(text, "[ RUN      ]");
	const char *end = start ? strstr(start, "[==========]") : NULL;

	if (start)
		fwrite(start, 1, end ? (size_t)(end - start) : strlen(start), stdout);
	else
		fputs(text, stdout);
	if (!WIFEXITED(status))
		printf("[  ERROR   ] %s: the test process died (signal %d)\n[  FAILED  ] %s\n", name,
		       WTERMSIG(status), name);
}

/*
 * Costs: how long each test took last time, kept in $ANIMC_BUILD/test-costs
 * ("seconds<TAB>name" lines), so that the longest start first and overlap
 * the rest, as ctest does.  A test without a recorded cost starts first.
 */
static const char *costs_path(void)
{
	static char path[4096];
	const char *build = getenv("ANIMC_BUILD");

	snprintf(path, sizeof path, "%s/test-costs", build ? build : "build");
	return path;
}

static void read_costs(const struct CMUnitTest *tests, size_t count, double *cost)
{
	FILE *fp = fopen(costs_path(), "r");
	char line[512];

	for (size_t i = 0; i < count; i++)
		cost[i] = 1e9;
	if (!fp)
		return;
	while (fgets(line, sizeof line, fp)) {
		char *tab = strchr(line, '\t'), *nl;

		if (!tab)
			continue;
		*tab = '\0';
		if ((nl = strchr(tab + 1, '\n')))
			*nl = '\0';
		for (size_t i = 0; i < count; i++)
			if (strcmp(tests[i].name, tab + 1) == 0)
				cost[i] = strtod(line, NULL);
	}
	fclose(fp);
}

/* The costs of this run, keeping those of tests it did not run (the units
 * binary and a filtered run share the file with the whole suite). */
static void write_costs(const struct CMUnitTest *tests, size_t count, const double *took)
{
	FILE *in = fopen(costs_path(), "r"), *out;
	char tmp[4200], line[512];

	snprintf(tmp, sizeof tmp, "%s.%ld", costs_path(), (long)getpid());
	out = fopen(tmp, "w");
	if (!out) {
		if (in)
			fclose(in);
		return;
	}
	while (in && fgets(line, sizeof line, in)) {
		char *tab = strchr(line, '\t'), *nl;
		bool ran = false;

		if (!tab)
			continue;
		if ((nl = strchr(tab + 1, '\n')))
			*nl = '\0';
		for (size_t i = 0; i < count && !ran; i++)
			ran = strcmp(tests[i].name, tab + 1) == 0;
		if (!ran)
			fprintf(out, "%s\n", line);
	}
	if (in)
		fclose(in);
	for (size_t i = 0; i < count; i++)
		fprintf(out, "%.3f\t%s\n", took[i], tests[i].name);
	if (fclose(out) != 0 || rename(tmp, costs_path()) != 0)
		remove(tmp);
}

static const double *sort_cost;

static int by_cost(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_cost[x] != sort_cost[y])
		return sort_cost[x] > sort_cost[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* ANIMC_TEST_TIME_LIMIT, else 900 s. */
static double time_limit_s(void)
{
	const char *text = getenv("ANIMC_TEST_TIME_LIMIT");
	char *end;
	double limit = text ? strtod(text, &end) : 0;

	return text && *text && !*end && limit > 0 ? limit : 900;
}

/* Kill the process groups of the running tests past the limit (all of
 * them with a negative `limit`); the next poll's milliseconds to wait. */
static int reap_overdue(child *kids, const size_t *running_tests, size_t running, const double *started,
			double limit)
{
	double now = now_s(), soonest = 1.0;

	for (size_t k = 0; k < running; k++) {
		size_t t = running_tests[k];
		child *c = &kids[t];
		double left = started[t] + limit - now;

		if (c->timed_out)
			continue;
		if (left <= 0) {
			char note[128];

			snprintf(note, sizeof note, "[  ERROR   ] --- still running after %g s: killed\n", limit);
			append(c, note, strlen(note));
			c->timed_out = true;
			kill(-c->pid, SIGKILL);
		} else if (left < soonest) {
			soonest = left;
		}
	}
	return (int)(soonest * 1000) + 1;
}

static int run_parallel(const struct CMUnitTest *tests, size_t count, long jobs)
{
	child *kids = calloc(count ? count : 1, sizeof *kids);
	int *statuses = calloc(count ? count : 1, sizeof *statuses);
	double *cost = calloc(count ? count : 1, sizeof *cost);
	double *took = calloc(count ? count : 1, sizeof *took);
	size_t *order = calloc(count ? count : 1, sizeof *order);
	size_t *running_tests = calloc((size_t)jobs, sizeof *running_tests);
	struct pollfd *pfds = calloc((size_t)jobs, sizeof *pfds);
	double *started = calloc(count ? count : 1, sizeof *started);
	size_t next = 0, printed = 0, running = 0, passed = 0, skipped = 0, failed = 0;
	double limit = time_limit_s();
	struct sigaction stop = { .sa_handler = on_stop_signal };

	if (!kids || !statuses || !cost || !took || !order || !running_tests || !pfds || !started) {
		perror("animc_test");
		return 2;
	}
	read_costs(tests, count, cost);
	for (size_t i = 0; i < count; i++)
		order[i] = i;
	sort_cost = cost;
	qsort(order, count, sizeof *order, by_cost);
	printf("[==========] Running %zu test(s).\n", count);
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);
	while (printed < count) {
		int wait_ms;

		while (running < (size_t)jobs && next < count) {
			size_t t = order[next++];

			took[t] = started[t] = now_s();
			start(&kids[t], &tests[t]);
			running_tests[running++] = t;
		}
		for (size_t k = 0; k < running; k++) {
			pfds[k].fd = kids[running_tests[k]].fd;
			pfds[k].events = POLLIN;
			pfds[k].revents = 0;
		}
		wait_ms = reap_overdue(kids, running_tests, running, started, limit);
		if (running && poll(pfds, running, wait_ms) < 0 && errno != EINTR) {
			perror("animc_test");
			return 2;
		}
		if (stop_signal) {
			int sig = stop_signal;

			reap_overdue(kids, running_tests, running, started, -1);
			signal(sig, SIG_DFL);
			raise(sig);
		}
		for (size_t k = running; k-- > 0;) {
			size_t t = running_tests[k];
			child *c = &kids[t];
			char buf[65536];
			ssize_t got;

			if (!(pfds[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(c->fd, buf, sizeof buf);
			if (got > 0) {
				append(c, buf, (size_t)got);
			} else if (got == 0 || errno != EINTR) {
				close(c->fd);
				c->fd = -1;
				while (waitpid(c->pid, &statuses[t], 0) < 0 && errno == EINTR)
					;
				c->exited = true;
				c->result = judge(c, statuses[t]);
				took[t] = now_s() - took[t];
				running_tests[k] = running_tests[--running];
			}
		}
		/* Print finished tests in test order, as soon as all before them are. */
		for (; printed < count && kids[printed].exited; printed++) {
			child *c = &kids[printed];

			if (verbose || c->result != PASSED) {
				print_test_output(c, tests[printed].name, statuses[printed]);
				fflush(stdout);
			}
			passed += c->result == PASSED;
			skipped += c->result == SKIPPED;
			failed += c->result == FAILED;
		}
	}
	write_costs(tests, count, took);
	printf("[==========] %zu test(s) run.\n", count);
	printf("[  PASSED  ] %zu test(s).\n", passed);
	if (skipped) {
		printf("[  SKIPPED ] %zu test(s), listed below:\n", skipped);
		for (size_t i = 0; i < count; i++)
			if (kids[i].result == SKIPPED)
				printf("[  SKIPPED ] %s\n", tests[i].name);
	}
	if (failed) {
		printf("[  FAILED  ] %zu test(s), listed below:\n", failed);
		for (size_t i = 0; i < count; i++)
			if (kids[i].result == FAILED)
				printf("[  FAILED  ] %s\n", tests[i].name);
		printf("\n %zu FAILED TEST(S)\n", failed);
	}
	for (size_t i = 0; i < count; i++)
		free(kids[i].text);
	free(kids);
	free(statuses);
	free(cost);
	free(took);
	free(order);
	free(running_tests);
	free(pfds);
	free(started);
	return failed ? 1 : 0;
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	animc_test_group **groups;
	struct CMUnitTest *all;
	const char *pattern = NULL;
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	size_t group_count = 0, total = 0, n = 0;
	int failed;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (strncmp(argv[i], "-j", 2) == 0) {
			char *end;

			jobs = strtol(argv[i] + 2, &end, 10);
			if (*end || jobs < 1) {
				fprintf(stderr, "usage: animc_test [-v] [-jN] [PATTERN]\n");
				return 2;
			}
		} else {
			pattern = argv[i];
		}
	}
	if (jobs < 1)
		jobs = 1;
	for (animc_test_group *g = registered; g; g = g->next) {
		group_count++;
		total += g->count;
	}
	groups = calloc(group_count ? group_count : 1, sizeof *groups);
	all = calloc(total ? total : 1, sizeof *all);
	if (!groups || !all)
		return 1;
	group_count = 0;
	for (animc_test_group *g = registered; g; g = g->next)
		groups[group_count++] = g;
	qsort(groups, group_count, sizeof *groups, compare_groups);
	for (size_t g = 0; g < group_count; g++)
		for (size_t t = 0; t < groups[g]->count; t++)
			if (!pattern || fnmatch(pattern, groups[g]->tests[t].name, 0) == 0)
				all[n++] = groups[g]->tests[t];
	if (jobs == 1 || n < 2)
		failed = _cmocka_run_group_tests("animc", all, n, NULL, NULL);
	else
		failed = run_parallel(all, n, jobs);
	free(all);
	free(groups);
	return failed ? 1 : 0;
}
