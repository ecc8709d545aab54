/** The console's page and the Content-Security-Policy it is served with. */
export interface ConsolePage {
  readonly html: string;
  /** Only the page's own inline script and style run (by hash); it talks to its own origin only. */
  readonly csp: string;
}

let page: Promise<ConsolePage> | undefined;

/**
 * The console's page: page/console.html with page/console.css, page/charts.js and page/console.js inlined
 * (one request, no CDN; the two scripts as one), and a policy that lets exactly those run (their SHA-256 hashes; no other inline script or style,
 * nothing from elsewhere, no framing). The files ship in the package beside this module (the build copies them
 * into dist/); `node:fs` is loaded only here, when the page is first asked for, so that bundles for runtimes
 * without it still load.
 */
export function consolePage(): Promise<ConsolePage> {
  page ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    // Beside this module (src/, dist/), or beside the ES build's copy when this module is bundled (a CommonJS bundle in dist/cjs/).
    const read = (name: string): Promise<string> =>
      readFile(new URL(`./page/${name}`, import.meta.url), 'utf8').catch(() =>
        readFile(new URL(`../console/page/${name}`, import.meta.url), 'utf8'),
      );
    const [html, css, js, charts] = await Promise.all(
      ['console.html', 'console.css', 'console.js', 'charts.js'].map(read),
    );
    // One inline script: the charts' module first (it defines `fusionCharts`), then the page's.
    const script = `${charts!}\n${js!}`;
    const [cssHash, jsHash] = await Promise.all([hashOf(css!), hashOf(script)]);
    const csp = [
      "default-src 'none'",
      `script-src '${jsHash}'`,
      `style-src '${cssHash}'`,
      "connect-src 'self'",
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    return {
      html: html!.replace('/*! console.css */', () => css!).replace('/*! console.js */', () => script),
      csp,
    };
  })();
  return page;
}

/** `sha256-<base64>` of `text` as UTF-8: the form a CSP source names an inline script or style by. */
async function hashOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}
