/*
 * scheduler.c - decides what runs (runner.h): the jobs that need a compile,
 * slow ones first, each through the gate in front of the runner, then to
 * the runner, until every one is done or a signal stops the run.
 */
#include <stdint.h>
#include <stdlib.h>

#include "runner.h"
#include "engine.h"

typedef struct schedule {
	build_ctx *ctx;
	build_runner *runner;
	const build_gate *gate;
	const build_run_hooks *hooks;
	size_t *order;       /* job indices in dispatch order */
	size_t count, next;  /* jobs to dispatch; dispatched (or settled) so far */
} schedule;

static bool needs_dispatch(const build_job *j)
{
	return j->needs_compile && !j->is_done;
}

size_t build_schedule_count(const build_ctx *ctx)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->plan.count; i++)
		n += needs_dispatch(&ctx->plan.jobs[i]);
	return n;
}

/* Jobs that took long last time (or are large) first, so that a slow file
 * does not end the run alone; the rest in plan order. */
static size_t *dispatch_order(const build_plan *plan, size_t *count)
{
	size_t *order = malloc((plan->count ? plan->count : 1) * sizeof *order), n = 0;

	if (!order)
		return NULL;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < plan->count; i++) {
			const build_job *j = &plan->jobs[i];
			bool heavy = (j->previous && j->previous->time_s >= 1.0) || j->size >= (1u << 20);

			if (needs_dispatch(j) && heavy == (pass == 0))
				order[n++] = i;
		}
	*count = n;
	return order;
}

/* The next job in dispatch order for the runner, settling those the gate
 * settles on the way; SIZE_MAX when none is left, or when the gate holds
 * the next one back (*is_waiting set, *wait_s lowered).  Does not take the
 * job: the caller moves s->next on. */
static size_t next_to_run(schedule *s, bool is_runner_free, double *wait_s, bool *is_waiting)
{
	const build_gate *gate = s->gate;

	while (s->next < s->count) {
		size_t index = s->order[s->next];
		double gate_wait_s = 0;

		if (!gate)
			return index;
		gate->ahead(gate->state, s->order, s->count, s->next);
		switch (gate->check(gate->state, index, is_runner_free, &gate_wait_s)) {
		case BUILD_GATE_DONE:
			s->next++;
			build_runner_done(s->runner, index);
			continue;
		case BUILD_GATE_WAIT:
			*is_waiting = true;
			if (gate_wait_s < *wait_s)
				*wait_s = gate_wait_s;
			return SIZE_MAX;
		case BUILD_GATE_RUN:
			return index;
		}
	}
	return SIZE_MAX;
}

/* Workers that the jobs the gate lets through will keep busy are made
 * before the gate is first asked (the cache's first lookup has its thread
 * load libcurl: a fork during the load would wait for it). */
static void warm_up(schedule *s)
{
	unsigned bypassed = 0;

	if (!s->gate || !s->gate->is_bypassed)
		return;
	for (size_t k = 0; k < s->count && bypassed < 1024; k++)
		bypassed += s->gate->is_bypassed(s->gate->state, s->order[k]);
	s->runner->ops->warm(s->runner, bypassed);
}

/* Start jobs while the gate lets them through.  With no gate every job
 * goes at once; with one, a job goes once the gate says so, in dispatch
 * order, and one held back holds back those after it. */
static void dispatch(schedule *s, double *wait_s, bool *is_waiting)
{
	build_runner *r = s->runner;

	while (s->next < s->count) {
		size_t pick = next_to_run(s, r->ops->is_free(r), wait_s, is_waiting);

		if (pick == SIZE_MAX)
			break;
		r->ops->start(r, pick);
		s->next++;
	}
}

bool build_schedule(build_ctx *ctx, build_runner *runner, const build_gate *gate,
		    const build_run_hooks *hooks)
{
	schedule s = { ctx, runner, gate, hooks, NULL, 0, 0 };
	bool is_stopped = false;

	s.order = dispatch_order(&ctx->plan, &s.count);
	if (!s.order) {
		build_run_out_of_memory(ctx, "ordering the sources");
		return false;
	}
	if (s.count)
		warm_up(&s);
	while (s.next < s.count || runner->ops->pending(runner)) {
		double wait_s = 0.25;
		bool is_waiting = false;

		if (*ctx->stop_signal || ctx->run_failure) {
			is_stopped = true;
			break;
		}
		dispatch(&s, &wait_s, &is_waiting);
		/* The last jobs were settled by the gate: nothing to wait for. */
		if (s.next == s.count && !runner->ops->pending(runner))
			break;
		/* A failed wait ends the run; the jobs not done stay uncommitted. */
		if (!runner->ops->wait(runner, wait_s, is_waiting ? gate->fd(gate->state) : -1, s.next == s.count)) {
			if (!ctx->run_failure)
				build_run_fail(ctx, "waiting for the compiles failed");
			is_stopped = true;
			break;
		}
		if (hooks && hooks->on_tick) {
			runner->ops->note_at_hand(runner);
			hooks->on_tick(hooks->user);
		}
	}
	free(s.order);
	return !is_stopped;
}
