import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../src/index.js';
import { renewLease, takeOver } from '../../src/tasks/transitions.js';

const run = { era: 'modern' as const, principal: { kind: 'anonymous' as const, key: 'a:x', scopes: [] } };
const lost: TaskRecord = {
  id: 't',
  owner: 'alice',
  tool: 'jobs.run',
  status: 'input_required',
  createdAt: 0,
  lastUpdatedAt: 0,
  ttlMs: 60_000,
  pollIntervalMs: 100,
  leaseUntil: 1_000,
  instance: 'A',
  attempt: 1,
  run,
  inputRequests: { 'elicit-1': {} },
};
const retry = { onLost: 'retry' as const, maxAttempts: 2, instance: 'B', leaseUntil: 3_000 };

describe('takeOver: the policy applied to a task whose lease ran out', () => {
  it('applies nothing while the lease holds, or to a terminal task', () => {
    expect(takeOver(lost, 999, retry)).toBeUndefined();
    expect(takeOver({ ...lost, status: 'completed' }, 2_000, retry)).toBeUndefined();
  });

  it('retry: working again as the next attempt, owned by the new instance, its input requests dropped', () => {
    const next = takeOver(lost, 1_000, retry)!;
    expect(next).toMatchObject({
      status: 'working',
      attempt: 2,
      instance: 'B',
      leaseUntil: 3_000,
      lastUpdatedAt: 1_000,
    });
    expect(next.statusMessage).toBe(
      'Attempt 2 of 2: the server instance running the previous attempt stopped; running again.',
    );
    expect(next.inputRequests).toBeUndefined();
    // The lost instance's renewal names attempt 1: it no longer applies, so that instance stops its run.
    expect(renewLease(next, 5_000, 1)).toBeUndefined();
    expect(renewLease(next, 5_000, 2)).toMatchObject({ leaseUntil: 5_000 });
  });

  it('fails, saying whether calling again is safe: not declared, attempts spent, no call kept, or lost while applying', () => {
    const text = (next: TaskRecord | undefined) => [next?.status, next?.error?.message];
    expect(text(takeOver(lost, 2_000, { ...retry, onLost: 'fail', maxAttempts: 1 }))).toEqual([
      'failed',
      'The server instance running task "t" (jobs.run, attempt 1) stopped before it finished. Its work may be partly done and "jobs.run" is not declared safe to repeat: check its effects before calling again.',
    ]);
    const spent =
      'The server instance running task "t" (jobs.run, attempt 2) stopped before it finished. "jobs.run" is safe to repeat: call it again.';
    expect(text(takeOver({ ...lost, attempt: 2 }, 2_000, retry))).toEqual(['failed', spent]);
    const { run: _kept, ...noRun } = lost;
    expect(text(takeOver(noRun, 2_000, retry))[0]).toBe('failed');
    expect(text(takeOver({ ...lost, committing: true }, 2_000, retry))).toEqual([
      'failed',
      'The server instance running task "t" (jobs.run, attempt 1) stopped before it finished. It stopped while applying its result, so the result may have taken effect: read the current state before calling again.',
    ]);
  });
});
