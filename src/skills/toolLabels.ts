import type { Surface } from '../surface/compileSurface.js';

/**
 * How a skill names each canonical tool of `surface`: a flat tool by its exposed name (`cart.pay`), an action of
 * a grouped tool by the call that selects it (`platform` with `action: "users.list"`), so that a model can
 * make the call from the text alone. Pure.
 */
export function toolLabels(surface: Surface): (canonical: string) => string {
  const labels = new Map<string, string>();
  for (const [exposed, route] of surface.routes) {
    if (route.kind === 'flat') {
      labels.set(route.tool.name, `\`${exposed}\``);
      continue;
    }
    for (const [key, tool] of route.actions)
      labels.set(tool.name, `\`${exposed}\` with \`${route.discriminator}: "${key}"\``);
  }
  return (canonical) => labels.get(canonical) ?? `\`${canonical}\``;
}
