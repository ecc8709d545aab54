/**
 * Imports a package of the peers' own manifest (bench/peers/package.json): a dynamic import from this file
 * resolves in bench/peers/node_modules, so the library's manifest never lists them and the type checker never
 * needs them installed.
 */
export function load<T>(name: string): Promise<T> {
  return import(name) as Promise<T>;
}
