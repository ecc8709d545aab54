import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let page: string | undefined;

/**
 * The console's page: page/console.html with page/console.css and page/console.js inlined (one request, no
 * CDN). The files ship in the package beside this module (the build copies them into dist/).
 */
export function consolePage(): string {
  page ??= (() => {
    const read = (name: string): string => readFileSync(fileURLToPath(new URL(`./page/${name}`, import.meta.url)), 'utf8');
    return read('console.html')
      .replace('/*! console.css */', () => read('console.css'))
      .replace('/*! console.js */', () => read('console.js'));
  })();
  return page;
}
