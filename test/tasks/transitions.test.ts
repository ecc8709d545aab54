import { expect, it } from 'vitest';
import type { TaskRecord } from '../../src/index.js';
import {
  answer,
  askInput,
  cancelTask,
  claimOutcome,
  finish,
  takeResponse,
  withMessage,
} from '../../src/tasks/transitions.js';

const base: TaskRecord = {
  id: 't',
  owner: 'alice',
  tool: 'x',
  status: 'working',
  createdAt: 0,
  lastUpdatedAt: 0,
  ttlMs: 1_000,
  pollIntervalMs: 100,
};

it('waits for every outstanding request: a partial answer keeps input_required with only the unanswered key', () => {
  const asked = askInput(askInput(base, 1, 'a', { method: 'elicitation/create' })!, 2, 'b', {
    method: 'elicitation/create',
  })!;
  expect(asked).toMatchObject({ status: 'input_required', inputRequests: { a: {}, b: {} }, lastUpdatedAt: 2 });
  const partial = answer(asked, 3, { a: { action: 'accept' }, unknown: { ignored: true } })!;
  expect(partial.status).toBe('input_required');
  expect(Object.keys(partial.inputRequests!)).toEqual(['b']);
  expect(partial.inputResponses).toEqual({ a: { action: 'accept' } });
  const all = answer(partial, 4, { b: { action: 'decline' }, a: { action: 'again' } })!;
  expect(all.status).toBe('working');
  expect(all.inputRequests).toBeUndefined();
  expect(all.inputResponses).toEqual({ a: { action: 'accept' }, b: { action: 'decline' } });
  expect(takeResponse(all, 'a')!.inputResponses).toEqual({ b: { action: 'decline' } });
  expect(answer(all, 5, { a: {} })).toBeUndefined();
});

it('ends once: a terminal task takes no further step', () => {
  const done = finish(base, 9, { status: 'completed', result: { content: [] } })!;
  expect(done).toMatchObject({ status: 'completed', result: { content: [] }, lastUpdatedAt: 9 });
  expect(finish(done, 10, { status: 'cancelled' })).toBeUndefined();
  expect(withMessage(done, 10, 'late')).toBeUndefined();
  expect(askInput(done, 10, 'k', {})).toBeUndefined();
});

it('a claimed outcome is final: a cancel no longer applies, the finish does and clears the claim; a cancelled task cannot be claimed', () => {
  const claimed = claimOutcome(base)!;
  expect(claimed).toMatchObject({ status: 'working', committing: true });
  expect(claimOutcome(claimed)).toBeUndefined();
  expect(cancelTask(claimed, 1, 'cancelled')).toBeUndefined();
  const done = finish(claimed, 2, { status: 'completed', result: { content: [] } })!;
  expect(done.status).toBe('completed');
  expect(done.committing).toBeUndefined();
  const cancelled = cancelTask(base, 3, 'cancelled')!;
  expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'cancelled' });
  expect(claimOutcome(cancelled)).toBeUndefined();
});
