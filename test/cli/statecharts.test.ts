import { describe, expect, it } from 'vitest';
import { cli, fixture } from './_run.js';

const names = (stdout: string): string[] =>
  (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

describe('the CLI on nested and parallel states', () => {
  it('inspect --state takes a dotted path; a parent binding covers the child', async () => {
    const card = await cli('inspect', fixture('order-statechart.ts'), '--state', 'payment.card', '--json');
    expect(card.code).toBe(0);
    expect(names(card.stdout)).toEqual(['pay.switch', 'pay.cancel']);
    const wallet = await cli('inspect', fixture('order-statechart.ts'), '--state', 'payment.wallet', '--json');
    expect(names(wallet.stdout)).toEqual(['pay.cancel']);
  });

  it('inspect --state takes parallel regions as comma-separated paths or as a JSON value', async () => {
    const both = await cli(
      'inspect',
      fixture('order-statechart.ts'),
      '--state',
      'review.legal.open,review.tech.ok',
      '--json',
    );
    expect(both.code).toBe(0);
    expect(names(both.stdout)).toEqual(['legal.approve']);
    const json = await cli(
      'inspect',
      fixture('order-statechart.ts'),
      '--state',
      '{"review":{"legal":"open","tech":"open"}}',
      '--json',
    );
    expect(names(json.stdout)).toEqual(['legal.approve', 'tech.approve']);
    const bad = await cli('inspect', fixture('order-statechart.ts'), '--state', 'payment.cash');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(
      'FSM "order" has no state "payment.cash"; use one of: browsing, payment, payment.card, payment.wallet, review, review.legal, review.legal.open, review.legal.ok, review.tech, review.tech.open, review.tech.ok (dotted paths for nested states',
    );
  });

  it('diagram draws nested states inside their parent and parallel regions apart', async () => {
    const { code, stdout } = await cli('diagram', fixture('order-statechart.ts'));
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "---
      title: order
      ---
      stateDiagram-v2
        browsing : order.pay
        browsing : order.review
        payment : pay.cancel
        state payment {
          state "card" as s0
          s0 : pay.switch
          state "wallet" as s1
          s1
          [*] --> s0
        }
        state review {
          state "legal" as s2
          state s2 {
            state "open" as s3
            s3 : legal.approve
            state "ok" as s4
            s4
            [*] --> s3
          }
          --
          state "tech" as s5
          state s5 {
            state "open" as s6
            s6 : tech.approve
            state "ok" as s7
            s7
            [*] --> s6
          }
        }
        [*] --> browsing
        browsing --> payment : order.pay (PAY)
        browsing --> review : order.review (REVIEW)
        payment --> browsing : pay.cancel (CANCEL)
        s0 --> s1 : pay.switch (SWITCH)
        s3 --> s4 : legal.approve (APPROVE_LEGAL)
        s6 --> s7 : tech.approve (APPROVE_TECH)
      "
    `);
  });
});
