import { describe, expect, it } from 'vitest';
import { provideOptional, requireOptional } from '../../src/_internal/loadOptional.js';
import { initFsmEngine, MissingPeerError, StateMachineGate } from '../../src/index.js';
import { setXStateModule } from '../../src/advanced/index.js';
import { checkout } from './fixtures.js';

// Each test file runs in its own module graph, so hiding xstate here affects no other file.
describe('initFsmEngine', () => {
  it('resolves true when xstate is installed, and auto gates use it', async () => {
    expect(await initFsmEngine()).toBe(true);
    expect(await new StateMachineGate(checkout).engine()).toBe('xstate');
  });

  it('resolves false without xstate: auto gates fall back, an explicit xstate engine says what to install', async () => {
    const real = await import('xstate');
    provideOptional('xstate', undefined);
    try {
      expect(await initFsmEngine()).toBe(false);
      const auto = new StateMachineGate(checkout);
      expect(await auto.engine()).toBe('builtin');
      expect(await auto.transition('ADD_ITEM')).toEqual({
        changed: true,
        previousState: 'empty',
        currentState: 'has_items',
      });
      const strict = new StateMachineGate(checkout, { engine: 'xstate' });
      const error = await strict.transition('ADD_ITEM').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingPeerError);
      expect((error as Error).message).toMatchInlineSnapshot(
        `"the FSM State Gate XState engine needs the optional package "xstate"; run \`npm install xstate\` or choose the built-in engine."`,
      );
    } finally {
      provideOptional('xstate', real);
    }
  });

  it('uses a module the application injected', async () => {
    const real = await import('xstate');
    provideOptional('xstate', real);
    expect(await initFsmEngine()).toBe(true);
    expect(await new StateMachineGate(checkout).engine()).toBe('xstate');
  });

  it('setXStateModule(undefined) forces the built-in engine; setXStateModule(xstate) brings XState back', async () => {
    const real = await import('xstate');
    setXStateModule(undefined);
    try {
      expect(await initFsmEngine()).toBe(false);
      expect(await new StateMachineGate(checkout).engine()).toBe('builtin');
    } finally {
      setXStateModule(real);
    }
    expect(await new StateMachineGate(checkout).engine()).toBe('xstate');
  });

  it('requireOptional names the purpose it was given', async () => {
    provideOptional('xstate', undefined);
    try {
      await expect(requireOptional('xstate', 'drawing the FSM')).rejects.toThrow(
        'drawing the FSM needs the optional package "xstate"; run `npm install xstate`',
      );
    } finally {
      provideOptional('xstate', await import('xstate'));
    }
  });
});
