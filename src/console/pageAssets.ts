let page: Promise<string> | undefined;

/**
 * The console's page: page/console.html with page/console.css and page/console.js inlined (one request, no
 * CDN). The files ship in the package beside this module (the build copies them into dist/); `node:fs` is
 * loaded only here, when the page is first asked for, so that bundles for runtimes without it still load.
 */
export function consolePage(): Promise<string> {
  page ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    // Beside this module (src/, dist/), or beside the ES build's copy when this module is bundled (a CommonJS bundle in dist/cjs/).
    const read = (name: string): Promise<string> =>
      readFile(new URL(`./page/${name}`, import.meta.url), 'utf8').catch(() =>
        readFile(new URL(`../console/page/${name}`, import.meta.url), 'utf8'),
      );
    const [html, css, js] = await Promise.all([read('console.html'), read('console.css'), read('console.js')]);
    return html.replace('/*! console.css */', () => css).replace('/*! console.js */', () => js);
  })();
  return page;
}
