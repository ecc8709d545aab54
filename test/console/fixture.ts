// A small server for the console tests (and `mcp-fusion dev`): a cart workflow, an invalidating action, a
// tool that throws. Exports the registry and its options as `mcp-fusion dev` finds them.
import { initFusion, type AttachOptions } from '../../src/index.js';

const f = initFusion();
export const gate = f.fsm({
  id: 'cart',
  initial: 'empty',
  states: { empty: { on: { ADD: 'full' } }, full: { on: { PAY: 'paid', CLEAR: 'empty' } }, paid: { type: 'final' } },
});
export const registry = f.registry();
registry.registerAll(
  f
    .action('cart.add')
    .bindState('empty', 'ADD')
    .handle(() => 'added one item'),
  f
    .action('cart.pay')
    .bindState('full', 'PAY')
    .handle(() => 'paid'),
  f
    .action('cart.clear')
    .bindState('full', 'CLEAR')
    .handle(() => 'cleared'),
  f
    .action('sprints.create')
    .invalidates('sprints.*')
    .handle(() => 'created sprint 7'),
  f.query('sprints.list').handle(() => ['sprint 7']),
  f.action('boom').handle(() => {
    throw new Error('the database is down');
  }),
);
export const options: AttachOptions<void> = { fsm: gate, listChangedDebounceMs: 1 };
