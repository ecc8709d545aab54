import { describe, expect, it } from 'vitest';
import { ByteLedger, isRefusal, SERVER_HOLDER, type Hold, type LedgerRefusal } from '../../src/ledger/index.js';
import { createClock } from '../../src/testing/index.js';

const MiB = 1024 * 1024;
const alice = { principal: 'u:alice', peer: '10.0.0.1' };
const bob = { principal: 'u:bob', peer: '10.0.0.1' };
const carol = { principal: 'u:carol', peer: '10.0.0.2' };

function held(result: Hold | LedgerRefusal): Hold {
  if (isRefusal(result)) throw new Error(`refused: ${result.message}`);
  return result;
}

describe('ByteLedger', () => {
  it('counts holds per principal, per peer, per kind and in total, and gives them back on release', () => {
    const ledger = new ByteLedger({ perPrincipal: 4 * MiB, perPeer: 6 * MiB, total: 10 * MiB });
    const a = held(ledger.take('task', alice, MiB));
    const b = held(ledger.take('body', bob, 2 * MiB));
    expect(ledger.principalBytes('u:alice')).toBe(MiB);
    expect(ledger.principalBytes('u:bob', 'body')).toBe(2 * MiB);
    expect(ledger.peerBytes('10.0.0.1')).toBe(3 * MiB);
    expect(ledger.byKind()).toMatchObject({ task: MiB, body: 2 * MiB, listen: 0 });
    expect(ledger.bytes).toBe(3 * MiB);
    a.release();
    a.release();
    b.release();
    expect(ledger.bytes).toBe(0);
    expect(ledger.peerBytes('10.0.0.1')).toBe(0);
  });

  it('refuses a principal past its budget with 429 and a text that says what to do, holding nothing', () => {
    const ledger = new ByteLedger({ perPrincipal: 2 * MiB, retryAfterSeconds: 7 });
    held(ledger.take('task', alice, 1.5 * MiB));
    const refused = ledger.take('listen', alice, MiB);
    expect(isRefusal(refused)).toBe(true);
    expect(refused).toMatchObject({ budget: 'principal', kind: 'listen', status: 429, retryAfterSeconds: 7 });
    expect((refused as LedgerRefusal).message).toMatch(
      /already holds 1\.5 MiB for you .*limit is 2 MiB.*retry after 7 s/,
    );
    expect(ledger.principalBytes('u:alice')).toBe(1.5 * MiB);
    expect(isRefusal(ledger.take('listen', carol, MiB))).toBe(false);
  });

  it('refuses a peer past its budget even when each principal on it is within its own', () => {
    const ledger = new ByteLedger({ perPrincipal: 4 * MiB, perPeer: 5 * MiB });
    held(ledger.take('body', alice, 3 * MiB));
    const refused = ledger.take('body', bob, 3 * MiB);
    expect(refused).toMatchObject({ budget: 'peer', status: 429 });
    expect((refused as LedgerRefusal).message).toMatch(/for your network address/);
    expect(isRefusal(ledger.take('body', carol, 3 * MiB))).toBe(false);
  });

  it('refuses past the total with 503, and counts the server’s own output in the total only', () => {
    const ledger = new ByteLedger({ perPrincipal: 8 * MiB, perPeer: 8 * MiB, total: 4 * MiB });
    held(ledger.take('log', SERVER_HOLDER, 3 * MiB));
    expect(ledger.principalBytes(SERVER_HOLDER.principal)).toBe(0);
    const refused = ledger.take('task', carol, 2 * MiB);
    expect(refused).toMatchObject({ budget: 'total', status: 503 });
    expect((refused as LedgerRefusal).message).toMatch(/holds all the client data it allows/);
  });

  it('grows a hold only within the budgets, and a refused growth changes nothing', () => {
    const ledger = new ByteLedger({ perPrincipal: 2 * MiB });
    const body = held(ledger.take('body', alice, 0));
    expect(body.resize(MiB)).toBeUndefined();
    const refused = body.resize(3 * MiB);
    expect(refused).toMatchObject({ budget: 'principal', bytes: 3 * MiB });
    expect(body.bytes).toBe(MiB);
    expect(body.resize(10)).toBeUndefined();
    expect(ledger.principalBytes('u:alice')).toBe(10);
    body.release();
    expect(() => body.resize(1)).toThrow(/released/);
  });

  it('ends holds whose data expires on its own when the clock passes their expiry', () => {
    const clock = createClock();
    const ledger = new ByteLedger({}, clock);
    held(ledger.take('event', alice, 1000, { expiresAt: clock.now() + 60_000 }));
    held(ledger.take('event', carol, 500));
    clock.advance(30_000);
    expect(ledger.bytes).toBe(1500);
    clock.advance(30_000);
    expect(ledger.bytes).toBe(500);
  });

  it('refuses bad budgets and sizes with what was wrong', () => {
    expect(() => new ByteLedger({ total: 0 })).toThrow(/heldBytes\.total must be a positive integer/);
    expect(() => new ByteLedger().take('task', alice, Number.NaN)).toThrow(/non-negative number of bytes/);
  });
});
