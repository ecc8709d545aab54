import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { TaskRecord } from '../../src/index.js';
import { isTerminal } from '../../src/tasks/types.js';
import {
  answer,
  askInput,
  finish,
  leaseExpired,
  renewLease,
  takeResponse,
  withMessage,
} from '../../src/tasks/transitions.js';

const start: TaskRecord = {
  id: 't',
  owner: 'alice',
  tool: 'x',
  status: 'working',
  createdAt: 0,
  lastUpdatedAt: 0,
  ttlMs: 1_000,
  pollIntervalMs: 100,
};
const key = fc.constantFrom('a', 'b', 'c');
const step = fc.oneof(
  fc.record({ kind: fc.constant('message' as const), text: fc.string() }),
  fc.record({ kind: fc.constant('ask' as const), key }),
  fc.record({ kind: fc.constant('answer' as const), keys: fc.array(key, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('take' as const), key }),
  fc.record({
    kind: fc.constant('finish' as const),
    status: fc.constantFrom('completed' as const, 'failed' as const, 'cancelled' as const),
  }),
  fc.record({ kind: fc.constant('renew' as const), until: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant('expire' as const) }),
);

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function apply(record: TaskRecord, s: Step, now: number): TaskRecord | undefined {
  switch (s.kind) {
    case 'message':
      return withMessage(record, now, s.text);
    case 'ask':
      return askInput(record, now, s.key, { method: 'elicitation/create' });
    case 'answer':
      return answer(record, now, Object.fromEntries(s.keys.map((k) => [k, { action: 'accept' }])));
    case 'take':
      return takeResponse(record, s.key);
    case 'finish':
      return finish(
        record,
        now,
        s.status === 'completed'
          ? { status: 'completed', result: { content: [] } }
          : s.status === 'failed'
            ? { status: 'failed', error: { code: -32603, message: 'x' } }
            : { status: 'cancelled' },
      );
    case 'renew':
      return renewLease(record, s.until);
    default:
      return leaseExpired(record, now);
  }
}

it('over any sequence of steps: a terminal task never changes, input_required means requests are outstanding, and times never go back', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      let record = start;
      let now = 0;
      for (const s of steps) {
        now += 1;
        const next = apply(record, s, now);
        if (isTerminal(record.status)) expect(next).toBeUndefined();
        if (next === undefined) continue;
        expect(next.createdAt).toBe(record.createdAt);
        expect(next.lastUpdatedAt).toBeGreaterThanOrEqual(record.lastUpdatedAt);
        if (next.status === 'input_required') expect(Object.keys(next.inputRequests ?? {}).length).toBeGreaterThan(0);
        if (next.status === 'working') expect(next.inputRequests).toBeUndefined();
        if (isTerminal(next.status))
          expect([next.inputRequests, next.inputResponses, next.leaseUntil]).toEqual([undefined, undefined, undefined]);
        record = next;
      }
    }),
  );
});
