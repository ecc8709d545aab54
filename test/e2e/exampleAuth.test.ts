import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { freePort } from '../redis/redisServer.js';
import { startIssuer } from '../auth/issuer.js';
import { portAnswers } from '../_helpers/waitFor.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start with AUTH_JWKS_URL, AUTH_ISSUER and AUTH_AUDIENCE', () => {
  it('serves the example as an OAuth resource server: 401 without a token, the tools with one, in both eras', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    await using issuer = await startIssuer(url);
    const child = spawn(process.execPath, sourceChild('examples/workspace/main.ts'), {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        AUTH_JWKS_URL: issuer.jwksUrl,
        AUTH_ISSUER: issuer.issuer,
        AUTH_AUDIENCE: url,
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let log = '';
      child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      await portAnswers(port, { proc: child, log: () => log, what: 'the example' });
      const anonymous = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain(
        `resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
      );
      const metadata = (await (
        await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource: url, authorization_servers: [issuer.issuer] });
      const token = await issuer.token({ sub: 'alice', scope: 'workspace' });
      for (const mode of ['legacy', 'auto'] as const) {
        const client = new Client(
          { name: 'example-auth', version: '1' },
          mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
        );
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
          }),
        );
        expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('sprints.list');
        await client.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
