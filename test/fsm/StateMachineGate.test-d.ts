import { describe, expectTypeOf, it } from 'vitest';
import {
  initFusion,
  StateMachineGate,
  type FsmConfig,
  type FsmSnapshot,
  type FsmStateStore,
  type FsmStateValue,
  type TransitionResult,
} from '../../src/index.js';

const f = initFusion<{ db: unknown; userId: string }>();

describe('FSM state types follow the machine (types)', () => {
  it("compiles the seeds' flat machines under strict: states are strings", async () => {
    // fsm-state-gate.md, Quick Start: f.fsm({ … }) over flat states.
    const gate = f.fsm({
      id: 'checkout',
      initial: 'empty',
      states: {
        empty: { on: { ADD_ITEM: 'has_items' } },
        has_items: { on: { CHECKOUT: 'payment', CLEAR: 'empty' } },
        payment: { on: { PAY: 'confirmed', CANCEL: 'has_items' } },
        confirmed: { type: 'final' },
      },
    });
    const s: string = gate.currentState;
    expectTypeOf(gate.currentState).toEqualTypeOf<string>();
    gate.onTransition((event) => {
      const from: string = event.previousState;
      const to: string = event.currentState;
      void [from, to];
    });

    // fsm-state-gate.md, "use StateMachineGate directly".
    const approval = new StateMachineGate({
      id: 'approval',
      initial: 'draft',
      states: {
        draft: { on: { SUBMIT: 'review' } },
        review: { on: { APPROVE: 'approved', REJECT: 'draft' } },
        approved: { type: 'final' },
      },
    });
    approval.bindTool('doc_submit', ['draft'], 'SUBMIT');
    const result = await approval.transition('SUBMIT');
    const previous: string = result.previousState;
    const current: string = result.currentState;
    expectTypeOf(result).toEqualTypeOf<TransitionResult<string>>();
    const snapshot = approval.snapshot();
    const state: string = snapshot.state;
    expectTypeOf(snapshot).toEqualTypeOf<FsmSnapshot<string>>();
    const initial: string = approval.initialState;
    const gate2 = new StateMachineGate({ initial: 'draft', states: { draft: {}, review: {} } });
    gate2.restore(snapshot);
    void [s, previous, current, state, initial];
  });

  it('types a nested or parallel machine, or one only known as FsmConfig, with the full state value', async () => {
    const nested = f.fsm({
      initial: 'browsing',
      states: { browsing: { on: { PAY: 'payment' } }, payment: { initial: 'card', states: { card: {}, wallet: {} } } },
    });
    expectTypeOf(nested.currentState).toEqualTypeOf<FsmStateValue>();
    expectTypeOf((await nested.transition('PAY')).currentState).toEqualTypeOf<FsmStateValue>();
    expectTypeOf(nested.snapshot().state).toEqualTypeOf<FsmStateValue>();
    // @ts-expect-error a nested machine's state may be an object: it is not a string
    const wrong: string = nested.currentState;
    void wrong;
    const parallel = new StateMachineGate({
      initial: 'review',
      states: { review: { type: 'parallel', states: { legal: { initial: 'open', states: { open: {} } } } } },
    });
    expectTypeOf(parallel.currentState).toEqualTypeOf<FsmStateValue>();
    const config: FsmConfig = { initial: 'a', states: { a: {} } };
    expectTypeOf(new StateMachineGate(config).currentState).toEqualTypeOf<FsmStateValue>();
  });

  it('hands any gate to the serving options and stores, whatever its state type', () => {
    const flat = new StateMachineGate({ initial: 'a', states: { a: {} } });
    const nested = new StateMachineGate({ initial: 'p', states: { p: { initial: 'x', states: { x: {} } } } });
    expectTypeOf(flat).toMatchTypeOf<StateMachineGate>();
    expectTypeOf(nested).toMatchTypeOf<StateMachineGate>();
    f.registry().runtime({ fsm: flat });
    f.registry().runtime({ fsm: nested });
    // The seeds' store writes the gate's snapshot type.
    const store: FsmStateStore = {
      load: async () => undefined,
      save: async (_id: string, snap: FsmSnapshot) => void snap,
    };
    void store.save('s', flat.snapshot());
  });

  it('still refuses a misspelt state field (excess property check)', () => {
    // @ts-expect-error "onn" is not a field of a state
    new StateMachineGate({ initial: 'a', states: { a: { onn: { GO: 'a' } } } });
  });
});
