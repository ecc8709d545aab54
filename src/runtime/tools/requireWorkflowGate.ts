import { AttachError } from '../../errors/FusionError.js';
import type { Surface } from '../../surface/compileSurface.js';

/**
 * Refuses to serve tools bound to workflow states (`.bindState()`) without a workflow gate: without the `fsm`
 * option nothing would gate them, so they would be listed and callable in every state.
 */
export function requireWorkflowGate(surface: Surface): void {
  const bound = surface.tools.filter((t) => t.fsm !== undefined).map((t) => t.name);
  if (bound.length === 0) return;
  const shown = bound.slice(0, 5).map((n) => `"${n}"`);
  const names = bound.length > 5 ? `${shown.join(', ')} and ${bound.length - 5} more` : shown.join(', ');
  throw new AttachError(
    'FSM_MISSING',
    `${bound.length === 1 ? 'Tool' : 'Tools'} ${names} ${bound.length === 1 ? 'is' : 'are'} bound to workflow states with .bindState(), but no workflow gate is served, so nothing would gate ${bound.length === 1 ? 'it' : 'them'}. Pass the machine as the \`fsm\` option (startServer(registry, { fsm }), createFusionApp(registry, { fsm }), registry.attachToServer(server, { fsm }), createTestClient(registry, { fsm })), or remove .bindState() from ${bound.length === 1 ? 'this tool' : 'these tools'}.`,
    { tools: bound },
  );
}
