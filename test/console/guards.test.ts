import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFusionApp } from '../../src/index.js';
import { bulkyRegistry } from './fixtures/bulky.js';

const TOKEN = 'guards-token';
const ask = (app: ReturnType<typeof createFusionApp>, route: string, host: string | undefined) =>
  app.fetch(
    new Request(`http://127.0.0.1/console${route}${route.includes('?') ? '&' : '?'}token=${TOKEN}`, {
      headers: host === undefined ? {} : { host },
    }),
    { peer: '127.0.0.1' },
  );

describe('the dev console against other pages', () => {
  it('refuses a Host it is not served as on every route (DNS rebinding), with 403 and a text saying what to do', async () => {
    const app = createFusionApp(bulkyRegistry(), {
      allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'dev.internal'],
      devConsole: { token: TOKEN },
    });
    try {
      for (const route of ['', '/events', '/view?key=x', '/transcript?key=x', '/nowhere'])
        for (const host of ['evil.example', 'evil.example:3000', '127.0.0.1.evil.example', undefined]) {
          const response = await ask(app, route, host);
          expect(response.status, `${route} as ${host}`).toBe(403);
          expect(await response.text()).toMatch(
            /^Forbidden: the Host header ".*" is not one this server answers as \(DNS rebinding protection\); open the console at http:\/\/127\.0\.0\.1:<port>\/console, or add the name to the server's allowedHosts\.\n$/,
          );
        }
      for (const host of ['127.0.0.1:3000', 'localhost:8080', '[::1]:3000', 'LOCALHOST', 'dev.internal:3000']) {
        const response = await ask(app, '', host);
        expect(response.status, host).toBe(200);
        await response.text();
      }
    } finally {
      await app.close();
    }
  });

  it('serves the page with a Content-Security-Policy that allows its own inline script and style only, by hash', async () => {
    const app = createFusionApp(bulkyRegistry(), { devConsole: { token: TOKEN } });
    try {
      const response = await ask(app, '', '127.0.0.1');
      const html = await response.text();
      const csp = response.headers.get('content-security-policy')!;
      const inline = (tag: string): string[] =>
        [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
      const [script] = inline('script');
      const [style] = inline('style');
      expect(inline('script')).toHaveLength(1);
      expect(inline('style')).toHaveLength(1);
      expect(script!.length).toBeGreaterThan(1_000);
      expect(csp).toBe(
        [
          "default-src 'none'",
          `script-src ${hash(script!)}`,
          `style-src ${hash(style!)}`,
          "connect-src 'self'",
          'img-src data:',
          "base-uri 'none'",
          "form-action 'none'",
          "frame-ancestors 'none'",
        ].join('; '),
      );
      expect(html).not.toMatch(/\son\w+=|style="/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await app.close();
    }
  });
});
