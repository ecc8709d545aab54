import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { devTokens, initFusion } from '../../src/index.js';
import { httpServer } from '../_helpers/clients.js';

/** A checkout whose every workflow tool needs `shop` (clearing also `admin`), beside an open tool and a hand-written skill for admins. */
function shop() {
  const f = initFusion();
  const fsm = f.fsm({
    id: 'checkout',
    initial: 'empty',
    states: {
      empty: { on: { ADD_ITEM: 'has_items' } },
      has_items: { on: { CHECKOUT: 'done', CLEAR: 'empty' } },
      done: { type: 'final' },
    },
  });
  const registry = f.registry().registerAll(
    f.query('help').handle(() => 'help'),
    f
      .action('cart.add_item')
      .bindState(['empty', 'has_items'], 'ADD_ITEM')
      .requireScopes('shop')
      .handle(() => 'added'),
    f
      .action('cart.checkout')
      .bindState('has_items', 'CHECKOUT')
      .requireScopes('shop')
      .handle(() => 'paid'),
    f
      .mutation('cart.clear')
      .bindState('has_items', 'CLEAR')
      .requireScopes('shop', 'admin')
      .handle(() => 'cleared'),
    f.skill('refunds').describe('How refunds are granted').requireScopes('admin').text('# Refunds\nAsk first.'),
  );
  return { registry, fsm };
}

const verifier = () => devTokens({ 'dev-reader': [], 'dev-shop': ['shop'], 'dev-admin': ['shop', 'admin'] });

async function connect(url: string, mode: 'legacy' | 'auto', token: string) {
  const client = new Client(
    { name: 'skills', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return Object.assign(client, { skills: new SkillsClient(client), [Symbol.asyncDispose]: () => client.close() });
}

const CHECKOUT = 'skill://checkout-workflow/SKILL.md';

describe('skills follow the caller’s scopes (dev tokens over HTTP, through the SDK client)', () => {
  for (const mode of ['legacy', 'auto'] as const)
    it(`${mode}: a workflow whose every tool needs a scope the caller lacks publishes no skill to it`, async () => {
      const { registry, fsm } = shop();
      await using srv = await httpServer(registry, { fsm, auth: { verifier: verifier() } });

      await using reader = await connect(srv.url, mode, 'dev-reader');
      expect(reader.skills.supported).toBe(true);
      expect((await reader.skills.list()).skills).toEqual([]);
      await expect(reader.skills.get(CHECKOUT)).rejects.toMatchObject({ code: -32602 });
      await expect(reader.readResource({ uri: CHECKOUT })).rejects.toThrow();
      expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual([]);
      // Nor its folder: to this caller there is no such directory.
      await expect(reader.skills.readDirectory('skill://checkout-workflow')).rejects.toMatchObject({ code: -32602 });

      await using shopper = await connect(srv.url, mode, 'dev-shop');
      const [entry, ...others] = (await shopper.skills.list()).skills;
      expect(others).toEqual([]);
      expect(entry!.uri).toBe(CHECKOUT);
      const text = (await shopper.skills.read(entry!)).text!;
      expect(text).toContain('`cart.checkout`');
      // A tool the caller may not use is never named, not even in its skill.
      expect(text).not.toContain('cart.clear');
      const folder = (await shopper.skills.readDirectory('skill://checkout-workflow')).resources;
      expect(folder.map((r) => r.uri)).toEqual([CHECKOUT]);
      await expect(shopper.skills.readDirectory('skill://refunds')).rejects.toMatchObject({ code: -32602 });

      await using admin = await connect(srv.url, mode, 'dev-admin');
      const listed = (await admin.skills.list()).skills.map((s) => s.uri);
      expect(listed).toEqual([CHECKOUT, 'skill://refunds/SKILL.md']);
      const full = (await admin.skills.read((await admin.skills.get(CHECKOUT)).skill)).text!;
      expect(full).toContain('- `has_items` → `empty` on `CLEAR`: call `cart.clear`');
      expect(full).not.toEqual(text);
      expect((await admin.skills.readDirectory('skill://refunds')).resources.map((r) => r.name)).toEqual(['SKILL.md']);
    });
});
