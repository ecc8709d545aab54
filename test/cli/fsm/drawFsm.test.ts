import { describe, expect, it } from 'vitest';
import { StateMachineGate } from '../../../src/index.js';
import { fsmGraph } from '../../../src/fsm/fsmGraph.js';
import { toDot } from '../../../src/cli/fsm/toDot.js';
import { toMermaid } from '../../../src/cli/fsm/toMermaid.js';

function gate(): StateMachineGate {
  return new StateMachineGate({
    initial: 'in review',
    states: {
      'in review': { on: { 'OK: go': 'state', REJECT: 'in review' } },
      state: { type: 'final' },
    },
  })
    .bindTool('docs.approve', ['in review'], 'OK: go')
    .bindTool('docs.reject', ['in review'], 'REJECT');
}

describe('drawing an FSM', () => {
  it('derives tools per state and the tools triggering each transition', () => {
    expect(fsmGraph(gate(), ['docs.list', 'docs.approve', 'docs.reject'])).toEqual({
      id: undefined,
      states: [
        { name: 'in review', initial: true, final: false, tools: ['docs.approve', 'docs.reject'] },
        { name: 'state', initial: false, final: true, tools: [] },
      ],
      transitions: [
        { from: 'in review', to: 'state', event: 'OK: go', tools: ['docs.approve'] },
        { from: 'in review', to: 'in review', event: 'REJECT', tools: ['docs.reject'] },
      ],
      everywhere: ['docs.list'],
    });
  });

  it('aliases state names Mermaid cannot take as ids and escapes label text', () => {
    expect(toMermaid(fsmGraph(gate(), ['docs.approve', 'docs.reject']))).toMatchInlineSnapshot(`
      "stateDiagram-v2
        state "in review" as s0
        s0 : docs.approve
        s0 : docs.reject
        state "state" as s1
        s1
        [*] --> s0
        s0 --> s1 : docs.approve (OK#58; go)
        s0 --> s0 : docs.reject (REJECT)
        s1 --> [*]
      "
    `);
  });

  it('quotes every DOT identifier and label', () => {
    const dot = toDot(fsmGraph(gate(), ['docs.approve']));
    expect(dot).toContain('"in review" [label="in review\\n\\ndocs.approve"];');
    expect(dot).toContain('"in review" -> "in review" [label="REJECT (no tool)", style=dashed];');
    expect(dot.startsWith('digraph "fsm" {')).toBe(true);
  });
});
