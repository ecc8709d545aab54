import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { FusionRuntime } from '../../runtime/FusionRuntime.js';
import { staleResourceUris } from '../../runtime/content/systemResources.js';
import type { WorkflowChange } from '../../workflow/WorkflowRuntime.js';
import type { FusionApp } from './FusionApp.js';
import type { LegacySessions } from '../legacy/LegacySessions.js';
import type { ModernDispatcher } from '../modern/ModernDispatcher.js';

/** The app's notifications: what {@link FusionApp} announces, and the changes the runtime reports. */
export interface AppNotifications extends Pick<
  FusionApp,
  'notifyResourceUpdated' | 'notifyResourceDeleted' | 'notifyPromptsChanged'
> {
  /** Hears a workflow instance change (the `onWorkflowChange` hook): its URI's listeners and subscribers learn it. */
  workflowChanged(change: WorkflowChange): void;
  /** Stops hearing the runtime's invalidations and tool changes (the app is closing). */
  stop(): void;
}

/**
 * Wires the runtime's changes to both eras: an invalidation updates `fusion://stale/<pattern>` and every
 * resource of `registry` that reflects the invalidated domain, a run-time tool switch becomes
 * `tools/list_changed` on modern listen streams (and `resources/list_changed` when it changes a skill), and a
 * workflow change updates its instance's URI.
 */
export function appNotifications(
  runtime: FusionRuntime,
  registry: { readonly resources: ReadonlyArray<{ uri: string; reflects?: readonly string[] | undefined }> },
  eras: { readonly modern: ModernDispatcher; readonly legacy: LegacySessions; readonly shared?: ServerEventBus },
): AppNotifications {
  const { modern, legacy, shared } = eras;
  const subscriptions = () => runtime.features.subscriptions;
  const publish = (uri: string) =>
    void subscriptions()
      ?.publish(uri)
      ?.catch(() => {});
  // Instances sharing a bus: legacy subscribers hear every instance's updates where the listen streams do,
  // this instance's own included (the bus hands those to this process's listeners at once).
  const stopShared = shared?.subscribe((event) => {
    if (event.kind === 'resource_updated') publish(event.uri);
  });
  const changed = (uri: string): void => {
    modern.notify.resourceUpdated(uri);
    if (shared === undefined) publish(uri);
  };
  // State Sync meets resources: for modern listen streams and legacy subscribers that named them.
  const stopInvalidations = runtime.tools.onInvalidation((patterns) => {
    for (const uri of staleResourceUris(patterns, registry.resources)) changed(uri);
  });
  const stopToolsChanged = runtime.tools.onToolsChanged(() => modern.notify.toolsChanged());
  // A switch that changes what a skill says changes the skill files, which are resources.
  const stopSkillsChanged = runtime.skills?.onChange(() => modern.notify.resourcesChanged());
  return {
    async notifyResourceUpdated(uri: string) {
      modern.notify.resourceUpdated(uri);
      if (shared === undefined) await subscriptions()?.publish(uri);
    },
    notifyPromptsChanged() {
      modern.notify.promptsChanged();
      legacy.broadcast({ method: 'notifications/prompts/list_changed' });
    },
    async notifyResourceDeleted(uri: string) {
      // Retired here first: the bus's echo of the update then finds no subscriber here to notify twice.
      await subscriptions()?.retire(uri);
      modern.notify.resourceUpdated(uri);
      modern.notify.resourcesChanged();
      legacy.broadcast({ method: 'notifications/resources/list_changed' });
    },
    workflowChanged(change) {
      // A just-minted handle has no subscriber anywhere yet: publishing would only reach a listen stream
      // opened after this result, late (through the bus), as a change that did not happen after it.
      if (!change.minted) changed(change.uri);
    },
    stop() {
      stopShared?.();
      stopInvalidations();
      stopToolsChanged();
      stopSkillsChanged?.();
    },
  };
}
